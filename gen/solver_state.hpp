// What every pass of a slice's solve works on (gen/slice_solver.hpp runs them): the arrays of
// the slice and its mirror, what the moves that leave them are worth, and the pass loops.
//
// Every position is stored with White to move. Slice X with Black to move is slice mirror(X)
// with White to move, so the solver holds two arrays, side 0 = X and side 1 = mirror(X), and a
// plain move from side s leads to side 1-s. When X is its own mirror (KvK, MMvMM) both sides are
// one array.
#pragma once
#include <cassert>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "dtb/gen/big_array.hpp"
#include "dtb/gen/block_arrays.hpp"
#include "dtb/gen/exit_values.hpp"
#include "dtb/gen/frontier.hpp"
#include "dtb/gen/pair_array.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/gen/scope.hpp"
#include "dtb/gen/win_step_cost.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/movegen.hpp"

namespace dtb::gen {

// An undecided position keeps its count of open successors in its value word: the loss step
// of pass 2 then touches one array per predecessor instead of two (value, then a counter),
// and the counter array is gone. Value codes stay far below kOpenBase (DTW < 2^14 plies);
// kValueUnknown is open_code(255), more moves than any position has.
inline constexpr ValueCode kOpenBase = 0xFF00;
constexpr bool is_open(ValueCode v) {
    return v >= kOpenBase;
}
constexpr ValueCode open_code(int n) {
    return static_cast<ValueCode>(kOpenBase + n);
}
static_assert(kValueUnknown == kOpenBase + 255);
// A DTC not known (yet): an undecided win, or after pass 4 a position without one.
inline constexpr std::uint16_t kDtcUnknown = 0xFFFF;
// The same as open codes for DTC (pass 4), for lost positions: their king moves not yet valued.
inline constexpr std::uint16_t kDtcOpenBase = 0xFE00;
constexpr bool is_dtc_open(std::uint16_t c) {
    return c >= kDtcOpenBase && c < kDtcOpenBase + 0x100;
}
constexpr std::uint16_t dtc_open_code(int n) {
    return static_cast<std::uint16_t>(kDtcOpenBase + n);
}
// In a seed (PreparedSeed::king_steps, which then counts every move that stays inside): the side
// to move has no move at all.
inline constexpr std::uint8_t kNoMove = 0xFF;

// One side of the solver: a slice, White to move.
template <class R>
struct SolverSide {
    SliceIndex<R> index;
    // WDL + DTW (value code); while undecided, open_code(n): n in-slice successors are not
    // yet known to be won.
    PairArray<ValueCode> value;
    PairArray<ValueCode> exit;  // best value among moves leaving the slice (pass 1)
    // Pass 3-4; while undecided, kDtcUnknown (a win) or dtc_open_code(n) (a loss with n king
    // moves whose DTC is not yet known).
    PairArray<std::uint16_t> dtc;
    PairArray<std::uint8_t> capture;  // 1 where the side to move must capture (pass 1)

    // No array allocated yet (SolverState::allocate_arrays).
    static SolverSide empty(SliceIndex<R> index, MappingCache& cache) {
        return SolverSide{std::move(index), PairArray<ValueCode>(cache), PairArray<ValueCode>(cache),
                          PairArray<std::uint16_t>(cache), PairArray<std::uint8_t>(cache)};
    }
};

// The arrays of a pair solved by blocks (SliceSolver::solve_by_blocks), and the store of its
// finished blocks.
template <class R>
struct SolverBlocks {
    // The arrays the block store keeps.
    enum Kind : int { kValue = 0, kDtc = 1, kCapture = 2 };

