// Proofs (solve/proof.hpp) written as PDN, read back and checked from the tables alone: every
// proof of a resolved position holds and says what the solver said; a proof edited by hand (a
// reply removed, a leaf's value changed, a move made illegal, a line cut short) fails, naming
// the ply.
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <memory>
#include <random>

#include "dtb/rules/fen.hpp"
#include "dtb/solve/proof_check.hpp"
#include "dtb/solve/proof_pdn.hpp"
#include "dtb/solve/prover.hpp"
#include "tests/support/gen_probe_support.hpp"
#include "tests/support/solve_support.hpp"

using namespace dtb;
using solve::ProofNode;

namespace {

// The first node (depth-first) at a depth with `parity` (0: the root's side to move) that
// satisfies `pred`.
ProofNode* find_node(ProofNode& n, int depth, int parity, const std::function<bool(const ProofNode&)>& pred) {
    if (depth % 2 == parity && pred(n)) return &n;
    for (ProofNode& c : n.children)
        if (ProofNode* f = find_node(c, depth + 1, parity, pred)) return f;
    return nullptr;
}

solve::ProofCheck recheck(const probe::Tablebase& tb, const solve::Proof& proof) {
    const auto read = solve::read_proof_pdn(solve::write_proof_pdn(proof));
    REQUIRE(read.ok());
    return solve::check_proof(tb, *read);
}

// Solves random 4-piece positions with the 2-3 piece tables until `count` proofs of `answer`.
template <class R>
std::vector<std::pair<Position, solve::Proof>> proofs_of(const probe::Tablebase& small, const probe::Tablebase& full,
                                                         solve::Answer answer, int count) {
    std::vector<std::pair<Position, solve::Proof>> out;
    solve::ProverOptions options;
    options.max_nodes = 20'000;
    options.memory_mb = 16;
    auto prover = solve::Prover::create(small, options);
    REQUIRE(prover.ok());
    std::mt19937_64 rng(7);
    for (const Material& m : all_materials<R>(4)) {
        if (m.pieces() != 4) continue;
        for (const Position& p : test::sample_positions<R>(m, 4, rng, full)) {
            const solve::SolveResult r = prover.value().solve(p);
            REQUIRE(r.ok());
            if (r.answer != answer || r.source != solve::AnswerSource::search) continue;
            auto proof = prover.value().proof();
            INFO(to_fen<R>(p));
            REQUIRE(proof.ok());
            out.emplace_back(p, proof.value());
            if (static_cast<int>(out.size()) == count) return out;
        }
    }
    return out;
}

template <class R>
void check_round_trips() {
    const auto dir = test::full_tables(R::kId);
    const test::SmallerTables small_dir(dir, 3, "solve_proofs_" + std::string(R::kName));
    const probe::Tablebase full = test::open_solve_tables(dir, R::kId);
    const probe::Tablebase small = test::open_solve_tables(small_dir.dir(), R::kId);
    for (const solve::Answer a : {solve::Answer::win, solve::Answer::draw, solve::Answer::loss}) {
        const auto proofs = proofs_of<R>(small, full, a, 8);
        CHECK(proofs.size() >= 3);
        for (const auto& [p, proof] : proofs) {
            INFO(to_fen<R>(p) << "\n" << solve::write_proof_pdn(proof));
            CHECK(proof.parts.size() == (a == solve::Answer::draw ? 2u : 1u));
            const solve::ProofCheck c = recheck(small, proof);
            CHECK(c.valid);
            CHECK(c.answer == a);
            CHECK(c.problem.empty());
        }
    }
}

}  // namespace

TEST_CASE("solve proofs: every proof re-checks from the tables", "[solve][proof][plain-build]") {
    SECTION("international") {
        check_round_trips<International>();
    }
    SECTION("turkish") {
        check_round_trips<Turkish>();
    }
}

