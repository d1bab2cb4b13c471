// `dtb adjudicate --pdn` on PDN files as tournament software writes them (tests/data/pdn, one file
// per family of forms; rules_pdn_files.cpp checks what the reader makes of them): each file read
// whole and every game judged, Turkish games on the Turkish tables beside --db, other variants
// skipped, the report for people, the JSON additions and the exit codes.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/tools_stats_support.hpp"

using namespace dtb::test;

// Named, not anonymous: a unity build puts this file beside tools_adjudicate.cpp.
namespace adjudicate_pdn_test {

// Folders "international" and "turkish" side by side: the fixture's, or 4 pieces of each made
// here once per process.
const fs::path& both_tables() {
    static const fs::path dir = [] {
#ifdef DTB_TEST_TABLES
        const fs::path fixture = fs::path(DTB_TEST_TABLES);
        if (fs::exists(fixture / "international" / "MMvMM.wdl") && fs::exists(fixture / "turkish" / "MMvMM.wdl"))
            return fixture;
#endif
        const fs::path d = fresh_dir("adjudicate_pdn_both");
        for (const char* variant : {"international", "turkish"})
            REQUIRE(
                run_dtb({"gen", "--variant", variant, "--pieces", "4", "--out", (d / variant).string()}).exit_code ==
                0);
        return d;
    }();
    return dir;
}

std::string data(const std::string& name) {
    return (fs::path(DTB_SOURCE_DIR) / "tests" / "data" / "pdn" / name).string();
}

nlohmann::json judge_json(const std::string& file, int expected_exit, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"adjudicate", "--db",  (both_tables() / "international").string(),
                                  "--json",     "--pdn", data(file)};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunResult r = run_dtb(args);
    INFO(file << "\nstdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == expected_exit);
    auto j = nlohmann::json::parse(r.out, nullptr, false);  // also checks that it is UTF-8
    REQUIRE_FALSE(j.is_discarded());
    return j;
}

RunResult judge_text(const std::string& file) {
    return run_dtb({"adjudicate", "--db", (both_tables() / "international").string(), "--pdn", data(file)});
}

bool has(const nlohmann::json& strings, const std::string& part) {
    for (const auto& s : strings)
        if (s.get<std::string>().find(part) != std::string::npos) return true;
    return false;
}

void all_consistent(const nlohmann::json& j) {
    for (const auto& g : j["games"]) {
        INFO(g.dump());
        CHECK(g["judged"] == true);
        CHECK(g["consistent"] == true);
        CHECK(g["verdict"] == "consistent");
    }
}

}  // namespace adjudicate_pdn_test

using namespace adjudicate_pdn_test;

TEST_CASE("dtb adjudicate --pdn: padded squares, the issue's examples", "[tools][adjudicate][pdn-files][plain-build]") {
    const auto j = judge_json("padded.pdn", 0);
    REQUIRE(j["games"].size() == 3);
    all_consistent(j);
    CHECK(j["games"][0]["plies"] == 11);
    CHECK(j["games"][1]["plies"] == 1);  // 47x 9
    CHECK(j["games"][1]["outcome"] == "game over at ply 1");
    CHECK(j["games"][2]["first_judged_ply"] == 0);  // 05-10
}

TEST_CASE("dtb adjudicate --pdn: capture notations, ambiguity with the candidates",
          "[tools][adjudicate][pdn-files][plain-build]") {
    const auto j = judge_json("captures.pdn", 1);
    const auto& g = j["games"];
    REQUIRE(g.size() == 5);
    for (int i = 0; i < 4; ++i) CHECK(g[i]["consistent"] == true);
    CHECK(g[3]["plies"] == 1);  // the split form is one ply
    CHECK(g[4]["verdict"] == "inconsistent");
    CHECK(g[4]["stopped_at_ply"] == 1);
    CHECK(has(g[4]["problems"], "ambiguous move '37x3': it could be 37x28x17x3 37x23x12x3"));
}

TEST_CASE("dtb adjudicate --pdn: move numbers, results, a Result tag at odds",
          "[tools][adjudicate][pdn-files][plain-build]") {
    const auto j = judge_json("numbers_results.pdn", 0);
    const auto& g = j["games"];
    REQUIRE(g.size() == 10);
    all_consistent(j);
    const std::vector<std::string> tokens{"2-0", "0-2", "1-1", "1-0", "1/2-1/2", "0-1", "0-0", "*"};
    for (size_t i = 0; i < tokens.size(); ++i) CHECK(g[i]["result"] == tokens[i]);
    CHECK(g[8]["result"].is_null());
    CHECK(g[6]["recorded"] == "unknown");
    // Reported, not fatal: the moves' result 1-1 is judged (a draw by the 5-move rule).
    CHECK(g[9]["recorded"] == "draw");
    REQUIRE(g[9]["notes"].size() == 1);
    CHECK(g[9]["notes"][0]["message"].get<std::string>().find("disagrees") != std::string::npos);
    CHECK(g[9]["decisive_ply"] == 10);
}

