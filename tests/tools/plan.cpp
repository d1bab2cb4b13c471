// `dtb plan` as a user runs it: the JSON object's keys and their consistency, the text form, the
// exit codes of bad input and of a memory that holds no pair.
#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>

#include "tests/support/tools_stats_support.hpp"

using namespace dtb::test;
using nlohmann::json;

namespace {

json plan_of(const std::vector<std::string>& args) {
    std::vector<std::string> all{"plan", "--json"};
    all.insert(all.end(), args.begin(), args.end());
    const RunResult r = run_dtb(all);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return json::parse(r.out);
}

}  // namespace

TEST_CASE("dtb plan --json: keys present and consistent", "[plan]") {
    const json j =
        plan_of({"--variant", "international", "--pieces", "6", "--nodes", "4", "--cores", "32", "--memory", "256"});
    for (const char* key : {"variant", "pieces", "nodes", "cores", "memory_mb", "work_limit_bytes", "pairs",
                            "critical_path", "run", "level_sharing", "totals"})
        CHECK(j.contains(key));
    CHECK(j["variant"] == "international");
    CHECK(j["nodes"] == 4);
    CHECK(j["memory_mb"] == 256 * 1024);
    std::uint64_t positions = 0, disk = 0;
    for (const json& p : j["pairs"]) {
        for (const char* key :
             {"name", "pieces", "kind", "positions", "entries", "levels", "largest_level", "input_bytes", "whole_bytes",
              "level_bytes", "disk_bytes", "mode", "by_blocks", "seconds", "node", "start", "end", "inputs"})
            CHECK(p.contains(key));
        // By blocks only when not whole, and only with a cost by levels or blocks.
        if (p["by_blocks"].get<bool>()) {
            CHECK(p["mode"] == "by levels");
            CHECK(!p["level_bytes"].is_null());
        }
        positions += p["positions"].get<std::uint64_t>();
        disk += p["disk_bytes"]["all"].get<std::uint64_t>();
        CHECK(p["end"].get<double>() <= j["run"]["wall_seconds"].get<double>() + 1e-6);
        CHECK(p["node"].get<int>() < 4);
    }
    CHECK(j["pairs"].size() == j["totals"]["pairs"].get<std::size_t>());
    CHECK(positions == j["totals"]["positions"].get<std::uint64_t>());
    CHECK(disk == j["totals"]["disk_bytes"].get<std::uint64_t>());
    CHECK(j["totals"]["positions"] == 47812145845ULL);  // 2-5: 1,613,387,095; 6: 46,198,758,750
    CHECK(j["run"]["wall_seconds"].get<double>() >= j["critical_path"]["seconds"].get<double>() - 1e-6);
    CHECK(j["run"]["busy_seconds"].size() == 4);
    CHECK(j["run"]["idle_share"].get<double>() >= 0.0);
    CHECK(j["run"]["idle_share"].get<double>() < 1.0);
}

TEST_CASE("dtb plan: more nodes, no longer wall time", "[plan]") {
    double previous = 0;
    for (const char* nodes : {"1", "8", "32"}) {
        const json j = plan_of({"--pieces", "7", "--nodes", nodes, "--cores", "32", "--memory", "512"});
        const double wall = j["run"]["wall_seconds"].get<double>();
        INFO(nodes << " nodes: " << wall << " s");
        if (previous > 0) CHECK(wall <= previous + 1e-6);
        CHECK(wall >= j["critical_path"]["seconds"].get<double>() - 1e-6);
        previous = wall;
    }
}

TEST_CASE("dtb plan --pieces 8 answers in seconds, in text", "[plan]") {
    const auto start = std::chrono::steady_clock::now();
    const RunResult r = run_dtb({"plan", "--pieces", "8", "--nodes", "32", "--cores", "32", "--memory", "6144"});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(seconds < 20.0);
    CHECK(r.out.find("critical path:") != std::string::npos);
    CHECK(r.out.find("simulated run: wall") != std::string::npos);
    CHECK(r.out.find("KMMMvKKMM") != std::string::npos);
}

TEST_CASE("dtb plan: bad input exits 2", "[plan]") {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"plan", "--pieces", "9"},
             {"plan", "--pieces", "1"},
             {"plan", "--pieces", "6", "--nodes", "0"},
             {"plan", "--pieces", "6", "--memory", "0"},
             {"plan", "--pieces", "6", "--cores", "0"},
             {"plan", "--pieces", "6", "--variant", "russian"},
             {"plan", "--pieces", "six"},
             {"plan"},
         }) {
        const RunResult r = run_dtb(args);
        INFO(args.back() << ": " << r.err);
        CHECK(r.exit_code == 2);
    }
}

TEST_CASE("dtb plan: a memory that holds some pair on no node exits 2 naming it", "[plan]") {
    // KMvKKMM needs about 6.4 GB by blocks (its largest level split into groups of phases).
    const RunResult r = run_dtb({"plan", "--pieces", "6", "--nodes", "8", "--memory", "7"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("no node can hold") != std::string::npos);
    CHECK(r.err.find("KMvKKMM") != std::string::npos);
    CHECK(r.err.find("by blocks") != std::string::npos);
    CHECK(r.err.find("MMvKMMM") == std::string::npos);  // one king: fits by blocks (about 4.5 GB)
    CHECK(run_dtb({"plan", "--pieces", "6", "--nodes", "8", "--memory", "8"}).exit_code == 0);
    // Enough for every pair, whole, by levels or by blocks (MMvKMMM needs 14,207 MB whole).
    CHECK(run_dtb({"plan", "--pieces", "6", "--memory", "24"}).exit_code == 0);
}

TEST_CASE(
    "dtb plan: without --memory, a cluster that this machine's memory cannot model is planned on the least "
    "node that holds every pair",
    "[plan]") {
    const RunResult r = run_dtb({"plan", "--variant", "international", "--pieces", "7", "--nodes", "32", "--json"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.err.find("the least that does") != std::string::npos);
    const auto j = nlohmann::json::parse(r.out);
    const std::uint64_t mb = j["memory_mb"];
    // The least: one GB less is refused with an explicit --memory.
    const RunResult less =
        run_dtb({"plan", "--pieces", "7", "--nodes", "32", "--memory", std::to_string(mb / 1024 - 1)});
    CHECK(less.exit_code == 2);
}

TEST_CASE("dtb plan and gen: --memory takes sizes with units (16G, 1T, 512M), a bare number in its old unit",
          "[plan]") {
    const auto memory_of = [](const std::string& memory) {
        const RunResult r = run_dtb({"plan", "--pieces", "5", "--memory", memory, "--json"});
        INFO(memory << ": " << r.err);
        REQUIRE(r.exit_code == 0);
        return nlohmann::json::parse(r.out)["memory_mb"].get<std::uint64_t>();
    };
    CHECK(memory_of("64") == 64 * 1024);
    CHECK(memory_of("64G") == 64 * 1024);
    CHECK(memory_of("64GiB") == 64 * 1024);
    CHECK(memory_of("1T") == 1024 * 1024);
    CHECK(memory_of("65536M") == 64 * 1024);
    for (const char* bad : {"512M", "12X", "1.5G", "G", "-4G", "0G"}) {
        INFO(bad);
        CHECK(run_dtb({"plan", "--pieces", "5", "--memory", bad}).exit_code == 2);
        CHECK(run_dtb({"gen", "--pieces", "2", "--memory", bad == std::string("512M") ? "7X" : bad, "--out",
                       "/nonexistent/never"})
                  .exit_code == 2);
    }
}
