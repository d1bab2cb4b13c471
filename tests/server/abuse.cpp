// The explorer's server under abuse (docs/API.md, "Limits"): slow clients that drip their headers
// (slowloris), overlapping Range headers, header floods, bodies at and over the limit with any
// Content-Type, conflicting Content-Length, methods no route takes, many concurrent maximal
// POSTs with the server's memory bounded, and answers that never name the server's folders.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/notation.hpp"
#include "dtb/server/http_server.hpp"
#include "tests/support/serve_process.hpp"
#include "tests/support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace dtb;
using Clock = std::chrono::steady_clock;

namespace abuse {

struct AbuseServer {
    server::Explorer explorer;
    std::unique_ptr<server::HttpServer> http;
    std::thread thread;
    explicit AbuseServer(const fs::path& tables, server::HttpOptions o = {})
        : explorer(server::ExplorerOptions{.tables = tables, .cache_mb = 16, .solve = {}}) {
        o.port = 0;
        if (o.threads == 0) o.threads = 4;
        auto bound = server::HttpServer::bind(explorer, o);
        if (!bound) throw std::runtime_error(bound.error());
        http = std::move(bound.value());
        thread = std::thread([this] { http->run(); });
    }
    ~AbuseServer() {
        http->stop();
        thread.join();
    }
    int port() const { return http->port(); }
};

// A TCP connection to the server on loopback.
int connect_to(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    REQUIRE(fd >= 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    return fd;
}

// Sends what it can of `data` (the server may close early: a refusal).
void send_all(int fd, std::string_view data) {
    while (!data.empty()) {
        const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n <= 0) return;
        data.remove_prefix(static_cast<std::size_t>(n));
    }
}

// Everything the server sends until it closes, or until `timeout` passes with nothing new.
std::string read_until_closed(int fd, std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
    std::string out;
    char buf[65536];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) break;
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        out.append(buf, static_cast<std::size_t>(n));
    }
    return out;
}

// One request on its own connection (the body sent by a second thread, as a client that does not
// wait for the answer before sending would): the raw answer.
std::string round_trip(int port, const std::string& request,
                       std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
    const int fd = connect_to(port);
    std::thread sender([&] { send_all(fd, request); });
    std::string answer = read_until_closed(fd, timeout);
    sender.join();
    ::close(fd);
    return answer;
}

int status_of(const std::string& raw) {
    if (raw.size() < 12 || raw.compare(0, 5, "HTTP/") != 0) return 0;
    return std::stoi(raw.substr(9, 3));
}

std::string body_of(const std::string& raw) {
    const auto at = raw.find("\r\n\r\n");
    return at == std::string::npos ? std::string() : raw.substr(at + 4);
}

std::string header_of(const std::string& raw, const std::string& name) {
    const std::string head = raw.substr(0, raw.find("\r\n\r\n"));
    std::string lower = head;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string key = "\r\n" + name + ":";
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto at = lower.find(key);
    if (at == std::string::npos) return {};
    auto start = at + key.size();
    while (start < head.size() && head[start] == ' ') ++start;
    return head.substr(start, head.find("\r\n", start) - start);
}

std::string post_request(const std::string& path, const std::string& body, const std::string& content_type) {
    std::string r = "POST " + path +
                    " HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Length: " + std::to_string(body.size()) +
                    "\r\n";
    if (!content_type.empty()) r += "Content-Type: " + content_type + "\r\n";
    return r + "\r\n" + body;
}

// `games` random legal international games from the start, `plies` moves each (fewer when a game
// ends), as PDN.
std::string random_games(int games, int plies, unsigned seed) {
    std::mt19937 rng(seed);
    const Position start = *parse_fen<International>("W:W31-50:B1-20");
    std::string pdn;
    for (int g = 0; g < games; ++g) {
        pdn += "[Event \"abuse " + std::to_string(g) + "\"]\n[Result \"*\"]\n";
        Position p = start;
        for (int ply = 0; ply < plies; ++ply) {
            MoveList legal;
            generate_moves<International>(p, legal);
            if (legal.empty()) break;
            const Move& m = legal[rng() % legal.size()];
            if (ply % 2 == 0) pdn += std::to_string(ply / 2 + 1) + ". ";
            pdn += move_to_string<International>(m, legal) + " ";
            p = make_move(p, m);
        }
        pdn += "*\n\n";
    }
    return pdn;
}

