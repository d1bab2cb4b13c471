// The rule tables copy the king phases that cannot differ from the game's DTC (fmjd, ffjd) or,
// for ffjd, from fmjd (RuleTableSolver::AgreeingPhases); the values must be those of a full solve,
// and both of each copy's conditions (seeds or exits agree; reached configurations hold the
// reference's values) must be exercised. Every international slice of 4 pieces whose rule sets
// solve phases, from the default set.
#include <catch2/catch.hpp>
#include <map>

#include "gen/finished_rule_tables.hpp"
#include "gen/finished_tables.hpp"
#include "gen/phase_seeds.hpp"
#include "gen/rule_tables.hpp"
#include "gen/slice_solver.hpp"
#include "tests/gen_support.hpp"

using namespace dtb;

namespace {

using Tables = std::map<std::pair<std::string, int>, std::vector<ValueCode>>;

// How the rule tables are made: every phase solved; ffjd copied from fmjd only (the generator
// without the game's DTC); or copied from the DTC first, as dtb gen does.
enum class Copies { none, from_fmjd, from_dtc_and_fmjd };

struct CopyCounts {
    std::uint64_t from_fmjd = 0, from_dtc = 0, refused_fmjd = 0, refused_game = 0;
};

Tables rule_tables(const Material& m, gen::FinishedTables<International>& finished,
                   gen::FinishedRuleTables<International>& rules, Copies copies, CopyCounts& counts) {
    gen::PhaseSeeds<International> seeds(m, finished);
    gen::SliceSolver<International> solver(m, [&](const Position& p) { return finished.value(p); });
    solver.observe_seeds([&](int side, std::uint64_t i, const Position& rp, std::span<const Move> exits, bool capture,
                             int king_steps) { seeds.record(side, i, rp, exits, capture, king_steps); });
    solver.solve();
    for (int s = 0; s < solver.num_sides(); ++s) seeds.record_draws(s, solver.side(s).value);
    gen::RuleTableSolver<International> rule_solver(m, finished, rules, seeds, {}, copies != Copies::none);
    if (copies != Copies::from_fmjd) {
        std::vector<std::span<const ValueCode>> values;
        std::vector<gen::BigArray<std::uint16_t>> dtc;
        for (int s = 0; s < solver.num_sides(); ++s) {
            values.emplace_back(solver.side(s).value.data(), solver.side(s).value.size());
            dtc.push_back(solver.release_dtc(s));
        }
        rule_solver.use_game(std::move(values), std::move(dtc));
    }
    Tables out;
    auto st = rule_solver.solve([&](const Material& x, format::Metric metric, gen::BigArray<ValueCode> values) -> format::Status {
        out[{x.name(), static_cast<int>(metric)}].assign(values.begin(), values.end());
        return {};
    });
    REQUIRE(st);
    counts.from_fmjd += rule_solver.copied_positions();
    counts.from_dtc += rule_solver.copied_from_game(RuleSet::fmjd) + rule_solver.copied_from_game(RuleSet::ffjd);
    counts.refused_fmjd += rule_solver.phases_refused_for_reached();
    counts.refused_game += rule_solver.game_phases_refused_for_reached();
    return out;
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

TEST_CASE("rule phases copied from DTC or fmjd equal a full solve (international, 4 pieces)", "[gen][rules]") {
    const auto& dir = test::generated_tables<International>(4);
    gen::FinishedTables<International> finished(dir);
    gen::FinishedRuleTables<International> rules(dir);
    std::uint64_t slices = 0, positions = 0;
    CopyCounts none, fmjd_only, both;
    for (const Material& m : all_materials<International>(4)) {
        if (m.pieces() != 4 || m.mirrored() < m) continue;
        if (count_class(m, RuleSet::fmjd) != CountClass::none && count_class(m, RuleSet::ffjd) != CountClass::none) continue;
        INFO(m.name());
        for (const Material& x : gen::successor_materials(m))
            if (x != m.mirrored()) {
                REQUIRE(finished.load(x).ok());
                REQUIRE(rules.load(x).ok());
            }
        for (const Material& x : gen::successor_materials(m.mirrored()))
            if (x != m) {
                REQUIRE(finished.load(x).ok());
                REQUIRE(rules.load(x).ok());
            }
        const Tables solved = rule_tables(m, finished, rules, Copies::none, none);
        require_equal(solved, rule_tables(m, finished, rules, Copies::from_fmjd, fmjd_only));
        require_equal(solved, rule_tables(m, finished, rules, Copies::from_dtc_and_fmjd, both));
        ++slices;
        positions += SliceIndex<International>(m).size() + (m.mirrored() == m ? 0 : SliceIndex<International>(m.mirrored()).size());
    }
    INFO(slices << " slice pairs, " << positions << " positions; ffjd from fmjd alone: " << fmjd_only.from_fmjd
                << " copied, " << fmjd_only.refused_fmjd << " phases refused for a reached configuration; from DTC first: "
                << both.from_dtc << " copied from DTC (fmjd and ffjd), " << both.from_fmjd << " from fmjd, "
                << both.refused_game << " phases refused for a reached configuration");
    CHECK(slices >= 5);
    CHECK(none.from_fmjd + none.from_dtc == 0);
    // Each copy happens, and each comparison of reached configurations refuses some phase.
    CHECK(fmjd_only.from_fmjd > 0);
    CHECK(fmjd_only.refused_fmjd > 0);
    CHECK(both.from_dtc > 0);
    CHECK(both.refused_game > 0);
    CHECK(both.from_dtc + both.from_fmjd < 2 * positions);  // and some phase is solved
}
