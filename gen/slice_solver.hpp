// Retrograde analysis of one material slice together with its colour-reversed mirror (the two
// sides of gen/solver_state.hpp), as a script of named passes, each a parallel loop over a scope
// (gen/scope.hpp):
//   1. seed_from_exits     gen/pass_seed.hpp (batched: gen/seed_batch.hpp)
//   2. iterate_dtw         gen/pass_dtw.hpp
//   3. seed_dtc            gen/pass_dtc.hpp
//   4. iterate_dtc         gen/pass_dtc.hpp
// The win steps of passes 2 and 4 are pushed or pulled (gen/push_pull.hpp), whichever is
// estimated to cost less (gen/win_step_cost.hpp).
// solve_by_levels() runs the same passes one advancement level of men at a time (man moves are
// then exits into the level above, solved before).
// A valuation with a reference (the counting rules) replaces passes 1-2 by a repair
// (gen/rule_repair.hpp).
#pragma once
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dtb/gen/big_array.hpp"
#include "dtb/gen/block_arrays.hpp"
#include "dtb/gen/exit_values.hpp"
#include "dtb/gen/pass_dtc.hpp"
#include "dtb/gen/pass_dtw.hpp"
#include "dtb/gen/pass_seed.hpp"
#include "dtb/gen/pass_timer.hpp"
#include "dtb/gen/rule_repair.hpp"
#include "dtb/gen/scope.hpp"
#include "dtb/gen/solver_state.hpp"
#include "dtb/gen/win_step_cost.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/value.hpp"

namespace dtb::gen {

template <class R>
class SliceSolver {
  public:
    using Side = SolverSide<R>;

    // cache: the one its arrays and frontier lists map from; threads: of every parallel loop (0:
    // all cores).
    SliceSolver(Material m, MappingCache& cache, ExternalTables external, PassProgress progress = {}, int threads = 0)
        : st_(m, std::move(external), std::move(progress), threads, cache) {}
    // The same recursion under other rules of the game (the counting rules, gen/rule_tables.hpp):
    // which moves stay inside and what the others are worth is the valuation's.
    SliceSolver(Material m, MappingCache& cache, MoveValuation valuation, PassProgress progress = {}, int threads = 0)
        : SliceSolver(m, cache, ExternalTables{}, std::move(progress), threads) {
        st_.valuation = std::move(valuation);
    }