long peak_rss_kb(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

// The tests are in the namespace too: in a unity batch, beside the other server tests' helpers.

TEST_CASE("abuse: slow clients dripping headers do not starve the others, and are cut at the deadline",
          "[server][abuse]") {
    server::HttpOptions o;
    o.threads = 4;
    o.request_deadline = std::chrono::milliseconds(2500);
    AbuseServer s(DTB_TEST_TABLES, o);
    // Twice as many slow connections as threads, each sending a header byte every 100 ms.
    std::vector<int> slow;
    for (int i = 0; i < 2 * o.threads; ++i) {
        slow.push_back(connect_to(s.port()));
        send_all(slow.back(), "GET /api/v1/status HTTP/1.1\r\nHost: t\r\nX-Slow: ");
    }
    std::atomic<bool> dripping{true};
    std::thread drip([&] {
        while (dripping) {
            for (int fd : slow) send_all(fd, "a");
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    });
    httplib::Client c("127.0.0.1", s.port());
    c.set_connection_timeout(1, 0);
    c.set_read_timeout(1, 0);
    for (int i = 0; i < 10; ++i) {
        const auto t0 = Clock::now();
        const auto r = c.Get(i % 2 ? "/api/v1/status" : "/api/v1/international?fen=W:W33:B18");
        const auto took = Clock::now() - t0;
        REQUIRE(r);
        CHECK(r->status == 200);
        CHECK(took < std::chrono::seconds(1));
    }
    // The deadline covers the whole request, not each byte: the drippers are closed.
    const auto t0 = Clock::now();
    std::vector<bool> closed(slow.size(), false);
    while (Clock::now() - t0 < std::chrono::seconds(6)) {
        bool all = true;
        for (std::size_t k = 0; k < slow.size(); ++k) {
            if (closed[k]) continue;
            char b[256];
            const ssize_t n = ::recv(slow[k], b, sizeof b, MSG_DONTWAIT);
            if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
                closed[k] = true;
            else
                all = false;
        }
        if (all) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    dripping = false;
    drip.join();
    for (std::size_t k = 0; k < slow.size(); ++k) {
        INFO("slow connection " << k);
        CHECK(closed[k]);
        ::close(slow[k]);
    }
}

TEST_CASE("abuse: overlapping byte ranges are ignored: one whole answer", "[server][abuse]") {
    AbuseServer s(DTB_TEST_TABLES);
    const std::string plain = round_trip(s.port(), "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    std::string ranges = "bytes=0-";
    while (ranges.size() < 7800) ranges += ",0-";
    const std::string ranged =
        round_trip(s.port(), "GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\nRange: " + ranges + "\r\n\r\n");
    CHECK(status_of(ranged) == 200);
    CHECK(header_of(ranged, "Content-Type").find("multipart") == std::string::npos);
    CHECK(body_of(ranged) == body_of(plain));
    CHECK(body_of(ranged).size() < 100000);
}

TEST_CASE("abuse: header floods get 431, long URLs 414", "[server][abuse]") {
    AbuseServer s(DTB_TEST_TABLES);
    std::string flood = "GET /api/v1/status HTTP/1.1\r\nHost: t\r\n";
    while (flood.size() < (1u << 20)) flood += "X-Flood: 0123456789abcdef\r\n";
    const std::string a = round_trip(s.port(), flood + "\r\n");
    CHECK(status_of(a) == 431);
    CHECK(body_of(a).find("8 KB") != std::string::npos);

    const std::string line = "GET /api/v1/status HTTP/1.1\r\nHost: t\r\nX-Long: " + std::string(9000, 'x') + "\r\n\r\n";
    CHECK(status_of(round_trip(s.port(), line)) == 431);
    // Just under the limit: answered.
    const std::string under =
        "GET /api/v1/status HTTP/1.1\r\nHost: t\r\nConnection: close\r\nX-Long: " + std::string(7000, 'x') + "\r\n\r\n";
    CHECK(status_of(round_trip(s.port(), under)) == 200);

    for (std::size_t n : {9000u, 20000u, 200000u}) {
        INFO(n << " bytes of URL");
        const std::string url = "/api/v1/international?fen=" + std::string(n, 'x');
        CHECK(status_of(round_trip(s.port(), "GET " + url + " HTTP/1.1\r\nHost: t\r\n\r\n")) == 414);
    }
}

TEST_CASE("abuse: POST bodies at and over 1 MB, with and without a Content-Type, read as PDN", "[server][abuse]") {
    AbuseServer s(DTB_TEST_TABLES);
    const std::string path = "/api/v1/international/games";
    // A comment that a form parser would read as rules=none must not change the rules.
    std::string game = "[FEN \"W:WK2,6:BK50\"]\n{&rules=none&}\n1. 2-11 50-45 2. 6-1 45-50 *\n";
    std::string at_limit = game;
    at_limit.resize(server::kMaxBodyBytes, ' ');
    for (const std::string type : {"", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                                   "text/plain", "application/x-pdn"}) {
        INFO("Content-Type: " << type);
        const std::string ok = round_trip(s.port(), post_request(path, at_limit, type));
        REQUIRE(status_of(ok) == 200);
        const auto j = nlohmann::json::parse(body_of(ok));
        CHECK(j["rules"] == "fmjd");
        CHECK(j["games"].size() == 1);
        const std::string over = round_trip(s.port(), post_request(path, at_limit + " ", type));
        CHECK(status_of(over) == 413);
        CHECK(body_of(over).find("1 MB") != std::string::npos);
    }
    // The rules come from the URL only.
    const std::string none =
        round_trip(s.port(), post_request(path + "?rules=none", game, "application/x-www-form-urlencoded"));
    CHECK(nlohmann::json::parse(body_of(none))["rules"] == "none");
    // A client that asks first (Expect: 100-continue) is refused before it sends the body.
    const int fd = connect_to(s.port());
    send_all(fd, "POST " + path + " HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: " +
                     std::to_string(server::kMaxBodyBytes + 1) + "\r\n\r\n");
    const std::string refused = read_until_closed(fd, std::chrono::milliseconds(3000));
    ::close(fd);
    CHECK(status_of(refused) == 413);
    // And one within the limit is told to go on.
    const int fd2 = connect_to(s.port());
    send_all(fd2, "POST " + path +
                      " HTTP/1.1\r\nHost: t\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: " +
                      std::to_string(game.size()) + "\r\n\r\n");
    char b[64];
    pollfd p{fd2, POLLIN, 0};
    REQUIRE(::poll(&p, 1, 3000) == 1);
    const ssize_t n = ::recv(fd2, b, sizeof b, 0);
    REQUIRE(n > 0);
    CHECK(std::string(b, static_cast<std::size_t>(n)).find("100 Continue") != std::string::npos);
    send_all(fd2, game);
    const std::string judged = read_until_closed(fd2);
    ::close(fd2);
    CHECK(status_of(judged) == 200);
}

TEST_CASE("abuse: a body of more games or positions than a request judges is refused with the limit named",
          "[server][abuse]") {
    AbuseServer s(DTB_TEST_TABLES);
    const std::string path = "/api/v1/international/games";
    std::string many;
    for (std::size_t i = 0; i <= server::kMaxGamesPerRequest; ++i) many += "[FEN \"W:WK2,6:BK50\"]\n1. 2-11 *\n";
    const std::string a = round_trip(s.port(), post_request(path, many, "text/plain"));
    CHECK(status_of(a) == 413);
    CHECK(body_of(a).find("at most 1000 games") != std::string::npos);
    const std::string long_games = random_games(400, 100, 7);
    const std::string b = round_trip(s.port(), post_request(path, long_games, "text/plain"));
    CHECK(status_of(b) == 413);
    CHECK(body_of(b).find("positions") != std::string::npos);
}

TEST_CASE("abuse: malformed framing: two Content-Lengths, methods no route takes, HEAD", "[server][abuse]") {
    AbuseServer s(DTB_TEST_TABLES);
    const std::string two =
        "POST /api/v1/international/games HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n"
        "Content-Length: 50\r\n\r\nhello";
    CHECK(status_of(round_trip(s.port(), two)) == 400);
    const std::string bad_length = "POST /api/v1/international/games HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n";
    CHECK(status_of(round_trip(s.port(), bad_length)) == 400);
    for (const std::string method : {"OPTIONS", "PUT", "DELETE", "PATCH", "TRACE"}) {
        INFO(method);
        const std::string a =
            round_trip(s.port(), method + " /api/v1/status HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n");
        CHECK(status_of(a) == 405);
        CHECK(header_of(a, "Allow").find("GET") != std::string::npos);
        CHECK(nlohmann::json::parse(body_of(a)).contains("error"));
    }
    const std::string games_get = round_trip(s.port(), "GET /api/v1/international/games HTTP/1.1\r\nHost: t\r\n\r\n");
    CHECK(status_of(games_get) == 405);
    CHECK(header_of(games_get, "Allow") == "POST");
    const std::string head = round_trip(s.port(), "HEAD / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    CHECK(status_of(head) == 200);
    CHECK(std::stoul(header_of(head, "Content-Length")) > 1000);
    CHECK(body_of(head).empty());
    // Not HTTP at all.
    CHECK(status_of(round_trip(s.port(), "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03garbage\r\n\r\n")) == 400);
    // Still alive.
    CHECK(status_of(round_trip(s.port(), "GET /api/v1/status HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")) ==
          200);
}

TEST_CASE("abuse: answers name tables relative to the tables folder, never the server's folders", "[server][abuse]") {
    test::TempDir dir("server_paths");
    fs::copy(DTB_TEST_TABLES, dir.path, fs::copy_options::recursive);
    // One table damaged, so that an answer explains a table failure.
    {
        std::fstream f(dir.path / "international" / "KvK.wdl", std::ios::in | std::ios::out | std::ios::binary);
        REQUIRE(f);
        f.seekp(-8, std::ios::end);
        f.write("XXXXXXXX", 8);
    }
    const fs::path absolute = fs::absolute(dir.path);
    AbuseServer s(absolute);
    httplib::Client c("127.0.0.1", s.port());
    const auto status = c.Get("/api/v1/status");
    REQUIRE(status);
    CHECK(status->body.find(absolute.string()) == std::string::npos);
    CHECK(nlohmann::json::parse(status->body)["variants"][0]["folder"] == "international/");
    const auto beyond = c.Get("/api/v1/international?fen=W:WK1,K2,K3,K4,K5,K6:BK50");
    REQUIRE(beyond);
    CHECK(beyond->status == 422);
    CHECK(beyond->body.find("beyond the tables") != std::string::npos);
    CHECK(beyond->body.find("up to 4 pieces") != std::string::npos);
    const auto damaged = c.Get("/api/v1/international?fen=W:WK1:BK50");
    REQUIRE(damaged);
    CHECK(damaged->status == 503);
    CHECK(damaged->body.find(absolute.string()) == std::string::npos);
    CHECK(damaged->body.find(dir.path.filename().string()) == std::string::npos);
}

TEST_CASE("abuse: 32 concurrent maximal POSTs: each judged or told to retry, the server's memory bounded",
          "[server][abuse][plain-build]") {
    test::ServeProcess serve(DTB_EXE, DTB_TEST_TABLES, "abuse_serve");
    REQUIRE(serve.port() > 0);
    const int port = serve.port();
    const pid_t pid = serve.pid();
    const long idle_kb = peak_rss_kb(pid);
    // Each body as large as a request may judge: about kMaxPositionsPerRequest positions.
    const int plies = 99;
    const std::string body =
        random_games(static_cast<int>(server::kMaxPositionsPerRequest / (plies + 1)) - 1, plies, 11);
    REQUIRE(body.size() <= server::kMaxBodyBytes);
    std::vector<int> statuses(32, 0);
    std::vector<std::thread> clients;
    for (int i = 0; i < 32; ++i)
        clients.emplace_back([&, i] {
            statuses[i] = status_of(round_trip(port, post_request("/api/v1/international/games", body, "text/plain"),
                                               std::chrono::milliseconds(120000)));
        });
    for (std::thread& t : clients) t.join();
    int judged = 0, busy = 0;
    for (int st : statuses) {
        judged += st == 200;
        busy += st == 503;
    }
    CHECK(judged + busy == 32);
    CHECK(judged >= server::kMaxQueuedJudgements / 2);
    const long peak_kb = peak_rss_kb(pid);
    // The bound of docs/API.md, "Limits": the queued bodies, and the answers being made.
    CHECK(peak_kb - idle_kb < 768 * 1024);
    httplib::Client c("127.0.0.1", port);
    const auto alive = c.Get("/api/v1/status");
    REQUIRE(alive);
    CHECK(alive->status == 200);
    serve.stop();
    WARN("server peak RSS " << peak_kb / 1024 << " MB (idle " << idle_kb / 1024 << " MB); " << judged << " judged, "
                            << busy << " told to retry");
}

}  // namespace abuse
