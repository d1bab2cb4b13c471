// A move: origin, destination, the pieces it captures and, for captures, every landing square.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "bitboard.hpp"
#include "position.hpp"

namespace dtb {

// International draughts has at most 20 opponent pieces, so at most 20 jumps in one capture.
inline constexpr int kMaxLandings = 24;

struct Move {
    Bitboard captured = 0;          // opponent pieces removed by the move
    std::uint8_t from = 0;          // bit of the origin square
    std::uint8_t to = 0;            // bit of the destination square
    std::uint8_t num_landings = 0;  // jumps in a capture (0 for a plain move)
    bool promotes = false;          // a man ends on its promotion row
    bool by_king = false;
    std::array<std::uint8_t, kMaxLandings> landings{};  // landing square of each jump

    bool is_capture() const { return captured != 0; }
    int num_captured() const { return popcount(captured); }
    // Same move in the "unique" sense of RULES.md: origin, destination and captured set.
    bool same_effect(const Move& o) const { return from == o.from && to == o.to && captured == o.captured; }
};

// Reused across calls so that generation allocates only while it grows.
using MoveList = std::vector<Move>;

// Copy-make: the position after `m`. The captured pieces go first: where they are removed as
// they are jumped (Turkish), a king may end its capture on a square one of them stood on.
inline Position make_move(const Position& p, const Move& m) {
    Position r = p;
    const int us = idx(p.side_to_move), them = 1 - us;
    r.pieces[them] &= ~m.captured;
    r.kings &= ~m.captured;
    r.pieces[us] = (r.pieces[us] & ~bit(m.from)) | bit(m.to);
    if (m.by_king) r.kings = (r.kings & ~bit(m.from)) | bit(m.to);
    if (m.promotes) r.kings |= bit(m.to);
    r.side_to_move = ~p.side_to_move;
    return r;
}

}  // namespace dtb
