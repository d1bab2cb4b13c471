// Pass 2, the DTW iteration, by ply d = 1, 2, ...: wins at d from losses at d-1 (un-moves), from
// exits at d; losses when the last in-slice successor turns out won. It works on frontier lists
// (gen/frontier.hpp) bucketed by ply, so each level costs only its own positions; each level's win
// step is pushed or pulled (gen/push_pull.hpp), whichever is estimated to cost less
// (gen/win_step_cost.hpp). Every update changes only open positions: one with a capture was made
// final by the seeds (gen/pass_seed.hpp).
// Invariant after level d: every position whose DTW is <= d is final, and every loss whose DTW is
// > d has been found as soon as its last successor was known.
#pragma once
#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string>

#include "dtb/gen/forward.hpp"
#include "dtb/gen/frontier.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/push_pull.hpp"
#include "dtb/gen/scope.hpp"
#include "dtb/gen/solver_state.hpp"
#include "dtb/probe/value.hpp"

namespace dtb::gen {

// The frontier lists of pass 2 filled from positions whose value is known after the seed pass,
// and from open ones whose best exit is a win, by the level at which pass 2 must look at them.
template <class R>
struct DtwBuckets {
    DtwBuckets(MappingCache& cache, int threads)
        : wins(cache, threads), losses(cache, threads), exit_wins(cache, threads), open(threads) {}
    PendingAppends wins, losses, exit_wins;
    SideTally open;  // the open positions of each side and their in-slice moves
    void add(const SolverState<R>& st, int s, std::uint64_t i) {
        const SolverSide<R>& sd = st.sides[s];
        const ValueCode v = sd.value[i];
        if (is_open(v)) {
            open.add(s, 1, v - kOpenBase);
            if (is_win(sd.exit[i])) exit_wins.add(static_cast<std::size_t>(distance_of(sd.exit[i])), make_item(s, i));
        } else if (is_win(v)) {
            wins.add(static_cast<std::size_t>(distance_of(v)), make_item(s, i));
        } else if (is_loss(v)) {
            losses.add(static_cast<std::size_t>(distance_of(v)), make_item(s, i));
        }
    }
    void flush_into(SolverState<R>& st) {
        wins.flush_into(st.wins);
        losses.flush_into(st.losses);
        exit_wins.flush_into(st.exit_wins);
    }
};

// Buckets every position of the scope (DtwBuckets). Returns the open positions of each side and
// their in-slice moves.
template <class R>
SideTally bucket_seeds(SolverState<R>& st, const Scope& scope) {
    DtwBuckets<R> b(st.cache(), st.threads());
    st.loops.for_scope("bucket", scope, [&](int s, std::uint64_t i) { b.add(st, s, i); });
    b.flush_into(st);
    return b.open;
}

// The open positions of a scope after its seeds, for the choice between pushed and pulled win
// steps (WinStepChoice::pull_is_cheaper).
struct PullChoice {
    const Scope* scope = nullptr;
    SideTally open;  // open positions of each side and their in-slice moves, after the seeds
};

// Pass 2 proper, from the buckets filled by bucket_seeds (or the rule repair). With a PullChoice
// (the open positions of the scope), each level's win step is pushed or pulled, whichever
// costs fewer moves (pull_wins); without one, always pushed.
template <class R>
void iterate_levels(SolverState<R>& st, std::optional<PullChoice> pull_choice = std::nullopt) {
    PendingAppends appends(st.cache(), st.threads());
    SideTally decided(st.threads());     // open positions decided since the seeds (pull_choice only)
    std::optional<ItemList> open_items;  // the open positions, once a level has pulled
    for (std::size_t d = 1; d <= std::max({st.wins.levels(), st.losses.levels(), st.exit_wins.levels()}); ++d) {
        const ValueCode win_d = win_in(static_cast<int>(d));
        const std::string pass = "dtw " + std::to_string(d);
        // Wins at d through an exit of length d, unless a plain move won sooner.
        st.exit_wins.peek(d).for_each([&](Item it) {
            ValueCode& v = st.sides[item_side(it)].value[item_index(it)];
            if (is_open(v)) {
                v = win_d;
                st.wins.at(d).push_back(it);
                if (pull_choice) decided.add(item_side(it), 1, 0);
            }
        });
        st.exit_wins.release(d);
        auto prefetch_value = [&](int s, std::uint64_t j) { __builtin_prefetch(&st.sides[st.other(s)].value[j], 1); };
        // Wins at d by a plain move into a loss at d - 1.
        const bool pull = pull_choice && st.win_steps.pull_is_cheaper(st.num_sides(), pull_choice->open, decided,
                                                                      st.losses.peek(d - 1));
        if (pull) {
            if (!open_items)
                open_items = st.loops.positions_where("dtw open", *pull_choice->scope, [&](int s, std::uint64_t i) {
                    return is_open(st.sides[s].value[i]);
                });
            const auto open = [&](int s, std::uint64_t i) {
                return is_open(std::atomic_ref<ValueCode>(st.sides[s].value[i]).load(std::memory_order_relaxed));
            };
            const auto moves_inside = [&](const Position& p, auto&& visit) {
                for_each_king_step<R>(p, visit);
                if (st.valuation.man_moves_inside || SliceIndex<R>::kRowGroups)
                    for_each_man_step<R>(p, [&](const Move& m) {
                        if (st.stays_inside(m)) visit(m);
                    });
            };
            // A loss at d - 1 is final; a loss stored at this level is at least d + 1.
            const auto lost_before = [&](int s, std::uint64_t j) {
                const ValueCode v = std::atomic_ref<ValueCode>(st.sides[s].value[j]).load(std::memory_order_relaxed);
                return is_loss(v) && static_cast<std::size_t>(distance_of(v)) + 1 == d;
            };
            open_items = pull_wins(st, pass, *open_items, open, moves_inside, lost_before, [&](Item it) {
                std::atomic_ref<ValueCode>(st.sides[item_side(it)].value[item_index(it)])
                    .store(win_d, std::memory_order_relaxed);
                appends.add(d, it);
                decided.add(item_side(it), 1, 0);
            });
        } else {
            for_each_predecessor_of(st, pass, st.losses.peek(d - 1), st.unmove_kinds(), prefetch_value,
                                    [&](Item it, std::uint64_t j) {
                                        const int pred = st.other(item_side(it));
                                        std::atomic_ref<ValueCode> pv(st.sides[pred].value[j]);
                                        ValueCode expected = pv.load(std::memory_order_relaxed);
                                        if (!is_open(expected)) return;  // spares the locked op
                                        // Fails only when another thread has just made it a win (nothing else
                                        // writes values in this loop).
                                        if (pv.compare_exchange_strong(expected, win_d)) {
                                            appends.add(d, make_item(pred, j));
                                            if (pull_choice) decided.add(pred, 1, 0);
                                        }
                                    });
        }
        appends.flush_into(st.wins);
        st.losses.release(d - 1);
        // Losses: a position whose last open successor is now known to be won by the opponent.
        for_each_predecessor_of(
            st, pass, st.wins.peek(d), st.unmove_kinds(), prefetch_value, [&](Item it, std::uint64_t j) {
                const int pred = st.other(item_side(it));
                SolverSide<R>& pred_side = st.sides[pred];
                std::atomic_ref<ValueCode> pv(pred_side.value[j]);
                if (!is_open(pv.load(std::memory_order_relaxed))) return;
                // Each won successor decrements once, so the one that takes the count to 0 is the
                // last writer: no other thread touches this word afterwards.
                const ValueCode before = pv.fetch_sub(1);
                // One decrement per won successor: a count never goes below 0 (below, it would
                // read as a win).
                assert(before > kOpenBase);
                if (before != open_code(1)) return;
                const ValueCode ex = pred_side.exit[j];
                // An exit is better than every plain move: stays open (at 0) for the exit wins or
                // the draws.
                if (is_win(ex) || is_draw(ex)) return;
                const int dtw = std::max(static_cast<int>(d) + 1, ex == kValueUnknown ? 0 : distance_of(ex));
                pv.store(loss_in(dtw), std::memory_order_relaxed);
                appends.add(static_cast<std::size_t>(dtw), make_item(pred, j));
                if (pull_choice) decided.add(pred, 1, 0);
            });
        appends.flush_into(st.losses);
        st.wins.release(d);
    }
}

// Pass 2 over a scope seeded by pass 1: its positions bucketed, iterated, and those still open
// at the end drawn.
template <class R>
void iterate_dtw(SolverState<R>& st, const Scope& scope) {
    st.wins.clear();
    st.losses.clear();
    st.exit_wins.clear();
    const SideTally open = bucket_seeds(st, scope);
    iterate_levels(st, PullChoice{&scope, open});
    st.loops.for_scope("draws", scope, [&](int s, std::uint64_t i) {
        if (is_open(st.sides[s].value[i])) st.sides[s].value[i] = kValueDraw;
    });
}

}  // namespace dtb::gen
