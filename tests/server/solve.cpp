// The solve route of `dtb serve` (docs/API.md, GET /api/v1/{variant}/solve) over real HTTP on
// loopback: proofs beyond the 4-piece fixture equal to `dtb solve --json`, positions inside the
// tables answered from them, the time limit honoured and cut to the server's, bad input refused,
// the judging queue's 503 under a flood of solves, values answered while solves run, and solves
// cancelled when the server stops or their client goes.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "dtb/server/http_server.hpp"
#include "tests/support/serve_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace dtb;

namespace solve_route {

using Clock = std::chrono::steady_clock;

// 5 pieces: proven won for White from the 4-piece tables in a few hundred nodes.
const std::string kWin5 = "W:WK1,K26,K30:B32,45";
// Turkish, 5 pieces: won for White.
const std::string kTurkishWin5 = "W:Wd4,e4,f4:Bd6,e6";
// The start position: no search resolves it within seconds.
const std::string kHard = "W:W31-50:B1-20";

std::string query(const std::string& text) {
    std::string out;
    for (unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '.') {
            out += static_cast<char>(c);
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            out += hex;
        }
    }
    return out;
}

std::string solve_url(const std::string& variant, const std::string& fen, const std::string& more = "") {
    return "/api/v1/" + variant + "/solve?fen=" + query(fen) + more;
}

httplib::Client client(int port) {
    httplib::Client c("127.0.0.1", port);
    c.set_read_timeout(60, 0);
    return c;
}

nlohmann::json json_of(const httplib::Result& r) {
    REQUIRE(r);
    INFO(r->body);
    REQUIRE(r->get_header_value("Content-Type").find("application/json") == 0);
    return nlohmann::json::parse(r->body);
}

// `dtb solve --json args...` on the fixture's tables.
nlohmann::json cli_solve(const std::vector<std::string>& args) {
    std::string cmd = std::string(DTB_EXE) + " solve --json --tables '" + DTB_TEST_TABLES + "'";
    for (const std::string& a : args) cmd += " '" + a + "'";
    std::string out;
    FILE* f = ::popen((cmd + " 2>/dev/null").c_str(), "r");
    REQUIRE(f);
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, f)) out.append(buf, n);
    ::pclose(f);
    return nlohmann::json::parse(out);
}

// The keys of a solve that do not depend on the machine's speed.
nlohmann::json settled(nlohmann::json j) {
    for (const char* key : {"nodes", "probes", "seconds", "limits"}) j.erase(key);
    return j;
}

TEST_CASE("solve route: a 5-piece win proven from the 4-piece tables, as dtb solve --json says",
          "[server][solve][plain-build]") {
    test::ServeProcess serve(DTB_EXE, DTB_TEST_TABLES, "solve_route");
    REQUIRE(serve.port() > 0);
    auto c = client(serve.port());
    const auto r = c.Get(solve_url("international", kWin5).c_str());
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK(r->get_header_value("Access-Control-Allow-Origin") == "*");
    CHECK(r->get_header_value("Cache-Control").find("max-age") != std::string::npos);
    const auto j = json_of(r);
    CHECK(j["answer"] == "win");
    CHECK(j["lower"] == "win");
    CHECK(j["upper"] == "win");
    CHECK(j["source"] == "search");
    CHECK(j["stopped"] == "none");
    CHECK(j["max_pieces"] == 5);
    CHECK(j["best_move"].is_string());
    CHECK(j["pv"].size() >= 1);
    CHECK(j["pv"][0] == j["best_move"]);
    CHECK(j["nodes"].get<long long>() > 0);
    // The server's defaults: 5 s, a 64 MB transposition table.
    CHECK(j["limits"] == nlohmann::json{{"seconds", 5.0}, {"memory_mb", 64}});
    CHECK(settled(j) == settled(cli_solve({kWin5, "--memory", "64"})));

    // Under counting rules: the counters are part of the state, as with dtb solve --rules.
    const auto ruled = json_of(c.Get(solve_url("international", kWin5, "&rules=fmjd&reversible=4").c_str()));
    CHECK(ruled["rules"] == "fmjd");
    CHECK(ruled["counters"]["reversible"] == 4);
    CHECK(settled(ruled) == settled(cli_solve({kWin5, "--memory", "64", "--rules", "fmjd", "--reversible", "4"})));

    // Turkish.
    const auto turkish = json_of(c.Get(solve_url("turkish", kTurkishWin5).c_str()));
    CHECK(turkish["answer"] == "win");
    CHECK(settled(turkish) == settled(cli_solve({kTurkishWin5, "--variant", "turkish", "--memory", "64"})));

    // Inside the tables: their value and line at once, with no table memory.
    const auto inside = json_of(c.Get(solve_url("international", "W:WK2,6:BK50").c_str()));
    CHECK(inside["source"] == "tables");
    CHECK(inside["answer"] == "win");
    CHECK(inside["nodes"].get<long long>() <= 1);
    CHECK(inside["limits"]["memory_mb"] == 1);
    CHECK(settled(inside) == settled(cli_solve({"W:WK2,6:BK50"})));
}

