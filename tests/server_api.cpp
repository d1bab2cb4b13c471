// The explorer's API over real HTTP on loopback (docs/API.md): every route, every error status,
// values equal to `dtb probe --json` and `dtb adjudicate --json`, concurrent clients, and a
// bounded load of mixed good and bad requests after which the server still answers.
#include <httplib.h>
#include <spawn.h>
#include <sys/wait.h>

#include <atomic>
#include <cctype>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "server/http_server.hpp"

namespace fs = std::filesystem;
using namespace dtb;

namespace {

// A server over the fixture's tables (both variants, up to 4 pieces) on a free port.
struct Running {
    server::Explorer explorer;
    std::unique_ptr<server::HttpServer> http;
    std::thread thread;
    explicit Running(const fs::path& tables, int threads = 4)
        : explorer(server::ExplorerOptions{tables, 16}) {
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
    {"international", "W:W33:B18"},     {"international", "W:WK3,42:B23"},   {"international", "W:WK46,K47,27:BK5"},
    {"turkish", "W:Wd4:Bd6"},           {"turkish", "B:Wd4,e4:Bd6"},         {"turkish", "W:WKa1:Bh7,g7"},
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
        const auto cli = nlohmann::json::parse(
            dtb_output({"probe", "--json", "--variant", variant, "--db", std::string(DTB_TEST_TABLES) + "/" + variant, fen}));
        CHECK(api == cli);
        // Each move's FEN is the position after it: probing it gives the value the move says.
        for (const nlohmann::json& move : api["moves"]) {
            REQUIRE(move["path"].size() >= 2);
            const std::string from = move["path"][0], text = move["move"], after_fen = move["fen"];
            CHECK(text.rfind(from, 0) == 0);
            const auto after = parse(c.Get(("/api/v1/" + variant + "?fen=" + url_encode(after_fen)).c_str()));
            const std::string mover = move["wdl"], reply = after["wdl"];
            CHECK(((mover == "win" && reply == "loss") || (mover == "loss" && reply == "win") || (mover == "draw" && reply == "draw")));
        }
    }
}

TEST_CASE("GET /api/v1/international/adjudicate: the dtb adjudicate --json object", "[server]") {
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
        std::vector<std::string> args{"adjudicate", "--json", "--db", std::string(DTB_TEST_TABLES) + "/international", "--fen",
                                      k.fen, "--rules", k.rules, "--reversible", std::to_string(k.reversible)};
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

TEST_CASE("POST /api/v1/international/games: the dtb adjudicate --pdn --json object", "[server]") {
    auto c = fixture_server().client();
    for (const std::string file : {"tests/data/adjudicate.pdn", "tests/data/pdn/padded.pdn", "tests/data/pdn/game_types.pdn", "tests/data/pdn/turkish.pdn"}) {
        const fs::path path = fs::path(DTB_SOURCE_DIR) / file;
        if (!fs::exists(path)) continue;
        INFO(file);
        std::ifstream in(path, std::ios::binary);
        const std::string body((std::istreambuf_iterator<char>(in)), {});
        for (const std::string rules : {"fmjd", "ffjd"}) {
            const auto r = c.Post(("/api/v1/international/games?rules=" + rules).c_str(), body, "text/plain");
            REQUIRE(r);
            CHECK(r->status == 200);
            const auto cli = nlohmann::json::parse(dtb_output({"adjudicate", "--json", "--rules", rules, "--db",
                                                               std::string(DTB_TEST_TABLES) + "/international", "--turkish-db",
                                                               std::string(DTB_TEST_TABLES) + "/turkish", "--pdn", path.string()}));
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
             {"/api/v1/international?fen=W:WK1,K2,K3,K4,K5,K6:BK50", 503, "KKKKKKvK"},
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
    const fs::path dir = fs::temp_directory_path() / ("dtb_server_half_" + std::to_string(::getpid()));
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
        CHECK(parse(r)["error"].get<std::string>().find("no tables for this variant") != std::string::npos);
        CHECK(c.Get("/api/v1/turkish?fen=W:W31:B5")->status == 400);  // bad input is still 400
        CHECK(c.Get("/api/v1/international?fen=W:W33:B18")->status == 200);
    }
    fs::remove_all(dir);
}

TEST_CASE("concurrent clients, mixed routes and bad requests: every answer right, the server alive after",
          "[server]") {
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
    const fs::path log = fs::temp_directory_path() / ("dtb_serve_log_" + std::to_string(::getpid()));
    const std::string tables = std::string(DTB_TEST_TABLES);
    std::vector<std::string> argv_s{DTB_EXE, "serve", "--tables", tables, "--port", "0"};
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&actions);
    // The port, from the line that says where it listens.
    int port = 0;
    for (int k = 0; k < 600 && port == 0; ++k) {
        std::ifstream in(log);
        const std::string text((std::istreambuf_iterator<char>(in)), {});
        const auto at = text.find("listening on http://127.0.0.1:");
        if (at != std::string::npos) port = std::stoi(text.substr(at + 30));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    REQUIRE(port > 0);
    httplib::Client c("127.0.0.1", port);
    const auto r = c.Get("/api/v1/international?fen=W:W33:B18");
    REQUIRE(r);
    CHECK(r->status == 200);
    ::kill(pid, SIGTERM);
    int status = 0;
    ::waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    std::ifstream in(log);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK(text.find("stopped") != std::string::npos);
    fs::remove(log);
}
