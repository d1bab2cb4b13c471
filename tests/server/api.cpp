// The explorer's API over real HTTP on loopback (docs/API.md): every route, every error status,
// values equal to `dtb probe --json` and `dtb adjudicate --json`, concurrent clients, and a
// bounded load of mixed good and bad requests after which the server still answers.
#include <httplib.h>
#include <sys/wait.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "dtb/server/http_server.hpp"
#include "tests/support/serve_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace dtb;

namespace {

// A server over the fixture's tables (both variants, up to 4 pieces) on a free port.
struct Running {
    server::Explorer explorer;
    std::unique_ptr<server::HttpServer> http;
    std::thread thread;
    explicit Running(const fs::path& tables, int threads = 4)
        : explorer(server::ExplorerOptions{.tables = tables, .cache_mb = 16, .solve = {}}) {
        server::HttpOptions o;
        o.port = 0;
        o.threads = threads;
        auto bound = server::HttpServer::bind(explorer, o);
        if (!bound) throw std::runtime_error(bound.error());
        http = std::move(bound.value());
        thread = std::thread([this] { http->run(); });
    }
    ~Running() {
        http->stop();
        thread.join();
    }
    httplib::Client client() const {
        httplib::Client c("127.0.0.1", http->port());
        c.set_read_timeout(30, 0);
        return c;
    }
};

Running& fixture_server() {
    static Running r(DTB_TEST_TABLES);
    return r;
}

// stdout of `dtb args...`.
std::string dtb_output(const std::vector<std::string>& args) {
    std::string cmd = DTB_EXE;
    for (const std::string& a : args) cmd += " '" + a + "'";
    std::string out;
    FILE* f = ::popen(cmd.c_str(), "r");
    REQUIRE(f);
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) out.append(buf, n);
    ::pclose(f);
    return out;
}

// A query parameter's value, percent-encoded.
std::string url_encode(const std::string& text) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

nlohmann::json parse(const httplib::Result& r) {
    REQUIRE(r);
    INFO(r->body);
    REQUIRE(r->get_header_value("Content-Type").find("application/json") == 0);
    return nlohmann::json::parse(r->body);
}

const std::vector<std::pair<std::string, std::string>> kPositions = {
    {"international", "W:WK2,6:BK50"}, {"international", "W:W28:BK19,K40"}, {"international", "B:W28:BK19,K40"},
    {"international", "W:W33:B18"},    {"international", "W:WK3,42:B23"},   {"international", "W:WK46,K47,27:BK5"},
    {"turkish", "W:Wd4:Bd6"},          {"turkish", "B:Wd4,e4:Bd6"},         {"turkish", "W:WKa1:Bh7,g7"},
};

}  // namespace

TEST_CASE("GET /api/v1/{variant}: the dtb probe --json object", "[server]") {
    auto c = fixture_server().client();
    for (const auto& [variant, fen] : kPositions) {
        INFO(variant << " " << fen);
        const auto r = c.Get(("/api/v1/" + variant + "?fen=" + url_encode(fen)).c_str());
        REQUIRE(r);
        CHECK(r->status == 200);
        CHECK(r->get_header_value("Access-Control-Allow-Origin") == "*");
        CHECK(r->get_header_value("Cache-Control").find("max-age") != std::string::npos);
        const auto api = parse(r);
        const auto cli = nlohmann::json::parse(dtb_output(
            {"probe", "--json", "--variant", variant, "--db", std::string(DTB_TEST_TABLES) + "/" + variant, fen}));
        CHECK(api == cli);
        // Each move's FEN is the position after it: probing it gives the value the move says.
        for (const nlohmann::json& move : api["moves"]) {
            REQUIRE(move["path"].size() >= 2);
            const std::string from = move["path"][0], text = move["move"], after_fen = move["fen"];
            CHECK(text.rfind(from, 0) == 0);
            const auto after = parse(c.Get(("/api/v1/" + variant + "?fen=" + url_encode(after_fen)).c_str()));
            const std::string mover = move["wdl"], reply = after["wdl"];
            CHECK(((mover == "win" && reply == "loss") || (mover == "loss" && reply == "win") ||
                   (mover == "draw" && reply == "draw")));
        }
    }
}

