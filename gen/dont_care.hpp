// "Don't care" entries: a position whose side to move has a capture is decided by its captures
// alone (all into smaller slices), so its stored value is never read; every reader resolves it
// from the captures. The writer fills such entries so as to lengthen runs, which lets zstd
// compress the tables better. Which positions must capture, the solver's seed pass records
// (SliceSolver::Side::capture).
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace dtb::gen {

// Fills each run of don't-care entries from the quiet values around it: a leading run takes the
// first quiet value, a trailing run the last one, a run between two quiet values the one before
// it, unless `between` is given and the value after differs, in which case it takes `between`.
// A table of don't-cares only keeps its values.
// WDL is filled with between = draw (the value most of its runs are made of): 3.9% smaller than
// without on the international 2-5 WDL tables (BENCHMARKS.md, "Generator"). DTW and DTC without.
inline void fill_dont_care(std::span<std::uint16_t> values, std::span<const std::uint8_t> is_capture,
                           std::optional<std::uint16_t> between = std::nullopt) {
    const std::size_t n = values.size();
    std::optional<std::uint16_t> before;  // the last quiet value so far
    for (std::size_t i = 0; i < n;) {
        if (!is_capture[i]) {
            before = values[i++];
            continue;
        }
        std::size_t end = i;  // the run is [i, end)
        while (end < n && is_capture[end]) ++end;
        std::optional<std::uint16_t> fill = before;
        if (end < n) {
            const std::uint16_t after = values[end];
            if (!before) fill = after;
            else if (between && after != *before) fill = between;
        }
        if (fill)
            for (std::size_t j = i; j < end; ++j) values[j] = *fill;
        i = end;
    }
}

}  // namespace dtb::gen
