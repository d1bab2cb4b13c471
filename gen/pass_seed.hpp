// Pass 1, the seeds: forward, for each position, the best value among the moves that leave the
// slice (captures, promotions; looked up in finished tables, or valued by a MoveValuation) and
// the number of moves that stay inside it. Plain king moves are only counted, never built
// (gen/forward.hpp). Predecessors with a capture are never touched by the passes that follow: all
// their moves leave the slice, so this pass already made their values final.
#pragma once
#include <algorithm>
#include <cassert>
#include <cstdint>

#include "dtb/gen/exit_values.hpp"
#include "dtb/gen/forward.hpp"
#include "dtb/gen/scope.hpp"
#include "dtb/gen/seed_batch.hpp"
#include "dtb/gen/solver_state.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/movegen.hpp"

namespace dtb::gen {

// A valuation's seed without prepared seeds (a counting class: gen/rule_tables.hpp), where an
// exit's value is the valuation's, one position at a time.
template <class R>
PreparedSeed generated_seed(const SolverState<R>& st, const Position& p) {
    thread_local MoveList captures;
    // The position reversed, which valuing an exit starts from: only made when there is one
    // (most positions have none).
    Position rp;
    bool reversed_made = false;
    const auto exit_value_of = [&](const Move& m) {
        if (!reversed_made) {
            rp = reversed<typename R::Geometry>(p);
            reversed_made = true;
        }
        return st.exit_value(rp, m);
    };
    PreparedSeed seed;
    if (generate_captures<R>(p, captures)) {  // captures are compulsory: every move leaves
        seed.capture = true;
        for (const Move& m : captures) seed.best_elsewhere = better(seed.best_elsewhere, exit_value_of(m));
        return seed;
    }
    int inside = count_king_steps<R>(p);  // plain king moves always stay inside
    bool moves = inside > 0;
    for_each_man_step<R>(p, [&](const Move& m) {
        moves = true;
        if (st.stays_inside(m))
            ++inside;
        else
            seed.best_elsewhere = better(seed.best_elsewhere, exit_value_of(m));
    });
    assert(inside < kNoMove);  // fits open_code and the seed's byte
    seed.king_steps = moves ? static_cast<std::uint8_t>(inside) : kNoMove;
    return seed;
}

// A valuation's prepared seed (MoveValuation::prepared), completed by its plain man moves.
template <class R>
PreparedSeed prepared_seed(const SolverState<R>& st, int s, std::uint64_t i, const Position& p) {
    PreparedSeed seed = st.valuation.prepared(s, i);
    if (seed.drawn) return seed;
    if (seed.capture || st.sides[s].index.material().wm == 0) {
        if (!seed.capture && seed.king_steps == 0) seed.king_steps = kNoMove;
        return seed;
    }
    const Position rp = reversed<typename R::Geometry>(p);
    bool moves = seed.king_steps > 0;
    for_each_man_step<R>(p, [&](const Move& m) {
        moves = true;
        if (!m.promotes) seed.best_elsewhere = better(seed.best_elsewhere, st.exit_value(rp, m));
    });
    if (!moves) seed.king_steps = kNoMove;
    return seed;
}

// Pass 1 over a scope: the game's seeds in batches (gen/seed_batch.hpp), a valuation's one
// position at a time.
template <class R>
void seed_from_exits(SolverState<R>& st, const Scope& scope) {
    st.allocate_arrays();
    if (st.valuation.prepared || st.valuation.exit) {
        assert(!st.observer);
        st.loops.for_scope_positions("seed", scope, st.index_of(), [&](int s, std::uint64_t i, const Position& p) {
            st.record_seed(s, i, st.valuation.prepared ? prepared_seed(st, s, i, p) : generated_seed(st, p));
        });
        return;
    }
    st.loops.template for_scope_positions<SeedBatch<R>>(
        "seed", scope, st.index_of(),
        [&](SeedBatch<R>& batch, int s, std::uint64_t i, const Position& p) { batch.add(st, s, i, p); },
        [&](SeedBatch<R>& batch) { batch.flush(st); });
}

// Copies the values of the scope's known men configurations (MoveValuation::known) and returns
// the rest of the scope, still to be seeded and solved.
template <class R>
Scope copy_known(SolverState<R>& st, const Scope& scope) {
    if (!st.valuation.known) return scope;
    assert(!st.valuation.man_moves_inside);
    Scope rest;
    for (const Range& r : scope) {
        SolverSide<R>& sd = st.sides[r.side];
        const std::uint64_t kpc = sd.index.kings_per_config();
        for (std::uint64_t begin = r.begin; begin < r.end; begin += kpc) {
            if (const ValueCode* known = st.valuation.known(r.side, begin / kpc))
                std::copy(known, known + kpc, sd.value.run(begin / kpc, kpc));
            else
                add_config(rest, r.side, begin / kpc, kpc);
        }
    }
    return rest;
}

}  // namespace dtb::gen
