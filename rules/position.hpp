// A position: who stands where, and who is to move. Bitboards in the geometry's bit layout.
#pragma once
#include <array>
#include <cstdint>

#include "bitboard.hpp"
#include "color.hpp"

namespace dtb {

struct Position {
    std::array<Bitboard, 2> pieces{};  // by colour, men and kings
    Bitboard kings = 0;                // kings of both colours
    Color side_to_move = Color::white;

    Bitboard occupied() const { return pieces[0] | pieces[1]; }
    Bitboard of(Color c) const { return pieces[idx(c)]; }
    Bitboard men(Color c) const { return pieces[idx(c)] & ~kings; }
    Bitboard kings_of(Color c) const { return pieces[idx(c)] & kings; }
    bool operator==(const Position&) const = default;
};

// Colour reversal: the board turned 180 degrees, colours swapped, the other side to move.
// A position and its reversal have the same value for the side to move.
template <class Geometry>
Position reversed(const Position& p) {
    Position r;
    r.pieces[0] = Geometry::rotate(p.pieces[1]);
    r.pieces[1] = Geometry::rotate(p.pieces[0]);
    r.kings = Geometry::rotate(p.kings);
    r.side_to_move = ~p.side_to_move;
    return r;
}

}  // namespace dtb