TEST_CASE("dtb adjudicate --pdn: set-up positions", "[tools][adjudicate][pdn-files][plain-build]") {
    const auto j = judge_json("setups.pdn", 0);
    REQUIRE(j["games"].size() == 5);
    all_consistent(j);
    CHECK(j["games"][0]["outcome"] == "game over at ply 9");
    CHECK(j["games"][3]["theoretical_at_first_judged"] == "white wins");
    CHECK(j["games"][4]["outcome"] == "game over at ply 1");
}

TEST_CASE("dtb adjudicate --pdn: game types; other variants skipped, not errors",
          "[tools][adjudicate][pdn-files][plain-build]") {
    const auto j = judge_json("game_types.pdn", 0);
    const auto& g = j["games"];
    REQUIRE(g.size() == 11);
    for (int i : {0, 1, 2}) {
        CHECK(g[i]["variant"] == "international");
        CHECK(g[i]["rules"] == "fmjd");
        CHECK(g[i]["game_type"] == 20);
    }
    for (int i : {3, 4}) {
        CHECK(g[i]["variant"] == "turkish");
        CHECK(g[i]["rules"] == "none");
        CHECK(g[i]["game_type"] == 30);
        CHECK(g[i]["consistent"] == true);
    }
    for (int i = 5; i < 11; ++i) {
        INFO(g[i].dump());
        CHECK(g[i]["verdict"] == "other variant");
        CHECK(g[i]["judged"] == false);
        CHECK(g[i]["problems"].empty());
        CHECK(g[i]["reason"].get<std::string>().find("another variant") != std::string::npos);
    }
    CHECK(g[7]["variant"] == "Russian draughts");
    CHECK(g[9]["game_type"] == 40);
    CHECK(j["summary"] == nlohmann::json({{"games", 11},
                                          {"judged", 5},
                                          {"consistent", 5},
                                          {"inconsistent", 0},
                                          {"not_judged", 0},
                                          {"other_variant", 6}}));
    const RunResult text = judge_text("game_types.pdn");
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.out, Catch::Contains("NOT JUDGED (another variant: Frisian draughts)") &&
                             Catch::Contains("11 games: 5 judged (5 consistent, 0 inconsistent), 0 not judged, "
                                             "6 other variants"));
}

TEST_CASE("dtb adjudicate --pdn: comments, variations, NAGs, empty games; the report for people",
          "[tools][adjudicate][pdn-files][plain-build]") {
    const auto j = judge_json("comments.pdn", 0);
    REQUIRE(j["games"].size() == 5);
    all_consistent(j);
    for (const auto& g : j["games"]) CHECK(g["notes"].empty());
    const RunResult text = judge_text("comments.pdn");
    CHECK(text.exit_code == 0);
    // Players, event, round and date on the game's first line.
    CHECK_THAT(text.out, Catch::Contains("game 1: Player A - Player B (Lidraughts export, round 3, 2024.05.01)"));
    CHECK_THAT(text.out, Catch::Contains("the tables judge no position of this game"));
    CHECK_THAT(text.out, Catch::Contains("5 games: 5 judged (5 consistent, 0 inconsistent)"));
}

TEST_CASE("dtb adjudicate --pdn: the report says where rules started, drew, and the verdict's ply",
          "[tools][adjudicate][pdn-files][plain-build]") {
    const RunResult text = judge_text("numbers_results.pdn");
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.out, Catch::Contains("  ply 0: 5-move started\n"));
    CHECK_THAT(text.out, Catch::Contains("  ply 0: first judged (theoretical white wins, under the rules white wins)"));
    CHECK_THAT(text.out, Catch::Contains("  ply 10: draw by 5-move\n"));
    CHECK_THAT(text.out, Catch::Contains("verdict: consistent, decisive ply 10: recorded draw"));
    CHECK_THAT(text.out, Catch::Contains("note: ") && Catch::Contains("disagrees"));
    const RunResult bad = judge_text("unreadable.pdn");
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.out, Catch::Contains("verdict: NOT JUDGED (a bad record), decisive ply 4"));
    CHECK_THAT(bad.out, Catch::Contains("3 games: 1 judged (1 consistent, 0 inconsistent), 2 not judged"));
}

