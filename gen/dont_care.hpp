// "Don't care" entries: a position whose side to move has a capture is decided by its captures
// alone (all into smaller slices), so its stored value is never read; every reader resolves it
// from the captures. The writer fills such entries so as to lengthen runs, which lets zstd
// compress the tables better. Which positions must capture, the solver's seed pass records
// (SolverSide::capture, gen/solver_state.hpp).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "dtb/gen/parallel.hpp"

namespace dtb::gen {

// Fills each run of don't-care entries from the quiet values around it: a leading run takes the
// first quiet value, a trailing run the last one, a run between two quiet values the one before
// it, unless `between` is given and the value after differs, in which case it takes `between`.
// A table of don't-cares only keeps its values.
// WDL is filled with between = draw (the value most of its runs are made of), which makes it
// smaller (BENCHMARKS.md, "Generator"). DTW and DTC without.
// Each run is filled by the chunk of the parallel pass it starts in, from the quiet entries on
// either side of it, which no fill writes: the result is the same whatever the threads.
// A part of a table is filled as the whole would be when `before` and `after` are the quiet
// values nearest outside it (none: the table ends there, or holds no quiet value that way).
inline void fill_dont_care(std::span<std::uint16_t> values, std::span<const std::uint8_t> is_capture,
                           std::optional<std::uint16_t> between = std::nullopt, int threads = 0,
                           std::optional<std::uint16_t> before = std::nullopt,
                           std::optional<std::uint16_t> after = std::nullopt) {
    const std::size_t n = values.size();
    parallel_for_chunks(
        n,
        [&](std::uint64_t begin, std::uint64_t end) {
            std::uint64_t i = begin;
            if (i > 0)  // a run that started before the chunk belongs to the chunk it started in
                while (i < end && is_capture[i] && is_capture[i - 1]) ++i;
            while (i < end) {
                if (!is_capture[i]) {
                    ++i;
                    continue;
                }
                std::uint64_t run_end = i;  // the run is [i, run_end)
                while (run_end < n && is_capture[run_end]) ++run_end;
                // The last quiet value before the run is the entry just before it.
                std::optional<std::uint16_t> fill = i > 0 ? std::optional<std::uint16_t>(values[i - 1]) : before;
                const std::optional<std::uint16_t> next =
                    run_end < n ? std::optional<std::uint16_t>(values[run_end]) : after;
                if (next) {
                    if (!fill)
                        fill = next;
                    else if (between && *next != *fill)
                        fill = between;
                }
                if (fill)
                    std::fill(values.begin() + static_cast<std::ptrdiff_t>(i),
                              values.begin() + static_cast<std::ptrdiff_t>(run_end), *fill);
                i = run_end;
            }
        },
        {}, threads);
}

}  // namespace dtb::gen
