// `dtb adjudicate`: the JSON contract of --fen and --pdn, the report on tests/data/adjudicate.pdn
// (games built to reach each counting limit, a repetition, a forced win claimed as a draw, an
// illegal move), and the exit codes.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/support/tools_stats_support.hpp"

using namespace dtb::test;

namespace {

// The fixture's international set, or 3 pieces plus 3K v K, K+K+M v K and 2K v 2K made here once per
// process.
const fs::path& tables() {
    static const fs::path dir = [] {
#ifdef DTB_TEST_TABLES
        const fs::path fixture = fs::path(DTB_TEST_TABLES) / "international";
        if (fs::exists(fixture / "MMvMM.wdl")) return fixture;
#endif
        const fs::path d = fresh_dir("adjudicate_tables");
        REQUIRE(run_dtb({"gen", "--pieces", "3", "--out", d.string()}).exit_code == 0);
        // The 4-piece materials the games below reach: a folder of 4 pieces must hold them all.
        for (const char* pair : {"KKKvK", "KKMvK", "KKvKK"})
            REQUIRE(run_dtb({"gen", "--pieces", "4", "--only", pair, "--out", d.string()}).exit_code == 0);
        return d;
    }();
    return dir;
}

nlohmann::json run_json(const std::vector<std::string>& args, int expected_exit = 0) {
    std::vector<std::string> all{"adjudicate", "--db", tables().string(), "--json"};
    all.insert(all.end(), args.begin(), args.end());
    const RunResult r = run_dtb(all);
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == expected_exit);
    auto j = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    return j;
}

const fs::path kPdn = fs::path(DTB_SOURCE_DIR) / "tests" / "data" / "adjudicate.pdn";

bool has_event(const nlohmann::json& game, int ply, const std::string& event) {
    for (const auto& e : game["events"])
        if (e["ply"] == ply && e["event"] == event) return true;
    return false;
}

}  // namespace

TEST_CASE("dtb adjudicate --fen: the JSON contract", "[tools][adjudicate][plain-build]") {
    const auto j = run_json({"--fen", "W:WK2,6:BK50"});
    for (const char* key :
         {"fen", "rules", "reversible", "endgame", "small", "result", "plies", "rule", "moves", "theoretical"})
        CHECK(j.contains(key));
    CHECK(j["fen"] == "W:WK2,6:BK50");
    CHECK(j["rules"] == "fmjd");
    CHECK(j["reversible"] == 0);
    CHECK(j["endgame"].is_null());
    CHECK(j["small"] == 0);
    CHECK(j["result"] == "win");
    CHECK(j["plies"] == 9);
    CHECK(j["rule"] == "none");
    CHECK(j["theoretical"] == "win");
    REQUIRE(j["moves"].size() == 1);
    CHECK(j["moves"][0] == nlohmann::json({{"move", "2-11"}, {"result", "win"}, {"plies", 9}}));

    const auto drawn = run_json({"--fen", "W:WK2,6:BK50", "--small", "2"});
    CHECK(drawn["result"] == "draw");
    CHECK(drawn["plies"].is_null());
    CHECK(drawn["rule"] == "5-move");
    CHECK(drawn["theoretical"] == "win");

    const auto lost = run_json({"--fen", "B:WK40,K45,50:BK7", "--endgame", "0"});
    CHECK(lost["result"] == "loss");
    CHECK(lost["plies"] == 32);
    CHECK(run_json({"--fen", "B:WK40,K45,50:BK7", "--endgame", "1"})["rule"] == "16-move");
    CHECK(run_json({"--fen", "B:WK40,K45,50:BK7", "--endgame", "1", "--rules", "none"})["result"] == "loss");
    // ffjd: White cannot promote (2K v K would be drawn at once) and cannot win otherwise.
    const auto ffjd = run_json({"--fen", "W:WK2,6:BK50", "--rules", "ffjd"});
    CHECK(ffjd["result"] == "draw");
    CHECK(ffjd["rule"] == "2k-v-k");
}

