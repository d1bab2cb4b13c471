// The generator's driver: every slice up to N pieces, in dependency order, solved and written.
#pragma once
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dtb/gen/wdl_storage.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::gen {

// The largest slices a run may be asked for, and the most threads (GenerateOptions).
inline constexpr int kMaxPieces = 8;
inline constexpr int kMaxThreads = 1024;

struct GenerateOptions {
    VariantId variant = VariantId::international;
    int max_pieces = 4;
    std::filesystem::path out_dir;
    int threads = 0;                // 0: all cores
    std::vector<std::string> only;  // slice names; empty: all
    std::uint64_t memory_mb = 0;    // 0: the machine's physical memory
    int zstd_level = 0;             // 0: the format module's default
    // Which sides' WDL tables are derived (gen/wdl_storage.hpp). compact: the smallest WDL, but a
    // WDL probe of a derived side searches one ply (BENCHMARKS.md, "Derived WDL"); balanced
    // derives only the sides where that removes most of a large pair's bytes.
    WdlStorage wdl = WdlStorage::balanced;
    std::uint64_t wdl_balanced_min_bytes = kBalancedMinBytes;  // tests lower it
    // Solve every international pair with men by advancement levels with its big arrays in
    // files in out_dir, as the generator does on its own for a pair that does not fit in memory
    // (docs/GENERATOR.md, "Memory"). The tables are the same; for tests and for machines whose
    // memory the bound overestimates.
    bool spill = false;
    // Solve every pair with men by blocks (SliceSolver::solve_by_blocks: advancement levels with
    // arrays of their own, finished levels kept compressed), as a Turkish pair that would
    // otherwise be spilled is. The tables are the same.
    bool blocks = false;
    // Solve every pair with men by blocks, its advancement levels of more than this many positions
    // split into groups of phases (gen/phase_groups.hpp); 0: split only the levels that would not
    // fit the memory bound whole. The tables are the same.
    std::uint64_t max_block_positions = 0;
    // When another run holds the output folder's lock (gen/folder_lock.hpp): wait for it
    // instead of failing with ErrorKind::busy.
    bool wait_for_lock = false;
    // Tests only (tests/gen/unwritten.cpp): a byte every new array is filled with, or -1 for none
    // (MappingCache::fill_new_arrays).
    int new_array_fill = -1;
};

struct GenerateEvents {
    // One line of information (slice done, skipped, ...). The tool prints it.
    std::function<void(const std::string&)> log;
    // Progress within a slice: slice name, pass name, done, total (positions).
    std::function<void(const std::string&, const std::string&, std::uint64_t, std::uint64_t)> progress;
};

// Where a slice's time went, in the order of its slice line: "inputs read", "solve" and its kinds
// of pass ("seed", "dtw", "dtc seed", "dtc", "other": the rest, serial work between passes
// included), "distances written", "rule tables" (variants with counting rules) and, of it,
// "rule tables written", "WDL written". Seconds each.
using PartSeconds = std::vector<std::pair<std::string, double>>;

// The parts as the slice line gives them, and the run's last line their sums: "inputs read 1.0
// s, solve 9.0 s (seed 3.0, dtw 2.0, dtc seed 0.5, dtc 2.0, other 1.5), distances written 1.0 s,
// rule tables 2.0 s (written 0.5 s<rules_detail>), WDL written 0.5 s". Absent parts are left out.
std::string describe_parts(const PartSeconds& parts, const std::string& rules_detail = "");

// What one pair's run produced: its slice line and its share of the run's summary.
struct PairOutcome {
    std::string line;
    std::uint64_t positions = 0, entries = 0, bytes = 0;
    PartSeconds parts;
};

struct GenerateSummary {
    int slices_generated = 0;
    int slices_skipped = 0;
    std::uint64_t positions = 0;  // positions the generated slices hold (both sides to move)
    std::uint64_t entries = 0;    // their table entries: fewer with a mirror index (Turkish)
    std::uint64_t bytes_written = 0;
    double seconds = 0;
    // Where the generated slices' time went: their slice lines' parts (PartSeconds), summed.
    PartSeconds part_seconds;
    // A generated pair's share: its counts, bytes and parts.
    void add_pair(const PairOutcome& pair) {
        ++slices_generated;
        positions += pair.positions;
        entries += pair.entries;
        bytes_written += pair.bytes;
        add_parts(pair.parts);
    }
    void add_parts(const PartSeconds& parts) {
        for (const auto& part : parts) {
            auto it = std::find_if(part_seconds.begin(), part_seconds.end(),
                                   [&](const auto& e) { return e.first == part.first; });
            if (it == part_seconds.end())
                part_seconds.push_back(part);
            else
                it->second += part.second;
        }
    }
};

// Errors, each with its kind: a request that makes no sense (bad_input: a slice name, a slice
// larger than max_pieces, a --memory too small for a slice), a table needed as input missing
// or corrupt (tables), another run writing the folder (busy), memory or disk that would not
// suffice or a write that failed (system). Nothing is created before the request is checked;
// slices finished before an error stay on disk, complete.
Expected<GenerateSummary> generate(const GenerateOptions& options, const GenerateEvents& events);

}  // namespace dtb::gen
