// Passes 3 and 4, DTC, once every WDL is known. Pass 3 (seed_dtc) is forward again: conversions
// (captures and man moves) are worth 1; only king moves stay unconverted. Pass 4 (iterate_dtc)
// goes by ply along king moves only, its win step pushed or pulled as in pass 2
// (gen/win_step_cost.hpp).
#pragma once
#include <array>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <optional>
#include <string>

#include "dtb/gen/forward.hpp"
#include "dtb/gen/frontier.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/push_pull.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/gen/scope.hpp"
#include "dtb/gen/solver_state.hpp"
#include "dtb/probe/value.hpp"

namespace dtb::gen {

// DTC seeds: won positions with a winning conversion (or game-ending move) are at 1; lost
// positions wait for all their king moves, every other move being a conversion worth 1.
template <class R>
void seed_dtc(SolverState<R>& st, const Scope& scope) {
    assert(!st.valuation.exit);  // the capture shortcut below takes the game's values
    st.loops.for_scope_positions("dtc seed", scope, st.index_of(), [&](int s, std::uint64_t i, const Position& p) {
        SolverSide<R>& sd = st.sides[s];
        const ValueCode v = sd.value[i];
        if (is_draw(v) || v == loss_in(0)) {  // loss_in(0): no move (or no piece) left
            sd.dtc[i] = 0;
            return;
        }
        // Decided without generating moves: with a capture every move converts, and a won
        // position's best capture reaches a lost one (pass 1 valued it so); without men, a
        // win converts only if it wins at once.
        if (sd.capture[i]) {
            sd.dtc[i] = 1;
            return;
        }
        if (is_win(v) && sd.index.material().wm == 0 && v != win_in(1)) return;
        assert(!has_capture<R>(p));
        if (is_win(v)) {
            const Position rp = reversed<typename R::Geometry>(p);
            const SolverSide<R>& next_side = st.sides[st.other(s)];
            auto after = [&](const Move& m) {
                return st.stays_inside(m)
                           ? next_side.value[next_side.index.rank(reversed_after<typename R::Geometry>(rp, m))]
                           : st.game_value_after(rp, m);
            };
            // A man move into a lost position converts at once; so does a king move into a
            // position lost at once, which only a win in 1 can have.
            bool converts = false;
            for_each_man_step<R>(p, [&](const Move& m) { converts = converts || is_loss(after(m)); });
            if (!converts && v == win_in(1))
                for_each_king_step<R>(p, [&](const Move& m) { converts = converts || after(m) == loss_in(0); });
            if (converts) sd.dtc[i] = 1;
            return;  // else waits for a king move into a lost position
        }
        const int king_moves = count_king_steps<R>(p);
        bool converts = false;
        for_each_man_step<R>(p, [&](const Move&) { converts = true; });
        if (king_moves == 0) {
            sd.dtc[i] = converts ? 1 : 0;
            return;
        }
        sd.dtc[i] = dtc_open_code(king_moves);
    });
}

// Pass 4 over a scope seeded by pass 3.
template <class R>
void iterate_dtc(SolverState<R>& st, const Scope& scope) {
    LevelBuckets level(st.cache());
    PendingAppends appends(st.cache(), st.threads());
    // Items of lost positions carry kItemFlag: the predecessor step needs to know which kind
    // each item is, and reading its value there would be a cache miss per item.
    auto dtc_item = [&](int s, std::uint64_t i, bool lost) { return make_item(s, i) | (lost ? kItemFlag : 0); };
    SideTally waiting(st.threads());  // wins still without a DTC: after the seeds, less those found since
    st.loops.for_scope("dtc 1", scope, [&](int s, std::uint64_t i) {
        const std::uint16_t c = st.sides[s].dtc[i];
        if (c == 1) appends.add(1, dtc_item(s, i, is_loss(st.sides[s].value[i])));
        if (c == kDtcUnknown) waiting.add(s, 1, 0);
    });
    appends.flush_into(level);
    // A side's king moves are counted as its kings (WinStepChoice::pull_dtc_is_cheaper).
    std::array<double, 2> kings{};
    for (int s = 0; s < st.num_sides(); ++s) kings[static_cast<std::size_t>(s)] = st.sides[s].index.material().wk;
    std::optional<ItemList> waiting_items;  // the wins without a DTC, once a level has pulled
    for (std::size_t c = 1; c < level.levels(); ++c) {
        const auto next = static_cast<std::uint16_t>(c + 1);
        const std::string pass = "dtc " + std::to_string(c);
        // A king move into a loss of DTC c gives a win c + 1; when the last king move of a lost
        // position is known (its reply won at DTC c), the longest is c + 1. The first is
        // pushed from the losses or pulled by the waiting wins, whichever costs fewer moves
        // (as in pass 2).
        const bool pull = st.win_steps.pull_dtc_is_cheaper(st.num_sides(), kings, waiting, level.peek(c));
        auto prefetch_dtc = [&](int s, std::uint64_t j) { __builtin_prefetch(&st.sides[st.other(s)].dtc[j], 1); };
        // A won predecessor waits as kDtcUnknown, a lost one as dtc_open_code(n): the DTC word
        // alone says which, so values are not read for them.
        for_each_predecessor_of(
            st, pass, level.peek(c), UnmoveKinds::kings_only, prefetch_dtc,
            [&](Item it, std::uint64_t j) {
                const int pred = st.other(item_side(it));
                const bool lost = item_flagged(it);
                assert(lost == is_loss(st.sides[item_side(it)].value[item_index(it)]));
                std::atomic_ref<std::uint16_t> pd(st.sides[pred].dtc[j]);
                const std::uint16_t c = pd.load(std::memory_order_relaxed);
                if (lost) {
                    if (c != kDtcUnknown) return;
                    std::uint16_t expected = kDtcUnknown;
                    if (pd.compare_exchange_strong(expected, next)) {
                        appends.add(next, dtc_item(pred, j, false));
                        waiting.add(pred, -1, 0);
                    }
                } else {
                    if (!is_dtc_open(c)) return;
                    const std::uint16_t before = pd.fetch_sub(1);
                    assert(before > kDtcOpenBase);
                    if (before != dtc_open_code(1)) return;  // the last writer, as in pass 2
                    pd.store(next, std::memory_order_relaxed);
                    appends.add(next, dtc_item(pred, j, true));
                }
            },
            /*skip_flagged=*/pull);
        if (pull) {
            const auto waits = [&](int s, std::uint64_t i) {
                return std::atomic_ref<std::uint16_t>(st.sides[s].dtc[i]).load(std::memory_order_relaxed) ==
                       kDtcUnknown;
            };
            if (!waiting_items) waiting_items = st.loops.positions_where("dtc waiting", scope, waits);
            // Runs after the pushes into lost positions, which give DTC c + 1: the losses of
            // DTC c are final.
            const auto lost_at_c = [&](int s, std::uint64_t j) {
                return std::atomic_ref<std::uint16_t>(st.sides[s].dtc[j]).load(std::memory_order_relaxed) == c &&
                       is_loss(st.sides[s].value[j]);
            };
            const auto king_moves = [](const Position& p, auto&& visit) { for_each_king_step<R>(p, visit); };
            waiting_items = pull_wins(st, pass, *waiting_items, waits, king_moves, lost_at_c, [&](Item it) {
                std::atomic_ref<std::uint16_t>(st.sides[item_side(it)].dtc[item_index(it)])
                    .store(next, std::memory_order_relaxed);
                appends.add(next, it);
                waiting.add(item_side(it), -1, 0);
            });
        }
        appends.flush_into(level);
        level.release(c);
    }
    // Every lost position's king moves lead to wins, which all get a DTC, so no open count
    // is left; were one left, it would read as unknown, like an undecided win.
    st.loops.for_scope("dtc end", scope, [&](int s, std::uint64_t i) {
        if (is_dtc_open(st.sides[s].dtc[i])) st.sides[s].dtc[i] = kDtcUnknown;
    });
}

}  // namespace dtb::gen