    SolverBlocks(std::vector<SolverSide<R>>& sides, BlockLayout blocks, MappingCache& cache)
        : layout(std::move(blocks)),
          value(layout, arrays_of(sides, &SolverSide<R>::value), configs_of(sides), kpc_of(sides), cache),
          exit(layout, arrays_of(sides, &SolverSide<R>::exit), configs_of(sides), kpc_of(sides), cache),
          dtc(layout, arrays_of(sides, &SolverSide<R>::dtc), configs_of(sides), kpc_of(sides), cache),
          capture(layout, arrays_of(sides, &SolverSide<R>::capture), configs_of(sides), kpc_of(sides), cache) {
        store.keep_in(cache.work_dir());
    }
    ~SolverBlocks() {
        value.release();
        exit.release();
        dtc.release();
        capture.release();
    }
    SolverBlocks(const SolverBlocks&) = delete;
    SolverBlocks& operator=(const SolverBlocks&) = delete;

    BlockLayout layout;
    BlockArray<ValueCode> value, exit;
    BlockArray<std::uint16_t> dtc;
    BlockArray<std::uint8_t> capture;
    BlockStore store;

  private:
    template <class T>
    static std::vector<PairArray<T>*> arrays_of(std::vector<SolverSide<R>>& sides, PairArray<T> SolverSide<R>::*a) {
        std::vector<PairArray<T>*> out;
        for (SolverSide<R>& sd : sides) out.push_back(&(sd.*a));
        return out;
    }
    static std::vector<std::uint64_t> configs_of(const std::vector<SolverSide<R>>& sides) {
        std::vector<std::uint64_t> out;
        for (const SolverSide<R>& sd : sides) out.push_back(sd.index.num_men_configs());
        return out;
    }
    static std::uint64_t kpc_of(const std::vector<SolverSide<R>>& sides) { return sides[0].index.kings_per_config(); }
};

template <class R>
struct SolverState {
    using Side = SolverSide<R>;

    // threads: of every parallel loop (0: all cores); cache: the one every array maps from.
    SolverState(Material m, ExternalTables external_tables, PassProgress progress, int threads, MappingCache& cache)
        : external(std::move(external_tables)),
          loops(std::move(progress), threads, cache),
          wins(cache),
          losses(cache),
          exit_wins(cache) {
        sides.push_back(Side::empty(SliceIndex<R>(m), cache));
        if (m.mirrored() != m) sides.push_back(Side::empty(SliceIndex<R>(m.mirrored()), cache));
    }

    std::vector<Side> sides;
    ExternalTables external;                  // the game's exits
    MoveValuation valuation;                  // or, under other rules, the valuation's
    SeedObserver observer;                    // shown the theoretical seed pass's positions, if set
    PassLoops loops;                          // with their progress lines, timers and thread count
    WinStepChoice win_steps;                  // pushed or pulled, passes 2 and 4
    LevelBuckets wins, losses, exit_wins;     // pass 2's frontier (gen/pass_dtw.hpp)
    std::unique_ptr<SolverBlocks<R>> blocks;  // solved by blocks: its arrays held that way

    int threads() const { return loops.threads(); }
    MappingCache& cache() const { return loops.cache(); }
    int num_sides() const { return static_cast<int>(sides.size()); }
    int other(int s) const { return sides.size() == 1 ? 0 : 1 - s; }
    int side_of(const Material& m) const { return m == sides[0].index.material() ? 0 : 1; }
    // Value (WDL + DTW) of a position of this slice or its mirror, White to move.
    ValueCode value_of(const Position& p) const {
        const int s = side_of(Material::of(p));
        return sides[s].value[sides[s].index.rank(p)];
    }
    // The SliceIndex of each side, for PassLoops::for_scope_positions.
    auto index_of() const {
        return [this](int s) -> const SliceIndex<R>& { return sides[s].index; };
    }
    Scope full_scope() const {
        Scope all;
        for (int s = 0; s < num_sides(); ++s) all.push_back(Range{s, 0, sides[s].index.size()});
        return all;
    }
    // The men configurations of both sides grouped by advancement, most advanced first (a level is
    // closed under king moves from either side).
    std::vector<Scope> advancement_levels() const {
        std::vector<const SliceIndex<R>*> indices;
        for (const Side& sd : sides) indices.push_back(&sd.index);
        return gen::advancement_levels<R>(indices, threads());
    }
    // The same levels, those of more than max_entries entries split into groups of phases
    // (gen/phase_groups.hpp; 0: none split).
    LevelBlocks level_blocks(std::uint64_t max_entries) const {
        std::vector<const SliceIndex<R>*> indices;
        for (const Side& sd : sides) indices.push_back(&sd.index);
        return split_levels<R>(gen::advancement_levels<R>(indices, threads()), indices, max_entries, threads());
    }

