// The solver under the counting rules (--rules fmjd / ffjd): the counters are part of the state,
// the leaves are the rule tables' values. With the 2-3 piece tables only, every resolved answer
// for a 4-piece position with random counters must equal the adjudicator's value from the full
// 4-piece rule tables (adjudicate/adjudicator.hpp), and every proven bound must hold.
#include <catch2/catch.hpp>
#include <random>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/probe/counting_rules.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/solve/prover.hpp"
#include "tests/support/gen_probe_support.hpp"
#include "tests/support/solve_support.hpp"

using namespace dtb;

namespace {

using R = International;

std::filesystem::path full_dir() {
    return test::full_tables(VariantId::international);
}

// Counters a game could have in a position of material m: a random 25-move count, and the class
// counts of its class.
adjudicate::Counters random_counters(const Material& m, CountingRules rules, std::mt19937_64& rng) {
    adjudicate::Counters c;
    c.reversible = static_cast<int>(rng() % kReversibleLimit);
    const CountClass cls = count_class(m, rules);
    if (cls == CountClass::sixteen) c.endgame = static_cast<int>(rng() % kSixteenMoveLimit);
    if (cls == CountClass::five) c.small = static_cast<int>(rng() % kFiveMoveLimit);
    if (cls != CountClass::none) c.reversible = 0;  // a class is entered by a capture or a man move
    return c;
}

void check_rules(CountingRules rules, int per_slice, double min_share) {
    const test::SmallerTables small_dir(full_dir(), 3, "solve_rules_small");
    const probe::Tablebase full = test::open_solve_tables(full_dir(), VariantId::international, true);
    const probe::Tablebase small = test::open_solve_tables(small_dir.dir(), VariantId::international, true);
    const adjudicate::Adjudicator judge(full, rules);
    std::mt19937_64 rng(60 + static_cast<int>(rules));
    int solved = 0, resolved = 0;
    for (const Material& m : all_materials<R>(4)) {
        if (m.pieces() != 4) continue;
        for (const Position& p : test::sample_positions<R>(m, per_slice, rng, full)) {
            solve::ProverOptions options;
            options.rules = rules;
            options.counters = random_counters(m, rules, rng);
            options.max_nodes = 20'000;
            options.memory_mb = 16;
            auto prover = solve::Prover::create(small, options);
            REQUIRE(prover.ok());
            const solve::SolveResult r = prover.value().solve(p);
            INFO(to_fen<R>(p) << " reversible " << options.counters.reversible << " endgame "
                              << options.counters.endgame.value_or(-1) << " small "
                              << options.counters.small.value_or(-1));
            REQUIRE(r.ok());
            const probe::Result truth = judge.probe_wdl(p, options.counters);
            REQUIRE(truth.ok());
            CHECK(r.lower <= truth.wdl);
            CHECK(truth.wdl <= r.upper);
            ++solved;
            if (r.answer == solve::Answer::unresolved) continue;
            ++resolved;
            CHECK(r.lower == truth.wdl);
        }
    }
    INFO(resolved << " of " << solved << " resolved");
    CHECK(resolved >= min_share * solved);
}

}  // namespace

TEST_CASE("solve --rules fmjd: 4-piece positions with counters equal the rule tables", "[solve][rules][plain-build]") {
    check_rules(CountingRules::fmjd, 6, 0.6);
}

TEST_CASE("solve --rules ffjd: 4-piece positions with counters equal the rule tables", "[solve][rules][plain-build]") {
    check_rules(CountingRules::ffjd, 3, 0.6);
}

TEST_CASE("solve: the counters change the answer as the rule tables say", "[solve][rules][plain-build]") {
    // RULES.md 1: lost in 32 plies with endgame 0, drawn with endgame 1 (16-move rule); the
    // 3-piece tables decide it at once, the root being inside them.
    const probe::Tablebase full = test::open_solve_tables(full_dir(), VariantId::international, true);
    const auto p = parse_fen<R>("B:WK40,K45,50:BK7");
    REQUIRE(p.ok());
    for (const int endgame : {0, 1}) {
        solve::ProverOptions options;
        options.rules = CountingRules::fmjd;
        options.counters.endgame = endgame;
        auto prover = solve::Prover::create(full, options);
        REQUIRE(prover.ok());
        const solve::SolveResult r = prover.value().solve(*p);
        REQUIRE(r.ok());
        CHECK(r.answer == (endgame == 0 ? solve::Answer::loss : solve::Answer::draw));
    }
}