    void solve() {
        seed_from_exits(st_, st_.full_scope());
        iterate_dtw(st_, st_.full_scope());
        // Only the DTW iteration reads the exits: DTC's array takes their memory (the same size,
        // so the mapping cache hands it over), which lowers the peak of a pair solved whole (its
        // DTC pass, with the largest frontier lists) by 2 bytes per position.
        st_.release_work_arrays();
        st_.assign_dtc();
        seed_dtc(st_, st_.full_scope());
        iterate_dtc(st_, st_.full_scope());
        st_.release_work_arrays();
    }
    // The same values and DTC, solved one advancement level at a time, most advanced first. A
    // plain man move forward leaves its level for the next one, already final, so within a level
    // it is an exit worth its successor's value one ply on, and only king moves (and a Turkish
    // man's sideways steps, which keep its row: a level is a union of row groups) stay inside: every pass then
    // touches one level at a time (and its successor level, read only), which is what lets a
    // pair larger than memory be solved with its arrays spilled to disk (docs/GENERATOR.md). DTC's
    // iteration needs nothing across levels (a man move converts, whatever it reaches); its seeds
    // read the final values of the level above.
    void solve_by_levels() {
        assert(!st_.valuation.exit);
        const ManMovesAsExits exits(st_.valuation);
        st_.assign_dtc();
        const std::vector<Scope> levels = st_.advancement_levels();
        for (std::size_t l = 0; l < levels.size(); ++l) {
            st_.loops.set_level_label(levels.size() > 1 ? " (level " + std::to_string(l + 1) + "/" +
                                                              std::to_string(levels.size()) + ")"
                                                        : "");
            seed_from_exits(st_, levels[l]);
            iterate_dtw(st_, levels[l]);
            seed_dtc(st_, levels[l]);
            iterate_dtc(st_, levels[l]);
        }
        st_.loops.set_level_label("");
        st_.release_work_arrays();
    }
    // The same values and DTC, solved by the same levels with arrays sized to the levels (blocks,
    // gen/block_arrays.hpp) rather than to the pair, a level larger than max_block_entries (0: no
    // limit) a group of its phases at a time (gen/phase_groups.hpp): a block has storage while it
    // is solved, its values also while the level below (which its man moves reach from) is
    // solved; then each array goes to the block store compressed. The pair's sides are read back
    // in index order by gathered(); side(s)'s arrays are empty meanwhile.
    // hooks: laid_out first; opened(b) once block b has its arrays, before its seed pass;
    // valued(b, values) once its values are final (the phase seeds the seed pass gathers are
    // held by the same blocks, gen/phase_seeds.hpp).
    void solve_by_blocks(const BlockHooks& hooks = {}, std::uint64_t max_block_entries = 0) {
        assert(!st_.valuation.exit);
        const ManMovesAsExits exits(st_.valuation);
        st_.blocks =
            std::make_unique<SolverBlocks<R>>(st_.sides, BlockLayout(st_.level_blocks(max_block_entries)), st_.cache());
        SolverBlocks<R>& b = *st_.blocks;
        if (hooks.laid_out) hooks.laid_out(b.layout);
        const std::size_t n = b.layout.num_blocks();
        const int threads = st_.threads();
        for (std::size_t k = 0; k < n; ++k) {
            set_block_label(b.layout, k);
            const Scope& block = b.layout.blocks[k];
            b.value.open(k, kValueUnknown, threads);
            b.exit.open(k, kValueUnknown, threads);
            b.capture.open(k, std::uint8_t{0}, threads);
            if (hooks.opened) hooks.opened(k);
            seed_from_exits(st_, block);
            iterate_dtw(st_, block);
            if (hooks.valued) hooks.valued(k, b.value.storage(k));
            b.exit.close(k);
            b.dtc.open(k, kDtcUnknown, threads);
            seed_dtc(st_, block);
            iterate_dtc(st_, block);
            b.dtc.store(k, b.store, SolverBlocks<R>::kDtc, threads);
            b.capture.store(k, b.store, SolverBlocks<R>::kCapture, threads);
            // The level above is read by this level's man moves only.
            if (b.layout.ends_level(k)) {
                const auto [first, last] = b.layout.blocks_of_level_above(k);
                for (std::size_t a = first; a < last; ++a) b.value.store(a, b.store, SolverBlocks<R>::kValue, threads);
            }
        }
        for (std::size_t k = 0; k < n; ++k)
            if (b.value.is_open(k)) b.value.store(k, b.store, SolverBlocks<R>::kValue, threads);
        st_.loops.set_level_label("");
    }
    bool solved_by_blocks() const { return st_.blocks != nullptr; }
    // Solved by blocks: the blocks' layout and store (null otherwise).
    const SolverBlocks<R>* blocks() const { return st_.blocks.get(); }
    // Solved by blocks: side s's values, DTC or capture flags (SolverBlocks::Kind) in index order.
    template <class T>
    BigArray<T> gathered(int s, typename SolverBlocks<R>::Kind kind) const {
        assert(st_.blocks);
        BigArray<T> out(st_.cache());
        out.resize(st_.sides[s].index.size());  // every entry written below
        gather_side<T>(st_.blocks->layout, st_.blocks->store, kind, s, out, st_.threads());
        return out;
    }
    // Solved by blocks: the arrays whole again, gathered from the block store, and the blocks
    // freed (for steps that read whole arrays).
    void gather_whole() {
        using Kind = typename SolverBlocks<R>::Kind;
        std::vector<BigArray<ValueCode>> values;
        std::vector<BigArray<std::uint16_t>> dtc;
        std::vector<BigArray<std::uint8_t>> capture;
        for (int s = 0; s < num_sides(); ++s) {
            values.push_back(gathered<ValueCode>(s, Kind::kValue));
            dtc.push_back(gathered<std::uint16_t>(s, Kind::kDtc));
            capture.push_back(gathered<std::uint8_t>(s, Kind::kCapture));
        }
        release_blocks();
        for (int s = 0; s < num_sides(); ++s) {
            const auto k = static_cast<std::size_t>(s);
            st_.sides[s].value.flat() = std::move(values[k]);
            st_.sides[s].dtc.flat() = std::move(dtc[k]);
            st_.sides[s].capture.flat() = std::move(capture[k]);
        }
    }
    // Solved by blocks: compressed bytes of the finished blocks.
    std::uint64_t block_store_bytes() const { return st_.blocks ? st_.blocks->store.bytes() : 0; }
    // Solved by blocks: positions of the largest block.
    std::uint64_t largest_block() const { return st_.blocks ? st_.blocks->layout.largest() : 0; }
    // The blocks and their store freed (after the writers).
    void release_blocks() { st_.blocks.reset(); }

