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

#include "dtb/rules/movegen.hpp"

namespace dtb::gen {

// The captures of White (the side to move) in `moves`, as generate_moves lists them in unique
// mode but without their landings (num_landings 0), which no pass reads; returns false (and
// leaves `moves` empty) when there is none.
template <class R>
bool generate_captures(const Position& p, MoveList& moves) {
    assert(p.side_to_move == Color::white);
    MoveGenerator<R>(p, moves, CaptureMode::unique).generate_capture_effects();
    return !moves.empty();
}

template <class R>
int count_king_steps(const Position& p) {
    const Bitboard occupied = p.occupied();
    int n = 0;
    for (int k : bits(p.kings_of(Color::white)))
        for_each_dir<R::kKingDirs>([&]<Dir d>() { n += popcount(RulesOf<R>::template king_slide<d>(k, occupied)); });
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