TEST_CASE("dtb adjudicate --pdn: encodings; the JSON stays UTF-8", "[tools][adjudicate][pdn-files][plain-build]") {
    for (const char* file : {"utf8_bom.pdn", "cyrillic.pdn", "crlf.pdn", "cr.pdn"}) {
        INFO(file);
        all_consistent(judge_json(file, 0));
    }
    CHECK(judge_json("utf8_bom.pdn", 0)["games"][0]["tags"]["White"] == "J\u00e9r\u00f4me Dupr\u00e9");
    CHECK(judge_json("cyrillic.pdn", 0)["games"][0]["tags"]["Event"] ==
          "\u0427\u0435\u043c\u043f\u0438\u043e\u043d\u0430\u0442 \u0420\u043e\u0441\u0441\u0438\u0438");
    const auto cp = judge_json("windows1252.pdn", 0);
    REQUIRE(cp["games"].size() == 4);
    all_consistent(cp);
    CHECK(cp["games"][0]["tags"]["Black"] == "Jan de Bo\u00ebr");
    CHECK(cp["games"][2]["tags"]["White"] == "Ay\u015fe Y\u0131ld\u0131z");
    CHECK(cp["games"][2]["variant"] == "turkish");
    CHECK(cp["games"][3]["tags"]["Event"] == "Bytes that are no text: \ufffd\ufffd");
    REQUIRE(cp["games"][3]["notes"].size() == 1);
    CHECK(cp["games"][3]["notes"][0]["message"] == "'\\xFF\\xFE' is not a move: skipped");
}

TEST_CASE("dtb adjudicate --pdn: bad tokens with line and column; the rest still read",
          "[tools][adjudicate][pdn-files][plain-build]") {
    const auto rec = judge_json("recovered.pdn", 0);
    REQUIRE(rec["games"].size() == 4);
    all_consistent(rec);
    CHECK(rec["games"][0]["notes"][0] ==
          nlohmann::json({{"ply", 1 + 1}, {"line", 4}, {"column", 10}, {"message", "'hello' is not a move: skipped"}}));
    CHECK(rec["games"][1]["plies"] == 5);
    CHECK(rec["games"][1]["notes"][0]["ply"] == 3);
    CHECK(rec["games"][1]["notes"][0]["column"] == 19);

    const auto bad = judge_json("unreadable.pdn", 2);
    REQUIRE(bad["games"].size() == 3);
    CHECK(bad["games"][2]["verdict"] == "not judged");
    CHECK(bad["games"][2]["stopped_at_ply"] == 3);
    CHECK(bad["games"][0]["verdict"] == "not judged");
    CHECK(bad["games"][0]["judged"] == false);
    CHECK(bad["games"][0]["stopped_at_ply"] == 4);
    CHECK(bad["games"][0]["plies"] == 3);
    CHECK(has(bad["games"][0]["problems"], "'1q-23' (line 4, column 25)"));
    CHECK(bad["games"][1]["consistent"] == true);

    const auto illegal = judge_json("illegal.pdn", 1);
    CHECK(illegal["games"][0]["verdict"] == "inconsistent");
    CHECK(illegal["games"][0]["judged"] == true);
    CHECK(illegal["games"][0]["decisive_ply"] == 3);
    CHECK(has(illegal["games"][0]["problems"], "ply 3 (line 4, White to move): illegal move '28-22'"));
    CHECK(illegal["games"][1]["consistent"] == true);
}

