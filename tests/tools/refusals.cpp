// What the command refuses, with exit 2 and a message that says why: a folder of the other
// variant's tables as gen's output, folders given as empty text, times and memory not in plain
// decimal or out of range, PDN text that holds no game.
// And what it accepts that it once did not: a PDN file saved as UTF-16.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/temp_dir.hpp"
#include "tests/support/tools_stats_support.hpp"

namespace fs = std::filesystem;
using dtb::test::run_dtb;
using dtb::test::RunResult;

namespace {

std::vector<std::string> sorted_files(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace

TEST_CASE("dtb gen: a folder of the other variant's tables is refused, untouched", "[tools][gen]") {
    dtb::test::TempDir dir("refuse_other_variant");
    const fs::path international = dir.path / "international";
    REQUIRE(
        run_dtb({"gen", "--variant", "international", "--pieces", "2", "--out", international.string()}).exit_code ==
        0);
    const std::vector<std::string> before = sorted_files(international);
    const std::string kvk = dtb::test::slurp(international / "KvK.wdl");
    const RunResult r = run_dtb({"gen", "--variant", "turkish", "--pieces", "2", "--out", international.string()});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("holds international tables") && Catch::Contains("--out"));
    CHECK(sorted_files(international) == before);
    CHECK(dtb::test::slurp(international / "KvK.wdl") == kvk);
    // The same variant is welcome: present slices are skipped.
    CHECK(run_dtb({"gen", "--variant", "international", "--pieces", "2", "--out", international.string()}).exit_code ==
          0);
}

TEST_CASE("dtb: a folder or address given as empty text is refused, not read as the default", "[tools]") {
    const std::vector<std::vector<std::string>> calls{
        {"gen", "--variant", "international", "--pieces", "2", "--out", ""},
        {"probe", "--db", "", "W:WK2,6:BK50"},
        {"verify", "--db", ""},
        {"stats", "--db", ""},
        {"adjudicate", "--db", "", "--fen", "W:WK2,6:BK50"},
        {"serve", "--tables", "", "--port", "0"},
        {"serve", "--host", "", "--port", "0"},
    };
    for (const auto& args : calls) {
        INFO(args[0] << " " << args[1]);
        const RunResult r = run_dtb(args);
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains("must not be empty"));
    }
}

TEST_CASE("dtb solve: a time not in plain decimal or out of range is refused", "[tools]") {
    for (const char* time : {"nan", "inf", "1e3", "-1", "0.0001", "5."}) {
        INFO(time);
        const RunResult r = run_dtb({"solve", "--time", time, "W:WK1,K26,K30:B32,45"});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains("--time"));
    }
}

TEST_CASE("dtb serve: a solve limit not in plain decimal or out of range is refused", "[tools]") {
    const std::vector<std::vector<std::string>> limits{
        {"--solve-time-limit", "0"},   {"--solve-time-limit", "nan"}, {"--solve-time-limit", "inf"},
        {"--solve-time-limit", "1e3"}, {"--solve-time-limit", "-1"},  {"--solve-time-limit", "86401"},
        {"--solve-memory", "0"},       {"--solve-memory", "65537"},   {"--solve-memory", "1.5"},
    };
    for (const auto& limit : limits) {
        INFO(limit[0] << " " << limit[1]);
        const RunResult r = run_dtb({"serve", "--port", "0", limit[0], limit[1]});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains(limit[0]));
    }
}

TEST_CASE("dtb adjudicate --pdn: text with no game (stray brackets, tags only) is bad input", "[tools][adjudicate]") {
    dtb::test::TempDir dir("pdn_no_game");
    const std::string db = std::string(DTB_TEST_TABLES) + "/international";
    for (const std::string& text : {std::string("[[[[[["), std::string("[Event \"x\"]\n[Site \"y\"]\n"),
                                    std::string(100000, '['), std::string("   \n\n")}) {
        INFO(text.substr(0, 40));
        const fs::path f = dir.path / "no_game.pdn";
        std::ofstream(f, std::ios::binary) << text;
        const RunResult r = run_dtb({"adjudicate", "--db", db, "--pdn", f.string()});
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::Contains("no game"));
    }
}

TEST_CASE("dtb adjudicate --pdn: a file saved as UTF-16 (either byte order) is read as its text",
          "[tools][adjudicate][plain-build]") {
    dtb::test::TempDir dir("pdn_utf16");
    const std::string db = std::string(DTB_TEST_TABLES) + "/international";
    const std::string text = "[White \"J\xC3\xA9r\xC3\xB4me\"]\n[FEN \"W:WK2,6:BK50\"]\n1. 2-11 50-45 2-0\n";
    const fs::path utf8 = dir.path / "utf8.pdn";
    std::ofstream(utf8, std::ios::binary) << text;
    const RunResult want = run_dtb({"adjudicate", "--db", db, "--json", "--pdn", utf8.string()});
    REQUIRE(want.exit_code == 0);
    // The same text in UTF-16: every character here is in the basic plane.
    std::u16string wide;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            wide += static_cast<char16_t>(c);
            i += 1;
        } else {
            wide += static_cast<char16_t>((c & 0x1F) << 6 | (static_cast<unsigned char>(text[i + 1]) & 0x3F));
            i += 2;
        }
    }
    for (const bool little : {true, false}) {
        INFO((little ? "UTF-16LE" : "UTF-16BE"));
        std::string bytes = little ? "\xFF\xFE" : "\xFE\xFF";
        for (char16_t u : wide) {
            const char lo = static_cast<char>(u & 0xFF), hi = static_cast<char>(u >> 8);
            bytes += little ? std::string{lo, hi} : std::string{hi, lo};
        }
        const fs::path f = dir.path / "utf16.pdn";
        std::ofstream(f, std::ios::binary) << bytes;
        const RunResult r = run_dtb({"adjudicate", "--db", db, "--json", "--pdn", f.string()});
        CHECK(r.exit_code == 0);
        CHECK(nlohmann::json::parse(r.out)["games"] == nlohmann::json::parse(want.out)["games"]);
    }
}