TEST_CASE("GET /api/v1/international/adjudicate: the dtb adjudicate --json object", "[server][plain-build]") {
    auto c = fixture_server().client();
    struct Case {
        std::string fen, rules;
        int reversible;
        std::optional<int> endgame, small;
    };
    for (const Case& k : {Case{"W:WK40,K45,50:BK11", "fmjd", 0, 1, {}}, Case{"W:WK40,K45,50:BK11", "ffjd", 0, 2, {}},
                          Case{"W:WK6,K22,K27:BK49", "fmjd", 38, {}, {}}, Case{"W:WK2,6:BK50", "none", 0, {}, {}},
                          Case{"W:WK2,K6:BK50", "fmjd", 0, {}, 4}}) {
        INFO(k.fen << " " << k.rules);
        std::string url = "/api/v1/international/adjudicate?fen=" + url_encode(k.fen) + "&rules=" + k.rules +
                          "&reversible=" + std::to_string(k.reversible);
        std::vector<std::string> args{"adjudicate",   "--json",
                                      "--db",         std::string(DTB_TEST_TABLES) + "/international",
                                      "--fen",        k.fen,
                                      "--rules",      k.rules,
                                      "--reversible", std::to_string(k.reversible)};
        if (k.endgame) {
            url += "&endgame=" + std::to_string(*k.endgame);
            args.insert(args.end(), {"--endgame", std::to_string(*k.endgame)});
        }
        if (k.small) {
            url += "&small=" + std::to_string(*k.small);
            args.insert(args.end(), {"--small", std::to_string(*k.small)});
        }
        const auto r = c.Get(url.c_str());
        REQUIRE(r);
        CHECK(r->status == 200);
        CHECK(parse(r) == nlohmann::json::parse(dtb_output(args)));
    }
}

TEST_CASE("POST /api/v1/international/games: the dtb adjudicate --pdn --json object", "[server][plain-build]") {
    auto c = fixture_server().client();
    for (const std::string file : {"tests/data/adjudicate.pdn", "tests/data/pdn/padded.pdn",
                                   "tests/data/pdn/game_types.pdn", "tests/data/pdn/turkish.pdn"}) {
        const fs::path path = fs::path(DTB_SOURCE_DIR) / file;
        if (!fs::exists(path)) continue;
        INFO(file);
        std::ifstream in(path, std::ios::binary);
        const std::string body((std::istreambuf_iterator<char>(in)), {});
        for (const std::string rules : {"fmjd", "ffjd"}) {
            const auto r = c.Post(("/api/v1/international/games?rules=" + rules).c_str(), body, "text/plain");
            REQUIRE(r);
            CHECK(r->status == 200);
            const auto cli = nlohmann::json::parse(dtb_output(
                {"adjudicate", "--json", "--rules", rules, "--db", std::string(DTB_TEST_TABLES) + "/international",
                 "--turkish-db", std::string(DTB_TEST_TABLES) + "/turkish", "--pdn", path.string()}));
            CHECK(parse(r) == cli);
        }
    }
    const auto empty = c.Post("/api/v1/international/games", "just text, no game", "text/plain");
    REQUIRE(empty);
    CHECK(empty->status == 400);
    const auto bad_rules = c.Post("/api/v1/international/games?rules=x", "1. 32-28 *", "text/plain");
    REQUIRE(bad_rules);
    CHECK(bad_rules->status == 400);
}

namespace {

// `dtb probe --json` and `dtb adjudicate --json` of an international position.
nlohmann::json cli_probe(const std::string& fen) {
    return nlohmann::json::parse(
        dtb_output({"probe", "--json", "--db", std::string(DTB_TEST_TABLES) + "/international", fen}));
}
nlohmann::json cli_adjudicate(const std::string& fen, const nlohmann::json& counters,
                              const std::string& rules = "fmjd") {
    std::vector<std::string> args{
        "adjudicate", "--json", "--db",         std::string(DTB_TEST_TABLES) + "/international",  "--fen", fen,
        "--rules",    rules,    "--reversible", std::to_string(counters["reversible"].get<int>())};
    for (const char* name : {"endgame", "small"})
        if (!counters[name].is_null())
            args.insert(args.end(), {std::string("--") + name, std::to_string(counters[name].get<int>())});
    return nlohmann::json::parse(dtb_output(args));
}

const char* const kLimitGame = R"([Event "16-move limit passed, then a win recorded"]
[GameType "20"]
[SetUp "1"]
[FEN "W:WK40,K45,50:BK11"]
[Result "2-0"]
1. 40-18 11-28 2. 18-27 28-39 3. 27-38 39-25 4. 45-40 25-48 5. 40-18 48-25 6. 38-27 25-30
7. 27-22 30-48 8. 22-28 48-43 9. 18-12 43-27 10. 28-11 27-43 11. 12-18 43-16 12. 18-7 16-43
13. 11-22 43-21 14. 7-2 21-38 15. 22-13 38-32 16. 2-8 32-49 17. 13-22 49-38 2-0
)";

}  // namespace