    // Passes 1 and 2 only: values without DTC (what a valuation's tables need). When man moves are
    // exits, every men configuration is a king phase of its own whose exits lead to configurations
    // with more advanced men: the phases are solved by decreasing advancement, so that a valuation
    // whose exit reads this solver's own values (value_of) finds them final.
    void solve_values() {
        st_.allocate_arrays();
        if (st_.valuation.reference) repair_.start(st_);
        if (st_.valuation.man_moves_inside || st_.sides[0].index.material().men() == 0) {
            solve_values_of(st_.full_scope(), nullptr);
        } else {
            const std::vector<Scope> levels = st_.advancement_levels();
            for (std::size_t l = 0; l < levels.size(); ++l)
                solve_values_of(levels[l], l > 0 ? &levels[l - 1] : nullptr);
        }
        st_.release_work_arrays();
    }
    // The same values, by the blocks of a game solved by blocks (its layout): a block's arrays
    // exist while it is solved, its values also while the level below is. Only with man moves as
    // exits. hooks.opened(b) comes before block b is solved (what the valuation reads of it must
    // be there), hooks.valued(b, values) once its values are final, and hooks.done(b) once they
    // are no longer read (after the level below); the values are then gone: hooks.valued keeps
    // what it needs.
    void solve_values_by_blocks(const BlockLayout& layout, const BlockHooks& hooks) {
        assert(!st_.valuation.man_moves_inside);
        st_.blocks = std::make_unique<SolverBlocks<R>>(st_.sides, layout, st_.cache());
        SolverBlocks<R>& b = *st_.blocks;
        if (hooks.laid_out) hooks.laid_out(b.layout);
        if (st_.valuation.reference) repair_.start(st_);
        const std::size_t n = b.layout.num_blocks();
        const int threads = st_.threads();
        Scope level_above;  // of the level being solved, once per level
        for (std::size_t k = 0; k < n; ++k) {
            set_block_label(b.layout, k);
            const auto [first, last] = b.layout.blocks_of_level_above(k);
            if (k == 0 || b.layout.level_of[k - 1] != b.layout.level_of[k])
                level_above = b.layout.scope_of(first, last);
            if (hooks.opened) hooks.opened(k);
            b.value.open(k, kValueUnknown, threads);
            b.exit.open(k, kValueUnknown, threads);
            b.capture.open(k, std::uint8_t{0}, threads);
            solve_values_of(b.layout.blocks[k], b.layout.level_of[k] > 0 ? &level_above : nullptr);
            b.exit.close(k);
            b.capture.close(k);
            if (hooks.valued) hooks.valued(k, b.value.storage(k));
            if (b.layout.ends_level(k)) {
                for (std::size_t a = first; a < last; ++a) {
                    b.value.close(a);
                    if (hooks.done) hooks.done(a);
                }
            }
        }
        for (std::size_t k = 0; k < n; ++k) {
            if (!b.value.is_open(k)) continue;
            b.value.close(k);
            if (hooks.done) hooks.done(k);
        }
        st_.loops.set_level_label("");
        st_.blocks.reset();
    }
    // Positions re-solved by the rule repair (MoveValuation::reference), both sides; the others took
    // the reference's value, except in the scopes solved in full because their closure grew too large.
    std::uint64_t repaired_positions() const { return repair_.repaired_positions(); }
    std::uint64_t scopes_solved_in_full() const { return repair_.scopes_solved_in_full(); }
    // Whether a man move into any position of men configuration mc of side s is worth what it is
    // in the reference (RuleRepair::config_like_reference): what a valuation's MoveValuation::known
    // asks of the configurations a phase's man moves reach.
    bool config_like_reference(int s, std::uint64_t mc) { return repair_.config_like_reference(st_, s, mc); }
    // How the win steps of passes 2 and 4 find their wins (gen/win_step_cost.hpp).
    using WinSteps = gen::WinSteps;
    void set_win_steps(WinSteps w) { st_.win_steps.set_policy(w); }
    // Levels of passes 2 and 4 whose win step was pulled.
    std::uint64_t levels_pulled() const { return st_.win_steps.levels_pulled(); }
    // Seconds spent in each kind of pass ("seed", "dtw", "dtc seed", "dtc", ...), in the order
    // they first ran.
    const PassSeconds& pass_seconds() const { return st_.loops.seconds(); }

