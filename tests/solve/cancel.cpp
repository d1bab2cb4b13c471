// A running solve ends when another thread asks it to (ProverOptions::stop): unresolved, with
// StopReason::cancelled and what it had proven. The searches here have no time or node limit, so
// without the cancellation they would not end.
#include <catch2/catch.hpp>
#include <chrono>
#include <stop_token>
#include <thread>

#include "dtb/rules/fen.hpp"
#include "dtb/solve/prover.hpp"
#include "tests/support/solve_support.hpp"

using namespace dtb;

namespace {

// The start position: no search resolves it.
constexpr const char* kHard = "W:W31-50:B1-20";

}  // namespace

TEST_CASE("solve: a solve is cancelled from another thread", "[solve][cancel][plain-build]") {
    const probe::Tablebase tables =
        test::open_solve_tables(test::full_tables(VariantId::international), VariantId::international);
    const Position p = parse_fen<International>(kHard).value();
    std::stop_source source;
    solve::ProverOptions options;
    options.memory_mb = 16;
    options.stop = source.get_token();
    auto prover = solve::Prover::create(tables, options);
    REQUIRE(prover.ok());

    SECTION("while it runs") {
        std::thread canceller([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            source.request_stop();
        });
        const solve::SolveResult r = prover.value().solve(p);
        canceller.join();
        REQUIRE(r.ok());
        CHECK(r.answer == solve::Answer::unresolved);
        CHECK(r.stop == solve::StopReason::cancelled);
        CHECK(to_string(r.stop) == "cancelled");
        CHECK(r.nodes > 0);
    }
    SECTION("before it starts: it ends at once") {
        source.request_stop();
        const solve::SolveResult r = prover.value().solve(p);
        REQUIRE(r.ok());
        CHECK(r.answer == solve::Answer::unresolved);
        CHECK(r.stop == solve::StopReason::cancelled);
        CHECK(r.nodes <= 100'000);
    }
    SECTION("a position inside the tables is answered all the same") {
        source.request_stop();
        const solve::SolveResult r = prover.value().solve(parse_fen<International>("W:WK2,6:BK50").value());
        REQUIRE(r.ok());
        CHECK(r.answer == solve::Answer::win);
        CHECK(r.stop == solve::StopReason::none);
    }
}
