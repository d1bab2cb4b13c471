// The two ways a level's step of passes 2 and 4 (and the rule repair's closure) reaches the
// positions it decides: pushed along the un-moves of a frontier list (for_each_predecessor_of), or
// pulled by the moves of the candidates still undecided (pull_wins). Which one a win step takes is
// gen/win_step_cost.hpp's estimate.
#pragma once
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <string>

#include "dtb/gen/frontier.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/gen/solver_state.hpp"
#include "dtb/index/slice_index.hpp"

namespace dtb::gen {

// A bound on the moves of any indexed position (and on its un-moves): a piece has fewer than
// its four rays could hold on an empty board, and a side at most kMaxPiecesPerSide pieces
// (material_fits). Arrays of that many ranks fit on the stack.
template <class R>
constexpr int max_moves() {
    static_assert(R::kKingDirs.size() <= 4 && R::kManStepDirs.size() <= 4, "the bound counts four rays per piece");
    return R::kMaxPiecesPerSide * 4 * (std::max(R::Geometry::kWidth, R::Geometry::kHeight) - 1);
}
template <class R>
inline constexpr int kMaxMoves = max_moves<R>();

// Calls f(it, j) for the index j (in the other side) of every predecessor of every item it.
// The predecessors of an item are ranked and their entries prefetched one item ahead of their
// visit, so that the cache misses of an item's predecessors overlap with each other and with
// the un-move generation of the next item instead of following one another.
// With skip_flagged, items that carry kItemFlag are passed over.
template <class R, class Prefetch, class F>
void for_each_predecessor_of(SolverState<R>& st, const std::string& pass, const ItemList& items, UnmoveKinds kinds,
                             Prefetch&& prefetch, F&& f, bool skip_flagged = false) {
    st.loops.for_item_chunks(pass, items, [&](auto& item_at, std::uint64_t begin, std::uint64_t end) {
        std::uint64_t ranked[2][kMaxMoves<R>];
        int count[2] = {0, 0};
        Item previous{};
        typename SliceIndex<R>::MenCache men_cache[2];  // per side
        for (std::uint64_t k = begin; k <= end; ++k) {
            std::uint64_t* now = ranked[k & 1];
            int& n = count[k & 1];
            Item it{};
            n = 0;
            if (k < end && !(skip_flagged && item_flagged(item_at(k)))) {
                it = item_at(k);
                const SliceIndex<R>& pred_index = st.sides[st.other(item_side(it))].index;
                const Position p = st.sides[item_side(it)].index.unrank(item_index(it), men_cache[item_side(it)]);
                for_each_predecessor_rank<R>(p, kinds, pred_index, [&](std::uint64_t j) {
                    assert(n < kMaxMoves<R>);
                    now[n++] = j;
                });
                for (int q = 0; q < n; ++q) prefetch(item_side(it), now[q]);
            }
            if (k > begin) {
                const std::uint64_t* before = ranked[(k & 1) ^ 1];
                const int m = count[(k & 1) ^ 1];
                for (int q = 0; q < m; ++q) f(previous, before[q]);
            }
            previous = it;
        }
    });
}

// A win step pulled: every position of `candidates` still undecided (undecided(side, index))
// one of whose moves (for_each_move(position, visit)) reaches a position j of the other side
// for which wins_into(j) holds is a win: won(item). Returns the candidates still undecided
// afterwards, for the next level that pulls. The caller's step writes only the positions it
// is given, each once, and wins_into must hold only for final entries, so what a thread
// reads of another's position as it is written never matters.
template <class R, class Undecided, class Moves, class WinsInto, class Won>
ItemList pull_wins(SolverState<R>& st, const std::string& pass, const ItemList& candidates, Undecided&& undecided,
                   Moves&& for_each_move, WinsInto&& wins_into, Won&& won) {
    using G = typename R::Geometry;
    PendingAppends still_undecided(st.cache(), st.threads());
    st.loops.for_item_chunks(pass, candidates, [&](auto& item_at, std::uint64_t begin, std::uint64_t end) {
        typename SliceIndex<R>::MenCache men_cache[2];
        for (std::uint64_t k = begin; k < end; ++k) {
            const Item it = item_at(k);
            const int s = item_side(it);
            const std::uint64_t i = item_index(it);
            if (!undecided(s, i)) continue;
            const Position p = st.sides[s].index.unrank(i, men_cache[s]);
            const Position rp = reversed<G>(p);
            const SliceIndex<R>& next_index = st.sides[st.other(s)].index;
            bool wins = false;
            for_each_move(p, [&](const Move& m) {
                if (!wins) wins = wins_into(st.other(s), next_index.rank(reversed_after<G>(rp, m)));
            });
            if (wins)
                won(it);
            else
                still_undecided.add(0, it);
        }
    });
    return still_undecided.take(0);
}

}  // namespace dtb::gen
