// The command as a new user meets it (docs/CLI.md, "Tables"): one tables root for every command
// (--tables, DTB_TABLES), the variant from the folder or the FEN, the FEN with or without --fen,
// counters named after their rules, "beyond the tables" with what to do, --version and help.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/tools_stats_support.hpp"

namespace fs = std::filesystem;
using dtb::test::run_dtb;
using dtb::test::RunResult;

namespace {

RunResult run_with_env(const std::vector<std::string>& args, const std::vector<std::string>& env,
                       const fs::path& cwd = {}) {
    const auto [out, err] = dtb::test::output_files("front_door");
    return dtb::test::wait_dtb(dtb::test::spawn_dtb(args, out, err, cwd, env), out, err);
}

const std::string kRoot = DTB_TEST_TABLES;  // international/ and turkish/ up to 4 pieces

}  // namespace

TEST_CASE("front door: a tables root names both variants' folders, for every command", "[tools][plain-build]") {
    const RunResult by_db =
        run_dtb({"probe", "--json", "--db", kRoot + "/turkish", "--variant", "turkish", "W:Wd4:Bd6"});
    REQUIRE(by_db.exit_code == 0);
    // The variant from the FEN's squares, the folder from the root.
    const RunResult by_root = run_dtb({"probe", "--json", "--tables", kRoot, "W:Wd4:Bd6"});
    CHECK(by_root.exit_code == 0);
    CHECK(by_root.out == by_db.out);
    // The root from the environment, from any folder.
    const RunResult by_env = run_with_env({"probe", "--json", "W:Wd4:Bd6"}, {"DTB_TABLES=" + kRoot}, "/");
    CHECK(by_env.exit_code == 0);
    CHECK(by_env.out == by_db.out);
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"verify", "--tables", kRoot, "--variant", "turkish"},
             {"stats", "--tables", kRoot, "--json"},
             {"adjudicate", "--tables", kRoot, "W:WK2,6:BK50"},
         }) {
        INFO(args[0]);
        const RunResult r = run_dtb(args);
        CHECK(r.exit_code == 0);
    }
}

TEST_CASE("front door: the FEN with or without --fen, in probe and adjudicate", "[tools][plain-build]") {
    const std::string db = kRoot + "/international";
    const RunResult positional = run_dtb({"probe", "--db", db, "W:WK2,6:BK50"});
    const RunResult flagged = run_dtb({"probe", "--db", db, "--fen", "W:WK2,6:BK50"});
    CHECK(positional.exit_code == 0);
    CHECK(flagged.out == positional.out);
    const RunResult a = run_dtb({"adjudicate", "--db", db, "--fen", "W:WK2,6:BK50", "--json"});
    const RunResult b = run_dtb({"adjudicate", "--db", db, "W:WK2,6:BK50", "--json"});
    CHECK(a.exit_code == 0);
    CHECK(b.out == a.out);
    const RunResult both = run_dtb({"adjudicate", "--db", db, "W:WK2,6:BK50", "--fen", "W:WK2,6:BK50"});
    CHECK(both.exit_code == 2);
    CHECK(run_dtb({"probe", "--db", db}).exit_code == 2);
    // The counters named after their rules are the same counters.
    const RunResult old_names =
        run_dtb({"adjudicate", "--db", db, "W:WK6,K22,K27:BK49", "--reversible", "38", "--endgame", "3", "--json"});
    const RunResult rule_names = run_dtb(
        {"adjudicate", "--db", db, "W:WK6,K22,K27:BK49", "--25-move-plies", "38", "--16-move-plies", "3", "--json"});
    CHECK(old_names.exit_code == 0);
    CHECK(rule_names.out == old_names.out);
}

TEST_CASE("front door: beyond the tables says how far they reach and what makes more", "[tools][plain-build]") {
    const RunResult r = run_dtb({"probe", "--tables", kRoot, "W:W31,32,33:B1,2"});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("beyond the tables") && Catch::Contains("up to 4 pieces") &&
                          Catch::Contains("dtb gen --variant international --pieces 5"));
    const RunResult t = run_dtb({"probe", "--tables", kRoot, "W:Wa2,b2,c2:Ba7,b7"});
    CHECK(t.exit_code == 3);
    CHECK_THAT(t.err, Catch::Contains("dtb gen --variant turkish --pieces 5"));
}

TEST_CASE("front door: --version, help, and the help's defaults", "[tools]") {
    const RunResult v = run_dtb({"--version"});
    CHECK(v.exit_code == 0);
    CHECK_THAT(v.out, Catch::StartsWith("dtb "));
    const RunResult all = run_dtb({"help"});
    CHECK(all.exit_code == 0);
    CHECK_THAT(all.out, Catch::Contains("probe") && Catch::Contains("serve"));
    const RunResult probe = run_dtb({"help", "probe"});
    CHECK(probe.exit_code == 0);
    CHECK_THAT(probe.out, Catch::Contains("--tables") && Catch::Contains("--fen"));
    // The variant's default is the folder's or the FEN's, not a fixed one.
    CHECK_THAT(probe.out, !Catch::Contains("[international]"));
    CHECK(run_dtb({"help", "nonsense"}).exit_code == 2);
}

TEST_CASE("front door: the whole-run JSON objects say the version", "[tools][plain-build]") {
    const std::string version = run_dtb({"--version"}).out.substr(4, std::string::npos);
    const std::string bare = version.substr(0, version.find('\n'));
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"plan", "--pieces", "4", "--json"},
             {"verify", "--tables", kRoot, "--json"},
         }) {
        INFO(args[0]);
        const RunResult r = run_dtb(args);
        REQUIRE(r.exit_code == 0);
        CHECK_THAT(r.out, Catch::Contains("\"version\":\"" + bare + "\""));
    }
}
