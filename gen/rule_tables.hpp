// Rule-aware tables (international): for every position, its value under the counting rules of a
// rule set, as a threshold (docs/ADJUDICATION.md). A stored value code win_in(t) means "wins iff
// at least t plies of budget remain", loss_in(t) "loses iff at least t remain", draw "draws at
// every budget". Which budget depends on the position's class:
//   in no class     the 25-move budget 50 - reversible; only king moves stay inside a phase,
//                   every capture or man move is an exit valued by the rule value of what it
//                   leads to with fresh counters (the threshold is a distance to zeroing).
//   16-move, 5-move the class budget; every move but a capture or promotion stays inside (the
//                   class count does not restart on man moves). Exits follow docs/RULES.md 1: a
//                   capture by the lone king from the 16-move into the 5-move class keeps the
//                   16-move budget (fmjd: the smaller of the two, the 5-move one starting at 10;
//                   ffjd: K+M v K, read from the ffjd16 table); into material in no class, the
//                   class limit is gone and the fresh rule value counts.
//   ffjd 2K v K, K v K  drawn at once unless the side to move must capture (or cannot move).
// The 25-move budget inside a class is not part of these tables: after the first capture or man
// move it is 50 again, more than any class budget, so it can bind only on counters given at the
// start of a query; adjudicate/adjudicator.cpp solves that case at query time.
#pragma once
#include <algorithm>
#include <atomic>
#include <cassert>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/gen/block_arrays.hpp"
#include "dtb/gen/block_store.hpp"
#include "dtb/gen/finished_rule_tables.hpp"
#include "dtb/gen/finished_tables.hpp"
#include "dtb/gen/men_configs.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/phase_seeds.hpp"
#include "dtb/gen/positions.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/gen/rule_blocks.hpp"
#include "dtb/gen/side_reader.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/counting_rules.hpp"
#include "dtb/probe/rule_captures.hpp"
#include "dtb/probe/value.hpp"

namespace dtb::gen {

// The rule tables of one slice and its mirror, given the slice's game-theoretic values.
template <class R>
class RuleTableSolver {
  public:
    // finished: values with fresh counters of every input; class_thresholds: the rule tables of
    // the inputs in a class; phase_seeds: filled by the theoretical seed pass (PhaseSeeds::record).
    // Which shortcuts from the game's codes (use_game) are taken: dtb gen takes both; the tests
    // compare each with a full solve.
    enum class Shortcuts { none, repair_only, repair_without_fallback, copy_and_repair };
    // cache: the one the solves' arrays map from.
    RuleTableSolver(Material m, MappingCache& cache, const FinishedTables<R>& finished,
                    const FinishedRuleTables<R>& class_thresholds, PhaseSeeds<R>& phase_seeds, PassProgress progress,
                    Shortcuts shortcuts = Shortcuts::copy_and_repair, int threads = 0)
        : m_(m),
          cache_(&cache),
          fresh_(finished),
          finished_(class_thresholds),
          progress_(std::move(progress)),
          phase_seeds_(phase_seeds),
          shortcuts_(shortcuts),
          threads_(threads) {
        indices_.emplace_back(m);
        if (m.mirrored() != m) indices_.emplace_back(m.mirrored());
        results_.keep_in(cache.work_dir());
    }

