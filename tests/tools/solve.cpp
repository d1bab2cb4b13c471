// `dtb solve`: the JSON contract, a position inside the tables, --proof and --check (a proof that
// holds, one edited by hand that fails with its ply named), and the exit codes of bad input.
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/tools_stats_support.hpp"

using namespace dtb::test;

namespace {

const std::string kDraw4 = "W:WK46,K48:BK3,K1";  // 4 pieces: searched from the 3-piece tables
const std::string kWin4 = "W:WK1,K26,K30:B32";   // a win in a few plies

std::string db() {
    return tables_up_to_3("international").string();
}

nlohmann::json solve_json(const std::vector<std::string>& args) {
    std::vector<std::string> all{"solve", "--db", db(), "--json"};
    all.insert(all.end(), args.begin(), args.end());
    const RunResult r = run_dtb(all);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    return j;
}

std::string read_text(const fs::path& f) {
    std::ifstream in(f);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("dtb solve: the JSON contract", "[tools][solve][plain-build]") {
    const auto j = solve_json({kDraw4});
    for (const char* key : {"fen", "variant", "rules", "counters", "answer", "lower", "upper", "source", "best_move",
                            "pv", "nodes", "probes", "max_pieces", "seconds", "stopped"})
        CHECK(j.contains(key));
    CHECK(j["answer"] == "draw");
    CHECK(j["source"] == "search");
    CHECK(j["max_pieces"] == 4);
    CHECK(j["nodes"].get<long long>() > 0);
    const auto w = solve_json({kWin4});
    CHECK(w["answer"] == "win");
    CHECK(w["best_move"].is_string());
    CHECK_FALSE(w["pv"].empty());
}

TEST_CASE("dtb solve: a position inside the tables is answered from them", "[tools][solve][plain-build]") {
    const auto j = solve_json({"W:WK2,6:BK50"});
    CHECK(j["source"] == "tables");
    CHECK(j["answer"] == "win");
    CHECK(j["nodes"].get<long long>() <= 1);
    const auto blocked = solve_json({"B:W50:B45"});  // Black's man cannot move: lost
    CHECK(blocked["answer"] == "loss");
    CHECK(blocked["source"] == "terminal");
}

TEST_CASE("dtb solve --proof and --check", "[tools][solve][plain-build]") {
    const TempDir dir("solve_proof");
    const fs::path proof = dir.path / "win.pdn";
    const RunResult r = run_dtb({"solve", "--db", db(), kWin4, "--proof", proof.string()});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const std::string text = read_text(proof);
    CHECK_THAT(text, Catch::Contains("[Claim \"win\"]") && Catch::Contains("{terminal: Black has no move}"));
    const RunResult ok = run_dtb({"solve", "--db", db(), "--check", proof.string()});
    CHECK(ok.exit_code == 0);
    CHECK_THAT(ok.out, Catch::Contains("the proof holds: win"));

    SECTION("a reply removed: exit 1, the ply named") {
        // The first variation is a reply of Black's: without it the proof misses a move.
        const auto open = text.find('('), close = text.find(')', open);
        REQUIRE(open != std::string::npos);
        std::ofstream(proof) << text.substr(0, open) + text.substr(close + 1);
        const RunResult bad = run_dtb({"solve", "--db", db(), "--check", proof.string()});
        CHECK(bad.exit_code == 1);
        CHECK_THAT(bad.out,
                   Catch::Contains("the proof fails") && Catch::Contains("ply ") && Catch::Contains("is missing"));
    }
    SECTION("a wrong leaf: exit 1, the ply named") {
        std::string edited = text;
        const auto at = edited.find("terminal: Black has no move");
        edited.replace(at, std::string("terminal: Black has no move").size(), "table: draw");
        std::ofstream(proof) << edited;
        const RunResult bad = run_dtb({"solve", "--db", db(), "--check", proof.string(), "--json"});
        CHECK(bad.exit_code == 1);
        const auto j = nlohmann::json::parse(bad.out, nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        CHECK(j["valid"] == false);
        CHECK_THAT(j["problem"].get<std::string>(), Catch::Contains("ply "));
    }
    SECTION("text that is no proof: exit 2") {
        std::ofstream(proof) << "[Event \"x\"]\n1. 32-28 *\n";
        CHECK(run_dtb({"solve", "--db", db(), "--check", proof.string()}).exit_code == 2);
    }
}

TEST_CASE("dtb solve: bad input and missing tables", "[tools][solve][plain-build]") {
    const std::string d = db();
    CHECK(run_dtb({"solve", "--db", d, "W:W31:Bxx"}).exit_code == 2);            // malformed FEN
    CHECK(run_dtb({"solve", "--db", d, "W:W50:B"}).exit_code == 2);              // a side without pieces
    CHECK(run_dtb({"solve", "--db", d, kDraw4, "--time", "0"}).exit_code == 2);  // absurd limits
    CHECK(run_dtb({"solve", "--db", d, kDraw4, "--nodes", "0"}).exit_code == 2);
    CHECK(run_dtb({"solve", "--db", d, kDraw4, "--memory", "0"}).exit_code == 2);
    CHECK(run_dtb({"solve", "--db", d, kDraw4, "--nodes", "-5"}).exit_code == 2);
    CHECK(run_dtb({"solve", "--db", d, kDraw4, "--rules", "fide"}).exit_code == 2);
    CHECK(run_dtb({"solve", "--db", d}).exit_code == 2);  // neither a FEN nor --check
    CHECK(run_dtb({"solve", "--variant", "turkish", "--db", tables_up_to_3("turkish").string(), "W:Wd4:Bd6", "--rules",
                   "fmjd"})
              .exit_code == 2);
    const RunResult missing = run_dtb({"solve", "--db", "/nonexistent/tables", kDraw4});
    CHECK(missing.exit_code == 3);
    CHECK_FALSE(missing.err.empty());
    // The 3-piece folder has no rule tables for 4 pieces' exits? It has them for 3: a 4-piece
    // search under fmjd reads them.
    CHECK(run_dtb({"solve", "--db", d, kWin4, "--rules", "fmjd"}).exit_code == 0);
}
