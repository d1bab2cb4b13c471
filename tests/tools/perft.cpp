// `dtb perft`: runs the built executable (DTB_EXE) and checks its output and exit codes.

#include <catch2/catch.hpp>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/tools_stats_support.hpp"

namespace {

using dtb::test::run_dtb;
using dtb::test::RunResult;

std::vector<std::string> lines(const std::string& s) {
    std::vector<std::string> v;
    std::stringstream ss(s);
    for (std::string line; std::getline(ss, line);) v.push_back(line);
    return v;
}

// Parses the whole of stdout as exactly one JSON object on one line.
nlohmann::json one_json_object(const RunResult& r) {
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    REQUIRE(r.exit_code == 0);
    REQUIRE(lines(r.out).size() == 1);
    const auto j = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    REQUIRE_FALSE(j.is_discarded());
    REQUIRE(j.is_object());
    for (const char* key : {"variant", "fen", "captures", "depths"}) {
        INFO("key " << key);
        REQUIRE(j.contains(key));
    }
    REQUIRE(j["depths"].is_array());
    for (const auto& d : j["depths"]) {
        REQUIRE(d.is_object());
        REQUIRE(d.contains("depth"));
        REQUIRE(d.contains("nodes"));
        REQUIRE(d.contains("seconds"));
        REQUIRE(d["seconds"].is_number());
        CHECK(d["seconds"].get<double>() >= 0);
    }
    return j;
}

std::vector<std::uint64_t> nodes(const nlohmann::json& j) {
    std::vector<std::uint64_t> v;
    int expected_depth = 1;
    for (const auto& d : j["depths"]) {
        CHECK(d["depth"].get<int>() == expected_depth++);
        v.push_back(d["nodes"].get<std::uint64_t>());
    }
    return v;
}

}  // namespace

TEST_CASE("dtb perft --json: one object, international start", "[tools][perft]") {
    const auto j = one_json_object(run_dtb({"perft", "--variant", "international", "--depth", "3", "--json"}));
    CHECK(j["variant"] == "international");
    CHECK(j["captures"] == "unique");
    CHECK(j["fen"] ==
          "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,"
          "12,13,14,15,16,17,18,19,20");
    CHECK(nodes(j) == std::vector<std::uint64_t>{9, 81, 658});
    // The variant defaults to international.
    CHECK(nodes(one_json_object(run_dtb({"perft", "--depth", "3", "--json"}))) ==
          std::vector<std::uint64_t>{9, 81, 658});
}

TEST_CASE("dtb perft --captures paths", "[tools][perft]") {
    // International start, depth 8: 6483961 unique, 6483971 paths (RULES.md 1 / the Foundation
    // issue).
    const auto j = one_json_object(run_dtb({"perft", "--depth", "8", "--captures", "paths", "--json"}));
    CHECK(j["captures"] == "paths");
    const auto n = nodes(j);
    REQUIRE(n.size() == 8);
    CHECK(n[7] == 6483971);
    // A man circuit with two paths: one move unique, two paths.
    const std::string fen = "W:W32:B17,18,27,28";
    CHECK(nodes(one_json_object(run_dtb({"perft", "--fen", fen, "--depth", "1", "--json"}))) ==
          std::vector<std::uint64_t>{1});
    CHECK(nodes(one_json_object(run_dtb({"perft", "--fen", fen, "--depth", "1", "--captures", "paths", "--json"}))) ==
          std::vector<std::uint64_t>{2});
    const auto u = one_json_object(run_dtb({"perft", "--fen", fen, "--depth", "1", "--captures", "unique", "--json"}));
    CHECK(u["captures"] == "unique");
    CHECK(u["fen"] == "W:W32:B17,18,27,28");
}

TEST_CASE("dtb perft turkish start", "[tools][perft]") {
    const auto j =
        one_json_object(run_dtb({"perft", "--variant", "turkish", "--depth", "5", "--captures", "paths", "--json"}));
    CHECK(j["variant"] == "turkish");
    CHECK(j["captures"] == "paths");
    CHECK(j["fen"] ==
          "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,"
          "e7,f7,g7,h7");
    CHECK(nodes(j) == std::vector<std::uint64_t>{8, 64, 708, 7538, 85090});
    // An explicit FEN in ranges gives the same counts, and its canonical form.
    const auto k = one_json_object(
        run_dtb({"perft", "--variant", "turkish", "--fen", "W:Ba6-h6,a7-h7:Wa2-h2,a3-h3", "--depth", "3", "--json"}));
    CHECK(k["fen"] == j["fen"]);
    CHECK(nodes(k) == std::vector<std::uint64_t>{8, 64, 708});
}