TEST_CASE("dtb adjudicate --pdn: Turkish games on the Turkish tables, rules none",
          "[tools][adjudicate][pdn-files][plain-build]") {
    const auto j = judge_json("turkish.pdn", 1);
    const auto& g = j["games"];
    REQUIRE(g.size() == 3);
    for (const auto& game : g) {
        CHECK(game["variant"] == "turkish");
        CHECK(game["rules"] == "none");
        CHECK(game["judged"] == true);
    }
    CHECK(g[0]["consistent"] == true);
    CHECK(g[0]["plies"] == 17);
    CHECK(g[0]["first_judged_ply"] == 1);  // 5 pieces at the start
    CHECK(g[0]["theoretical_at_first_judged"] == "white wins");
    CHECK(g[0]["outcome"] == "game over at ply 17");
    CHECK(g[1]["verdict"] == "inconsistent");  // a draw recorded, a win remains
    CHECK(has(g[1]["problems"], "forced win remains"));
    CHECK(g[2]["consistent"] == true);
    CHECK(g[2]["theoretical_at_end"] == "draw");
    const RunResult text = judge_text("turkish.pdn");
    CHECK(text.exit_code == 1);
    CHECK_THAT(text.out, Catch::Contains("turkish, rules none (Turkish draughts has no counting rules)"));

    // The folder: "turkish" beside --db, or --turkish-db; none there: the tables' error, exit 3.
    const TempDir empty("adjudicate_pdn_no_turkish");
    const auto explicit_dir = judge_json("turkish.pdn", 1, {"--turkish-db", (both_tables() / "turkish").string()});
    CHECK(explicit_dir["games"][0]["consistent"] == true);
    const RunResult missing = run_dtb({"adjudicate", "--db", (both_tables() / "international").string(), "--turkish-db",
                                       (empty.path / "none").string(), "--pdn", data("turkish.pdn"), "--json"});
    CHECK(missing.exit_code == 3);
    const auto m = nlohmann::json::parse(missing.out);
    CHECK(m["games"][0]["judged"] == false);
    CHECK(m["games"][0]["verdict"] == "not judged");
    CHECK_THAT(missing.err, Catch::Contains("turkish"));
}

TEST_CASE("dtb adjudicate --pdn --json: the positions of every game, ply by ply",
          "[tools][adjudicate][pdn-files][plain-build]") {
    // The 5-move class from the start, drawn by its limit at ply 10 (numbers_results.pdn, game 10).
    const auto j = judge_json("numbers_results.pdn", 0);
    const auto& g = j["games"][9];
    const auto& at = g["positions"];
    REQUIRE(at.size() == g["plies"].get<std::size_t>() + 1);
    CHECK(at[0]["ply"] == 0);
    CHECK(at[0]["move"].is_null());
    CHECK(at[0]["started"] == "5-move");
    CHECK(at[0]["counting_rule"] == "5-move");
    CHECK(at[0]["counters"]["small"] == 0);
    CHECK(at[10]["drawn_by"] == "5-move");
    CHECK(at[10]["counters"]["small"] == 10);
    CHECK(at[10]["rule_value"] == "draw");
    CHECK(at[0]["theoretical"] == "win");
    for (std::size_t k = 1; k < at.size(); ++k) {
        INFO("ply " << k);
        CHECK(at[k]["ply"] == static_cast<int>(k));
        CHECK(at[k]["move"].is_string());
        CHECK(at[k]["counters"]["small"] == static_cast<int>(k));  // king moves: the count goes on
    }
    // The same values as dtb probe and dtb adjudicate on the FEN with the game's counters.
    for (std::size_t k : {std::size_t{0}, std::size_t{5}, std::size_t{10}}) {
        INFO("ply " << k);
        const std::string fen = at[k]["fen"];
        const RunResult probe = run_dtb({"probe", "--json", "--db", (both_tables() / "international").string(), fen});
        REQUIRE(probe.exit_code == 0);
        const auto p = nlohmann::json::parse(probe.out);
        CHECK(at[k]["theoretical"] == p["wdl"]);
        CHECK(at[k]["theoretical_dtw"] == p["dtw"]);
        const auto& counters = at[k]["counters"];
        const RunResult adj = run_dtb({"adjudicate", "--json", "--db", (both_tables() / "international").string(),
                                       "--fen", fen, "--reversible", std::to_string(counters["reversible"].get<int>()),
                                       "--small", std::to_string(counters["small"].get<int>())});
        REQUIRE(adj.exit_code == 0);
        CHECK(at[k]["rule_value"] == nlohmann::json::parse(adj.out)["result"]);
    }

    // A Turkish game whose start is beyond the tables (5 pieces): no value at ply 0, values from
    // ply 1; no counters (Turkish has no counting rules).
    const auto t = judge_json("turkish.pdn", 1)["games"][0];
    REQUIRE(t["positions"].size() == 18);
    CHECK(t["positions"][0]["theoretical"].is_null());
    CHECK(t["positions"][0]["rule_value"].is_null());
    CHECK(t["positions"][0]["counters"].is_null());
    CHECK(t["positions"][1]["theoretical"] == "loss");  // Black to move: White wins, as the game says
    CHECK(t["theoretical_at_first_judged"] == "white wins");
    CHECK(t["positions"][17]["theoretical"] == "loss");  // game over: the side to move has lost
    CHECK(t["positions"][17]["theoretical_dtw"] == 0);

    // A game of another variant, and one that cannot be followed: no positions.
    CHECK(judge_json("game_types.pdn", 0)["games"][7]["positions"].empty());
}
