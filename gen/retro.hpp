// Un-move generation: the positions from which a legal non-capture move leads to a given one.
//
// Every position the generator handles has White to move. Its predecessors had Black to move;
// they are returned colour-reversed (so with White to move again, in the mirrored slice). A
// predecessor counts only if Black had no capture there: captures are compulsory, so from a
// position with a capture no plain move was legal. With Quiet::assume the caller promises to
// ignore predecessors that have a capture (the solver does: their values are final from the
// seed pass, since all their moves leave the slice), which saves the capture test. Un-promotions are not generated: they lead
// into the slice with one man more, which is solved later and reads this one as finished.
#pragma once
#include "rules/movegen.hpp"
#include "rules/position.hpp"

namespace dtb::gen {

enum class UnmoveKinds : unsigned char { all, kings_only };
enum class Quiet : unsigned char { check, assume };

template <class R, Quiet quiet = Quiet::check, class Fn>
void for_each_predecessor(const Position& p, UnmoveKinds kinds, Fn&& fn) {
    using G = typename R::Geometry;
    const Bitboard empty = G::kPlayable & ~p.occupied();
    auto emit = [&](int from, int to, bool king) {
        Position q = p;
        q.pieces[idx(Color::black)] ^= bit(from) | bit(to);
        if (king) q.kings ^= bit(from) | bit(to);
        q.side_to_move = Color::black;
        if (quiet == Quiet::assume || !has_capture<R>(q)) fn(reversed<G>(q));
    };
    for (int to : bits(p.kings_of(Color::black))) {
        for (Dir d : R::kKingDirs) {
            for (int from = G::neighbor(to, d); from >= 0 && (empty & bit(from)); from = G::neighbor(from, d)) {
                emit(from, to, true);
                if constexpr (!R::kFlyingKings) break;
            }
        }
    }
    if (kinds == UnmoveKinds::kings_only) return;
    const Bitboard black_back_row = RulesOf<R>::back_row(Color::black);
    for (int to : bits(p.men(Color::black))) {
        for (Dir d0 : R::kManStepDirs) {
            const Dir forward = RulesOf<R>::for_side(d0, Color::black);
            const int from = G::neighbor(to, opposite(forward));
            if (from < 0 || !(empty & bit(from))) continue;
            if (R::kManNeverOnOwnBackRow && (black_back_row & bit(from))) continue;
            emit(from, to, false);
        }
    }
}

}  // namespace dtb::gen