    // Shows every position of the seed pass to observer, so that another computation can share
    // its move generation (gen/phase_seeds.hpp). Not with a valuation's prepared seeds.
    void observe_seeds(SeedObserver observer) { st_.observer = std::move(observer); }

    int num_sides() const { return st_.num_sides(); }
    const Side& side(int s) const { return st_.sides[s]; }
    // Hands over the values of side s (the solver keeps none).
    BigArray<ValueCode> release_values(int s) { return std::move(st_.sides[s].value.flat()); }
    void release_dtc() {
        for (Side& sd : st_.sides) free_array(sd.dtc);
    }
    // Hands over the DTC of side s (the solver keeps none).
    BigArray<std::uint16_t> release_dtc(int s) { return std::move(st_.sides[s].dtc.flat()); }
    // Value (WDL + DTW) of a position of this slice or its mirror, White to move.
    ValueCode value_of(const Position& p) const { return st_.value_of(p); }
    std::uint16_t dtc_of(const Position& p) const {
        const int s = side_of(Material::of(p));
        return st_.sides[s].dtc[st_.sides[s].index.rank(p)];
    }
    int side_of(const Material& m) const { return st_.side_of(m); }
    // Positions (both sides) of the largest level solve_by_levels would solve for the pair of m:
    // what it holds at a time (the generator's memory check for spilling).
    static std::uint64_t largest_level(const Material& m, int threads = 0) { return largest_block(m, 0, threads); }

    // Positions (both sides) of the largest block solve_by_blocks would solve for the pair of m
    // with levels of more than max_block_entries split (0: none, the largest level).
    static std::uint64_t largest_block(const Material& m, std::uint64_t max_block_entries, int threads = 0) {
        const SliceIndex<R> index(m), mirror_index(m.mirrored());
        std::vector<const SliceIndex<R>*> indices{&index};
        if (m.mirrored() != m) indices.push_back(&mirror_index);
        const LevelBlocks split =
            split_levels<R>(advancement_levels<R>(indices, threads), indices, max_block_entries, threads);
        std::uint64_t largest = 0;
        for (const Scope& block : split.blocks) {
            std::uint64_t n = 0;
            for (const Range& r : block) n += r.end - r.begin;
            largest = std::max(largest, n);
        }
        return largest;
    }

    static constexpr std::uint16_t kDtcUnknown = gen::kDtcUnknown;

  private:
    // " (level l/n)", or " (level l/n, block k/m)" where the level is split.
    void set_block_label(const BlockLayout& layout, std::size_t b) {
        const auto [first, last] = layout.blocks_of_level(b);
        std::string label;
        if (layout.num_levels() > 1)
            label = " (level " + std::to_string(layout.level_of[b] + 1) + "/" + std::to_string(layout.num_levels());
        if (last - first > 1)
            label += std::string(label.empty() ? " (" : ", ") + "block " + std::to_string(b - first + 1) + "/" +
                     std::to_string(last - first);
        st_.loops.set_level_label(label.empty() ? label : label + ")");
    }
    // Passes 1 and 2 (or the repair) over one scope; level_above: the level solved before, the
    // one its man moves reach (null: none, or a scope with man moves inside).
    void solve_values_of(const Scope& scope, const Scope* level_above) {
        const Scope rest = copy_known(st_, scope);
        if (st_.valuation.reference) {
            repair_.repair(st_, rest, level_above);
        } else {
            seed_from_exits(st_, rest);
            iterate_dtw(st_, rest);
        }
    }

    // Man moves are exits into the level above while it lives; they count inside again afterwards,
    // even on an exception (solving by levels or by blocks).
    struct ManMovesAsExits {
        explicit ManMovesAsExits(MoveValuation& v) : valuation(v) { valuation.man_moves_inside = false; }
        ~ManMovesAsExits() { valuation.man_moves_inside = true; }
        ManMovesAsExits(const ManMovesAsExits&) = delete;
        ManMovesAsExits& operator=(const ManMovesAsExits&) = delete;
        MoveValuation& valuation;
    };

    SolverState<R> st_;
    RuleRepair<R> repair_;
};

}  // namespace dtb::gen