TEST_CASE("dtb adjudicate --pdn: the report on games built for each rule", "[tools][adjudicate][plain-build]") {
    const auto j = run_json({"--pdn", kPdn.string()}, 1);
    const auto& g = j["games"];
    REQUIRE(g.size() == 10);
    CHECK(g[0]["consistent"] == false);  // a win recorded after the 16-move limit
    CHECK(has_event(g[0], 0, "16-move started"));
    CHECK(has_event(g[0], 32, "draw by 16-move"));
    CHECK(g[0]["result"] == "2-0");
    CHECK(g[0]["theoretical_at_first_judged"] == "white wins");
    CHECK(g[1]["consistent"] == true);
    CHECK(has_event(g[1], 10, "draw by 5-move"));
    CHECK(g[2]["consistent"] == true);
    CHECK(has_event(g[2], 50, "draw by 25-move"));
    CHECK(g[4]["consistent"] == true);  // the win played out to the end
    CHECK(g[4]["plies"] == 9);
    CHECK(g[5]["consistent"] == false);  // a draw claimed while a win in 31 remains
    CHECK_THAT(g[5]["problems"][0].get<std::string>(), Catch::Contains("forced win"));
    CHECK(g[6]["consistent"] == false);  // the illegal move
    CHECK_THAT(g[6]["problems"][0].get<std::string>(), Catch::Contains("ply 3"));
    CHECK_THAT(g[6]["problems"][0].get<std::string>(), Catch::Contains("28x19"));
    CHECK(g[7]["consistent"] == true);  // an opening: nothing to judge
    CHECK(g[7]["first_judged_ply"].is_null());
    CHECK(g[8]["consistent"] == false);
    CHECK(has_event(g[8], 8, "repetition"));
    // 3K v K from ply 0; the lone king captures at ply 28 into 2K v K, where the 16-move count
    // carried in (RULES.md 1) draws at ply 32, before the 5-move limit (ply 38).
    CHECK(g[9]["consistent"] == true);
    CHECK(has_event(g[9], 0, "16-move started"));
    CHECK(has_event(g[9], 28, "5-move started"));
    CHECK(has_event(g[9], 32, "draw by 16-move"));
    CHECK(g[9]["outcome"] == "drawn at ply 32");

    const auto f = run_json({"--pdn", kPdn.string(), "--rules", "ffjd"}, 1);
    CHECK(has_event(f["games"][3], 0, "draw by 2k-v-k"));
    CHECK(has_event(f["games"][4], 3, "draw by 2k-v-k"));   // the promotion to 2K v K
    CHECK(has_event(f["games"][9], 28, "draw by 2k-v-k"));  // the capture into 2K v K
    CHECK(f["games"][9]["outcome"] == "drawn at ply 28");
}

TEST_CASE("dtb adjudicate: exit codes", "[tools][adjudicate][plain-build]") {
    const std::string db = tables().string();
    CHECK(run_dtb({"adjudicate", "--db", db, "--fen", "W:WK2,6:BK51"}).exit_code == 2);
    CHECK(run_dtb({"adjudicate", "--db", db, "--fen", "W:WK2,6:BK50", "--rules", "fide"}).exit_code == 2);
    CHECK(run_dtb({"adjudicate", "--db", db, "--fen", "W:WK2,6:BK50", "--reversible", "-1"}).exit_code == 2);
    CHECK(run_dtb({"adjudicate", "--db", db}).exit_code == 2);
    CHECK(run_dtb({"adjudicate", "--db", db, "--pdn", "/nonexistent.pdn"}).exit_code == 2);
    CHECK(run_dtb({"adjudicate", "--db", "/nonexistent", "--fen", "W:WK2,6:BK50"}).exit_code == 3);
    const RunResult big = run_dtb({"adjudicate", "--db", db, "--fen", "W:W31-50:B1-20"});
    CHECK(big.exit_code == 3);
    CHECK_FALSE(big.err.empty());
}