TEST_CASE("solve route: the time limit is honoured, and a longer one cut to the server's",
          "[server][solve][plain-build]") {
    test::ServeProcess serve(DTB_EXE, DTB_TEST_TABLES, "solve_time", {"--solve-time-limit", "1.5"});
    REQUIRE(serve.port() > 0);
    auto c = client(serve.port());
    const auto status = json_of(c.Get("/api/v1/status"));
    CHECK(status["solve"]["max_seconds"] == 1.5);
    CHECK(status["solve"]["default_seconds"] == 1.5);  // the default of 5 s, cut to the limit

    for (const std::string time : {"1", "1000000", "99999999999999999999"}) {
        INFO("time=" << time);
        const auto t0 = Clock::now();
        const auto r = c.Get(solve_url("international", kHard, "&time=" + time).c_str());
        const double took = std::chrono::duration<double>(Clock::now() - t0).count();
        REQUIRE(r);
        CHECK(r->status == 200);
        CHECK(r->get_header_value("Cache-Control") == "no-cache");  // more time may resolve it
        const auto j = json_of(r);
        const double granted = time == "1" ? 1.0 : 1.5;
        CHECK(j["answer"] == "unresolved");
        CHECK(j["stopped"] == "time");
        CHECK(j["limits"]["seconds"] == granted);
        CHECK(j["seconds"].get<double>() >= granted * 0.9);
        CHECK(took < granted + 2.5);
    }
}

TEST_CASE("solve route: bad input 400, no tables 503, an unknown variant 404", "[server][solve][plain-build]") {
    test::TempDir dir("solve_half");
    fs::create_directories(dir.path / "international");
    fs::copy(fs::path(DTB_TEST_TABLES) / "international", dir.path / "international");
    test::ServeProcess serve(DTB_EXE, dir.path.string(), "solve_errors");
    REQUIRE(serve.port() > 0);
    auto c = client(serve.port());
    struct Case {
        std::string url;
        int status;
        std::string message;
    };
    const std::vector<Case> cases{
        {"/api/v1/international/solve", 400, "give the position"},
        {solve_url("international", "W:W99:B5"), 400, "unknown square"},
        {solve_url("international", "W:W50:B"), 400, "no piece"},
        {solve_url("international", "W:W1:B50"), 400, "promotion row"},
        {solve_url("international", kWin5, "&time=abc"), 400, "time must be"},
        {solve_url("international", kWin5, "&time=-1"), 400, "time must be"},
        {solve_url("international", kWin5, "&time=0"), 400, "time must be"},
        {solve_url("international", kWin5, "&time=0.0001"), 400, "time must be"},
        {solve_url("international", kWin5, "&time=1e3"), 400, "time must be"},
        {solve_url("international", kWin5, "&time=inf"), 400, "time must be"},
        {solve_url("international", kWin5, "&time=nan"), 400, "time must be"},
        {solve_url("international", kWin5, "&time=5."), 400, "time must be"},
        {solve_url("international", kWin5, "&time="), 400, "time must be"},
        {solve_url("international", kWin5, "&rules=fide"), 400, "rules must be"},
        {solve_url("international", kWin5, "&reversible=-1"), 400, "whole number"},
        {solve_url("turkish", kTurkishWin5, "&rules=none"), 400, "no counting rules"},
        {solve_url("turkish", "W:W31:B5"), 400, "unknown square"},  // bad input before tables
        {solve_url("turkish", kTurkishWin5), 503, "no turkish tables on this server"},
        {solve_url("chess", kWin5), 404, "unknown variant"},
    };
    for (const Case& k : cases) {
        INFO(k.url);
        const auto r = c.Get(k.url.c_str());
        REQUIRE(r);
        CHECK(r->status == k.status);
        const auto j = json_of(r);
        REQUIRE(j.contains("error"));
        CHECK(j["error"].get<std::string>().find(k.message) != std::string::npos);
    }
    // A solve is a GET: a body is refused.
    const auto post = c.Post(solve_url("international", kWin5).c_str(), "x", "text/plain");
    REQUIRE(post);
    CHECK(post->status == 405);
    CHECK(c.Get(solve_url("international", kWin5).c_str())->status == 200);
}

