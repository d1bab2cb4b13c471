// The rule tables take the game's DTC codes for the king phases that cannot differ from them
// (RuleTableSolver::AgreeingPhases) and repair the rest from those codes (gen/rule_repair.hpp);
// the values must be those of a full solve, and every shortcut must be exercised. Every
// international slice of 4 pieces whose rule sets solve phases, from the default set.
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <span>
#include <vector>

#include "dtb/gen/finished_rule_tables.hpp"
#include "dtb/gen/finished_tables.hpp"
#include "dtb/gen/phase_seeds.hpp"
#include "dtb/gen/rule_tables.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "tests/support/gen_support.hpp"

using namespace dtb;

namespace {

using Tables = std::map<std::pair<std::string, int>, std::vector<ValueCode>>;

using Shortcuts = gen::RuleTableSolver<International>::Shortcuts;

struct CopyCounts {
    std::uint64_t copied = 0, repaired = 0, refused = 0, solved_in_full = 0, copied_whole = 0;
};

// A slice's game solved (whole, or by blocks with its phase seeds held by its blocks), for the
// rule solves that read it.
struct SolvedGame {
    // max_block_entries: by blocks, the levels larger than that split into groups of phases.
    SolvedGame(const Material& m, gen::FinishedTables<International>& finished, bool by_blocks,
               std::uint64_t max_block_entries = 0)
        : seeds(m, finished.cache(), 0,
                by_blocks ? gen::PhaseSeeds<International>::Holding::by_blocks
                          : gen::PhaseSeeds<International>::Holding::whole),
          solver(m, finished.cache(), finished.external()) {
        solver.observe_seeds([this](int side, std::uint64_t i, std::span<const std::uint16_t* const> exit_words,
                                    bool capture,
                                    int king_steps) { seeds.record(side, i, exit_words, capture, king_steps); });
        if (!by_blocks) {
            solver.solve();
            for (int s = 0; s < solver.num_sides(); ++s) seeds.record_draws(s, solver.side(s).value);
            return;
        }
        gen::BlockHooks hooks;
        hooks.laid_out = [this](const gen::BlockLayout& layout) { seeds.hold_by_blocks(layout); };
        hooks.opened = [this](std::size_t l) { seeds.open_level(l); };
        hooks.valued = [this](std::size_t l, std::span<const ValueCode> values) { seeds.finish_level(l, values); };
        solver.solve_by_blocks(hooks, max_block_entries);
    }
    gen::PhaseSeeds<International> seeds;
    gen::SliceSolver<International> solver;
};

void add_counts(const gen::RuleTableSolver<International>& rule_solver, CopyCounts& counts) {
    for (CountingRules r : {CountingRules::fmjd, CountingRules::ffjd}) {
        counts.copied += rule_solver.copied_from_game(r);
        counts.repaired += rule_solver.repaired(r);
    }
    counts.refused += rule_solver.phases_refused_for_reached();
    counts.copied_whole += rule_solver.tables_copied_whole();
    counts.solved_in_full +=
        rule_solver.scopes_solved_in_full(CountingRules::fmjd) + rule_solver.scopes_solved_in_full(CountingRules::ffjd);
}

// The rule tables of a game solved whole (its DTC copied: the game serves again).
Tables rule_tables(const Material& m, SolvedGame& game, gen::FinishedTables<International>& finished,
                   gen::FinishedRuleTables<International>& rules, Shortcuts shortcuts, CopyCounts& counts) {
    gen::MappingCache& cache = finished.cache();
    gen::RuleTableSolver<International> rule_solver(m, cache, finished, rules, game.seeds, {}, shortcuts);
    std::vector<std::span<const ValueCode>> values;
    std::vector<gen::BigArray<std::uint16_t>> dtc;
    for (int s = 0; s < game.solver.num_sides(); ++s) {
        const auto& side = game.solver.side(s);
        values.emplace_back(side.value.data(), side.value.size());
        gen::BigArray<std::uint16_t>& d = dtc.emplace_back(cache);
        d.resize(side.dtc.size());
        std::copy(side.dtc.flat().begin(), side.dtc.flat().end(), d.begin());
    }
    rule_solver.use_game(std::move(values), std::move(dtc));
    Tables out;
    auto st = rule_solver.solve(
        [&](const Material& x, format::Metric metric, gen::BigArray<ValueCode> values) -> format::Status {
            out[{x.name(), static_cast<int>(metric)}].assign(values.begin(), values.end());
            return {};
        });
    REQUIRE(st);
    add_counts(rule_solver, counts);
    return out;
}
Tables rule_tables(const Material& m, gen::FinishedTables<International>& finished,
                   gen::FinishedRuleTables<International>& rules, Shortcuts shortcuts, CopyCounts& counts) {
    SolvedGame game(m, finished, /*by_blocks=*/false);
    return rule_tables(m, game, finished, rules, shortcuts, counts);
}

// The same from a game solved by blocks (RuleTableSolver::solve_by_blocks).
Tables rule_tables_by_blocks(const Material& m, SolvedGame& game, gen::FinishedTables<International>& finished,
                             gen::FinishedRuleTables<International>& rules, Shortcuts shortcuts, CopyCounts& counts) {
    REQUIRE(game.seeds.by_blocks());
    gen::RuleTableSolver<International> rule_solver(m, finished.cache(), finished, rules, game.seeds, {}, shortcuts);
    Tables out;
    auto st = rule_solver.solve_by_blocks(
        game.solver,
        [&](const gen::RuleTableSolver<International>::StreamedTable& t) -> format::Status {
            REQUIRE(t.entries == SliceIndex<International>(t.material).size());
            // Read in three uneven parts: every entry at most the largest announced, which one reaches.
            std::vector<std::uint16_t> entries(t.entries);
            const std::uint64_t a = t.entries / 3, b = t.entries - t.entries / 5;
            t.read(0, std::span<std::uint16_t>(entries.data(), a));
            t.read(a, std::span<std::uint16_t>(entries.data() + a, b - a));
            t.read(b, std::span<std::uint16_t>(entries.data() + b, t.entries - b));
            if (!entries.empty()) CHECK(*std::max_element(entries.begin(), entries.end()) == t.max_value);
            return {};
        },
        /*keep_values=*/true);
    REQUIRE(st);
    for (int s = 0; s < game.solver.num_sides(); ++s) {
        const Material x = game.solver.side(s).index.material();
        for (CountingRules r : {CountingRules::fmjd, CountingRules::ffjd}) {
            const gen::BigArray<ValueCode> values = rule_solver.rule_values(r, s);
            const format::Metric metric = r == CountingRules::fmjd ? format::Metric::fmjd : format::Metric::ffjd;
            out[{x.name(), static_cast<int>(metric)}].assign(values.begin(), values.end());
        }
    }
    add_counts(rule_solver, counts);
    return out;
}

// The finished slices pair m's captures and promotions lead to, with their rule tables.
void load_inputs(const Material& m, gen::FinishedTables<International>& finished,
                 gen::FinishedRuleTables<International>& rules) {
    for (const Material& side : {m, m.mirrored()})
        for (const Material& x : verify::successor_materials(side))
            if (x != m && x != m.mirrored()) {
                REQUIRE(finished.load(x).ok());
                REQUIRE(rules.load(x).ok());
            }
}

void require_equal(const Tables& solved, const Tables& copied) {
    REQUIRE(copied.size() == solved.size());
    for (const auto& [key, values] : solved) {
        const std::vector<ValueCode>& copied_values = copied.at(key);
        REQUIRE(copied_values.size() == values.size());
        std::uint64_t differ = 0, first = 0;
        for (std::size_t i = 0; i < values.size(); ++i)
            if (values[i] != copied_values[i] && differ++ == 0) first = i;
        if (differ == 0) continue;
        const SliceIndex<International> index(*Material::parse(key.first));
        FAIL_CHECK(key.first << " metric " << key.second << ": " << differ << " values differ, the first at "
                             << to_fen<International>(index.unrank(first)) << ": solved " << values[first]
                             << ", copied " << copied_values[first]);
    }
}

}  // namespace

