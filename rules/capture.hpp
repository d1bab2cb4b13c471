// The capture search, shared by move generation (movegen.hpp) and move counting (count.hpp): one
// depth-first search over the jumps of each piece that can capture, parameterised by a sink that
// either builds Move objects or only counts them, so that both follow the same rules by
// construction (RULES.md 1 and 2, Captures). The side to move is a template parameter, so every
// direction is a constant and every step one constant shift.
//
// A sink provides:
//   push_landing(sq), pop_landing()   the landing squares of the path so far (a counter ignores
//                                     them);
//   record(from, to, captured, n, by_king)   a complete capture of n pieces: the piece cannot go
//                                     on. The sink applies the majority rule and, in unique mode,
//                                     drops repeated effects.
#pragma once
#include "position.hpp"
#include "rules_of.hpp"

namespace dtb {

// The squares from which a man of side Us would have a jump (an opponent piece next to it and an
// empty square beyond, in one of its capture directions), whatever stands on them.
// always_inline here and below: these run once per counted position, and GCC otherwise keeps them
// as calls that cost more than their bodies (about 7% more instructions in perft, callgrind).
template <class R, Color Us>
[[gnu::always_inline]] inline Bitboard man_jump_squares(const Position& p) {
    using G = typename R::Geometry;
    const Bitboard empty = G::kPlayable & ~p.occupied();
    const Bitboard opp = p.of(~Us);
    Bitboard from = 0;
    for_each_dir<R::kManCaptureDirs>([&]<Dir d0>() {
        constexpr Dir d = RulesOf<R>::for_side(d0, Us);
        from |= G::step_back(G::step_back(empty, d) & opp, d);
    });
    return from;
}

// Men of side Us that have a first jump: only they can start a man capture.
template <class R, Color Us>
Bitboard men_that_capture(const Position& p) {
    return man_jump_squares<R, Us>(p) & p.men(Us);
}

// Whether a king on `k` can jump an opponent piece (first jump only).
template <class R>
bool king_can_capture(int k, Bitboard occupied, Bitboard opp) {
    using G = typename R::Geometry;
    return any_dir<R::kKingDirs>([&]<Dir d>() {
        const Bitboard blockers = RulesOf<R>::template king_reach<d>(k) & occupied;
        if (!blockers) return false;
        const Bitboard victim = bit(G::nearest(blockers, d)) & opp;
        return (G::step(victim, d) & ~occupied) != 0;
    });
}

template <class R, Color Us>
[[gnu::always_inline]] inline Bitboard kings_that_capture(const Position& p) {
    Bitboard starters = 0;
    for (int k : bits(p.kings_of(Us)))
        if (king_can_capture<R>(k, p.occupied(), p.of(~Us))) starters |= bit(k);
    return starters;
}

// The pieces of side Us that can start a capture; empty when Us has none (and so moves quietly).
template <class R, Color Us>
Bitboard capture_starters(const Position& p) {
    return men_that_capture<R, Us>(p) | kings_that_capture<R, Us>(p);
}

template <class R, Color Us, class Sink>
class CaptureSearch {
    using G = typename R::Geometry;
    using Rules = RulesOf<R>;

public:
    CaptureSearch(const Position& p, Sink& sink) : pos_(p), sink_(sink), opp_(p.of(~Us)) {}

    // Searches from each of `starters` in ascending square order (the order moves come out in).
    void run(Bitboard starters) {
        for (int from : bits(starters)) {
            from_ = from;
            occ_ = pos_.occupied() & ~bit(from);  // the origin counts as empty
            if (pos_.kings & bit(from))
                king_capture(from, Dir::N, 0);
            else
                man_capture(from, 0);
        }
    }

private:
    // The whole state of a partial capture is the set it has taken so far, passed by value (in
    // registers, nothing to undo): the pieces still to be jumped are the opponent's others, and
    // the blockers are every piece but the origin, less the taken ones where they are removed at
    // once.
    Bitboard blockers(Bitboard captured) const {
        if constexpr (R::kRemoveCapturedAtOnce)
            return occ_ & ~captured;
        else
            return occ_;
    }
    void record(int to, Bitboard captured, bool by_king) {
        sink_.record(from_, to, captured, popcount(captured), by_king);
    }

    void man_capture(int sq, Bitboard captured) {
        const Bitboard targets = opp_ & ~captured;
        const Bitboard occ = blockers(captured);
        bool continued = false;
        for_each_dir<R::kManCaptureDirs>([&]<Dir d0>() {
            constexpr Dir d = Rules::for_side(d0, Us);
            const Bitboard victim = G::step(bit(sq), d) & targets;
            const Bitboard land = G::step(victim, d) & ~occ;
            if (!land) return;
            continued = true;
            const int to = lowest_bit(land);
            sink_.push_landing(to);
            if (R::kPromoteMidCapture && (Rules::promotion_row(Us) & land))
                king_capture(to, d, captured | victim);  // crowned at once; goes on as a king
            else
                man_capture(to, captured | victim);
            sink_.pop_landing();
        });
        if (!continued && captured) record(sq, captured, false);
    }

    // A king's capture, also that of a man crowned during its capture; `last` is the direction of
    // the previous jump, if any (captured != 0).
    void king_capture(int sq, Dir last, Bitboard captured) {
        const Bitboard targets = opp_ & ~captured;
        const Bitboard occ = blockers(captured);
        bool continued = false;
        for_each_dir<R::kKingDirs>([&]<Dir d>() {
            if (!R::kKingMayReverse && captured && d == opposite(last)) return;
            const Bitboard on_ray = Rules::template king_reach<d>(sq) & occ;
            if (!on_ray) return;
            const int v = G::nearest(on_ray, d);
            if (!(targets & bit(v))) return;
            // The landing squares lie beyond the victim, so its removal does not change them.
            Bitboard lands = Rules::template king_slide<d>(v, occ);
            if (!lands) return;
            continued = true;
            while (lands) {  // nearest landing first
                const int to = G::nearest(lands, d);
                lands &= ~bit(to);
                sink_.push_landing(to);
                king_capture(to, d, captured | bit(v));
                sink_.pop_landing();
            }
        });
        if (!continued && captured) record(sq, captured, true);
    }

    const Position& pos_;
    Sink& sink_;
    const Bitboard opp_;
    Bitboard occ_ = 0;
    int from_ = 0;
};

}  // namespace dtb
