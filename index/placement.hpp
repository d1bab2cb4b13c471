// Which placements an index covers. A man never stands on its own promotion row (it would have
// been crowned: White's is the top rank H-1, Black's rank 0); where men never move backward and
// start off their back row (R::kManNeverOnOwnBackRow, Turkish), never on its own back row either.
// Pieces stand on playable squares, at most one per square. Nothing else is required: positions
// that cannot arise in a game (both sides in check of nothing, say) are still indexed.
#pragma once
#include "dtb/rules/bitboard.hpp"
#include "dtb/rules/position.hpp"

namespace dtb {

// Squares a man of colour c may stand on.
template <class R>
constexpr Bitboard men_squares(Color c) {
    using G = typename R::Geometry;
    const int promotion_rank = c == Color::white ? G::kHeight - 1 : 0;
    const int back_rank = c == Color::white ? 0 : G::kHeight - 1;
    Bitboard b = G::kPlayable & ~G::rank_mask(promotion_rank);
    if (R::kManNeverOnOwnBackRow) b &= ~G::rank_mask(back_rank);
    return b;
}

// True when the placement of p is one the index covers (the side to move is not looked at).
template <class R>
constexpr bool is_indexable(const Position& p) {
    using G = typename R::Geometry;
    const Bitboard w = p.pieces[0], b = p.pieces[1];
    if ((w & b) != 0 || ((w | b) & ~G::kPlayable) != 0 || (p.kings & ~(w | b)) != 0) return false;
    return (p.men(Color::white) & ~men_squares<R>(Color::white)) == 0 &&
           (p.men(Color::black) & ~men_squares<R>(Color::black)) == 0;
}

}  // namespace dtb