TEST_CASE("dtb perft human-readable output", "[tools][perft]") {
    const RunResult r = run_dtb({"perft", "--depth", "3"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto v = lines(r.out);
    REQUIRE(v.size() == 3);
    CHECK(v[0].find("nodes 9") != std::string::npos);
    CHECK(v[1].find("nodes 81") != std::string::npos);
    CHECK(v[2].find("nodes 658") != std::string::npos);
    CHECK(r.err.empty());
}

TEST_CASE("dtb perft --divide: the lines sum to the total", "[tools][perft]") {
    struct Case {
        std::vector<std::string> args;
        size_t moves;
        std::uint64_t total;
    };
    const Case cases[] = {
        {{"perft", "--depth", "4", "--divide"}, 9, 4265},
        {{"perft", "--variant", "turkish", "--depth", "4", "--divide", "--captures", "paths"}, 8, 7538},
        {{"perft", "--fen", "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26", "--depth", "6",
          "--divide"},
         6,
         590},
        {{"perft", "--fen", "W:WK32:B17,18,27,28", "--depth", "1", "--divide", "--captures", "paths"}, 8, 8},
    };
    for (const Case& c : cases) {
        const RunResult r = run_dtb(c.args);
        INFO(r.out << r.err);
        REQUIRE(r.exit_code == 0);
        const auto v = lines(r.out);
        REQUIRE(v.size() == c.moves + 1);
        std::uint64_t sum = 0;
        for (size_t i = 0; i + 1 < v.size(); ++i) {
            const size_t space = v[i].rfind(' ');
            REQUIRE(space != std::string::npos);
            REQUIRE(space > 0);
            sum += std::stoull(v[i].substr(space + 1));
        }
        CHECK(v.back().rfind("total ", 0) == 0);
        CHECK(std::stoull(v.back().substr(6)) == sum);
        CHECK(sum == c.total);
    }
    // --divide --json: still exactly one JSON object, with the total at the requested depth.
    const auto j = one_json_object(run_dtb({"perft", "--depth", "4", "--divide", "--json"}));
    REQUIRE(j["depths"].size() == 1);
    CHECK(j["depths"][0]["depth"] == 4);
    CHECK(j["depths"][0]["nodes"] == 4265);
}

TEST_CASE("dtb perft: malformed FENs exit 2 with one line on stderr", "[tools][perft][fen]") {
    struct Case {
        const char* variant;
        const char* fen;
    };
    const Case cases[] = {
        // Unknown squares.
        {"international", "W:W51:B1"},
        {"international", "W:W0:B1"},
        {"turkish", "W:Wi3:Ba7"},
        {"international", "W:Wz9:B1"},
        {"turkish", "W:Wz9:Ba7"},
        // A square twice.
        {"international", "W:W31,31:B1"},
        {"international", "W:W31:B31"},
        {"turkish", "W:Wa2:Ba2"},
        // A man on its promotion row.
        {"international", "W:W3:B20"},
        {"international", "W:W31:B48"},
        {"turkish", "W:Wa8:Bh7"},
        // Too many pieces.
        {"international", "W:W30-50:B1"},
        {"turkish", "W:Wa2-h2,a3-h3,a4:Ba7"},
        // The other variant's squares.
        {"international", "W:Wa2:B1"},
        {"turkish", "W:W31:Ba7"},
        // Garbage.
        {"international", "hello"},
        {"international", "W:X1"},
        {"international", "W:W1,,2"},
        {"turkish", "hello"},
        {"international", "   "},
    };
    for (const Case& c : cases) {
        const RunResult r = run_dtb({"perft", "--variant", c.variant, "--fen", c.fen, "--depth", "2"});
        INFO(c.variant << " FEN '" << c.fen << "'\nstdout: " << r.out << "\nstderr: " << r.err);
        CHECK(r.exit_code == 2);
        CHECK(lines(r.err).size() == 1);
        CHECK(r.out.empty());
    }
}

TEST_CASE("dtb perft: an empty --fen is malformed too", "[tools][perft][fen]") {
    // The issue lists "" among the malformed FENs. `--fen ""` must not silently fall back to the
    // start position.
    const RunResult r = run_dtb({"perft", "--fen", "", "--depth", "2"});
    INFO("stdout: " << r.out << "\nstderr: " << r.err);
    CHECK(r.exit_code == 2);
    CHECK(lines(r.err).size() == 1);
    CHECK(r.out.empty());
}

TEST_CASE("dtb: bad command lines exit 2, --help exits 0", "[tools]") {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"perft", "--depth", "3", "--bogus"},
             {"--bogus"},
             {"perft"},
             {},
             {"perft", "--depth", "3", "--variant", "checkers"},
             {"perft", "--depth", "3", "--captures", "some"},
             {"perft", "--depth", "three"},
             {"perft", "--depth", "-1"},
             {"nosuchcommand"},
         }) {
        std::string joined;
        for (const auto& a : args) joined += a + " ";
        const RunResult r = run_dtb(args);
        INFO("dtb " << joined << "\nstdout: " << r.out << "\nstderr: " << r.err);
        CHECK(r.exit_code == 2);
        CHECK_FALSE(r.err.empty());
    }
    const RunResult h = run_dtb({"--help"});
    CHECK(h.exit_code == 0);
    CHECK(h.out.find("perft") != std::string::npos);
    CHECK(run_dtb({"perft", "--help"}).exit_code == 0);
}
