// The ffjd rule tables copy the king phases that cannot differ from fmjd
// (RuleTableSolver::AgreeingPhases); the values must be those of a full ffjd solve, and both of
// the copy's conditions (seeds agree; reached configurations hold fmjd values) must be exercised.
// Every international slice of 4 pieces whose rule sets both solve phases, from the default set.
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

Tables rule_tables(const Material& m, gen::FinishedTables<International>& finished,
                   gen::FinishedRuleTables<International>& rules, bool copy, std::uint64_t& copied,
                   std::uint64_t& refused) {
    gen::PhaseSeeds<International> seeds(m, finished);
    gen::SliceSolver<International> solver(m, [&](const Position& p) { return finished.value(p); });
    solver.observe_seeds([&](int side, std::uint64_t i, const Position& rp, std::span<const Move> exits, bool capture,
                             int king_steps) { seeds.record(side, i, rp, exits, capture, king_steps); });
    solver.solve();
    for (int s = 0; s < solver.num_sides(); ++s) seeds.record_draws(s, solver.side(s).value);
    gen::RuleTableSolver<International> rule_solver(m, finished, rules, seeds, {}, copy);
    Tables out;
    auto st = rule_solver.solve([&](const Material& x, format::Metric metric, gen::BigArray<ValueCode> values) -> format::Status {
        out[{x.name(), static_cast<int>(metric)}].assign(values.begin(), values.end());
        return {};
    });
    REQUIRE(st);
    copied = rule_solver.copied_positions();
    refused = rule_solver.phases_refused_for_reached();
    return out;
}

}  // namespace

TEST_CASE("ffjd phases copied from fmjd equal a full ffjd solve (international, 4 pieces)", "[gen][rules]") {
    const auto& dir = test::generated_tables<International>(4);
    gen::FinishedTables<International> finished(dir);
    gen::FinishedRuleTables<International> rules(dir);
    std::uint64_t slices = 0, copied_total = 0, positions = 0, refused_total = 0;
    for (const Material& m : all_materials<International>(4)) {
        if (m.pieces() != 4 || m.mirrored() < m) continue;
        if (count_class(m, RuleSet::fmjd) != CountClass::none || count_class(m, RuleSet::ffjd) != CountClass::none) continue;
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
        std::uint64_t copied = 0, none = 0, refused = 0, none_refused = 0;
        const Tables with_copies = rule_tables(m, finished, rules, true, copied, refused);
        const Tables solved = rule_tables(m, finished, rules, false, none, none_refused);
        refused_total += refused;
        CHECK(none == 0);
        REQUIRE(with_copies.size() == solved.size());
        for (const auto& [key, values] : solved) {
            const std::vector<ValueCode>& copied_values = with_copies.at(key);
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
        ++slices;
        copied_total += copied;
        positions += SliceIndex<International>(m).size() + (m.mirrored() == m ? 0 : SliceIndex<International>(m.mirrored()).size());
    }
    INFO("copied " << copied_total << " of " << positions << " positions in " << slices << " slice pairs; phases refused for a reached configuration: " << refused_total);
    CHECK(slices >= 5);
    CHECK(copied_total > 0);
    CHECK(copied_total < positions);
    CHECK(refused_total > 0);  // the comparison of reached configurations decided something
}