    // The game's values and its DTC, per side of the solver: the phase solves then start from the
    // rule codes they give (conversion_code), copying the king phases that cannot differ
    // (AgreeingPhases) and repairing the rest (RuleRepair, gen/rule_repair.hpp). dtc is overwritten with the
    // codes and kept until the phase solves are done.
    void use_game(std::vector<std::span<const ValueCode>> values, std::vector<BigArray<std::uint16_t>> dtc) {
        for (std::size_t s = 0; s < dtc.size(); ++s) {
            BigArray<std::uint16_t>& codes = dtc[s];
            const std::span<const ValueCode> v = values[s];
            parallel_for(
                codes.size(),
                [&](std::uint64_t i) {
                    // Every game win or loss has a DTC (0 only for a loss without a move); a code that
                    // read as open or unknown would corrupt the repair.
                    assert(is_draw(v[i]) ||
                           (codes[i] != SliceSolver<R>::kDtcUnknown && (codes[i] > 0 || is_loss(v[i]))));
                    codes[i] = conversion_code(v[i], codes[i]);
                },
                {}, threads_);
        }
        conversion_codes_.clear();
        for (BigArray<std::uint16_t>& codes : dtc) conversion_codes_.emplace_back(*cache_).flat() = std::move(codes);
    }
    // The codes use_game made (conversion_code of each position), of the side of material x, while
    // solve() runs (its sink may read them); empty without use_game.
    std::span<const ValueCode> conversion_codes(const Material& x) const {
        for (std::size_t s = 0; s < indices_.size() && s < conversion_codes_.size(); ++s)
            if (indices_[s].material() == x) return {conversion_codes_[s].data(), conversion_codes_[s].size()};
        return {};
    }
    // A rule table's file entry of a position outside the counting classes: 0 at a capture
    // position (don't care: its captures give it), else its rule value as a residual entry against
    // the game's DTW and its conversion code (docs/FORMAT.md; TableWriter::write_distances).
    static std::uint16_t file_entry(bool capture, ValueCode rule, ValueCode game, ValueCode code) {
        return capture ? std::uint16_t{0}
                       : format::residual_entry(rule, static_cast<std::uint16_t>(distance_of(game)),
                                                static_cast<std::uint16_t>(distance_of(code)));
    }
    // The rule value of a position in no counting class whose phase's exits are all worth what
    // they are in the game: the threshold is its DTC (every exit, a capture or a man move, is a
    // conversion worth one ply, as DTC counts them).
    static constexpr ValueCode conversion_code(ValueCode game, std::uint16_t dtc) {
        return is_win(game) ? win_in(dtc) : is_loss(game) ? loss_in(dtc) : kValueDraw;
    }

    // Solves every rule table of the slice and its mirror, handing each to sink(material,
    // metric, values) as soon as it is done; stops at the first error the sink returns.
    using Sink = std::function<format::Status(const Material&, format::Metric, BigArray<ValueCode>)>;
    format::Status solve(const Sink& sink) {
        for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
            const CountClass c = count_class(m_, rules);
            Values values = c == CountClass::ffjd_small ? solve_ffjd_small()
                            : c == CountClass::none     ? solve_phases(rules)
                                                        : solve_class(rules, c, /*carried=*/false);
            if (format::Status st = hand_over(sink, rule_metric(rules), std::move(values)); !st) return st;
            if (rules == CountingRules::ffjd && is_ffjd_carried(m_)) {
                values = solve_class(rules, CountClass::sixteen, /*carried=*/true);
                if (format::Status st = hand_over(sink, format::Metric::ffjd16, std::move(values)); !st) return st;
            }
        }
        std::vector<PairArray<ValueCode>>().swap(conversion_codes_);
        return {};
    }