TEST_CASE("rule phases copied or repaired from DTC equal a full solve (international, 4 pieces)",
          "[gen][rules][plain-build]") {
    const auto& dir = test::generated_tables<International>(4);
    gen::MappingCache cache;
    gen::FinishedTables<International> finished(dir, cache);
    gen::FinishedRuleTables<International> rules(dir, cache);
    std::uint64_t slices = 0, positions = 0;
    CopyCounts none, repair_only, always_repair, both;
    for (const Material& m : all_materials<International>(4)) {
        if (m.pieces() != 4 || m.mirrored() < m) continue;
        if (count_class(m, CountingRules::fmjd) != CountClass::none &&
            count_class(m, CountingRules::ffjd) != CountClass::none)
            continue;
        INFO(m.name());
        load_inputs(m, finished, rules);
        const Tables solved = rule_tables(m, finished, rules, Shortcuts::none, none);
        require_equal(solved, rule_tables(m, finished, rules, Shortcuts::repair_only, repair_only));
        require_equal(solved, rule_tables(m, finished, rules, Shortcuts::repair_without_fallback, always_repair));
        require_equal(solved, rule_tables(m, finished, rules, Shortcuts::copy_and_repair, both));
        ++slices;
        positions += SliceIndex<International>(m).size() +
                     (m.mirrored() == m ? 0 : SliceIndex<International>(m.mirrored()).size());
    }
    INFO(slices << " slice pairs, " << positions << " positions (each in 2 rule tables at most); repair alone: "
                << repair_only.repaired << " re-solved, " << repair_only.solved_in_full
                << " scopes solved in full; never falling back: " << always_repair.repaired
                << " re-solved; copies first: " << both.copied << " copied, " << both.repaired << " re-solved, "
                << both.refused << " phases refused for a reached configuration, " << both.copied_whole
                << " tables copied whole");
    CHECK(slices >= 5);
    CHECK(none.copied + none.repaired == 0);
    // Each shortcut happens, and the repair re-solves some positions but not all.
    CHECK(repair_only.copied == 0);
    CHECK(repair_only.repaired > 0);
    CHECK(repair_only.repaired < positions / 4);
    // Without the fallback every scope is repaired, however far its closure grows.
    CHECK(always_repair.solved_in_full == 0);
    CHECK(always_repair.repaired >= repair_only.repaired);
    CHECK(both.copied > 0);
    CHECK(both.repaired > 0);
    CHECK(both.refused > 0);  // the comparison of reached configurations decided something
    // Some tables agree in every phase, and are copied without a solve; not all of them.
    CHECK(both.copied_whole > 0);
    CHECK(both.copied_whole < 2 * slices);
}

