// The statistics of one slice and side to move (`dtb stats`, verify/table_stats.hpp computes
// them): value counts, the longest wins and losses with the first position that has them, bytes.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "dtb/index/material.hpp"
#include "dtb/rules/color.hpp"

namespace dtb::verify {

// The longest distance among the positions of one value, and the first position that has it.
struct Longest {
    int plies = -1;           // -1: no position has that value
    std::uint64_t index = 0;  // the smallest index with `plies`, in the table serving the slice
    std::string fen;

    // Keeps the larger distance; on a tie the smaller index (so the result does not depend on
    // which thread saw which position first).
    void offer(int d, std::uint64_t i) {
        if (d > plies || (d == plies && i < index)) {
            plies = d;
            index = i;
        }
    }
    void merge(const Longest& o) {
        if (o.plies >= 0) offer(o.plies, o.index);
    }
};

struct SliceStats {
    Material material;  // as named: White's pieces first
    Color side_to_move = Color::white;
    std::uint64_t positions = 0;
    std::array<std::uint64_t, 3> count{};  // by Wdl (loss, draw, win), side to move's view
    std::array<std::uint64_t, 3> quiet{};  // the same, positions without a capture only
    Longest dtw_win, dtw_loss, dtc_win, dtc_loss;
    std::uint64_t bytes = 0;  // the three files that serve the slice
};

}  // namespace dtb::verify
