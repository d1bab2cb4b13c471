// Statistics of a folder of tables (`dtb stats`), per slice and side to move: how many positions,
// how many won, drawn and lost (all of them, and those where the side to move has no capture),
// the longest win and loss in DTW and in DTC with the first such position, and the bytes on disk.
//
// Positions where the side to move has a capture are "don't care" in the files; they are counted
// with their values resolved from the captures (verify::FullTables does that), like every reader.
//
// Only White-to-move tables exist. A slice X with Black to move is served by the table of
// mirror(X): its position i, colour-reversed, is position i of (X, Black). So one pass over the
// table of T yields both (T, White) and (mirror(T), Black); "the first position" is the smallest
// index in the table that serves the slice, and the bytes of (X, Black) are those of the three
// files of mirror(X).
//
// Counts are of positions, not of entries: an entry of a mirror-symmetric index (Turkish) stands
// for a position and its mirror. "The first position" is the smallest index.
//
// Computation only: the tool prints (json/stats_json.hpp for --json), tests compare
// (tests/gen/reference.cpp).
#pragma once
#include <filesystem>
#include <vector>

#include "dtb/rules/expected.hpp"
#include "dtb/rules/variant.hpp"
#include "dtb/verify/slice_stats.hpp"

namespace dtb::verify {

// Largest slice looked for in a folder: far beyond what can be generated.
inline constexpr int kStatsMaxPieces = 12;

// Every slice with a table in `dir` (or whose mirror has one), in all_materials order, White to
// move then Black. An error when a file that serves a listed slice is missing or corrupt, or when
// the folder holds no table of R. threads: of the parallel loops (0: all cores).
// Compiled for International and Turkish (table_stats.cpp).
template <class R>
Expected<std::vector<SliceStats>> table_stats(const std::filesystem::path& dir, int threads = 0);

extern template Expected<std::vector<SliceStats>> table_stats<International>(const std::filesystem::path&, int);
extern template Expected<std::vector<SliceStats>> table_stats<Turkish>(const std::filesystem::path&, int);

}  // namespace dtb::verify