TEST_CASE("POST /api/v1/international/games: the values at every ply", "[server]") {
    auto c = fixture_server().client();
    const auto j = parse(c.Post("/api/v1/international/games", kLimitGame, "text/plain"));
    const auto& g = j["games"][0];
    const auto& positions = g["positions"];
    REQUIRE(g["plies"] == 34);
    REQUIRE(positions.size() == 35);
    // Ply 0: the start, no move; the 16-move count starts there.
    CHECK(positions[0]["ply"] == 0);
    CHECK(positions[0]["move"].is_null());
    CHECK(positions[0]["fen"] == "W:WK40,K45,50:BK11");
    CHECK(positions[0]["counters"] == nlohmann::json({{"reversible", 0}, {"endgame", 0}, {"small", nullptr}}));
    CHECK(positions[0]["started"] == "16-move");
    CHECK(positions[0]["counting_rule"] == "16-move");
    // The limit draws at ply 32, as the events say.
    CHECK(positions[32]["drawn_by"] == "16-move");
    CHECK(positions[32]["counters"]["endgame"] == 32);
    CHECK(positions[32]["rule_value"] == "draw");
    int drawn = 0, started = 0;
    for (std::size_t k = 0; k < positions.size(); ++k) {
        CHECK(positions[k]["ply"] == static_cast<int>(k));
        drawn += !positions[k]["drawn_by"].is_null();
        started += !positions[k]["started"].is_null();
    }
    CHECK(drawn == 1);
    CHECK(started == 1);
    // Each position's move is a move of the one before, leading to it; the values are those of
    // `dtb probe --json` and, with the game's counters there, `dtb adjudicate --json`.
    for (int ply : {0, 1, 2, 17, 31, 32, 34}) {
        INFO("ply " << ply);
        const auto& at = positions[static_cast<std::size_t>(ply)];
        const std::string fen = at["fen"];
        const auto probe = cli_probe(fen);
        CHECK(at["theoretical"] == probe["wdl"]);
        CHECK(at["theoretical_dtw"] == probe["dtw"]);
        const auto judged = cli_adjudicate(fen, at["counters"]);
        CHECK(at["rule_value"] == judged["result"]);
        CHECK(at["theoretical"] == judged["theoretical"]);
        if (ply > 0) {
            const auto before = cli_probe(positions[static_cast<std::size_t>(ply - 1)]["fen"]);
            bool found = false;
            for (const auto& m : before["moves"]) found = found || (m["move"] == at["move"] && m["fen"] == fen);
            CHECK(found);
        }
    }
    // The first and last values of the game object agree with the positions'.
    CHECK(g["first_judged_ply"] == 0);
    CHECK(positions[0]["theoretical"] == "win");  // White to move: "white wins"
    CHECK(g["theoretical_at_first_judged"] == "white wins");
    CHECK(positions[34]["rule_value"] == "draw");
    CHECK(g["rule_value_at_end"] == "draw");

    // A start beyond the tables (5 pieces, fixture up to 4): no values there, values after the
    // capture; the counters and FEN still given.
    const auto beyond =
        parse(c.Post("/api/v1/international/games",
                     "[SetUp \"1\"]\n[FEN \"W:W32,K50:B27,K5,K46\"]\n1. 32x21 46-41 2. 50-44 *\n", "text/plain"));
    const auto& b = beyond["games"][0]["positions"];
    REQUIRE(b.size() == 4);
    CHECK(b[0]["theoretical"].is_null());
    CHECK(b[0]["theoretical_dtw"].is_null());
    CHECK(b[0]["rule_value"].is_null());
    CHECK(b[0]["fen"] == "W:W32,K50:BK5,27,K46");
    CHECK(b[0]["counters"]["reversible"] == 0);
    CHECK(b[1]["move"] == "32x21");
    CHECK(b[1]["theoretical"] == cli_probe(b[1]["fen"])["wdl"]);
    CHECK(b[3]["counters"]["reversible"] == 2);
    CHECK(beyond["games"][0]["first_judged_ply"] == 1);

    // Turkish: the theory only, no counters.
    const auto turkish =
        parse(c.Post("/api/v1/international/games",
                     "[GameType \"30\"]\n[SetUp \"1\"]\n[FEN \"W:Wd4:Bd6\"]\n1. d4-d5 *\n", "text/plain"));
    const auto& t = turkish["games"][0]["positions"];
    REQUIRE(t.size() == 2);
    CHECK(t[0]["counters"].is_null());
    CHECK(t[0]["counting_rule"].is_null());
    CHECK(t[1]["move"] == "d4-d5");
    const auto tprobe = nlohmann::json::parse(dtb_output(
        {"probe", "--json", "--variant", "turkish", "--db", std::string(DTB_TEST_TABLES) + "/turkish", t[1]["fen"]}));
    CHECK(t[1]["theoretical"] == tprobe["wdl"]);
    CHECK(t[1]["rule_value"] == tprobe["wdl"]);
}