// The fmjd and ffjd tables of material in no counting class leave capture positions "don't
// care", and every reader resolves them from the captures with fresh counters
// (probe/rule_captures.hpp). That holds only if the solve gives exactly those values there: checked
// against the solve's own output, before any filling, for every such international slice of 3
// and 4 pieces. (The readers' side: tests/gen/probe_adjudicate.cpp and tests/tools/verify.cpp.)
TEST_CASE("rule tables: outside the counting classes a capture position is worth its captures with fresh counters",
          "[gen][rules][plain-build]") {
    const auto& dir = test::generated_tables<International>(4);
    gen::MappingCache cache;
    gen::FinishedTables<International> finished(dir, cache);
    gen::FinishedRuleTables<International> rules(dir, cache);
    std::uint64_t checked = 0, wins = 0, losses = 0, draws = 0;
    for (const Material& m : all_materials<International>(4)) {
        if (m.pieces() < 3 || m.mirrored() < m) continue;
        if (!rule_captures_dont_care(m)) continue;
        INFO(m.name());
        load_inputs(m, finished, rules);
        CopyCounts counts;
        const Tables solved = rule_tables(m, finished, rules, Shortcuts::copy_and_repair, counts);
        for (const auto& [key, values] : solved) {
            const Material x = *Material::parse(key.first);
            const auto metric = static_cast<format::Metric>(key.second);
            REQUIRE((metric == format::Metric::fmjd || metric == format::Metric::ffjd));
            const CountingRules rule_set = metric == format::Metric::fmjd ? CountingRules::fmjd : CountingRules::ffjd;
            const SliceIndex<International> index(x);
            MoveList scratch;
            for (std::uint64_t i = 0; i < index.size(); ++i) {
                const Position p = index.unrank(i);
                if (!has_capture<International>(p)) continue;
                const ValueCode resolved = rule_code_from_captures<International>(
                    p, scratch, [&](const Position& next) { return finished.fresh(rule_set, next); });
                if (values[i] != resolved)
                    FAIL(key.first << "." << format::metric_name(metric) << " " << to_fen<International>(p)
                                   << ": solved " << values[i] << ", from the captures " << resolved);
                ++checked;
                (is_win(resolved) ? wins : is_loss(resolved) ? losses : draws) += 1;
            }
        }
    }
    INFO(checked << " capture positions: " << wins << " won, " << draws << " drawn, " << losses << " lost");
    CHECK(checked > 1'000'000);
    CHECK(wins > 0);
    CHECK(draws > 0);
    CHECK(losses > 0);
}