TEST_CASE("solve proofs: a proof edited by hand fails, naming the ply", "[solve][proof][plain-build]") {
    using R = International;
    const auto dir = test::full_tables(R::kId);
    const test::SmallerTables small_dir(dir, 3, "solve_proofs_edit");
    const probe::Tablebase full = test::open_solve_tables(dir, R::kId);
    const probe::Tablebase small = test::open_solve_tables(small_dir.dir(), R::kId);
    // A win whose proof has a defender's node with two replies or more.
    std::optional<solve::Proof> base;
    for (const auto& [p, proof] : proofs_of<R>(small, full, solve::Answer::win, 30)) {
        solve::Proof copy = proof;
        if (find_node(copy.parts[0].root, 0, 1, [](const ProofNode& n) { return n.children.size() >= 2; })) {
            base = proof;
            break;
        }
    }
    REQUIRE(base);
    INFO(solve::write_proof_pdn(*base));
    REQUIRE(recheck(small, *base).valid);

    SECTION("a reply removed") {
        solve::Proof edited = *base;
        ProofNode* n = find_node(edited.parts[0].root, 0, 1, [](const ProofNode& x) { return x.children.size() >= 2; });
        n->children.pop_back();
        const solve::ProofCheck c = recheck(small, edited);
        CHECK_FALSE(c.valid);
        CHECK_THAT(c.problem, Catch::Contains("ply ") && Catch::Contains("is missing"));
    }
    auto is_leaf = [](const ProofNode& x) {
        return x.leaf == solve::LeafKind::table || x.leaf == solve::LeafKind::terminal;
    };
    SECTION("a leaf's value changed") {
        solve::Proof edited = *base;
        ProofNode* n = find_node(edited.parts[0].root, 0, 0, is_leaf);
        if (n == nullptr) n = find_node(edited.parts[0].root, 0, 1, is_leaf);
        REQUIRE(n != nullptr);
        if (n->leaf == solve::LeafKind::table) {
            n->value = n->value == Wdl::win ? Wdl::loss : Wdl::win;
        } else {  // a terminal position called a drawn table position
            n->leaf = solve::LeafKind::table;
            n->value = Wdl::draw;
        }
        const solve::ProofCheck c = recheck(small, edited);
        CHECK_FALSE(c.valid);
        CHECK_THAT(c.problem, Catch::Contains("ply ") && Catch::Contains("the comment says"));
    }
    SECTION("a move made illegal") {
        solve::Proof edited = *base;
        edited.parts[0].root.children[0].move = "1-50";
        const solve::ProofCheck c = recheck(small, edited);
        CHECK_FALSE(c.valid);
        CHECK_THAT(c.problem, Catch::Contains("ply 1") && Catch::Contains("not a legal move"));
    }
    SECTION("a line cut short") {
        solve::Proof edited = *base;
        ProofNode* n = find_node(edited.parts[0].root, 0, 1, [](const ProofNode& x) { return !x.children.empty(); });
        REQUIRE(n != nullptr);
        n->children.clear();
        n->leaf = solve::LeafKind::open;
        const solve::ProofCheck c = recheck(small, edited);
        CHECK_FALSE(c.valid);
        CHECK_THAT(c.problem, Catch::Contains("ply "));
    }
    SECTION("a repetition does not prove a win") {
        solve::Proof edited = *base;
        ProofNode* n = find_node(edited.parts[0].root, 0, 0, is_leaf);
        if (n == nullptr) n = find_node(edited.parts[0].root, 0, 1, is_leaf);
        REQUIRE(n != nullptr);
        n->leaf = solve::LeafKind::repetition;
        n->repeats_ply = 0;
        CHECK_FALSE(recheck(small, edited).valid);
    }
}

TEST_CASE("solve proofs: PDN that is no proof is refused", "[solve][proof]") {
    CHECK_FALSE(solve::read_proof_pdn("").ok());
    CHECK_FALSE(solve::read_proof_pdn("[FEN \"W:W31:B20\"]\n1. 31-26 *\n").ok());            // no Claim
    CHECK_FALSE(solve::read_proof_pdn("[FEN \"W:W31:B20\"]\n[Claim \"maybe\"]\n*\n").ok());  // bad claim
    CHECK_FALSE(solve::read_proof_pdn("[FEN \"W:W31:B20\"]\n[Claim \"win\"]\n1. 31-26 (1. 31-27 *\n").ok());  // open (
    CHECK_FALSE(solve::read_proof_pdn("[FEN \"W:W31:B20\"]\n[Claim \"win\"]\n(1. 31-26) *\n").ok());          // ( first
    // Nested variations and lines deeper than any proof: refused, not a stack overflow.
    std::string deep = "[FEN \"W:WK46:BK5\"]\n[Claim \"win\"]\n1. 46-41";
    for (int i = 0; i < 50'000; ++i) deep += " (46-37";
    CHECK_FALSE(solve::read_proof_pdn(deep).ok());
    std::string longline = "[FEN \"W:WK46:BK5\"]\n[Claim \"win\"]\n";
    for (int i = 0; i < 6'000; ++i) longline += " 46-41 5-10 41-46 10-5";
    const auto too_long = solve::read_proof_pdn(longline);
    REQUIRE_FALSE(too_long.ok());
    CHECK_THAT(too_long.error(), Catch::Contains("plies"));
    const auto ok = solve::read_proof_pdn("[FEN \"W:W31:B20\"]\n[Claim \"win\"]\n1. 31-26 {free text} (1. 31-27) *\n");
    REQUIRE(ok.ok());
    REQUIRE(ok->parts.size() == 1);
    CHECK(ok->parts[0].root.children.size() == 2);
}
