// Where a run stands after each pair it generates, with how long the rest would take at the rate
// of the pairs generated so far: a 6-piece run takes hours, and its progress line shows only the
// current pass. The rate is a rough guide: pairs differ several times in speed (BENCHMARKS.md).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

namespace dtb::gen {

// A duration as H:MM:SS.
inline std::string clock_time(double seconds) {
    const auto s = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

struct RunProgress {
    std::uint64_t positions_done = 0;  // positions of the pairs generated
    double seconds = 0;                // their slice lines' wall time (the checks of present pairs left out)
    std::uint64_t positions_left = 0;  // positions of the pairs not reached yet, present or not
    std::string line(std::size_t pairs_reached, std::size_t pairs, int present, int generated) const {
        const double rate = seconds > 0 ? positions_done / seconds : 0;
        std::string out = "run: " + std::to_string(pairs_reached) + " of " + std::to_string(pairs) + " pairs done (" +
                          std::to_string(present) + " present, " + std::to_string(generated) + " generated); " +
                          std::to_string(positions_done) + " positions generated in " + clock_time(seconds);
        char rate_text[48];
        std::snprintf(rate_text, sizeof rate_text, " (%.2f M/s); ", rate / 1e6);
        out += rate_text;
        if (pairs_reached == pairs) return out + "nothing left";
        const double share = 100.0 * positions_left / std::max<double>(positions_left + positions_done, 1);
        char left[160];
        std::snprintf(left, sizeof left, "%zu %s left (%llu positions, %.1f%%), about %s at that rate",
                      pairs - pairs_reached, pairs - pairs_reached == 1 ? "pair" : "pairs",
                      static_cast<unsigned long long>(positions_left), share,
                      rate > 0 ? clock_time(positions_left / rate).c_str() : "?");
        return out + left;
    }
};

}  // namespace dtb::gen