// GETs of `url` from `clients` threads at once, each on its own connection: the statuses, and
// how many 503s carried Retry-After.
struct Flood {
    std::vector<int> statuses;
    int retry_after = 0;
};
Flood flood(int port, const std::string& url, int clients) {
    Flood f;
    f.statuses.assign(static_cast<std::size_t>(clients), 0);
    std::atomic<int> retry_after{0};
    std::vector<std::thread> threads;
    for (int i = 0; i < clients; ++i)
        threads.emplace_back([&, i] {
            auto c = client(port);
            const auto r = c.Get(url.c_str());
            if (!r) return;
            f.statuses[static_cast<std::size_t>(i)] = r->status;
            if (r->status == 503 && r->get_header_value("Retry-After") == "2") ++retry_after;
        });
    for (std::thread& t : threads) t.join();
    f.retry_after = retry_after.load();
    return f;
}

TEST_CASE("solve route: a flood of solves gets the judging queue's 503 with Retry-After",
          "[server][solve][plain-build]") {
    test::ServeProcess serve(DTB_EXE, DTB_TEST_TABLES, "solve_flood", {"--solve-time-limit", "0.5"});
    REQUIRE(serve.port() > 0);
    const int clients = server::kMaxQueuedJudgements + 8;
    const Flood f = flood(serve.port(), solve_url("international", kHard), clients);
    int solved = 0, busy = 0;
    for (int s : f.statuses) {
        solved += s == 200;
        busy += s == 503;
    }
    CHECK(solved + busy == clients);
    CHECK(solved <= server::kMaxQueuedJudgements + 2);  // a few may find a place a finished solve left
    CHECK(busy >= 6);
    CHECK(f.retry_after == busy);
    // Once the queue has drained, solves are taken again.
    CHECK(client(serve.port()).Get(solve_url("international", kWin5).c_str())->status == 200);
}

TEST_CASE("solve route: values are answered at once while solves occupy the judging pool",
          "[server][solve][plain-build]") {
    test::ServeProcess serve(DTB_EXE, DTB_TEST_TABLES, "solve_busy", {"--solve-time-limit", "2"});
    REQUIRE(serve.port() > 0);
    // More solves than the machine has cores (the pool's threads): every thread busy, one waiting.
    const int solves = static_cast<int>(std::max(1u, std::thread::hardware_concurrency())) + 1;
    std::thread solving([&] { flood(serve.port(), solve_url("international", kHard, "&time=2"), solves); });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    auto c = client(serve.port());
    c.set_keep_alive(true);
    double slowest = 0;
    for (int i = 0; i < 20; ++i) {
        const auto t0 = Clock::now();
        const auto r = c.Get(i % 2 ? "/api/v1/status" : "/api/v1/international?fen=W:WK2,6:BK50");
        slowest = std::max(slowest, std::chrono::duration<double>(Clock::now() - t0).count());
        REQUIRE(r);
        CHECK(r->status == 200);
    }
    const auto t0 = Clock::now();
    solving.join();
    // The solves were still running when the values were answered.
    CHECK(Clock::now() - t0 > std::chrono::milliseconds(500));
    CHECK(slowest < 1.0);
    WARN("slowest value answer while solving: " << slowest << " s");
}

// A solve that would run for a day: the server's limit and the time asked.
const std::vector<std::string> kDayLimit{"--solve-time-limit", "86400"};
const std::string kDaySolve = solve_url("international", kHard, "&time=86400");

TEST_CASE("solve route: stopping the server ends the solves it runs", "[server][solve][plain-build]") {
    test::ServeProcess serve(DTB_EXE, DTB_TEST_TABLES, "solve_stop", kDayLimit);
    REQUIRE(serve.port() > 0);
    std::thread asking([&] {
        auto c = client(serve.port());
        c.set_read_timeout(86400, 0);
        c.Get(kDaySolve.c_str());  // no answer is expected: the server stops
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the solve under way
    // Without the cancellation the server would wait for the solve's day before it exits.
    const int status = serve.stop();
    asking.join();
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}

// A request on a raw connection, closed without reading the answer.
void ask_and_leave(int port, const std::string& url) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    const std::string request = "GET " + url + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    REQUIRE(::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the solve under way
    ::close(fd);
}

TEST_CASE("solve route: a client that goes away cancels its solve", "[server][solve][plain-build]") {
    test::ServeProcess serve(DTB_EXE, DTB_TEST_TABLES, "solve_gone", kDayLimit);
    REQUIRE(serve.port() > 0);
    // More abandoned solves than the judging pool has threads (one per core, when the queue's
    // bound allows): were they not cancelled, every thread would search for a day and the last
    // request would never be taken.
    const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    const int solves = std::min(cores + 1, server::kMaxQueuedJudgements - 1);
    for (int i = 0; i < solves; ++i) ask_and_leave(serve.port(), kDaySolve);
    auto c = client(serve.port());
    c.set_read_timeout(86400, 0);
    const auto j = json_of(c.Get(solve_url("international", kWin5).c_str()));
    CHECK(j["answer"] == "win");
}

}  // namespace solve_route