// Beyond the folder's largest table the rules still decide a 25-move count at its limit (a draw)
// and a side without a move (a loss); one ply before the limit the tables would be needed.
TEST_CASE("dtb adjudicate --fen: beyond the tables, what the rules alone decide", "[tools][adjudicate][plain-build]") {
    const std::string kings = "W:WK1,K2,K3,K4:BK46,K47,K48";  // 36 king moves, no capture
    const nlohmann::json drawn = run_json({"--fen", kings, "--reversible", "50"});
    CHECK(drawn["result"] == "draw");
    CHECK(drawn["plies"].is_null());
    CHECK(drawn["rule"] == "25-move");
    CHECK(drawn["theoretical"].is_null());
    CHECK(drawn["theoretical_dtw"].is_null());
    REQUIRE(drawn["moves"].size() == 36);
    for (const auto& m : drawn["moves"]) CHECK(m["result"] == "draw");
    const RunResult text = run_dtb({"adjudicate", "--db", tables().string(), "--fen", kings, "--reversible", "50"});
    CHECK(text.exit_code == 0);
    CHECK_THAT(text.out, Catch::Contains("draw by the 25-move rule") && Catch::Contains("theoretical: not known"));
    const RunResult open = run_dtb({"adjudicate", "--db", tables().string(), "--fen", kings, "--reversible", "49"});
    CHECK(open.exit_code == 3);
    CHECK_FALSE(open.err.empty());
    const nlohmann::json blocked = run_json({"--fen", "W:W6,16:B1,7,11,17"});  // White has no move
    CHECK(blocked["result"] == "loss");
    CHECK(blocked["plies"] == 0);
    CHECK(blocked["theoretical"] == "loss");
    CHECK(blocked["moves"].empty());
}

// A PDN file whose records cannot be followed is bad input (exit 2), reported game by game with
// "judged": false; an illegal move in a well-formed record stays a record judged wrong (exit 1,
// the tests above); a game of another variant is skipped (tools_adjudicate_pdn.cpp).
TEST_CASE("dtb adjudicate --pdn: records that cannot be followed, and empty files, are bad input",
          "[tools][adjudicate][plain-build]") {
    const TempDir dir("adjudicate_bad_pdn");
    const auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(dir.path / name, std::ios::binary) << text;
        return (dir.path / name).string();
    };
    const std::string good = "[GameType \"20\"]\n[FEN \"W:WK2,6:BK50\"]\n1. 2-11 *\n\n";
    const std::string comment = write("comment.pdn", good + "[GameType \"20\"]\n1. 32-28 {never closed 19-23 *\n");
    const std::string fen = write("fen.pdn", good + "[GameType \"20\"]\n[FEN \"W:WK2,6:BK51\"]\n1-0\n");
    const std::string broken_fen = write("broken_fen.pdn", good + "[GameType \"20\"]\n[FEN \"W:WK2,6:BK50]\n1-0\n");
    const std::string setup = write("setup.pdn", good + "[GameType \"20\"]\n1. 32-28 /W:W1:B2/ 19-23 *\n");
    for (const std::string& file : {comment, fen, broken_fen, setup}) {
        INFO(file);
        const auto j = run_json({"--pdn", file}, 2);
        REQUIRE(j["games"].size() == 2);
        CHECK(j["games"][0]["judged"] == true);
        CHECK(j["games"][1]["judged"] == false);
        CHECK(j["games"][1]["consistent"] == false);
        CHECK(j["games"][1]["verdict"] == "not judged");
        CHECK_FALSE(j["games"][1]["problems"].empty());
        const RunResult text = run_dtb({"adjudicate", "--db", tables().string(), "--pdn", file});
        CHECK(text.exit_code == 2);
        CHECK(text.out.find("NOT JUDGED (a bad record)") != std::string::npos);
    }
    // A stray word is stepped over: the game is judged.
    const std::string stray = write("stray.pdn", good + "[GameType \"20\"]\n1. 32-28 %% 19-23 *\n");
    const auto s = run_json({"--pdn", stray}, 0);
    CHECK(s["games"][1]["judged"] == true);
    CHECK(s["games"][1]["notes"].size() == 1);
    const std::string only_good = write("good.pdn", good);
    const auto ok = run_json({"--pdn", only_good}, 0);
    REQUIRE(ok["games"].size() == 1);
    CHECK(ok["games"][0]["judged"] == true);
    CHECK(ok["games"][0]["consistent"] == true);
    for (const std::string& empty : {write("empty.pdn", ""), write("blank.pdn", "\n  \n")}) {
        const RunResult r = run_dtb({"adjudicate", "--db", tables().string(), "--pdn", empty});
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("no game") != std::string::npos);
    }
}

