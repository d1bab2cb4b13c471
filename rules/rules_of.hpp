// A variant's rules seen from one side: directions turned for Black, promotion and back rows, and
// the king's reach along one direction. Shared by move generation, move counting and FEN checks.
#pragma once
#include "color.hpp"
#include "direction.hpp"
#include "geometry.hpp"

namespace dtb {

template <class R>
struct RulesOf {
    using G = typename R::Geometry;
    static constexpr Dir for_side(Dir d, Color c) { return c == Color::white ? d : rotated(d); }
    static constexpr Bitboard promotion_row(Color c) {
        return c == Color::white ? G::rank_mask(G::kHeight - 1) : G::rank_mask(0);
    }
    static constexpr Bitboard back_row(Color c) { return promotion_row(~c); }

    // The squares a king on `sq` could reach in direction d on an empty board: the whole ray for a
    // flying king, one square otherwise.
    template <Dir d>
    static constexpr Bitboard king_reach(int sq) {
        if constexpr (R::kFlyingKings)
            return G::ray(sq, d);
        else
            return G::step(bit(sq), d);
    }
    // The empty squares a king on `sq` can slide to in direction d: its reach cut off at the first
    // occupied square. Also where a king lands beyond a victim on `sq`.
    template <Dir d>
    static constexpr Bitboard king_slide(int sq, Bitboard occupied) {
        Bitboard r = king_reach<d>(sq);
        if constexpr (R::kFlyingKings) {
            const Bitboard blockers = r & occupied;
            if (blockers) r &= ~G::ray(G::nearest(blockers, d), d);
        }
        return r & ~occupied;
    }
};

}  // namespace dtb
