// A pair's step "solve the rule tables" (variants with counting rules): the rule tables solved
// from the game's values and DTC (gen/rule_tables.hpp), each written as soon as it is done and
// kept in memory for the later pairs that read it.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <span>

#include "dtb/format/format.hpp"
#include "dtb/gen/big_array.hpp"
#include "dtb/gen/dont_care.hpp"
#include "dtb/gen/finished_rule_tables.hpp"
#include "dtb/gen/finished_tables.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/phase_seeds.hpp"
#include "dtb/gen/rule_tables.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "dtb/gen/table_writer.hpp"
#include "dtb/probe/rule_captures.hpp"

namespace dtb::gen {

// What the step did, for the slice line: per rule set (fmjd, ffjd), the positions whose
// threshold was copied from the game's DTC or repaired, and the levels solved in full.
struct RuleTablesOutcome {
    std::uint64_t bytes = 0;
    double written_seconds = 0;  // of the step's time, in making tables residual, compressing, writing
    std::uint64_t copied[2] = {0, 0}, repaired[2] = {0, 0}, in_full[2] = {0, 0};
};

// The tables of the step and what they read and feed.
template <class R>
struct RuleTablesInputs {
    const Material& m;
    MappingCache& cache;   // the one the rule solves' arrays map from
    SliceSolver<R>& game;  // the game's solve, its values and capture flags
    PhaseSeeds<R>& phase_seeds;
    FinishedTables<R>& finished;
    FinishedRuleTables<R>& finished_rules;
    const TableWriter<R>& writer;
    std::function<bool(const Material&)> read_later;  // a later pair of the run reads it
    PassProgress progress;
    int threads = 0;  // of every parallel loop (0: all cores)
};

// One rule table as it goes to its file. Outside the counting classes a capture position's rule
// value is its captures' (probe/rule_captures.hpp): don't care; stored, where the game's DTC
// gives it, as an exception to the conversion code of the slice's DTW and DTC (docs/FORMAT.md).
template <class R>
Expected<std::uint64_t> write_rule_table(const RuleTablesInputs<R>& in, const RuleTableSolver<R>& rules,
                                         const Material& x, format::Metric metric, BigArray<ValueCode>& values) {
    bool residual = false;
    if (rule_captures_dont_care(x)) {
        const SliceSolver<R>& game = in.game;
        const int side = game.side_of(x);
        const std::span<const std::uint8_t> flags(game.side(side).capture.data(), game.side(side).capture.size());
        if (game.side(side).index.material() != x || flags.size() != values.size())
            return Error{"no capture flags for " + x.name()};
        const std::span<const ValueCode> codes = rules.conversion_codes(x);
        const std::span<const ValueCode> values_of_game(game.side(side).value);
        if (metric != format::Metric::ffjd16 && codes.size() == values.size() &&
            values_of_game.size() == values.size()) {
            parallel_for(
                values.size(),
                [&](std::uint64_t i) {
                    values[i] = RuleTableSolver<R>::file_entry(flags[i] != 0, values[i], values_of_game[i], codes[i]);
                },
                {}, in.threads);
            residual = true;
        } else {
            fill_dont_care(values, flags, kValueDraw, in.threads);
        }
    }
    return in.writer.write_table(x, metric, values, residual);
}

// The step's time in making tables residual, compressing and writing, added up.
struct AddWrittenTime {
    explicit AddWrittenTime(double& t) : total(t) {}
    ~AddWrittenTime() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
    AddWrittenTime(const AddWrittenTime&) = delete;
    AddWrittenTime& operator=(const AddWrittenTime&) = delete;
    double& total;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

// The game solved by blocks (gen/rule_blocks.hpp): each table streamed side by side to its file.
// Then the values the later pairs read: each such side's game values adopted from the game's
// store, with each rule set's fresh values added level by level (adopted only now, they are not
// held beside the rule solves' arrays).
template <class R>
format::Status solve_rule_tables_by_blocks(const RuleTablesInputs<R>& in, RuleTableSolver<R>& rules,
                                           RuleTablesOutcome& out) {
    const auto store = [&](const typename RuleTableSolver<R>::StreamedTable& t) -> format::Status {
        const AddWrittenTime add_time(out.written_seconds);
        auto w = in.writer.write_streamed(t.material, t.metric, t.entries, t.max_value, t.read, in.cache,
                                          /*residual=*/true);
        if (!w) return format::Status(Error{w.error(), w.error_kind()});
        out.bytes += *w;
        return {};
    };
    const SliceSolver<R>& game = in.game;
    bool kept = false;
    for (int s = 0; s < game.num_sides(); ++s) kept = kept || in.read_later(game.side(s).index.material());
    if (format::Status st = rules.solve_by_blocks(game, store, kept); !st) return st;
    const BlockLayout& layout = game.blocks()->layout;
    for (int s = 0; s < game.num_sides(); ++s) {
        const Material x = game.side(s).index.material();
        if (!in.read_later(x)) continue;
        assert(!has_class_thresholds(x));
        auto a = in.finished.adopt_from_blocks(x, *game.blocks(), s);
        if (!a) return format::Status(Error{a.error(), a.error_kind()});
        for (CountingRules r : {CountingRules::fmjd, CountingRules::ffjd}) {
            rules.for_each_level_values(r, [&](std::size_t l, std::span<const ValueCode> values) {
                const Scope& level = layout.blocks[l];
                parallel_for_tasks(
                    level.size(),
                    [&](std::uint64_t k) {
                        const Range& range = level[k];
                        if (range.side != s) return;
                        in.finished.add_fresh_run(x, r, range.begin,
                                                  values.subspan(layout.starts[l][k], range.end - range.begin));
                    },
                    in.threads);
            });
        }
    }
    rules.release_results();
    return {};
}

// The game's arrays whole: the tables solved whole.
template <class R>
format::Status solve_rule_tables_whole(const RuleTablesInputs<R>& in, RuleTableSolver<R>& rules,
                                       RuleTablesOutcome& out) {
    if (in.phase_seeds.needed()) {
        std::vector<std::span<const ValueCode>> values;
        std::vector<BigArray<std::uint16_t>> dtc;
        for (int s = 0; s < in.game.num_sides(); ++s) {
            values.emplace_back(in.game.side(s).value.data(), in.game.side(s).value.size());
            dtc.push_back(in.game.release_dtc(s));
        }
        rules.use_game(std::move(values), std::move(dtc));
    }
    in.game.release_dtc();
    const auto store = [&](const Material& x, format::Metric metric, BigArray<ValueCode> values) -> format::Status {
        const AddWrittenTime add_time(out.written_seconds);
        const bool read_later = in.read_later(x);
        if (read_later && metric != format::Metric::ffjd16)
            in.finished.add_fresh(x, metric == format::Metric::fmjd ? CountingRules::fmjd : CountingRules::ffjd,
                                  values);
        auto w = write_rule_table(in, rules, x, metric, values);
        if (!w) return format::Status(Error{w.error(), w.error_kind()});
        out.bytes += *w;
        if (read_later && has_class_thresholds(x)) in.finished_rules.adopt(x, metric, std::move(values));
        return {};
    };
    return rules.solve(store);
}

// Solves and writes every rule table of the pair. The game's DTC goes to the rule solver (or is
// released when no rule set solves phases).
template <class R>
Expected<RuleTablesOutcome> solve_rule_tables(const RuleTablesInputs<R>& in) {
    RuleTablesOutcome out;
    RuleTableSolver<R> rules(in.m, in.cache, in.finished, in.finished_rules, in.phase_seeds, in.progress,
                             RuleTableSolver<R>::Shortcuts::copy_and_repair, in.threads);
    if (in.game.solved_by_blocks()) {
        if (format::Status written = solve_rule_tables_by_blocks(in, rules, out); !written)
            return Error{written.error(), written.error_kind()};
    } else if (format::Status written = solve_rule_tables_whole(in, rules, out); !written) {
        return Error{written.error(), written.error_kind()};
    }
    for (CountingRules r : {CountingRules::fmjd, CountingRules::ffjd}) {
        const int k = rule_set_slot(r);
        out.copied[k] = rules.copied_from_game(r);
        out.repaired[k] = rules.repaired(r);
        out.in_full[k] = rules.scopes_solved_in_full(r);
    }
    return out;
}

}  // namespace dtb::gen