// Solved by blocks (the game's levels with arrays of their own, the phase solves level by level
// from the game's block store), the rule tables are those solved whole, with every shortcut, and
// each shortcut is taken as often. Every international slice of 3 and 4 pieces with men whose rule
// sets both solve phases.
TEST_CASE("rule tables solved by blocks equal those solved whole (international, 3-4 pieces)",
          "[gen][rules][blocks][plain-build]") {
    const auto& dir = test::generated_tables<International>(4);
    gen::MappingCache cache;
    gen::FinishedTables<International> finished(dir, cache);
    gen::FinishedRuleTables<International> rules(dir, cache);
    std::uint64_t slices = 0;
    CopyCounts whole_counts, block_counts, phase_counts;
    for (const Material& m : all_materials<International>(4)) {
        if (m.pieces() < 3 || m.mirrored() < m) continue;
        if (!gen::rule_tables_by_blocks_of<International>(m)) continue;
        INFO(m.name());
        load_inputs(m, finished, rules);
        SolvedGame whole_game(m, finished, /*by_blocks=*/false), block_game(m, finished, /*by_blocks=*/true);
        // Every phase of a level a block of its own: the same tables (the repair's counts may differ,
        // a scope being solved in full when its closure passes a share of the scope). 3 pieces and
        // one 4-piece pair: a block per phase multiplies the per-block work.
        const bool by_phases = m.pieces() == 3 || m.name() == "KMvKM";
        SolvedGame phase_game(m, finished, /*by_blocks=*/true, /*max_block_entries=*/by_phases ? 1 : 0);
        for (Shortcuts shortcuts : {Shortcuts::none, Shortcuts::repair_without_fallback, Shortcuts::copy_and_repair}) {
            // A full phase solve (no shortcut) costs the most: 3 pieces only.
            if (shortcuts == Shortcuts::none && m.pieces() > 3) continue;
            INFO("shortcuts " << static_cast<int>(shortcuts));
            const Tables whole = rule_tables(m, whole_game, finished, rules, shortcuts, whole_counts);
            require_equal(whole, rule_tables_by_blocks(m, block_game, finished, rules, shortcuts, block_counts));
            if (by_phases)
                require_equal(whole, rule_tables_by_blocks(m, phase_game, finished, rules, shortcuts, phase_counts));
        }
        ++slices;
    }
    INFO(slices << " slice pairs; whole: " << whole_counts.copied << " copied, " << whole_counts.repaired
                << " re-solved, " << whole_counts.copied_whole << " tables copied whole");
    CHECK(slices >= 8);
    CHECK(block_counts.copied == whole_counts.copied);
    CHECK(block_counts.repaired == whole_counts.repaired);
    CHECK(block_counts.refused == whole_counts.refused);
    CHECK(block_counts.solved_in_full == whole_counts.solved_in_full);
    CHECK(block_counts.copied_whole == whole_counts.copied_whole);
    // The shortcuts were taken, so that the comparison covers them.
    CHECK(block_counts.copied > 0);
    CHECK(block_counts.repaired > 0);
    CHECK(block_counts.copied_whole > 0);
    CHECK(phase_counts.repaired > 0);
}
