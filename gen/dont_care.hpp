// "Don't care" entries: a position whose side to move has a capture is decided by its captures
// alone (all into smaller slices), so its stored value is never read; every reader resolves it
// from the captures. The writer fills such entries with the value of the nearest quiet position
// before it, which lengthens runs and lets zstd compress the tables better. Which positions must
// capture, the solver's seed pass records (SliceSolver::Side::capture).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace dtb::gen {

// Replaces don't-care entries by the last quiet value before them (the first quiet value for
// a leading run).
inline void fill_dont_care(std::vector<std::uint16_t>& values, std::span<const std::uint8_t> is_capture) {
    std::uint16_t last = 0;
    bool seen = false;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!is_capture[i]) {
            if (!seen) {
                for (std::size_t j = 0; j < i; ++j) values[j] = values[i];
                seen = true;
            }
            last = values[i];
        } else if (seen) {
            values[i] = last;
        }
    }
}

// WDL's fill: a run of don't-care entries between two equal quiet values takes that value; a
// run between different ones takes `between` (draw: the value most runs of a WDL table are made
// of); a leading run takes the first quiet value, a trailing run the last. 3.9% smaller than
// fill_dont_care on the international 2-5 WDL tables (BENCHMARKS.md, "Generator").
inline void fill_dont_care_between(std::vector<std::uint16_t>& values, std::span<const std::uint8_t> is_capture,
                                   std::uint16_t between) {
    const std::size_t n = values.size();
    std::size_t i = 0;
    bool seen = false;
    std::uint16_t before = 0;
    while (i < n) {
        if (!is_capture[i]) {
            before = values[i];
            seen = true;
            ++i;
            continue;
        }
        std::size_t end = i;  // the run is [i, end)
        while (end < n && is_capture[end]) ++end;
        if (seen || end < n) {  // a table of don't-cares only keeps its values
            const std::uint16_t fill = !seen        ? values[end]
                                       : end == n   ? before
                                       : values[end] == before ? before
                                                               : between;
            for (std::size_t j = i; j < end; ++j) values[j] = fill;
        }
        i = end;
    }
}

}  // namespace dtb::gen
