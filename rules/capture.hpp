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
#include <algorithm>

#include "position.hpp"
#include "rules_of.hpp"

namespace dtb {

// The squares from which a man of side Us would have a jump (an opponent piece next to it and an
// empty square beyond, in one of its capture directions), whatever stands on them.
// always_inline here and below: these run once per counted position, and GCC otherwise keeps them
// as calls that cost more than their bodies.
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
    if (!p.men(Us)) return 0;  // kings-only sides: spares the shifts
    return man_jump_squares<R, Us>(p) & p.men(Us);
}

// The squares, whatever stands on them, from which a piece moving in direction e over empty squares
// only (at most one step unless kings fly) comes next to one of `pieces`: for every square at once,
// by shifts.
template <class R, Dir e>
[[gnu::always_inline]] inline Bitboard squares_before(Bitboard pieces, Bitboard empty) {
    using G = typename R::Geometry;
    constexpr int kLongestSlide = std::max(G::kWidth, G::kHeight) - 2;
    Bitboard before = G::step_back(pieces, e);
    if constexpr (R::kFlyingKings)
        for (int k = 1; k < kLongestSlide; ++k) before |= G::step_back(before & empty, e);
    return before;
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
            const Bitboard lands = Rules::template king_slide<d>(v, occ);
            if (!lands) return;
            continued = true;
            const Bitboard taken = captured | bit(v);
            // When some landings can go on, the others end with fewer pieces taken, which the
            // majority rule drops: only the former are searched. When none can, each landing ends
            // the capture and is recorded without searching on from it.
            const Bitboard going_on = lands & onward_squares<d>(taken);
            for (Bitboard todo = going_on ? going_on : lands; todo;) {  // nearest landing first
                const int to = G::nearest(todo, d);
                todo &= ~bit(to);
                sink_.push_landing(to);
                if (going_on)
                    king_capture(to, d, taken);
                else
                    record(to, taken, true);
                sink_.pop_landing();
            }
        });
        if (!continued && captured) record(sq, captured, true);
    }

    // The empty squares from which a king that has taken `captured`, its last jump in direction d,
    // could take one more piece: for each direction it may take next, the squares before a piece
    // still to be taken that has an empty square beyond it, with nothing in between. Found for
    // the whole board at once with shifts, instead of a search from each landing square that
    // mostly finds nothing (the last jump of a capture). Back along d a landing meets the piece
    // just taken, so nothing, unless the rules both let the king turn back and lift that piece
    // at once.
    template <Dir d>
    Bitboard onward_squares(Bitboard captured) const {
        const Bitboard targets = opp_ & ~captured;
        const Bitboard empty = G::kPlayable & ~blockers(captured);
        Bitboard from = 0;
        for_each_dir<R::kKingDirs>([&]<Dir e>() {
            if constexpr (e != opposite(d) || (R::kKingMayReverse && R::kRemoveCapturedAtOnce))
                from |= squares_before<R, e>(targets & G::step_back(empty, e), empty);
        });
        return from;
    }

    const Position& pos_;
    Sink& sink_;
    const Bitboard opp_;
    Bitboard occ_ = 0;
    int from_ = 0;
};

}  // namespace dtb
