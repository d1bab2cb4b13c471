// The verifier as a library (verify/verify_folder.hpp): a sound folder passes with every
// position counted; a damaged one is reported through the events as it is found and in the
// report, which the JSON object (json/verify_json.hpp) carries whole; a folder that is not one,
// or holds no table, is an error of kind tables.
#include "dtb/verify/verify_folder.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "dtb/index/slice_index.hpp"
#include "dtb/json/verify_json.hpp"
#include "dtb/probe/counting_rules.hpp"
#include "tests/support/gen_support.hpp"
#include "tests/support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace dtb;

namespace {
using R = International;
}  // namespace

TEST_CASE("verify_folder: a sound 3-piece folder passes, every position re-derived", "[gen][verify]") {
    const fs::path& dir = test::generated_tables<R>(3);
    std::vector<verify::Finding> found;
    std::set<std::pair<std::string, verify::VerifyStage>> progressed;
    verify::VerifyEvents events;
    events.found = [&](const verify::Finding& f) { found.push_back(f); };
    events.progress = [&](const std::string& slice, verify::VerifyStage stage, std::uint64_t, std::uint64_t) {
        progressed.insert({slice, stage});
    };
    auto report = verify::verify_folder<R>({dir, true, 2, {}}, events);
    REQUIRE(report.ok());
    CHECK(report->ok());
    CHECK(found.empty());
    CHECK(report->mismatches == 0);
    std::uint64_t positions = 0;
    std::size_t slices = 0;
    for (const Material& m : all_materials<R>(3)) {
        positions += SliceIndex<R>(m).num_positions() * 3;  // the game's values, fmjd and ffjd
        if (is_ffjd_carried(m)) positions += SliceIndex<R>(m).num_positions();
        ++slices;
    }
    CHECK(report->slices == slices);
    CHECK(report->positions == positions);
    CHECK(report->entries == positions);
    CHECK(std::any_of(progressed.begin(), progressed.end(),
                      [](const auto& p) { return p.second == verify::VerifyStage::values; }));
    CHECK(progressed.count({"KvKM", verify::VerifyStage::rule_tables}) == 1);
    const auto j = json::verify_report_json(*report);
    CHECK(j["ok"] == true);
    CHECK(j["full"] == true);
    CHECK(j["positions_checked"] == positions);
    CHECK(j["problems"].empty());
    CHECK(verify::summary_line(*report) == "OK: " + std::to_string(report->files) + " files, " +
                                               std::to_string(slices) + " slices, " + std::to_string(positions) +
                                               " positions re-derived, 0 mismatches");
}

TEST_CASE("verify_folder: a truncated table is found, named and its slice left unchecked", "[gen][verify]") {
    const test::TempDir db("verify_folder_truncated");
    fs::copy(test::generated_tables<R>(3), db.path, fs::copy_options::recursive);
    const fs::path file = db.path / "KvKM.dtw";
    fs::resize_file(file, fs::file_size(file) / 2);
    std::vector<verify::Finding> found;
    verify::VerifyEvents events;
    events.found = [&](const verify::Finding& f) { found.push_back(f); };
    auto report = verify::verify_folder<R>({db.path, true, 1, {}}, events);
    REQUIRE(report.ok());
    CHECK_FALSE(report->ok());
    REQUIRE(report->problems.size() == 1);
    const verify::Finding& problem = report->problems.front();
    CHECK(problem.kind == verify::Finding::Kind::unreadable);
    CHECK(problem.slice == "KvKM");
    CHECK(problem.file == file.string());
    CHECK(verify::finding_line(problem).rfind("FAIL " + file.string() + ": ", 0) == 0);
    // Told as found: the problem, then each slice not re-derived.
    REQUIRE(found.size() == 1 + report->not_checked.size());
    CHECK(found.front().file == file.string());
    CHECK(std::find(report->not_checked.begin(), report->not_checked.end(), "KvKM") != report->not_checked.end());
    for (std::size_t k = 1; k < found.size(); ++k) CHECK(found[k].kind == verify::Finding::Kind::not_checked);
    const auto j = json::verify_report_json(*report);
    CHECK(j["ok"] == false);
    CHECK(j["problems"][0]["file"] == file.string());
    CHECK(j["problems"][0]["slice"] == "KvKM");
    CHECK(j["not_checked"].size() == report->not_checked.size());
}

TEST_CASE("verify_folder: no folder, or a folder without tables, is an error of kind tables", "[gen][verify]") {
    const test::TempDir empty("verify_folder_empty");
    auto none = verify::verify_folder<R>({empty.path / "absent", false, 1, {}});
    REQUIRE_FALSE(none.ok());
    CHECK(none.error_kind() == ErrorKind::tables);
    CHECK(none.error().find("no table folder") != std::string::npos);
    auto no_tables = verify::verify_folder<R>({empty.path, false, 1, {}});
    REQUIRE_FALSE(no_tables.ok());
    CHECK(no_tables.error_kind() == ErrorKind::tables);
    CHECK(no_tables.error().find("no tables of international") != std::string::npos);
}

TEST_CASE("verify findings print as dtb verify's lines", "[gen][verify]") {
    verify::Finding value;
    value.kind = verify::Finding::Kind::value_mismatch;
    value.slice = "KvKM";
    value.index = 7;
    value.fen = "W:WK1:B2,K3";
    value.stored = {Wdl::win, 5, 3};
    value.derived = {Wdl::win, 3, 3};
    CHECK(verify::finding_line(value) ==
          "FAIL KvKM index 7 W:WK1:B2,K3: stored win dtw 5 dtc 3, derived win dtw 3 dtc 3");
    verify::Finding rule;
    rule.kind = verify::Finding::Kind::rule_mismatch;
    rule.file = "/tables/KvKM.fmjd";
    rule.index = 2;
    rule.fen = "F";
    rule.stored_rule = win_in(4);
    rule.derived_rule = kValueDraw;
    CHECK(verify::finding_line(rule) == "FAIL KvKM.fmjd index 2 F: stored win threshold 4, derived draw threshold 0");
    const auto j = json::finding_json(rule);
    CHECK(j["stored"]["threshold"] == 4);
    CHECK(j["derived"]["wdl"] == "draw");
    verify::Finding skipped;
    skipped.kind = verify::Finding::Kind::not_checked;
    skipped.slice = "KKvK";
    CHECK(verify::finding_line(skipped) ==
          "SKIP KKvK: not re-derived, as it or a slice it needs is missing or invalid");
}
