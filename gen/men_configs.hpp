// How the men configurations of a pair's two sides (gen/solver_state.hpp) relate: a configuration
// and its colour reversal in the other side, and the configurations of the level above that a
// plain man step reaches (White to move, as every side's positions are indexed).
#pragma once
#include <cstdint>

#include "dtb/index/slice_index.hpp"
#include "dtb/rules/position.hpp"
#include "dtb/rules/rules_of.hpp"

namespace dtb::gen {

// The men of configuration mc of index.
template <class R>
void men_of_config(const SliceIndex<R>& index, std::uint64_t mc, Bitboard& white_men, Bitboard& black_men) {
    const Position p = index.unrank(mc * index.kings_per_config());
    white_men = p.men(Color::white);
    black_men = p.men(Color::black);
}

// The configuration of `next` (the other side's index) holding the colour reversal of
// configuration mc of index.
template <class R>
std::uint64_t reversed_config(const SliceIndex<R>& index, std::uint64_t mc, const SliceIndex<R>& next) {
    using G = typename R::Geometry;
    Bitboard white_men, black_men;
    men_of_config(index, mc, white_men, black_men);
    return next.men_config_of(G::rotate(black_men), G::rotate(white_men));
}

// f(configuration of `next`) for each plain step of a white man of configuration mc of index
// that neither promotes nor keeps its row (a Turkish sideways step stays in the level), blocked
// by men only (a king on the square blocks some placements, not all): the colour-reversed
// configuration after the step.
template <class R, class F>
void for_each_config_after_man_step(const SliceIndex<R>& index, std::uint64_t mc, const SliceIndex<R>& next, F&& f) {
    using G = typename R::Geometry;
    Bitboard white_men, black_men;
    men_of_config(index, mc, white_men, black_men);
    for (int from : bits(white_men))
        for (Dir d : R::kManStepDirs) {
            const int to = G::neighbor(from, d);
            if (to < 0 || ((white_men | black_men) & bit(to))) continue;
            if ((RulesOf<R>::promotion_row(Color::white) & bit(to)) || G::rank(to) == G::rank(from)) continue;
            const Bitboard moved = white_men ^ bit(from) ^ bit(to);
            f(next.men_config_of(G::rotate(black_men), G::rotate(moved)));
        }
}

}  // namespace dtb::gen