// Issue 61: a Turkish game had a judge per front end. One library function (adjudicate/
// judge_games.hpp) judges it for all: either route, the CLI and Python give the same games.
TEST_CASE("POST /api/v1/turkish/games: the games of dtb adjudicate --pdn, as the international route",
          "[server][plain-build]") {
    auto c = fixture_server().client();
    const fs::path path = fs::path(DTB_SOURCE_DIR) / "tests/data/pdn/turkish.pdn";
    std::ifstream in(path, std::ios::binary);
    const std::string body((std::istreambuf_iterator<char>(in)), {});
    const auto cli = nlohmann::json::parse(
        dtb_output({"adjudicate", "--json", "--db", std::string(DTB_TEST_TABLES) + "/international", "--turkish-db",
                    std::string(DTB_TEST_TABLES) + "/turkish", "--pdn", path.string()}));
    for (const std::string route : {"/api/v1/turkish/games", "/api/v1/international/games"}) {
        INFO(route);
        const auto r = c.Post(route.c_str(), body, "text/plain");
        REQUIRE(r);
        CHECK(r->status == 200);
        CHECK(parse(r)["games"] == cli["games"]);
    }
    const auto get = c.Get("/api/v1/turkish/games");
    REQUIRE(get);
    CHECK(get->status == 405);
    const auto empty = c.Post("/api/v1/turkish/games", "just text, no game", "text/plain");
    REQUIRE(empty);
    CHECK(empty->status == 400);
}

TEST_CASE("POST /api/v1/international/games: a tag that is not UTF-8 is answered in JSON", "[server][plain-build]") {
    auto c = fixture_server().client();
    const auto r = c.Post("/api/v1/international/games",
                          "[Event \"caf\xE9 \xFF\"]\n[FEN \"W:WK2,6:BK50\"]\n1. 2-11 *\n", "text/plain");
    REQUIRE(r);
    CHECK(r->status == 200);
    const auto j = nlohmann::json::parse(r->body, nullptr, false);  // also checks that it is UTF-8
    REQUIRE_FALSE(j.is_discarded());
    CHECK(j["games"][0]["tags"]["Event"].get<std::string>().starts_with("caf"));
}

TEST_CASE("GET /api/v1/international?fen=&reversible=: the counters after each move", "[server]") {
    auto c = fixture_server().client();
    const auto after = [&](const std::string& query, const std::string& move) {
        const auto j = parse(c.Get(("/api/v1/international?fen=" + query).c_str()));
        for (const auto& m : j["moves"])
            if (m["move"] == move) return m["counters"];
        FAIL("no move " << move << " in " << j.dump());
        return nlohmann::json();
    };
    const auto counters = [](int r, std::optional<int> e, std::optional<int> s) {
        return nlohmann::json{{"reversible", r},
                              {"endgame", e ? nlohmann::json(*e) : nlohmann::json()},
                              {"small", s ? nlohmann::json(*s) : nlohmann::json()}};
    };
    // A capture restarts the reversible count; into K+M v K it starts the 5-move count.
    CHECK(after("W:WK50,32:B27,K5&reversible=10", "32x21") == counters(0, {}, 0));
    // A king move counts one more ply of each count in force.
    CHECK(after("W:WK6,K22,K27:BK49&reversible=5&endgame=3", "27-16") == counters(6, 4, {}));
    // A man's promotion into K+2M v K starts the 16-move count.
    CHECK(after("W:W6,31,32:BK46&reversible=3", "6-1") == counters(0, 0, {}));
    // A capture by the lone king from the 16-move class into 2K v K: the 5-move count starts, the
    // 16-move one carries on.
    CHECK(after("B:WK37,K2,K3:BK46&reversible=4&endgame=5", "46x32") == counters(0, 6, 0));
    // Under rule set none only the reversible count is kept.
    CHECK(after("B:WK37,K2,K3:BK46&rules=none&reversible=4&endgame=5", "46x32") == counters(0, {}, {}));
    // The answer says the rule set and the counters as they apply to the position.
    const auto j = parse(c.Get("/api/v1/international?fen=W:WK6,K22,K27:BK49&reversible=5&endgame=3&rules=ffjd"));
    CHECK(j["rules"] == "ffjd");
    CHECK(j["counters"] == counters(5, 3, {}));
    // Without counters: the plain `dtb probe --json` object (first test case), no counters in it.
    const auto plain = parse(c.Get("/api/v1/international?fen=W:WK6,K22,K27:BK49"));
    CHECK_FALSE(plain.contains("counters"));
    CHECK_FALSE(plain["moves"][0].contains("counters"));
    // The counters after a move, given back, are those the adjudicate route counts from.
    const auto moved = after("W:WK6,K22,K27:BK49&reversible=5&endgame=3", "27-16");
    CHECK(parse(c.Get("/api/v1/international/adjudicate?fen=B:WK6,K16,K22:BK49&reversible=6&endgame=4"))["endgame"] ==
          moved["endgame"]);
}

