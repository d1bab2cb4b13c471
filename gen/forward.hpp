// White's moves split the way the generator's forward passes need them. Every position the
// generator handles has White to move, and most of its moves are plain king moves that stay in
// the slice and need only be counted: building them as Move objects (movegen.hpp) costs more
// than everything else a seed pass does with them. So:
//   generate_captures   the captures, as Move objects (all of them leave the slice);
//   count_king_steps    the number of plain king moves (popcounts of king slides, as count.hpp);
//   for_each_king_step  the plain king moves, one by one (rarely needed);
//   for_each_man_step   the plain man moves, one by one (few, and each may leave the slice).
// When generate_captures finds none, the plain moves are exactly the king steps and man steps,
// the same set generate_moves lists.
#pragma once
#include <cassert>

#include "rules/movegen.hpp"

namespace dtb::gen {

// Collects what the generator needs of White's captures: their effects (origin, destination,
// captured set, promotion), with the majority rule and one move per effect (CaptureMode::unique,
// as MoveGenerator's sink), but not their landing squares, which no pass reads: a capture of a
// 6-piece kings slice is recorded in the seed pass about once per position, and copying its
// path was a good part of the cost of recording it.
class CaptureEffects {
public:
    CaptureEffects(MoveList& out, Bitboard promotion_row) : out_(out), promotion_row_(promotion_row) {}
    void push_landing(int) {}
    void pop_landing() {}
    void record(int from, int to, Bitboard captured, int n, bool by_king) {
        if (n < best_) return;
        if (n > best_) {
            best_ = n;
            out_.clear();
        }
        // One jump is fixed by its landing square, so only longer captures can repeat.
        if (n > 1)
            for (const Move& o : out_)
                if (o.from == from && o.to == to && o.captured == captured) return;
        Move& m = out_.emplace_back();
        m.captured = captured;
        m.from = static_cast<std::uint8_t>(from);
        m.to = static_cast<std::uint8_t>(to);
        m.promotes = !by_king && (promotion_row_ & bit(to)) != 0;
        m.by_king = by_king;
    }

private:
    MoveList& out_;
    Bitboard promotion_row_;
    int best_ = 0;
};

// The captures of White (the side to move) in `moves`, as generate_moves lists them in unique
// mode but without their landings (num_landings 0); returns false (and leaves `moves` empty)
// when there is none.
template <class R>
bool generate_captures(const Position& p, MoveList& moves) {
    assert(p.side_to_move == Color::white);
    moves.clear();
    const Bitboard starters = capture_starters<R, Color::white>(p);
    if (!starters) return false;
    CaptureEffects sink(moves, RulesOf<R>::promotion_row(Color::white));
    CaptureSearch<R, Color::white, CaptureEffects>(p, sink).run(starters);
    return !moves.empty();
}

template <class R>
int count_king_steps(const Position& p) {
    const Bitboard occupied = p.occupied();
    int n = 0;
    for (int k : bits(p.kings_of(Color::white)))
        for_each_dir<R::kKingDirs>(
            [&]<Dir d>() { n += popcount(RulesOf<R>::template king_slide<d>(k, occupied)); });
    return n;
}

template <class R, class F>
void for_each_king_step(const Position& p, F&& f) {
    const Bitboard occupied = p.occupied();
    for (int from : bits(p.kings_of(Color::white))) {
        for_each_dir<R::kKingDirs>([&]<Dir d>() {
            for (int to : bits(RulesOf<R>::template king_slide<d>(from, occupied))) {
                Move m;
                m.from = static_cast<std::uint8_t>(from);
                m.to = static_cast<std::uint8_t>(to);
                m.by_king = true;
                f(m);
            }
        });
    }
}

template <class R, class F>
void for_each_man_step(const Position& p, F&& f) {
    using G = typename R::Geometry;
    const Bitboard empty = G::kPlayable & ~p.occupied();
    const Bitboard men = p.men(Color::white);
    for_each_dir<R::kManStepDirs>([&]<Dir d>() {
        for (int to : bits(G::step(men, d) & empty)) {
            Move m;
            m.from = static_cast<std::uint8_t>(G::neighbor(to, opposite(d)));
            m.to = static_cast<std::uint8_t>(to);
            m.promotes = (RulesOf<R>::promotion_row(Color::white) & bit(to)) != 0;
            f(m);
        }
    });
}

}  // namespace dtb::gen
