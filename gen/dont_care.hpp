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

}  // namespace dtb::gen
