// The rule repair: a valuation with a reference (MoveValuation::reference; the counting rules,
// whose values are the game's DTC codes or weaker) replaces passes 1-2 by a repair: only the
// positions whose exits differ from the reference's, and those whose value may depend on them,
// are seeded (gen/pass_seed.hpp) and iterated (gen/pass_dtw.hpp); every other position takes the
// reference's value.
#pragma once
#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "dtb/gen/forward.hpp"
#include "dtb/gen/frontier.hpp"
#include "dtb/gen/men_configs.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/pass_dtw.hpp"
#include "dtb/gen/pass_seed.hpp"
#include "dtb/gen/push_pull.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/gen/scope.hpp"
#include "dtb/gen/solver_state.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/value.hpp"

namespace dtb::gen {

template <class R>
class RuleRepair {
  public:
    // Sizes the per-configuration decisions of config_like_reference for the solver's sides.
    void start(const SolverState<R>& st) {
        for (const SolverSide<R>& sd : st.sides) config_like_.emplace_back(sd.index.num_men_configs(), -1);
    }

    // Solves a scope from MoveValuation::reference: the values are the reference's except at positions
    // whose exits differ (dirty: a win's exit drawn, or a loss's) and, backwards along king moves, at positions whose
    // value may depend on one that changes: a loss depends on every successor, a win on the
    // successors that are its quickest (its threshold less one). Since values only weaken, a win
    // keeps its value while one of its quickest successors keeps its own, a loss while all
    // do, and a draw stays a draw (by induction on the threshold). The positions that may
    // change are then solved as usual, with king moves into positions that keep their value
    // taken as exits; the un-moves of the iteration skip the others, whose values are final.
    // level_above: the level solved before the scope's, the one its man moves reach (null when
    // there is none).
    void repair(SolverState<R>& st, const Scope& scope, const Scope* level_above) {
        static_assert(!SliceIndex<R>::kRowGroups, "man moves must leave their level (no sideways moves)");
        assert(st.valuation.prepared && !st.valuation.man_moves_inside);
        const auto& ref = *st.valuation.reference;
        // The reference's values, and the dirty positions, marked open (kValueUnknown).
        PendingAppends appends(st.cache(), st.threads());
        const auto reference = [&ref](int s) -> const PairArray<ValueCode>& { return reference_of(ref, s); };
        st.loops.for_scope("repair seed", scope, [&](int s, std::uint64_t i) {
            SolverSide<R>& sd = st.sides[s];
            const ValueCode c = reference(s)[i];
            sd.value[i] = c;
            if (is_draw(c) || c == loss_in(0)) return;  // a draw stays one; loss_in(0) has no move
            sd.capture[i] = st.valuation.prepared(s, i).capture;
            if (!ref.exits_like(s, i)) {
                sd.value[i] = kValueUnknown;
                appends.add(0, make_item(s, i));
            }
        });
        mark_man_moves_unlike_reference(st, scope, level_above, appends);
        LevelBuckets rounds(st.cache());
        appends.flush_into(rounds);
        // Closure along king un-moves, round by round; every position met is kept in `all`.
        // A position re-solved costs several times what it costs in a full solve (its closure,
        // then king moves generated forwards and ranked one by one), so when the closure grows
        // past an eighth of the scope, the scope is solved in full instead, which overwrites every
        // value.
        std::uint64_t scope_size = 0;
        for (const Range& r : scope) scope_size += r.end - r.begin;
        const std::uint64_t limit = scope_size / 8;
        ItemList all(st.cache());
        for (std::size_t round = 0; !rounds.peek(round).empty(); ++round) {
            if (ref.fall_back && all.size() + rounds.peek(round).size() > limit) {
                ++fell_back_;
                seed_from_exits(st, scope);
                iterate_dtw(st, scope);
                return;
            }
            auto prefetch_value = [&](int s, std::uint64_t j) {
                __builtin_prefetch(&st.sides[st.other(s)].value[j], 1);
            };
            for_each_predecessor_of(
                st, "repair closure", rounds.peek(round), UnmoveKinds::kings_only, prefetch_value,
                [&](Item it, std::uint64_t j) {
                    const int pred = st.other(item_side(it));
                    const ValueCode cp = reference(pred)[j];
                    const ValueCode cu = reference(item_side(it))[item_index(it)];
                    if (!is_loss(cp) && !(is_win(cp) && is_loss(cu) && distance_of(cu) + 1 == distance_of(cp))) return;
                    if (st.sides[pred].capture[j]) return;  // its captures alone decide it
                    std::atomic_ref<ValueCode> pv(st.sides[pred].value[j]);
                    ValueCode expected = cp;
                    if (pv.compare_exchange_strong(expected, kValueUnknown)) appends.add(round + 1, make_item(pred, j));
                });
            appends.flush_into(rounds);
            all.splice(rounds.at(round));
        }
        repaired_ += all.size();
        // Seeds of the positions that may change: their exits and their king moves into
        // positions that keep their value; king moves into open ones are counted. Counts are
        // written in a second pass, so that every position stays recognisably open meanwhile.
        std::vector<std::uint8_t> inside(all.size());
        st.loops.for_item_chunks("repair exits", all, [&](auto& item_at, std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t k = begin; k < end; ++k) {
                const Item it = item_at(k);
                const int s = item_side(it);
                const std::uint64_t i = item_index(it);
                const Position p = st.sides[s].index.unrank(i);
                PreparedSeed seed = prepared_seed(st, s, i, p);
                if (seed.capture) {
                    st.sides[s].exit[i] = seed.best_elsewhere;
                    inside[k] = 0;
                    continue;
                }
                const Position rp = reversed<typename R::Geometry>(p);
                const SolverSide<R>& next_side = st.sides[st.other(s)];
                // Every king move ranked and its entry prefetched first, then read: the misses of
                // one position's moves overlap instead of following one another.
                std::uint64_t next[kMaxMoves<R>];
                int n = 0;
                for_each_king_step<R>(p, [&](const Move& m) {
                    assert(n < kMaxMoves<R>);
                    next[n] = next_side.index.rank(reversed_after<typename R::Geometry>(rp, m));
                    __builtin_prefetch(&next_side.value[next[n]]);
                    ++n;
                });
                int open = 0;
                for (int q = 0; q < n; ++q) {
                    const ValueCode v = next_side.value[next[q]];
                    if (is_open(v))
                        ++open;
                    else
                        seed.best_elsewhere = better(seed.best_elsewhere, value_one_ply_before(v));
                }
                st.sides[s].exit[i] = seed.best_elsewhere;
                inside[k] = static_cast<std::uint8_t>(open);
            }
        });
        DtwBuckets<R> b(st.cache(), st.threads());
        st.loops.for_item_chunks("repair bucket", all, [&](auto& item_at, std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t k = begin; k < end; ++k) {
                const Item it = item_at(k);
                SolverSide<R>& sd = st.sides[item_side(it)];
                const std::uint64_t i = item_index(it);
                // Every position here has a move (loss_in(0) never changes).
                sd.value[i] = inside[k] == 0 ? sd.exit[i] : open_code(inside[k]);
                b.add(st, item_side(it), i);
            }
        });
        st.wins.clear();
        st.losses.clear();
        st.exit_wins.clear();
        b.flush_into(st);
        iterate_levels(st);
        all.for_each([&](Item it) {
            ValueCode& v = st.sides[item_side(it)].value[item_index(it)];
            if (is_open(v)) v = kValueDraw;
        });
    }

    // Whether a man move into any position of men configuration mc of side s is worth what it
    // is in the reference (MoveValuation::reference; the configuration's values final). Decided once
    // per configuration (two threads may both decide it: the same answer). Also what a valuation's
    // MoveValuation::known asks of the configurations a phase's man moves reach.
    bool config_like_reference(const SolverState<R>& st, int s, std::uint64_t mc) {
        std::atomic_ref<signed char> known(config_like_[static_cast<std::size_t>(s)][mc]);
        signed char k = known.load(std::memory_order_relaxed);
        if (k < 0) {
            const auto& ref = *st.valuation.reference;
            const std::uint64_t kpc = st.sides[s].index.kings_per_config();
            const ValueCode* solved = st.sides[s].value.run(mc, kpc);
            const ValueCode* reference = reference_of(ref, s).run(mc, kpc);
            bool all = true;
            for (std::uint64_t x = 0; x < kpc && all; ++x) all = ref.same_exit(solved[x], reference[x]);
            k = all ? 1 : 0;
            known.store(k, std::memory_order_relaxed);
        }
        return k == 1;
    }

    // Positions re-solved, both sides; the others took the reference's value, except in the
    // scopes solved in full because their closure grew too large.
    std::uint64_t repaired_positions() const { return repaired_; }
    std::uint64_t scopes_solved_in_full() const { return fell_back_; }

  private:
    // The reference's values of side s.
    static const PairArray<ValueCode>& reference_of(const MoveValuation::Reference& ref, int s) {
        return *ref.values[static_cast<std::size_t>(s)];
    }
    // The positions of the scope (one advancement level, or part of one) that have a plain man
    // move worth something else than in the reference, marked open like the dirty ones of
    // repair(): such a move leads to the level above, final by now, into a position whose value
    // is not worth there what the reference's is (MoveValuation::Reference::same_exit). They are found
    // from those positions, by man un-moves, instead of by every position's man moves: a few
    // percent of the level above differ, and looking each man move up would be two cache misses
    // into the arrays, which by levels are spilled to files. The level above is read in order, and a configuration all
    // worth the same (config_like_reference) is not read at all. A position with a capture is decided by its captures:
    // its man moves do not count (repair set its capture flag before).
    void mark_man_moves_unlike_reference(SolverState<R>& st, const Scope& scope, const Scope* level_above,
                                         PendingAppends& appends) {
        using G = typename R::Geometry;
        // No level above (the most advanced level, or a scope without man moves): nothing to find.
        if (scope.empty() || !level_above) return;
        const auto& ref = *st.valuation.reference;
        // The configurations of the scope, per side (the rest of its level was copied), marked
        // for the time of this call and cleared at its end: the cost stays that of the scope (a
        // slice without kings has millions of configurations of one position each).
        if (in_scope_.empty())
            for (const SolverSide<R>& sd : st.sides) in_scope_.emplace_back(sd.index.num_men_configs(), 0);
        const auto mark_scope = [&](char on) {
            for (const Range& r : scope) {
                const std::uint64_t kpc = st.sides[r.side].index.kings_per_config();
                std::fill(
                    in_scope_[static_cast<std::size_t>(r.side)].begin() + static_cast<std::ptrdiff_t>(r.begin / kpc),
                    in_scope_[static_cast<std::size_t>(r.side)].begin() + static_cast<std::ptrdiff_t>(r.end / kpc), on);
            }
        };
        mark_scope(1);
        // The configurations of the level above that are not all alike: of those the scope's man
        // moves reach, where the scope is a small part of its level (a group of phases), else of
        // all. (The lists are kept from level to level: made afresh, each level's would come in
        // freshly faulted pages.)
        std::vector<std::pair<int, std::uint64_t>>& above = above_configs_;
        above.clear();
        std::uint64_t scope_configs = 0, above_configs = 0;
        for (const Range& r : scope) scope_configs += (r.end - r.begin) / st.sides[r.side].index.kings_per_config();
        for (const Range& r : *level_above)
            above_configs += (r.end - r.begin) / st.sides[r.side].index.kings_per_config();
        if (scope_configs * 4 < above_configs) {
            add_configs_reached(st, scope, above);
        } else {
            for (const Range& r : *level_above) {
                const std::uint64_t kpc = st.sides[r.side].index.kings_per_config();
                for (std::uint64_t mc = r.begin / kpc; mc < r.end / kpc; ++mc) above.emplace_back(r.side, mc);
            }
        }
        std::vector<char>& unlike = above_unlike_;
        unlike.resize(above.size());  // every element written below
        parallel_for(
            above.size(),
            [&](std::uint64_t k) { unlike[k] = !config_like_reference(st, above[k].first, above[k].second); }, {},
            st.threads());
        Scope differing;
        for (std::size_t k = 0; k < above.size(); ++k)
            if (unlike[k])
                add_config(differing, above[k].first, above[k].second,
                           st.sides[above[k].first].index.kings_per_config());
        const auto reference = [&ref](int s) -> const PairArray<ValueCode>& { return reference_of(ref, s); };
        st.loops.for_scope("repair man moves", differing, [&](int ns, std::uint64_t j) {
            if (ref.same_exit(st.sides[ns].value[j], reference(ns)[j])) return;
            const int s = st.other(ns);
            SolverSide<R>& sd = st.sides[s];
            const std::vector<char>& configs = in_scope_[static_cast<std::size_t>(s)];
            Position base = reversed<G>(st.sides[ns].index.unrank(j));
            base.side_to_move = Color::white;
            for_each_unmove<R>(
                base, UnmoveKinds::men_only, [](int) {},
                [&](int from, int to, bool) {
                    const Position q = unmoved(base, from, to, false);
                    const std::uint64_t i = sd.index.rank(q);
                    if (!configs[i / sd.index.kings_per_config()]) return;
                    const ValueCode c = reference(s)[i];
                    if (is_draw(c) || c == loss_in(0) || sd.capture[i]) return;
                    std::atomic_ref<ValueCode> v(sd.value[i]);
                    ValueCode expected = c;
                    if (v.compare_exchange_strong(expected, kValueUnknown)) appends.add(0, make_item(s, i));
                });
        });
        mark_scope(0);
    }

    // The configurations (side, index) that a plain man move from the scope's configurations
    // reaches (the level above), each once.
    static void add_configs_reached(const SolverState<R>& st, const Scope& scope,
                                    std::vector<std::pair<int, std::uint64_t>>& out) {
        for (const Range& r : scope) {
            const SliceIndex<R>& index = st.sides[r.side].index;
            const int ns = st.other(r.side);
            const std::uint64_t kpc = index.kings_per_config();
            for (std::uint64_t mc = r.begin / kpc; mc < r.end / kpc; ++mc)
                for_each_config_after_man_step(index, mc, st.sides[ns].index,
                                               [&](std::uint64_t next) { out.emplace_back(ns, next); });
        }
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
    }

    std::uint64_t repaired_ = 0, fell_back_ = 0;
    std::vector<std::vector<signed char>> config_like_;  // per side and men configuration, -1 undecided
    // For mark_man_moves_unlike_reference: the current scope's configurations, per side; the
    // configurations of the level above, and which of them are unlike the reference (kept for
    // their capacity).
    std::vector<std::vector<char>> in_scope_;
    std::vector<std::pair<int, std::uint64_t>> above_configs_;
    std::vector<char> above_unlike_;
};

}  // namespace dtb::gen
