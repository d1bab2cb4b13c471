// `dtb probe`: runs the built executable (DTB_EXE) on tables it generates itself (`dtb gen`, up
// to 3 pieces, once per test process) and checks the JSON contract, the text layout and the exit
// codes.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Run {
    int exit_code = -1;
    std::string out, err;
};

std::string read_all(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs `dtb args...` in folder `cwd` (when not empty).
Run dtb(const std::vector<std::string>& args, const fs::path& cwd = {}) {
    static int counter = 0;
    const fs::path base = fs::temp_directory_path() /
                          ("dtb_tools_probe_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::string cmd = cwd.empty() ? "" : "cd " + shell_quote(cwd.string()) + " && ";
    cmd += shell_quote(DTB_EXE);
    for (const auto& a : args) cmd += " " + shell_quote(a);
    cmd += " >" + shell_quote(base.string() + ".out") + " 2>" + shell_quote(base.string() + ".err");
    const int status = std::system(cmd.c_str());
    REQUIRE(status != -1);
    REQUIRE(WIFEXITED(status));
    Run r{WEXITSTATUS(status), read_all(base.string() + ".out"), read_all(base.string() + ".err")};
    fs::remove(base.string() + ".out");
    fs::remove(base.string() + ".err");
    return r;
}

// Tables for both variants, generated once per process by the tool itself; removed at exit.
struct Tables {
    fs::path root = fs::temp_directory_path() / ("dtb_tools_probe_tb_" + std::to_string(::getpid()));
    Tables() {
        fs::remove_all(root);
        for (const char* v : {"international", "turkish"}) {
            const Run g = dtb({"gen", "--variant", v, "--pieces", "3", "--out", (root / v).string()});
            if (g.exit_code != 0) throw std::runtime_error("dtb gen failed: " + g.err);
        }
    }
    ~Tables() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
    fs::path dir(const char* variant) const { return root / variant; }
};
const Tables& tables() {
    static const Tables t;
    return t;
}

std::vector<nlohmann::json> json_lines(const Run& r) {
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    std::vector<nlohmann::json> out;
    std::stringstream ss(r.out);
    for (std::string line; std::getline(ss, line);) {
        auto j = nlohmann::json::parse(line, nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        REQUIRE(j.is_object());
        out.push_back(j);
    }
    return out;
}

int rank(const std::string& wdl) { return wdl == "win" ? 0 : wdl == "draw" ? 1 : 2; }

// The contract of one position's object: keys, types, distances null exactly for draws, moves
// sorted best first, the best move carrying the position's WDL and DTW, the PV starting with it.
void check_object(const nlohmann::json& j) {
    INFO(j.dump());
    for (const char* key : {"fen", "variant", "wdl", "dtw", "dtc", "moves", "pv"}) REQUIRE(j.contains(key));
    const std::string wdl = j["wdl"];
    REQUIRE((wdl == "win" || wdl == "draw" || wdl == "loss"));
    CHECK(j["dtw"].is_null() == (wdl == "draw"));
    CHECK(j["dtc"].is_null() == (wdl == "draw"));
    const auto& moves = j["moves"];
    REQUIRE(moves.is_array());
    for (std::size_t k = 0; k < moves.size(); ++k) {
        const auto& m = moves[k];
        REQUIRE(m["move"].is_string());
        const std::string mw = m["wdl"];
        CHECK(m["dtw"].is_null() == (mw == "draw"));
        CHECK(m["dtc"].is_null() == (mw == "draw"));
        if (k == 0) continue;
        const auto& prev = moves[k - 1];
        const std::string pw = prev["wdl"];
        REQUIRE(rank(pw) <= rank(mw));
        if (pw != mw) continue;
        if (mw == "win") {
            REQUIRE(prev["dtw"] <= m["dtw"]);
            if (prev["dtw"] == m["dtw"]) REQUIRE(prev["dtc"] <= m["dtc"]);
        } else if (mw == "loss") {
            REQUIRE(prev["dtw"] >= m["dtw"]);
            if (prev["dtw"] == m["dtw"]) REQUIRE(prev["dtc"] >= m["dtc"]);
        }
        if (prev["dtw"] == m["dtw"] && prev["dtc"] == m["dtc"])
            REQUIRE(prev["move"].get<std::string>() < m["move"].get<std::string>());
    }
    if (!moves.empty()) {
        CHECK(moves[0]["wdl"] == j["wdl"]);
        CHECK(moves[0]["dtw"] == j["dtw"]);
    }
    if (wdl == "draw" || moves.empty()) {
        CHECK(j["pv"].empty());
    } else {
        REQUIRE(j["pv"].size() == j["dtw"].get<std::size_t>());
        CHECK(j["pv"][0] == moves[0]["move"]);
    }
}

}  // namespace

TEST_CASE("dtb probe --json: one object per position per line, with the agreed fields", "[tools][probe]") {
    const auto& t = tables();
    const Run r = dtb({"probe", "--db", t.dir("international").string(), "--json", "W:WK2,6:BK50", "W:W33:B2",
                       "B:W49:B18", "W:WK1:BK50", "W:W46:B41,37", "W:WK28:BK23", "W:W28:B22,23"});
    REQUIRE(r.exit_code == 0);
    const auto objects = json_lines(r);
    REQUIRE(objects.size() == 7);
    for (const auto& j : objects) {
        check_object(j);
        CHECK(j["variant"] == "international");
    }
    CHECK(objects[0]["fen"] == "W:WK2,6:BK50");
    CHECK(objects[0]["wdl"] == "win");
    CHECK(objects[0]["dtw"] == 9);
    CHECK(objects[1]["wdl"] == "win");
    CHECK(objects[1]["dtw"] == 17);
    CHECK(objects[1]["moves"][0]["move"] == "33-29");
    CHECK(objects[2]["wdl"] == "win");  // the same position turned round, Black to move
    CHECK(objects[2]["dtw"] == 17);
    CHECK(objects[2]["fen"] == "B:W49:B18");
    CHECK(objects[3]["wdl"] == "draw");
    CHECK(objects[3]["pv"].empty());
    // No legal move: lost now, no moves, no PV.
    CHECK(objects[4]["wdl"] == "loss");
    CHECK(objects[4]["dtw"] == 0);
    CHECK(objects[4]["dtc"] == 0);
    CHECK(objects[4]["moves"].empty());
    // Capturing the last piece: every capture wins in 1, and prints as from x to.
    CHECK(objects[5]["wdl"] == "win");
    CHECK(objects[5]["dtw"] == 1);
    CHECK(objects[5]["dtc"] == 1);
    REQUIRE(objects[5]["moves"].size() == 4);
    for (const auto& m : objects[5]["moves"]) {
        CHECK(m["wdl"] == "win");
        CHECK(m["dtw"] == 1);
        CHECK(m["dtc"] == 1);
    }
    CHECK(objects[5]["moves"][0]["move"] == "28x10");
    // A man with two captures (over 22 or over 23): both print as from x to.
    REQUIRE(objects[6]["moves"].size() == 2);
    for (const auto& m : objects[6]["moves"]) CHECK(m["move"].get<std::string>().find('x') != std::string::npos);

    const Run tk = dtb({"probe", "--variant", "turkish", "--db", t.dir("turkish").string(), "--json",
                        "W:Wa2,Kd4:Bd6,h7"});
    REQUIRE(tk.exit_code == 0);
    const auto turkish = json_lines(tk);
    REQUIRE(turkish.size() == 1);
    check_object(turkish[0]);
    CHECK(turkish[0]["variant"] == "turkish");
    CHECK(turkish[0]["wdl"] == "win");
    CHECK(turkish[0]["moves"][0]["move"] == "d4xd7");
}

TEST_CASE("dtb probe: text layout, default folder and exit codes", "[tools][probe]") {
    const auto& t = tables();
    const std::string db = t.dir("international").string();
    Run r = dtb({"probe", "--db", db, "W:WK2,6:BK50", "W:WK1:BK50"});
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("White to move: win in 9 plies"));
    CHECK_THAT(r.out, Catch::Contains("PV: 1. 2-11"));
    CHECK_THAT(r.out, Catch::Contains("White to move: draw"));
    CHECK_THAT(r.out, Catch::Contains("draw: "));

    // The default folder is data/tb/<variant> under the working directory.
    const fs::path cwd = t.root / "cwd";
    fs::create_directories(cwd / "data" / "tb");
    fs::create_directory_symlink(t.dir("international"), cwd / "data" / "tb" / "international");
    r = dtb({"probe", "--json", "W:W33:B2"}, cwd);
    REQUIRE(r.exit_code == 0);
    CHECK(json_lines(r)[0]["dtw"] == 17);
    r = dtb({"probe", "--variant", "turkish", "W:Wd4:Bd6"}, cwd);
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("data/tb/turkish"));

    // Malformed or illegal positions: 2.
    r = dtb({"probe", "--db", db, "W:W33:X2"});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("FEN"));
    r = dtb({"probe", "--db", db, "W:W3:B40"});  // a white man on its promotion row
    CHECK(r.exit_code == 2);
    r = dtb({"probe", "--db", db, "W:W33:B"});  // the game is already over
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("illegal"));

    // Outside the tables, missing folder, corrupt table: 3.
    r = dtb({"probe", "--db", db, "W:W31,32:B1,2"});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("MMvMM"));
    r = dtb({"probe", "--db", (t.root / "nowhere").string(), "W:W33:B2"});
    CHECK(r.exit_code == 3);
    const fs::path broken = t.root / "broken";
    fs::copy(t.dir("international"), broken);
    {
        std::fstream f(broken / "MvM.wdl", std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(-40, std::ios::end);
        f.put('\x5a');
    }
    r = dtb({"probe", "--db", broken.string(), "W:W33:B2"});
    CHECK(r.exit_code == 3);
    CHECK_THAT(r.err, Catch::Contains("corrupt"));
    r = dtb({"probe", "--db", broken.string(), "--json", "W:WK2,6:BK50"});
    CHECK(r.exit_code == 0);  // KMvK and its successors do not read MvM
}
