// What a pair of a run is, counted rather than enumerated: its entries and positions, its
// advancement levels and the largest of them, the memory to solve it whole and by levels (the
// formulas of gen/pair_memory.hpp), and the disk its tables take (bits per position measured at 5
// and 6 pieces). An 8-piece pair has some 10^10 men configurations, so nothing here visits them:
// every count is a product of binomials or a small sum over the board's rows (pair_figures.cpp).
// `dtb plan` and docs/SCALING.md read these.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dtb/gen/pair_schedule.hpp"
#include "dtb/index/material.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::gen {

// One slice (White to move) as its index counts it (index/slice_index.hpp).
struct SliceCounts {
    std::uint64_t entries = 0;           // SliceIndex::size()
    std::uint64_t positions = 0;         // SliceIndex::num_positions()
    std::uint64_t kings_per_config = 0;  // SliceIndex::kings_per_config()
    // Entries per advancement level (index = the level's advancement, SliceIndex::advancement).
    std::vector<std::uint64_t> entries_by_advancement;
};
// Throws std::invalid_argument when m does not fit variant v (as SliceIndex does).
SliceCounts slice_counts(VariantId v, const Material& m);

// Bytes of a pair's tables on disk, by metric (estimates: docs/SCALING.md, "Disk").
struct DiskBytes {
    std::uint64_t wdl = 0, dtw = 0, dtc = 0;
    std::uint64_t rule_tables = 0;  // fmjd and ffjd (international)
    std::uint64_t all() const { return wdl + dtw + dtc + rule_tables; }
};

struct PairFigures {
    Material material;                         // the pair's first slice in generation order (its name names the pair)
    std::uint64_t entries = 0, positions = 0;  // both slices
    std::uint64_t kings_per_config = 0;
    int levels = 0;                   // advancement levels holding entries (1 without men)
    std::uint64_t largest_level = 0;  // entries of the largest (SliceSolver::largest_level)
    std::uint64_t input_bytes = 0;    // finished slices held while it is solved (input_bytes)
    std::uint64_t whole_bytes = 0;    // to solve it whole (PairNeeds::whole_bytes)
    bool level_by_blocks = false;     // level_bytes is by blocks, cheaper than by levels
    std::uint64_t level_bytes = 0;    // by levels (PairNeeds::level_bytes); 0: cannot be
    std::vector<std::size_t> inputs;  // the pairs it reads, as indices in the list
    DiskBytes disk;
};

// Every pair of variant v up to max_pieces (2 to kMaxPieces), in generation order; bad_input for a
// piece count out of range. Fast at 8 pieces (a few milliseconds per pair).
Expected<std::vector<PairFigures>> pair_figures(VariantId v, int max_pieces);

// What the schedule needs of a pair (PairNeeds), none complete.
std::vector<PairNeeds> needs_of(const std::vector<PairFigures>& figures);

}  // namespace dtb::gen
