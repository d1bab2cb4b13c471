// Text from outside (a folder's name, a PDN tag) that is not UTF-8 reaches the JSON of every
// front end that echoes it; the one writer (json/dump.hpp) writes it as U+FFFD instead of
// throwing, so the answer is still given. (`dtb verify --json` on such a folder once printed a
// JSON library error and exit 2.)
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/temp_dir.hpp"
#include "tests/support/tools_stats_support.hpp"

using namespace dtb::test;

namespace {

const std::string kReplacement = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// A copy of the fixture's international tables in a folder whose name holds the byte 0xFF.
fs::path tables_in_bad_name(const TempDir& scratch) {
    const fs::path folder = scratch.path / "tables\xFFlatin" / "international";
    fs::create_directories(folder);
    fs::copy(fs::path(DTB_TEST_TABLES) / "international", folder);
    return folder;
}

}  // namespace

TEST_CASE("dtb verify --json, stats --json: a folder name that is not UTF-8", "[tools][plain-build]") {
    const TempDir scratch("json_text");
    const fs::path folder = tables_in_bad_name(scratch);
    for (const std::string command : {"verify", "stats"}) {
        INFO(command);
        const RunResult r = run_dtb({command, "--json", "--db", folder.string()});
        CHECK(r.exit_code == 0);
        const auto j = nlohmann::json::parse(r.out, nullptr, false);  // also checks that it is UTF-8
        REQUIRE_FALSE(j.is_discarded());
        if (command == "verify") CHECK(r.out.find(kReplacement) != std::string::npos);
    }
}

TEST_CASE("dtb adjudicate --pdn --json: a tag that is not UTF-8", "[tools][plain-build]") {
    const TempDir scratch("json_text_pdn");
    const fs::path pdn = scratch.path / "latin.pdn";
    std::ofstream(pdn, std::ios::binary) << "[Event \"caf\xE9 \xFF\"]\n[FEN \"W:WK2,6:BK50\"]\n1. 2-11 *\n";
    const RunResult r = run_dtb(
        {"adjudicate", "--json", "--db", std::string(DTB_TEST_TABLES) + "/international", "--pdn", pdn.string()});
    CHECK(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    CHECK(j["games"][0]["tags"]["Event"].get<std::string>().starts_with("caf"));
}