    // A move stays in the slice when it neither captures nor promotes; without man moves inside
    // (solved by levels), when a king makes it or a man steps sideways (Turkish: it keeps its row,
    // so its level).
    bool stays_inside(const Move& m) const {
        if (m.is_capture() || m.promotes) return false;
        if (m.by_king || valuation.man_moves_inside) return true;
        using G = typename R::Geometry;
        return SliceIndex<R>::kRowGroups && G::rank(m.from) == G::rank(m.to);
    }
    UnmoveKinds unmove_kinds() const {
        if (valuation.man_moves_inside) return UnmoveKinds::all;
        return SliceIndex<R>::kRowGroups ? UnmoveKinds::kings_and_sideways_men : UnmoveKinds::kings_only;
    }
    // The game's value of the position after a move that does not stay inside, for the
    // opponent: a capture or promotion leads to a finished slice; a plain man move (solved by
    // levels) to this pair's next level, final by now. rp is the reversed position before the
    // move (see reversed_after).
    ValueCode game_value_after(const Position& rp, const Move& m) const {
        const Position next = reversed_after<typename R::Geometry>(rp, m);
        if (next.of(Color::white) == 0) return loss_in(0);  // the opponent has no piece left
        if (!m.is_capture() && !m.promotes) return value_of(next);
        return external.value(next);
    }
    // The value of a move that does not stay inside, for the side that makes it: the game's, or
    // the valuation's.
    ValueCode exit_value(const Position& rp, const Move& m) const {
        if (!valuation.exit) return value_one_ply_before(game_value_after(rp, m));
        const Position next = reversed_after<typename R::Geometry>(rp, m);
        if (next.of(Color::white) == 0) return win_in(1);  // the opponent has no piece left
        return valuation.exit(next, m);
    }

    // Filled up front, in one sequential sweep per array: the passes start from these values
    // (open, no capture, DTC unknown), and the sweep matters for a pair solved by levels, whose
    // spill files then come into the page cache as 2 MB folios mapped whole (MADV_HUGEPAGE on
    // the file mapping) rather than as 4 KB pages touched level by level.
    void allocate_arrays() {
        if (blocks) return;  // each block is given its arrays when it is opened (open_block)
        for (Side& sd : sides) {
            if (sd.value.size() == sd.index.size()) continue;  // an earlier scope allocated them
            assign_parallel(sd.value, sd.index.size(), kValueUnknown, threads());
            assign_parallel(sd.exit, sd.index.size(), kValueUnknown, threads());
            assign_parallel(sd.capture, sd.index.size(), std::uint8_t{0}, threads());
        }
    }
    // Filled up front for the same reason as allocate_arrays.
    void assign_dtc() {
        for (Side& sd : sides) assign_parallel(sd.dtc, sd.index.size(), kDtcUnknown, threads());
    }
    // Only the DTW iteration reads the exits.
    void release_work_arrays() {
        for (Side& sd : sides) {
            free_array(sd.exit);
        }
    }

    // A position's seed (gen/pass_seed.hpp) written into the arrays: its capture flag, and its
    // value if decided (a draw, no move, or only exits), else its open count and its best exit.
    void record_seed(int s, std::uint64_t i, const PreparedSeed& seed) {
        Side& sd = sides[s];
        sd.capture[i] = seed.capture;
        if (seed.drawn) {
            sd.value[i] = kValueDraw;
            return;
        }
        if (seed.king_steps == kNoMove) {
            sd.value[i] = loss_in(0);
            return;
        }
        sd.exit[i] = seed.best_elsewhere;
        sd.value[i] = seed.king_steps == 0 ? seed.best_elsewhere : open_code(seed.king_steps);
    }
};

}  // namespace dtb::gen