    // One side's rule table solved by blocks, for the sink: its file's entries (a capture
    // position's as a residual entry, as write_rule_table makes them: docs/FORMAT.md), read part
    // by part in index order: read(first, out) fills out with entries [first, first + out.size()).
    struct StreamedTable {
        Material material;
        format::Metric metric;
        std::uint64_t entries = 0;
        std::uint16_t max_value = 0;  // the largest entry
        std::function<void(std::uint64_t first, std::span<std::uint16_t> out)> read;
    };
    using BlockSink = std::function<format::Status(const StreamedTable&)>;
    // The same tables as use_game and solve, from a game solved by blocks whose phase seeds are
    // held by its blocks (PhaseSeeds::hold_by_blocks): the conversion codes, the phase solves and
    // the tables' entries go level by level, and a level's results wait compressed until a side
    // is gathered for the sink. keep_values: each rule set's values are kept too, compressed, for
    // rule_values and for_each_level_values, until release_results. Only where
    // rule_tables_by_blocks_of (gen/rule_blocks.hpp).
    format::Status solve_by_blocks(const SliceSolver<R>& game, const BlockSink& sink, bool keep_values) {
        assert(rule_tables_by_blocks_of<R>(m_) && game.blocks() && phase_seeds_.by_blocks());
        const SolverBlocks<R>& g = *game.blocks();
        layout_ = &g.layout;
        keep_values_ = keep_values;
        for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
            hold_codes_by_blocks(g.layout);
            solve_phases_by_blocks(rules, g);
            code_blocks_.reset();
            std::vector<PairArray<ValueCode>>().swap(conversion_codes_);
            for (std::size_t s = 0; s < indices_.size(); ++s) {
                const int side = static_cast<int>(s);
                const SideReader reader(g.layout, results_, side, indices_[s].size(), threads_);
                const StreamedTable table{indices_[s].material(), rule_metric(rules), indices_[s].size(),
                                          largest_entry(side), [&](std::uint64_t first, std::span<std::uint16_t> out) {
                                              reader.read<std::uint16_t>(kEntries, first, out);
                                          }};
                if (format::Status st = sink(table); !st) return st;
            }
            for (std::size_t l = 0; l < g.layout.num_blocks(); ++l) results_.erase(kEntries, l);
        }
        return {};
    }
    // After solve_by_blocks with keep_values: side s's values under a rule set, in index order.
    BigArray<ValueCode> rule_values(CountingRules rules, int side) const {
        return gathered<ValueCode>(values_kind(rules), side);
    }
    // The same level by level: f(level, its values in block order).
    void for_each_level_values(CountingRules rules,
                               const std::function<void(std::size_t, std::span<const ValueCode>)>& f) const {
        BigArray<ValueCode> values(*cache_);
        for (std::size_t l = 0; l < layout_->num_blocks(); ++l) {
            values.resize(layout_->sizes[l]);
            results_.read(values_kind(rules), l, std::span<ValueCode>(values), threads_);
            f(l, std::span<const ValueCode>(values));
        }
    }
    void release_results() { results_.clear(); }

  private:
    using G = typename R::Geometry;
    using Values = std::vector<BigArray<ValueCode>>;  // per side of the solver
    class AgreeingPhases;

    format::Status hand_over(const Sink& sink, format::Metric metric, Values values) const {
        for (std::size_t s = 0; s < indices_.size(); ++s)
            if (format::Status st = sink(indices_[s].material(), metric, std::move(values[s])); !st) return st;
        return {};
    }

    // Rule value with fresh counters of a position in another slice.
    Wdl fresh_elsewhere(CountingRules rules, const Position& next) const { return fresh_.fresh(rules, next); }
    auto fresh_of() const {
        return [this](CountingRules rules, const Position& next) { return fresh_elsewhere(rules, next); };
    }

    // No class: king phases by the 25-move budget, exits valued with fresh counters. A man move
    // that stays in the slice leads to a position of this very table with more advanced men: the
    // solver handles phases by decreasing advancement (SliceSolver::solve_values), so its value
    // is final when it is read.
    Values solve_phases(CountingRules rules) {
        SliceSolver<R>* self = nullptr;
        std::unique_ptr<AgreeingPhases> like_game;
        const bool from_game = shortcuts_ != Shortcuts::none && !conversion_codes_.empty();
        if (from_game && copies_phases()) {
            if (every_phase_agrees(rules)) return copy_of_game(rules);
            like_game = std::make_unique<AgreeingPhases>(*this, rules, /*decide_now=*/true);
        }
        SliceSolver<R> solver(m_, *cache_, phase_valuation(rules, from_game, self, like_game.get()),
                              named(std::string(to_string(rules))), threads_);
        self = &solver;
        solver.solve_values();
        tally(rules, solver, like_game.get());
        Values out;
        for (int s = 0; s < solver.num_sides(); ++s) out.push_back(solver.release_values(s));
        return out;
    }

    // The same by blocks: each level's conversion codes made from the game's store when it is
    // opened, its results kept in results_ when its values are final.
    void solve_phases_by_blocks(CountingRules rules, const SolverBlocks<R>& g) {
        SliceSolver<R>* self = nullptr;
        std::unique_ptr<AgreeingPhases> like_game;
        const bool from_game = shortcuts_ != Shortcuts::none;
        if (from_game && copies_phases()) {
            if (every_level_agrees(rules, g)) return copy_levels_of_game(rules, g);
            like_game = std::make_unique<AgreeingPhases>(*this, rules, /*decide_now=*/false);
        }
        SliceSolver<R> solver(m_, *cache_, phase_valuation(rules, from_game, self, like_game.get()),
                              named(std::string(to_string(rules))), threads_);
        self = &solver;
        BlockHooks hooks;
        hooks.opened = [&](std::size_t l) {
            open_codes(l, g);
            phase_seeds_.load_level(l);
            if (like_game) like_game->decide_seeds(g.layout.blocks[l]);
        };
        hooks.valued = [&](std::size_t l, std::span<const ValueCode> values) {
            phase_seeds_.close_level(l);
            keep_level_results(rules, l, values, g);
        };
        hooks.done = [&](std::size_t l) { code_blocks_->close(l); };
        solver.solve_values_by_blocks(g.layout, hooks);
        tally(rules, solver, like_game.get());
    }

    // Deciding a phase costs more than solving one of a few positions: slices with no king (one
    // position per phase) are solved throughout.
    bool copies_phases() const {
        constexpr std::uint64_t kSmallestCopiedPhase = 16;
        return shortcuts_ == Shortcuts::copy_and_repair && indices_[0].kings_per_config() >= kSmallestCopiedPhase;
    }
    void tally(CountingRules rules, const SliceSolver<R>& solver, const AgreeingPhases* like_game) {
        if (like_game) refused_for_reached_ += like_game->refused_for_reached();
        repaired_[rule_set_slot(rules)] += solver.repaired_positions();
        solved_in_full_[rule_set_slot(rules)] += solver.scopes_solved_in_full();
    }

    // The valuation of a phase solve: king phases by the 25-move budget, man moves and captures
    // valued with fresh counters; from_game: repaired from the conversion codes, and, with
    // like_game, whole phases copied from them. self: the solver, once it exists.
    MoveValuation phase_valuation(CountingRules rules, bool from_game, SliceSolver<R>*& self,
                                  AgreeingPhases* like_game) {
        MoveValuation valuation;
        if (like_game) {
            valuation.known = [this, &self, like_game, rules](int s, std::uint64_t men_config) -> const ValueCode* {
                if (!like_game->same(*self, s, men_config)) return nullptr;
                const auto side = static_cast<std::size_t>(s);
                const std::uint64_t kpc = indices_[side].kings_per_config();
                copied_from_game_[rule_set_slot(rules)] += kpc;
                return conversion_codes_[side].run(men_config, kpc);
            };
        }
        if (from_game) {
            // The rest is repaired from the game's codes: the counting rules only ever turn an
            // exit's value (a win or a loss) into a draw, so every rule value is the game's code
            // or weaker (slower, or drawn).
            MoveValuation::Reference reference;
            for (const PairArray<ValueCode>& codes : conversion_codes_) reference.values.push_back(&codes);
            reference.exits_like = [this, rules](int s, std::uint64_t i) {
                return phase_seeds_.exits_like_game(rules, s, i);
            };
            reference.same_exit = &same_exit_as_game;
            reference.fall_back = shortcuts_ != Shortcuts::repair_without_fallback;
            valuation.reference = std::move(reference);
        }
        valuation.man_moves_inside = false;
        valuation.exit = [this, &self, rules](const Position& next, const Move& m) {
            if (!m.is_capture() && !m.promotes)  // a man move inside the slice
                return value_of_fresh_exit(fresh_value(self->value_of(next), CountClass::none));
            return rule_exit_value(finished_, RuleTableKind{rules, CountClass::none, false}, next, fresh_of());
        };
        valuation.prepared = [this, rules](int s, std::uint64_t i) { return phase_seeds_.seed(rules, s, i); };
        return valuation;
    }

    // By blocks: the conversion codes held by the game's blocks, a level at a time.
    void hold_codes_by_blocks(const BlockLayout& layout) {
        conversion_codes_.clear();
        std::vector<PairArray<ValueCode>*> sides;
        std::vector<std::uint64_t> configs;
        for (std::size_t s = 0; s < indices_.size(); ++s) conversion_codes_.emplace_back(*cache_);
        for (std::size_t s = 0; s < indices_.size(); ++s) {
            sides.push_back(&conversion_codes_[s]);
            configs.push_back(indices_[s].num_men_configs());
        }
        code_blocks_.emplace(layout, std::move(sides), std::move(configs), indices_[0].kings_per_config(), *cache_);
    }
    // Level l's conversion codes, from the game's values and DTC (use_game's, level by level);
    // its game values stay in level_game_values_ for keep_level_results.
    void open_codes(std::size_t l, const SolverBlocks<R>& g) {
        const std::span<ValueCode> codes = code_blocks_->open_unfilled(l);
        level_game_values_.resize(codes.size());
        g.store.read(SolverBlocks<R>::kValue, l, std::span<ValueCode>(level_game_values_), threads_);
        BigArray<std::uint16_t> dtc(*cache_);
        dtc.resize(codes.size());
        g.store.read(SolverBlocks<R>::kDtc, l, std::span<std::uint16_t>(dtc), threads_);
        const std::span<const ValueCode> v(level_game_values_);
        parallel_for(
            codes.size(),
            [&](std::uint64_t k) {
                assert(is_draw(v[k]) || (dtc[k] != SliceSolver<R>::kDtcUnknown && (dtc[k] > 0 || is_loss(v[k]))));
                codes[k] = conversion_code(v[k], dtc[k]);
            },
            {}, threads_);
    }
    // Level l's final rule values (in block order) kept, with its tables' entries: a capture
    // position's entry is 0, a quiet one's its residual entry against the game's DTW and the
    // conversion code (write_rule_table's, docs/FORMAT.md).
    void keep_level_results(CountingRules rules, std::size_t l, std::span<const ValueCode> values,
                            const SolverBlocks<R>& g) {
        BigArray<std::uint8_t> capture(*cache_);
        capture.resize(values.size());
        g.store.read(SolverBlocks<R>::kCapture, l, std::span<std::uint8_t>(capture), threads_);
        const std::span<const ValueCode> codes = code_blocks_->storage(l);
        const std::span<const ValueCode> game(level_game_values_);
        BigArray<std::uint16_t> entries(*cache_);
        entries.resize(values.size());
        parallel_for(
            values.size(),
            [&](std::uint64_t k) { entries[k] = file_entry(capture[k] != 0, values[k], game[k], codes[k]); }, {},
            threads_);
        results_.put<std::uint16_t>(kEntries, l, std::span<const std::uint16_t>(entries), threads_);
        if (keep_values_) results_.put<ValueCode>(values_kind(rules), l, values, threads_);
        free_array(level_game_values_);
    }
    // The largest of side's kept file entries.
    std::uint16_t largest_entry(int side) const {
        std::atomic<std::uint16_t> largest{0};
        for_each_side_run<std::uint16_t>(
            *layout_, results_, kEntries, side,
            [&](std::uint64_t, std::span<const std::uint16_t> entries) {
                if (entries.empty()) return;
                const std::uint16_t m = *std::max_element(entries.begin(), entries.end());
                std::uint16_t seen = largest.load();
                while (m > seen && !largest.compare_exchange_weak(seen, m)) {
                }
            },
            threads_);
        return largest.load();
    }
    template <class T>
    BigArray<T> gathered(int kind, int side) const {
        BigArray<T> out(*cache_);
        out.resize(indices_[static_cast<std::size_t>(side)].size());  // every entry written below
        gather_side<T>(*layout_, results_, kind, side, out, threads_);
        return out;
    }
    // every_phase_agrees, level by level.
    bool every_level_agrees(CountingRules rules, const SolverBlocks<R>& g) {
        for (std::size_t l = 0; l < g.layout.num_blocks(); ++l) {
            open_codes(l, g);
            phase_seeds_.load_level(l);
            const std::span<const std::uint16_t> seeds = phase_seeds_.level(l);
            const std::span<const ValueCode> codes = code_blocks_->storage(l);
            std::atomic<bool> all{true};
            parallel_for_chunks(
                codes.size(),
                [&](std::uint64_t begin, std::uint64_t end) {
                    for (std::uint64_t k = begin; k < end && all.load(std::memory_order_relaxed); ++k)
                        if (!agrees_with_game(rules, seeds[k], codes[k])) all.store(false, std::memory_order_relaxed);
                },
                {}, threads_);
            phase_seeds_.close_level(l);
            code_blocks_->close(l);
            free_array(level_game_values_);
            if (!all.load()) return false;
        }
        return true;
    }
    // copy_of_game, level by level.
    void copy_levels_of_game(CountingRules rules, const SolverBlocks<R>& g) {
        for (std::size_t l = 0; l < g.layout.num_blocks(); ++l) {
            open_codes(l, g);
            keep_level_results(rules, l, code_blocks_->storage(l), g);
            code_blocks_->close(l);
            copied_from_game_[rule_set_slot(rules)] += g.layout.sizes[l];
        }
        ++copied_whole_;
    }

    // Whether a man move into a position whose rule code is `solved` is worth what it is in the
    // game, where the position's code is `code`: a man move is worth its position's value with
    // fresh counters; the game's code has the game's value. (MoveValuation::Reference::same_exit.)
    static bool same_exit_as_game(ValueCode solved, ValueCode code) {
        return fresh_value(solved, CountClass::none) == wdl_of(code);
    }
    // What every_phase_agrees asks of each position: its exits worth, with fresh counters, what
    // they are in the game, and its game code keeping its value with fresh counters.
    static bool agrees_with_game(CountingRules rules, std::uint16_t seed, ValueCode code) {
        return PhaseSeeds<R>::exits_like_game(rules, seed) && same_exit_as_game(code, code);
    }

    // Whether AgreeingPhases would copy every king phase of the pair, decided without a solve:
    // every position's exits are worth, with fresh counters, what they are in the game, and
    // every game code keeps its value with fresh counters. Then, by induction from the most
    // advanced configurations down, each phase's seeds agree and the configurations its man
    // moves reach, copied before it, are like the game's (SliceSolver::config_like_reference,
    // which asks same_exit_as_game(code, code)): the whole table is the game's codes. Usual
    // outside the counting classes under fmjd (docs/GENERATOR.md): copying them at once spares
    // the solver's arrays and its phase-by-phase copy.
    bool every_phase_agrees(CountingRules rules) const {
        for (std::size_t side = 0; side < indices_.size(); ++side) {
            const BigArray<ValueCode>& codes = conversion_codes_[side].flat();
            std::atomic<bool> all{true};
            parallel_for_chunks(
                codes.size(),
                [&](std::uint64_t begin, std::uint64_t end) {
                    for (std::uint64_t i = begin; i < end; ++i) {
                        if (!agrees_with_game(rules, phase_seeds_.seed_word(static_cast<int>(side), i), codes[i])) {
                            all.store(false, std::memory_order_relaxed);
                            return;
                        }
                        if ((i & 0xFFFF) == 0 && !all.load(std::memory_order_relaxed)) return;
                    }
                },
                {}, threads_);
            if (!all.load()) return false;
        }
        return true;
    }
    // The game's codes as the rule table (every_phase_agrees), counted as copied phases.
    Values copy_of_game(CountingRules rules) {
        Values out;
        for (std::size_t side = 0; side < indices_.size(); ++side) {
            const BigArray<ValueCode>& codes = conversion_codes_[side].flat();
            BigArray<ValueCode>& v = out.emplace_back(codes.size(), codes.get_allocator());  // written below
            parallel_for(
                codes.size(), [&](std::uint64_t i) { v[i] = codes[i]; }, {}, threads_);
            copied_from_game_[rule_set_slot(rules)] += codes.size();
        }
        ++copied_whole_;
        return out;
    }

    // Which king phases of a phase solve keep the game's codes (conversion_codes) whole, so
    // that they are copied instead of repaired.
    //
    // A phase is a men configuration together with its partner on the other side (the same men,
    // reversed), which king moves alternate between. Its values are a function of its positions'
    // seeds and of the values, with fresh counters, of the positions its plain man moves reach, in
    // more advanced configurations, solved before it. The phase solve with those inputs is the
    // DTC recursion: every exit is worth one ply (a win, a draw or a loss in 1), a win takes its
    // quickest way to a loss, a loss its longest. So when every exit of its positions is worth,
    // with fresh counters, what it is worth in the game (PhaseSeeds::exits_like_game), and every
    // configuration its man moves reach has, with fresh counters, the game's values, the phase's
    // rule values are the game's: win_in(DTC), loss_in(DTC) or a draw. Deciding that per phase
    // costs next to nothing (the repair looks at every position's exits). The reached
    // configurations are compared by the solver's own check (SliceSolver::config_like_reference,
    // against the game's codes, which have the game's values).
    // Man moves are taken from the men alone (a king on the square blocks some of them: counting
    // them anyway can only copy less). Asked by the solver level by level, from its own thread.
    class AgreeingPhases {
        // Man moves must leave the advancement level (no sideways moves), so that the
        // configurations they reach are solved before the phase is decided.
        static_assert(!SliceIndex<R>::kRowGroups);

      public:
        // decide_now: read every configuration's seeds now; else a scope's at a time (decide_seeds),
        // before it is solved.
        AgreeingPhases(const RuleTableSolver& owner, CountingRules rules, bool decide_now)
            : owner_(owner), rules_(rules) {
            for (std::size_t side = 0; side < owner.indices_.size(); ++side) {
                const SliceIndex<R>& index = owner.indices_[side];
                seeds_agree_.emplace_back(index.num_men_configs(), 0);
                same_.emplace_back(index.num_men_configs(), kUndecided);
                if (decide_now) decide_seeds({Range{static_cast<int>(side), 0, index.size()}});
            }
        }
        // Whether every position of each configuration of scope has its exits like the game's
        // (its seeds are read now).
        void decide_seeds(const Scope& scope) {
            for (const Range& r : scope) {
                const std::uint64_t kpc = owner_.indices_[static_cast<std::size_t>(r.side)].kings_per_config();
                std::vector<char>& agree = seeds_agree_[static_cast<std::size_t>(r.side)];
                const std::uint64_t first = r.begin / kpc;
                parallel_for((r.end - r.begin) / kpc,
                             [&](std::uint64_t k) {
                                 const std::uint64_t mc = first + k;
                                 bool all = true;
                                 for (std::uint64_t i = mc * kpc; i < (mc + 1) * kpc && all; ++i)
                                     all = owner_.phase_seeds_.exits_like_game(rules_, r.side, i);
                                 agree[mc] = all;
                             },
                             {}, owner_.threads_);
            }
        }
        // Whether configuration (s, mc) takes the game's codes; solver holds the values of the
        // rule set being solved so far.
        bool same(SliceSolver<R>& solver, int s, std::uint64_t mc) {
            signed char& decision = same_[static_cast<std::size_t>(s)][mc];
            if (decision == kUndecided) {
                const int partner_side = other(s);
                const std::uint64_t partner = reversed_config(owner_.indices_[static_cast<std::size_t>(s)], mc,
                                                              owner_.indices_[static_cast<std::size_t>(partner_side)]);
                const bool seeds = seeds_agree_[static_cast<std::size_t>(s)][mc] &&
                                   seeds_agree_[static_cast<std::size_t>(partner_side)][partner];
                const bool ok = seeds && alone_ok(solver, s, mc) && alone_ok(solver, partner_side, partner);
                if (seeds && !ok) ++refused_for_reached_;
                decision = same_[static_cast<std::size_t>(partner_side)][partner] = ok ? 1 : 0;
            }
            return decision == 1;
        }
        // Phases whose exits all agree but whose man moves reach a configuration whose fresh
        // values differ from the game's.
        std::uint64_t refused_for_reached() const { return refused_for_reached_; }

      private:
        static constexpr signed char kUndecided = -1;
        int other(int s) const { return owner_.indices_.size() == 1 ? 0 : 1 - s; }
        bool alone_ok(SliceSolver<R>& solver, int s, std::uint64_t mc) {
            if (!seeds_agree_[static_cast<std::size_t>(s)][mc]) return false;
            const int next_side = other(s);
            bool ok = true;
            for_each_config_after_man_step(
                owner_.indices_[static_cast<std::size_t>(s)], mc, owner_.indices_[static_cast<std::size_t>(next_side)],
                [&](std::uint64_t next) { ok = ok && solver.config_like_reference(next_side, next); });
            return ok;
        }
        const RuleTableSolver& owner_;
        CountingRules rules_;
        std::vector<std::vector<char>> seeds_agree_;
        std::vector<std::vector<signed char>> same_;  // per side and men configuration
        std::uint64_t refused_for_reached_ = 0;
    };

    // A counting class: the class budget, every non-converting move inside.
    Values solve_class(CountingRules rules, CountClass c, bool carried) {
        MoveValuation valuation;
        valuation.man_moves_inside = true;
        valuation.exit = [this, g = RuleTableKind{rules, c, carried}](const Position& next, const Move&) {
            return rule_exit_value(finished_, g, next, fresh_of());
        };
        SliceSolver<R> solver(m_, *cache_, std::move(valuation),
                              named(std::string(to_string(rules)) + (carried ? "16" : "") + " class"), threads_);
        solver.solve_values();
        Values out;
        for (int s = 0; s < solver.num_sides(); ++s) out.push_back(solver.release_values(s));
        return out;
    }

    // ffjd 2K v K and K v K: drawn at the first position without a capture for the side to move
    // (a side without a move has lost first); capture positions take their best capture.
    Values solve_ffjd_small() {
        Values out;
        for (std::size_t s = 0; s < indices_.size(); ++s) {
            const auto& index = indices_[s];
            BigArray<ValueCode>& v = out.emplace_back(*cache_);
            assign_parallel(v, index.size(), kValueDraw, threads_);
            parallel_for_positions(
                index,
                [&](std::uint64_t i, const Position& p) {
                    thread_local MoveList moves;
                    generate_moves<R>(p, moves);
                    if (moves.empty()) {
                        v[i] = loss_in(0);
                        return;
                    }
                    if (!moves.front().is_capture()) return;  // captures are compulsory: all or none
                    const Position rp = reversed<G>(p);
                    ValueCode best = kValueUnknown;
                    for (const Move& m : moves) {
                        const Position next = reversed_after<G>(rp, m);
                        best = better(best, next.of(Color::white) == 0
                                                ? win_in(1)
                                                : value_one_ply_before(finished_.code(format::Metric::ffjd, next)));
                    }
                    v[i] = best;
                },
                {}, threads_);
        }
        return out;
    }

    PassProgress named(const std::string& what) const {
        if (!progress_) return {};
        return [this, what](const std::string& pass, std::uint64_t done, std::uint64_t total) {
            progress_(what + " " + pass, done, total);
        };
    }

  public:
    // Positions whose rule value (fmjd or ffjd) was copied from the game's DTC in whole phases.
    std::uint64_t copied_from_game(CountingRules rules) const { return copied_from_game_[rule_set_slot(rules)]; }
    // Positions re-solved by the repair from the game's codes (the others took their code).
    std::uint64_t repaired(CountingRules rules) const { return repaired_[rule_set_slot(rules)]; }
    // Scopes (advancement levels) solved in full because their repair would have grown too large.
    std::uint64_t scopes_solved_in_full(CountingRules rules) const { return solved_in_full_[rule_set_slot(rules)]; }
    // King phases not copied although their exits agree with the game (a configuration their man
    // moves reach came out different).
    std::uint64_t phases_refused_for_reached() const { return refused_for_reached_; }
    // Rule tables (of the pair, each rule set counting once) copied from the game's codes whole,
    // without a solve, because every phase agreed (every_phase_agrees).
    std::uint64_t tables_copied_whole() const { return copied_whole_; }

  private:
    Material m_;
    MappingCache* cache_;
    const FinishedTables<R>& fresh_;
    const FinishedRuleTables<R>& finished_;
    std::vector<SliceIndex<R>> indices_;  // of the slice and its mirror, as in SliceSolver
    PassProgress progress_;
    PhaseSeeds<R>& phase_seeds_;
    Shortcuts shortcuts_;
    int threads_ = 0;  // of every parallel loop (0: all cores)
    std::uint64_t refused_for_reached_ = 0, copied_whole_ = 0;
    std::uint64_t copied_from_game_[2] = {0, 0}, repaired_[2] = {0, 0}, solved_in_full_[2] = {0, 0};
    std::vector<PairArray<ValueCode>> conversion_codes_;  // per side (use_game; by blocks, held by them)
    // By blocks: the conversion codes' blocks, the game values of the level being solved, and the
    // results of the levels solved: the file entries of the rule set being solved, and, kept,
    // each rule set's values.
    enum ResultKind : int { kEntries = 0, kFmjdValues = 1, kFfjdValues = 2 };
    static int values_kind(CountingRules rules) { return rules == CountingRules::fmjd ? kFmjdValues : kFfjdValues; }
    const BlockLayout* layout_ = nullptr;  // the game's
    bool keep_values_ = false;
    std::optional<BlockArray<ValueCode>> code_blocks_;
    BigArray<ValueCode> level_game_values_{*cache_};
    BlockStore results_;
};

}  // namespace dtb::gen