TEST_CASE("GET /api/v1/status and the page", "[server]") {
    auto c = fixture_server().client();
    const auto s = parse(c.Get("/api/v1/status"));
    REQUIRE(s["variants"].size() == 2);
    for (const auto& v : s["variants"]) {
        CHECK(v["tables"] == true);
        CHECK(v["largest_pieces"] == 4);
        CHECK(v["slices"].get<int>() > 40);
    }
    CHECK(s["variants"][0]["rule_sets"] == nlohmann::json{"fmjd", "ffjd", "none"});
    const auto page = c.Get("/");
    REQUIRE(page);
    CHECK(page->status == 200);
    CHECK(page->get_header_value("Content-Type").find("text/html") == 0);
    CHECK(page->body.find("<html") != std::string::npos);
    // Compressed when the client accepts it.
    httplib::Headers gzip{{"Accept-Encoding", "gzip"}};
    const auto compressed = c.Get("/", gzip);
    REQUIRE(compressed);
    CHECK(compressed->status == 200);
}

TEST_CASE("errors: JSON with the right status, never 500", "[server]") {
    auto c = fixture_server().client();
    struct Case {
        std::string url;
        int status;
        std::string message;
    };
    const std::string big(9000, 'x');
    const std::vector<Case> cases{
        {"/api/v1/international?fen=W:W99:B5", 400, "unknown square"},
        {"/api/v1/international", 400, "give the position"},
        {"/api/v1/international?fen=" + url_encode("W:W\x1b[31m:B5"), 400, "\\x1B"},
        {"/api/v1/turkish?fen=W:W31:B5", 400, "unknown square"},
        {"/api/v1/chess?fen=W:W31:B5", 404, "unknown variant"},
        {"/api/v1/international/nothing", 404, "no such route"},
        {"/api/v2/status", 404, "no such page"},
        {"/../../etc/passwd", 404, "no such page"},
        {"/web/index.html", 404, "no such page"},
        {"/api/v1/international/games", 405, "POST"},
        {"/api/v1/international/adjudicate?fen=W:WK1:BK50&rules=fide", 400, "rules must be"},
        {"/api/v1/international/adjudicate?fen=W:WK1:BK50&reversible=-1", 400, "whole number"},
        {"/api/v1/international/adjudicate?fen=W:WK1:BK50&endgame=0x10", 400, "whole number"},
        {"/api/v1/international/adjudicate?fen=W:WK1:BK50&small=99999999999", 400, "whole number"},
        {"/api/v1/turkish/adjudicate?fen=W:Wd4:Bd6", 404, "no such route"},
        {"/api/v1/international?fen=W:WK1:BK50&reversible=-1", 400, "whole number"},
        {"/api/v1/international?fen=W:WK1:BK50&endgame=1e3", 400, "whole number"},
        {"/api/v1/international?fen=W:WK1:BK50&rules=fide", 400, "rules must be"},
        {"/api/v1/turkish?fen=W:Wd4:Bd6&reversible=3", 400, "no counting rules"},
        {"/api/v1/international?fen=W:WK1,K2,K3,K4,K5,K6:BK50&reversible=3", 422, "beyond the tables"},
        {"/api/v1/international?fen=W:WK1,K2,K3,K4,K5,K6:BK50", 422, "up to 4 pieces"},
        {"/api/v1/international?fen=" + big, 414, ""},
    };
    for (const Case& k : cases) {
        INFO(k.url.substr(0, 100));
        const auto r = c.Get(k.url.c_str());
        REQUIRE(r);
        CHECK(r->status == k.status);
        const auto j = nlohmann::json::parse(r->body, nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        REQUIRE(j.contains("error"));
        INFO(j.dump());
        CHECK(j["error"].get<std::string>().find(k.message) != std::string::npos);
    }
    const auto put = c.Put("/api/v1/status", "x", "text/plain");
    REQUIRE(put);
    CHECK(put->status == 405);
    const auto too_big = c.Post("/api/v1/international/games", std::string((1 << 20) + 10, ' '), "text/plain");
    REQUIRE(too_big);
    CHECK(too_big->status == 413);
    // Still alive.
    CHECK(c.Get("/api/v1/status")->status == 200);
}

TEST_CASE("a variant without tables is answered clearly", "[server]") {
    const dtb::test::TempDir scratch("server_half");
    const fs::path& dir = scratch.path;
    fs::create_directories(dir / "international");
    fs::copy(fs::path(DTB_TEST_TABLES) / "international", dir / "international");
    {
        Running half(dir);
        auto c = half.client();
        const auto s = parse(c.Get("/api/v1/status"));
        CHECK(s["variants"][1]["tables"] == false);
        const auto r = c.Get("/api/v1/turkish?fen=W:Wd4:Bd6");
        REQUIRE(r);
        CHECK(r->status == 503);
        CHECK(parse(r)["error"].get<std::string>().find("no turkish tables on this server") != std::string::npos);
        CHECK(c.Get("/api/v1/turkish?fen=W:W31:B5")->status == 400);  // bad input is still 400
        CHECK(c.Get("/api/v1/international?fen=W:W33:B18")->status == 200);
    }
}

TEST_CASE("concurrent clients, mixed routes and bad requests: every answer right, the server alive after", "[server]") {
    auto& s = fixture_server();
    // The right answers, asked once.
    struct Ask {
        std::string url;
        int status;
        std::string body;
    };
    std::vector<Ask> asks;
    {
        auto c = s.client();
        for (const auto& [variant, fen] : kPositions)
            asks.push_back(Ask{"/api/v1/" + variant + "?fen=" + url_encode(fen), 200, ""});
        for (const std::string url : {"/api/v1/international?fen=W:W99:B5", "/api/v1/chess?fen=x", "/api/v1/status",
                                      "/api/v1/international/adjudicate?fen=W:WK40,K45,50:BK11&endgame=1",
                                      "/api/v1/international/adjudicate?fen=W:WK1:BK50&reversible=-4"})
            asks.push_back(Ask{url, 0, ""});
        for (Ask& a : asks) {
            const auto r = c.Get(a.url.c_str());
            REQUIRE(r);
            a.status = r->status;
            a.body = r->body;
        }
    }
    // 8 keep-alive connections, 2,500 requests each: 20,000 in all.
    std::atomic<int> wrong{0}, failed{0};
    std::vector<std::thread> clients;
    for (int t = 0; t < 8; ++t)
        clients.emplace_back([&, t] {
            auto c = s.client();
            c.set_keep_alive(true);
            std::mt19937 rng(static_cast<unsigned>(t));
            for (int k = 0; k < 2500; ++k) {
                const Ask& a = asks[rng() % asks.size()];
                auto r = c.Get(a.url.c_str());
                // A connection the server closed after its last keep-alive request: asked again
                // on a new one, as HTTP clients do for a GET.
                if (!r) r = c.Get(a.url.c_str());
                if (!r) {
                    failed.fetch_add(1);
                    continue;
                }
                if (r->status != a.status || r->body != a.body) wrong.fetch_add(1);
            }
        });
    for (auto& t : clients) t.join();
    CHECK(wrong.load() == 0);
    CHECK(failed.load() == 0);
    CHECK(s.client().Get("/api/v1/status")->status == 200);
}

TEST_CASE("dtb serve: listens on loopback, answers, and stops cleanly on SIGTERM", "[server]") {
    test::ServeProcess serve(DTB_EXE, DTB_TEST_TABLES, "serve_log");
    REQUIRE(serve.port() > 0);
    httplib::Client c("127.0.0.1", serve.port());
    const auto r = c.Get("/api/v1/international?fen=W:W33:B18");
    REQUIRE(r);
    CHECK(r->status == 200);
    const int status = serve.stop();
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(serve.log_text().find("stopped") != std::string::npos);
}