// A rule table stored as exceptions (format encoding 2) reads its slice's DTC beside it: with
// that file gone, adjudication reports the table as missing or corrupt (exit 3), naming the file.
TEST_CASE("dtb adjudicate: a rule table whose DTC is gone is an error, not a value",
          "[tools][adjudicate][plain-build]") {
    const TempDir db("adjudicate_residual");
    REQUIRE(run_dtb({"gen", "--pieces", "3", "--out", db.path.string()}).exit_code == 0);
    const std::string fen = "W:WK46,35:B3";  // KMvM, in no counting class, no capture
    REQUIRE(run_dtb({"adjudicate", "--db", db.path.string(), "--fen", fen}).exit_code == 0);
    {
        std::ifstream in(db.path / "KMvM.fmjd", std::ios::binary);
        in.seekg(15);
        REQUIRE(in.get() == 2);  // encoding 2: stored as exceptions
    }
    fs::remove(db.path / "KMvM.dtc");
    const RunResult r = run_dtb({"adjudicate", "--db", db.path.string(), "--fen", fen});
    INFO(r.out << r.err);
    CHECK(r.signal == 0);
    CHECK(r.exit_code == 3);
    CHECK(r.err.find("KMvM.dtc") != std::string::npos);
}

// A game whose positions the folder should cover (no more pieces than its largest table) but
// cannot judge, for a table missing or corrupt, is a fault of the tables (exit 3, the table
// named), never a game called consistent; positions beyond the folder's reach are simply not
// judged (exit 0).
TEST_CASE("dtb adjudicate --pdn: a table missing or corrupt is an error, not a consistent game",
          "[tools][adjudicate][plain-build]") {
    const TempDir db("adjudicate_pdn_tables");
    REQUIRE(run_dtb({"gen", "--pieces", "3", "--out", db.path.string()}).exit_code == 0);
    const fs::path pdn = db.path / "games.pdn";
    // K+M v K (3 pieces) played on and recorded as a white win, then a 4-piece game of kings
    // (beyond a 3-piece folder) without a result.
    std::ofstream(pdn, std::ios::binary) << "[GameType \"20\"]\n[FEN \"W:WK2,6:BK50\"]\n1. 2-11 50-45 2-0\n\n"
                                            "[GameType \"20\"]\n[FEN \"W:WK1,K2:BK50,K49\"]\n1. 1-7 *\n";
    const auto run = [&] { return run_dtb({"adjudicate", "--db", db.path.string(), "--pdn", pdn.string(), "--json"}); };
    {
        const RunResult r = run();
        INFO(r.out << r.err);
        REQUIRE(r.exit_code == 0);
        const auto j = nlohmann::json::parse(r.out);
        CHECK(j["games"][0]["judged"] == true);
        CHECK(j["games"][0]["consistent"] == true);
        CHECK(j["games"][0]["first_judged_ply"] == 0);
        CHECK(j["games"][1]["judged"] == true);
        CHECK(j["games"][1]["first_judged_ply"].is_null());
    }
    const auto expect_table_error = [&](const std::string& file) {
        const RunResult r = run();
        INFO(r.out << r.err);
        CHECK(r.signal == 0);
        REQUIRE(r.exit_code == 3);
        CHECK(r.err.find(file) != std::string::npos);
        const auto j = nlohmann::json::parse(r.out);
        CHECK(j["games"][0]["judged"] == false);
        CHECK(j["games"][0]["consistent"] == false);
        CHECK(j["games"][0]["first_judged_ply"].is_null());
        REQUIRE_FALSE(j["games"][0]["problems"].empty());
        CHECK(j["games"][0]["problems"][0].get<std::string>().find(file) != std::string::npos);
        CHECK(j["games"][1]["judged"] == true);
        const RunResult text = run_dtb({"adjudicate", "--db", db.path.string(), "--pdn", pdn.string()});
        CHECK(text.exit_code == 3);
        CHECK(text.out.find("NOT JUDGED (tables)") != std::string::npos);
    };
    // The rule table gone: the game tables still answer the theory, but not under the rules.
    const TempDir aside("adjudicate_pdn_aside");
    const fs::path fmjd = db.path / "KMvK.fmjd", saved = aside.path / "KMvK.fmjd";
    fs::rename(fmjd, saved);
    expect_table_error("KMvK.fmjd");
    fs::rename(saved, fmjd);
    // The WDL table cut short.
    const fs::path wdl = db.path / "KMvK.wdl";
    fs::resize_file(wdl, fs::file_size(wdl) / 2);
    expect_table_error("KMvK.wdl");
}
