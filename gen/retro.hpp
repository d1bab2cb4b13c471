// Un-move generation: the positions from which a legal non-capture move leads to a given one.
//
// Every position the generator handles has White to move. Its predecessors had Black to move;
// they are produced colour-reversed (so with White to move again, in the mirrored slice). The
// work is done on the reversed position once: Black's un-moves in p are White's un-moves in
// reversed(p), and each predecessor is then reversed(p) with one white piece moved back.
//
// A predecessor counts only if its side to move had no capture: captures are compulsory, so from
// a position with a capture no plain move was legal. With Quiet::assume the caller promises to
// ignore predecessors that have a capture (the solver does: their values are final from the
// seed pass, since all their moves leave the slice), which saves the capture test.
// Un-promotions are not generated: they lead into the slice with one man more, which is solved
// later and reads this one as finished.
#pragma once
#include <bit>

#include "dtb/index/king_move_ranks.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/position.hpp"

namespace dtb::gen {

// kings_and_sideways_men: a level of Turkish row groups, which a man's forward move leaves and a
// sideways move does not (SliceSolver::solve_by_levels).
enum class UnmoveKinds : unsigned char { all, kings_only, men_only, kings_and_sideways_men };
enum class Quiet : unsigned char { check, assume };

// White's un-moves in base (White is the side that has just moved): unmove(from, to, king) for
// each piece on `to` that could have come from the empty square `from`, kings first (each king's
// origins in square order), then men; start_king(to) before the un-moves of each king. kinds
// keeps only the kings' (kings_only), only the men's (men_only), or the kings' and the men's
// sideways ones (kings_and_sideways_men).
template <class R, class StartKing, class Unmove>
void for_each_unmove(const Position& base, UnmoveKinds kinds, StartKing&& start_king, Unmove&& unmove) {
    using G = typename R::Geometry;
    const Bitboard occupied = base.occupied();
    const Bitboard empty = G::kPlayable & ~occupied;
    if (kinds != UnmoveKinds::men_only) {
        for (int to : bits(base.kings_of(Color::white))) {
            start_king(to);
            // A king could have come from every empty square it could move to: its rays' squares up
            // to the first piece, found with the move generator's ray masks rather than square by
            // square, and visited in square order.
            Bitboard origins = 0;
            for_each_dir<R::kKingDirs>([&]<Dir d>() { origins |= RulesOf<R>::template king_slide<d>(to, occupied); });
            for (int from : bits(origins)) unmove(from, to, true);
        }
    }
    if (kinds == UnmoveKinds::kings_only) return;
    const Bitboard back_row = RulesOf<R>::back_row(Color::white);
    for (int to : bits(base.men(Color::white))) {
        for (Dir forward : R::kManStepDirs) {
            if (kinds == UnmoveKinds::kings_and_sideways_men && dir_rank_step(forward) != 0) continue;
            const int from = G::neighbor(to, opposite(forward));
            if (from < 0 || !(empty & bit(from))) continue;
            if (R::kManNeverOnOwnBackRow && (back_row & bit(from))) continue;
            unmove(from, to, false);
        }
    }
}

// base with White's piece on `to` moved back to `from`.
inline Position unmoved(const Position& base, int from, int to, bool king) {
    Position q = base;
    q.pieces[idx(Color::white)] ^= bit(from) | bit(to);
    if (king) q.kings ^= bit(from) | bit(to);
    return q;
}

template <class R, Quiet quiet = Quiet::check, class Fn>
void for_each_predecessor(const Position& p, UnmoveKinds kinds, Fn&& fn) {
    Position base = reversed<typename R::Geometry>(p);
    base.side_to_move = Color::white;
    for_each_unmove<R>(
        base, kinds, [](int) {},
        [&](int from, int to, bool king) {
            const Position q = unmoved(base, from, to, king);
            if (quiet == Quiet::assume || !has_capture<R>(q)) fn(q);
        });
}

// The predecessors of p (as for_each_predecessor<R, Quiet::assume>) given as their ranks in
// pred_index (the slice of reversed(p)): fn(rank). King un-moves are ranked incrementally
// (index/king_move_ranks.hpp), man un-moves from scratch. Without a mirror (international) these
// are for_each_predecessor's predecessors, in its order.
//
// With a mirror (SliceIndex::kMirror, Turkish) an entry stands for a position and its mirror,
// except where the position's mirror key (its men, or its kings in a slice without men) is its
// own mirror, and the solver counts, for each entry, its moves into entries already decided: so
// an entry Y must come out exactly as many times as the stored position of Y has moves into the
// entry of p (moves to p or to its mirror when p's entry stands for both). Un-moves are generated
// from the stored side of reversed(p), and an un-move that crosses between symmetric and other
// positions is adjusted:
//  - p's position symmetric, the predecessor's not: only a predecessor that is stored as it is
//    counts (its mirror's move reaches p's mirror, a separate entry that gets its own turn);
//  - the other way round: the predecessor q and its mirror both count (q's mirror moves to p's
//    mirror, which p's entry stands for); they are one entry when q is its own mirror too.
// With men, only man un-moves can cross (king un-moves keep the men); without men every un-move
// changes the key (SliceIndex::kings_as_men), so each is placed by its white kings' mirror.
// tests/gen/retro.cpp checks this against forward move generation.
template <class R, class Fn>
void for_each_predecessor_rank(const Position& p, UnmoveKinds kinds, const SliceIndex<R>& pred_index, Fn&& fn) {
    using Index = SliceIndex<R>;
    Position base = Index::canonical(reversed<typename R::Geometry>(p));
    base.side_to_move = Color::white;
    const bool base_symmetric = Index::is_symmetric(base);
    // A predecessor ranked from scratch, with the adjustments above.
    const auto rank_unmoved = [&](const Position& q) {
        if constexpr (Index::kMirror) {
            const bool q_symmetric = Index::is_symmetric(q);
            if (base_symmetric && !q_symmetric) {
                if (!Index::is_canonical(q)) return;
            } else if (!base_symmetric && q_symmetric) {
                fn(pred_index.rank_canonical(q));
                fn(pred_index.rank(Index::mirrored(q)));
                return;
            }
        }
        fn(pred_index.rank(q));
    };
    if constexpr (Index::kMirror) {
        if (pred_index.kings_as_men()) {
            // Every un-move is a king's and changes the key. A predecessor whose white kings lie
            // below their mirror is stored as it is: ranked incrementally from base. Above: its
            // mirror is stored, ranked incrementally from the mirrored base (and, from a symmetric
            // base, it does not count). White kings that are their own mirror (rare): from scratch.
            using G = typename R::Geometry;
            const auto mirror_square = [](int s) { return std::countr_zero(G::mirror_files(bit(s))); };
            KingMoveRanks<R> direct(pred_index, base), mirror(pred_index, Index::mirrored(base));
            Bitboard others = 0, mirrored_others = 0;
            for_each_unmove<R>(
                base, kinds,
                [&](int to) {
                    direct.select(to);
                    if (!base_symmetric) mirror.select(mirror_square(to));  // read only from another base
                    others = base.kings_of(Color::white) & ~bit(to);
                    mirrored_others = G::mirror_files(others);
                },
                [&](int from, int to, bool king) {
                    const Bitboard white = others | bit(from),
                                   mirrored_white = mirrored_others | G::mirror_files(bit(from));
                    if (white < mirrored_white) {
                        fn(direct.rank(from));
                    } else if (white > mirrored_white) {
                        if (!base_symmetric) fn(mirror.rank(mirror_square(from)));
                    } else {
                        rank_unmoved(unmoved(base, from, to, king));
                    }
                });
            return;
        }
    }
    KingMoveRanks<R> ranks(pred_index, base);
    for_each_unmove<R>(
        base, kinds, [&](int to) { ranks.select(to); },
        [&](int from, int to, bool king) {
            if (king) {
                fn(ranks.rank(from));
                return;
            }
            rank_unmoved(unmoved(base, from, to, false));
        });
}

// reversed<G>(make_move(p, m)) for p with White to move, given rp = reversed<G>(p): the position
// after the move, colour-reversed, computed without reversing whole bitboards again.
template <class G>
Position reversed_after(const Position& rp, const Move& m) {
    Position r = rp;
    const int from = G::rotate_bit(m.from), to = G::rotate_bit(m.to);
    const int mover = idx(Color::black), other = idx(Color::white);
    if (m.captured) {  // first: a Turkish king may end its capture where a captured piece stood
        const Bitboard c = G::rotate(m.captured);
        r.pieces[other] &= ~c;
        r.kings &= ~c;
    }
    r.pieces[mover] = (r.pieces[mover] & ~bit(from)) | bit(to);
    if (m.by_king) r.kings = (r.kings & ~bit(from)) | bit(to);
    if (m.promotes) r.kings |= bit(to);
    r.side_to_move = Color::white;
    return r;
}

}  // namespace dtb::gen
