// The default set (both variants, up to 4 pieces) against data/reference: the same statistics
// (verify/table_stats.hpp, what `dtb stats --json` prints) and the same sha256 of every table file.
// The reference is generated with one thread (scripts/update-reference.sh), the default set here
// with all cores, and a 3-piece set with two threads: tables must be byte-identical whatever
// the number of threads. After an intended change of the tables, run the script and commit.
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "dtb/gen/generate.hpp"
#include "dtb/json/stats_json.hpp"
#include "dtb/verify/table_stats.hpp"
#include "tests/support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace dtb;

namespace {

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

fs::path reference_dir() {
    return fs::path(DTB_SOURCE_DIR) / "data" / "reference";
}

using test::TempDir;

fs::path generate_into(const fs::path& dir, VariantId variant, int pieces, int threads) {
    gen::GenerateOptions o;
    o.variant = variant;
    o.max_pieces = pieces;
    o.out_dir = dir;
    o.threads = threads;
    auto r = gen::generate(o, {});
    if (!r) throw std::runtime_error("generation failed: " + r.error());
    return dir;
}

// The default set: the ctest fixture's tables (tests/generate_test_tables.cmake) when present,
// else generated here once per process with all cores.
template <class R>
const fs::path& default_set() {
    static const TempDir own{"gen_reference_" + std::string(R::kName)};
    static const fs::path dir = [] {
        const fs::path fixture = fs::path(DTB_BINARY_DIR) / "test-tables" / std::string(R::kName);
        if (fs::exists(fixture / "MMvMM.wdl")) return fixture;
        return generate_into(own.path, R::kId, 4, 0);
    }();
    return dir;
}

// "<sha256>  <name>" per table file of `dir` (sorted by name), as sha256sum prints them.
std::map<std::string, std::string> sha256_of_tables(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string ext = e.path().extension().string();
        if (ext == ".wdl" || ext == ".dtw" || ext == ".dtc" || ext == ".fmjd" || ext == ".ffjd" || ext == ".ffjd16")
            names.push_back(e.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    std::string cmd = "cd '" + dir.string() + "' && sha256sum --";
    for (const std::string& n : names) cmd += " '" + n + "'";
    std::map<std::string, std::string> out;
    FILE* pipe = ::popen(cmd.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char line[512];
    while (std::fgets(line, sizeof line, pipe)) {
        std::istringstream in(line);
        std::string hash, name;
        in >> hash >> name;
        out[name] = hash;
    }
    REQUIRE(::pclose(pipe) == 0);
    REQUIRE(out.size() == names.size());
    return out;
}

std::map<std::string, std::string> reference_sha256(const std::string& variant) {
    std::istringstream in(read_text(reference_dir() / (variant + "-sha256.txt")));
    std::map<std::string, std::string> out;
    std::string hash, name;
    while (in >> hash >> name) out[name] = hash;
    return out;
}

constexpr const char* kHint =
    "tables differ from data/reference: if the change is intended, run scripts/update-reference.sh";

template <class R>
void check_stats() {
    const std::string variant(R::kName);
    INFO(kHint);
    const std::string expected_text = read_text(reference_dir() / (variant + "-stats.json"));
    REQUIRE(!expected_text.empty());
    const auto expected = nlohmann::ordered_json::parse(expected_text);
    auto stats = verify::table_stats<R>(default_set<R>());
    INFO((stats ? "" : stats.error()));
    REQUIRE(stats);
    const auto actual = json::stats_json(*stats);
    const auto& a = actual.at("slices");
    const auto& e = expected.at("slices");
    CHECK(a.size() == e.size());
    for (std::size_t i = 0; i < std::min(a.size(), e.size()); ++i) {
        INFO(variant << " " << e[i].at("name") << " " << e[i].at("stm") << "\nexpected " << e[i].dump() << "\nactual   "
                     << a[i].dump());
        CHECK(a[i] == e[i]);
    }
    // Byte for byte what `dtb stats --json` prints.
    CHECK(actual.dump() + "\n" == expected_text);
}

template <class R>
void check_sha256() {
    const std::string variant(R::kName);
    INFO(kHint);
    const auto expected = reference_sha256(variant);
    REQUIRE(expected.size() >= 3 * 20);
    const auto actual = sha256_of_tables(default_set<R>());
    for (const auto& [name, hash] : expected) {
        INFO(variant << " " << name);
        REQUIRE(actual.count(name));
        CHECK(actual.at(name) == hash);
    }
    CHECK(actual.size() == expected.size());
}

}  // namespace

TEST_CASE("the default set has the reference statistics (international)", "[gen][reference][plain-build]") {
    check_stats<International>();
}

TEST_CASE("the default set has the reference statistics (turkish)", "[gen][reference][plain-build]") {
    check_stats<Turkish>();
}

TEST_CASE("the default set has the reference sha256 checksums (international)", "[gen][reference][plain-build]") {
    check_sha256<International>();
}

TEST_CASE("the default set has the reference sha256 checksums (turkish)", "[gen][reference][plain-build]") {
    check_sha256<Turkish>();
}

TEST_CASE("tables made with two threads are the reference's, made with one (3 pieces)", "[gen][reference]") {
    for (VariantId v : {VariantId::international, VariantId::turkish}) {
        const std::string variant = v == VariantId::turkish ? "turkish" : "international";
        const TempDir dir("gen_reference_" + variant + "_3");
        generate_into(dir.path, v, 3, 2);
        const auto expected = reference_sha256(variant);
        const auto actual = sha256_of_tables(dir.path);
        INFO(kHint);
        CHECK(actual.size() >= 3 * 9);
        for (const auto& [name, hash] : actual) {
            INFO(variant << " " << name);
            REQUIRE(expected.count(name));
            CHECK(hash == expected.at(name));
        }
    }
}
