// The solver (solve/prover.hpp) against the tables themselves: with only the tables of up to
// N-1 pieces loaded, every answer it resolves for an N-piece position equals the N-piece table's
// value, and what it proves of an unresolved one (at least / at most a draw) holds. Every
// N-piece slice of both variants is sampled. N = 4 here, from the fixture's set (fast); N = 5
// from the 2-5 set in data/tb, when it is there ([.slow]).
#include <catch2/catch.hpp>
#include <map>
#include <memory>
#include <random>

#include "dtb/gen/generate.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/solve/prover.hpp"
#include "tests/support/gen_probe_support.hpp"
#include "tests/support/solve_support.hpp"

using namespace dtb;

namespace {

struct Tally {
    int solved = 0, resolved = 0;
};

// Solves `per_slice` random positions of every slice of `pieces` pieces with the smaller tables
// and checks each answer and bound against the full tables.
template <class R>
Tally solve_slices(const probe::Tablebase& full, const probe::Tablebase& small, int pieces, int per_slice,
                   std::uint64_t max_nodes) {
    solve::ProverOptions options;
    options.max_nodes = max_nodes;
    options.memory_mb = 16;
    auto prover = solve::Prover::create(small, options);
    REQUIRE(prover.ok());
    std::mt19937_64 rng(20260);
    Tally t;
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.pieces() != pieces) continue;
        for (const Position& p : test::sample_positions<R>(m, per_slice, rng, full)) {
            const solve::SolveResult r = prover.value().solve(p);
            INFO(to_fen<R>(p) << " (" << m.name() << ")");
            REQUIRE(r.ok());
            const Wdl truth = full.probe_wdl(p).wdl;
            CHECK(r.lower <= truth);
            CHECK(truth <= r.upper);
            ++t.solved;
            if (r.answer == solve::Answer::unresolved) continue;
            ++t.resolved;
            CHECK(r.answer == (truth == Wdl::win    ? solve::Answer::win
                               : truth == Wdl::loss ? solve::Answer::loss
                                                    : solve::Answer::draw));
        }
    }
    return t;
}

template <class R>
void check_variant(const std::filesystem::path& full_dir, int pieces, int per_slice, std::uint64_t max_nodes,
                   double min_share) {
    const test::SmallerTables small_dir(full_dir, pieces - 1, "solve_small_" + std::string(R::kName));
    const probe::Tablebase full = test::open_solve_tables(full_dir, R::kId);
    const probe::Tablebase small = test::open_solve_tables(small_dir.dir(), R::kId);
    REQUIRE(small.max_pieces() == pieces - 1);
    const Tally t = solve_slices<R>(full, small, pieces, per_slice, max_nodes);
    INFO(t.resolved << " of " << t.solved << " resolved");
    CHECK(t.solved > 0);
    // A solver that resolves nothing would pass the checks above: it must resolve most.
    CHECK(t.resolved >= min_share * t.solved);
}

}  // namespace

TEST_CASE("solve: 4-piece positions from the 2-3 piece tables equal the 4-piece tables", "[solve][plain-build]") {
    SECTION("international") {
        check_variant<International>(test::full_tables(VariantId::international), 4, 10, 20'000, 0.6);
    }
    SECTION("turkish") {
        check_variant<Turkish>(test::full_tables(VariantId::turkish), 4, 10, 20'000, 0.6);
    }
}

TEST_CASE("solve: 5-piece positions from the 2-4 piece tables equal the 5-piece tables", "[solve][.slow]") {
    for (const VariantId v : {VariantId::international, VariantId::turkish}) {
        const auto dir = std::filesystem::path(DTB_SOURCE_DIR) / "data" / "tb" / std::string(variant_name(v));
        if (!std::filesystem::exists(dir / (v == VariantId::turkish ? "MMMvMM.wdl" : "MMMvMM.wdl"))) {
            WARN("no 2-5 set in " << dir.string() << ": dtb gen --variant " << variant_name(v) << " --pieces 5");
            continue;
        }
        with_variant(v, [&](auto r) { check_variant<decltype(r)>(dir, 5, 20, 100'000, 0.8); });
    }
}
