// dtb gen as a user runs it: tables are byte-identical whatever --threads is, a second run
// skips what is present, --only restricts, bad input exits 2.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/index/material.hpp"
#include "dtb/index/scheme_version.hpp"
#include "dtb/rules/variant.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/tools_stats_support.hpp"

namespace fs = std::filesystem;

namespace {
// Runs `dtb args...` (no shell); returns its exit code (-1 when it crashed) and, when err is given,
// what it wrote on stderr.
int run_status(const std::vector<std::string>& args, std::string* err = nullptr) {
    const dtb::test::RunResult r = dtb::test::run_dtb(args);
    if (err) *err = r.err;
    return r.exit_code;
}
using dtb::test::check_same_files;
using dtb::test::is_table_entry;
using dtb::test::slurp;
// A fresh folder for a run's output (tests/support/temp_dir.hpp).
fs::path fresh_path(const std::string& name) {
    return dtb::test::fresh_dir("tools_gen_" + name);
}
}  // namespace

TEST_CASE("dtb gen: tables are byte-identical with 1 and 2 threads", "[tools][gen]") {
    for (const std::string variant : {"international", "turkish"}) {
        const fs::path a = fresh_path(variant + "_t1"), b = fresh_path(variant + "_t2");
        REQUIRE(run_status({"gen", "--variant", variant, "--pieces", "3", "--threads", "1", "--out", a.string()}) == 0);
        REQUIRE(run_status({"gen", "--variant", variant, "--pieces", "3", "--threads", "2", "--out", b.string()}) == 0);
        CHECK(check_same_files(a, b) >= 3 * 9);
        // A second run finds every slice present and valid and writes nothing.
        std::string err;
        REQUIRE(run_status({"gen", "--variant", variant, "--pieces", "3", "--out", a.string()}, &err) == 0);
        CHECK(err.find("0 slices generated") != std::string::npos);
        fs::remove_all(a);
        fs::remove_all(b);
    }
}

TEST_CASE("dtb gen: the run's last line sums the parts of its slice lines (4 pieces)", "[tools][gen][plain-build]") {
    const fs::path d = fresh_path("parts");
    std::string err;
    // 4 pieces, so that the parts are seconds, not all 0.0.
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "4", "--out", d.string()}, &err) == 0);
    std::smatch done;
    REQUIRE(std::regex_search(err, done, std::regex("done: ([0-9]+) slices generated")));
    const int slice_lines = std::stoi(done[1]);  // one per pair
    CHECK(slice_lines == 23);
    // A part's figure on a line: after "(", ", ", "; " or ": " ("dtc" is not "dtc seed").
    const auto figure = [](const std::string& line, const std::string& part) -> std::optional<double> {
        std::smatch m;
        if (!std::regex_search(line, m, std::regex("(\\(|, |; |: )" + part + " ([0-9]+\\.[0-9])"))) return std::nullopt;
        return std::stod(m[2]);
    };
    const std::size_t at = err.find("time by part: ");
    REQUIRE(at != std::string::npos);
    const std::string parts_line = err.substr(at, err.find('\n', at) - at);
    INFO(parts_line);
    for (const std::string part : {"inputs read", "solve", "seed", "dtw", "dtc seed", "dtc", "other",
                                   "distances written", "rule tables", "WDL written"}) {
        INFO(part);
        // Each slice line's figure, summed, against the run's (all rounded to 0.1 s).
        double total = 0;
        int lines = 0;
        std::istringstream in(err);
        for (std::string line; std::getline(in, line);) {
            if (line.find(" positions in ") == std::string::npos) continue;
            const auto f = figure(line, part);
            REQUIRE(f);
            total += *f;
            ++lines;
        }
        CHECK(lines == slice_lines);
        const auto summed = figure(parts_line, part);
        REQUIRE(summed);
        CHECK(std::abs(*summed - total) <= 0.05 * (lines + 1));
    }
    CHECK(*figure(parts_line, "solve") > 0.5);  // (the 2-4 set's solve takes seconds)
    // Nothing generated: no such line.
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "4", "--out", d.string()}, &err) == 0);
    CHECK(err.find("time by part") == std::string::npos);
    fs::remove_all(d);
}

TEST_CASE("dtb gen: after each pair, a run line says how far the run is and how much is left", "[tools][gen]") {
    const fs::path d = fresh_path("run_lines");
    const std::regex run_line(
        "run: ([0-9]+) of ([0-9]+) pairs done \\(([0-9]+) present, ([0-9]+) generated\\); ([0-9]+) positions generated "
        "in "
        "[0-9]+:[0-9]{2}:[0-9]{2} \\([0-9]+\\.[0-9]{2} M/s\\); (nothing left|([0-9]+) pairs? left \\(([0-9]+) "
        "positions, [0-9]+\\.[0-9]%\\), about ([0-9]+:[0-9]{2}:[0-9]{2}|\\?) at that rate)");
    struct RunLine {
        int reached, pairs, present, generated;
        std::uint64_t done, left;
        int pairs_left;
    };
    const auto run_lines = [&](const std::string& err) {
        std::vector<RunLine> out;
        std::istringstream in(err);
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("run: ", 0) != 0) continue;
            std::smatch m;
            INFO(line);
            REQUIRE(std::regex_match(line, m, run_line));
            const bool last = m[6] == "nothing left";
            out.push_back({std::stoi(m[1]), std::stoi(m[2]), std::stoi(m[3]), std::stoi(m[4]), std::stoull(m[5]),
                           last ? 0 : std::stoull(m[8]), last ? 0 : std::stoi(m[7])});
        }
        return out;
    };
    std::string err;
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "3", "--out", d.string()}, &err) == 0);
    INFO(err);
    std::smatch done;
    REQUIRE(std::regex_search(err, done,
                              std::regex("done: ([0-9]+) slices generated, 0 already present, ([0-9]+) positions")));
    const int pairs = std::stoi(done[1]);
    const std::uint64_t positions = std::stoull(done[2]);
    const std::vector<RunLine> lines = run_lines(err);
    REQUIRE(static_cast<int>(lines.size()) == pairs);  // one per pair generated
    for (int k = 0; k < pairs; ++k) {
        const RunLine& l = lines[k];
        CHECK(l.reached == k + 1);
        CHECK(l.pairs == pairs);
        CHECK(l.present == 0);
        CHECK(l.generated == k + 1);
        CHECK(l.pairs_left == pairs - (k + 1));
        CHECK(l.done + l.left == positions);  // what is done and what is left make the run
        if (k > 0) CHECK(l.done > lines[k - 1].done);
    }
    CHECK(lines.back().done == positions);
    CHECK(lines.back().left == 0);

    // A run that finds most pairs present counts them as done, and its positions only for those
    // it generates: here one pair, whose line comes where the pair does in the run's order.
    for (const char* slice : {"KKvK", "KvKK"})
        for (const char* ext : {".wdl", ".dtw", ".dtc", ".fmjd", ".ffjd"}) fs::remove(d / (std::string(slice) + ext));
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "3", "--out", d.string()}, &err) == 0);
    REQUIRE(std::regex_search(err, done,
                              std::regex("done: 1 slices generated, ([0-9]+) already present, ([0-9]+) positions")));
    const std::vector<RunLine> again = run_lines(err);
    REQUIRE(again.size() == 1);
    CHECK(again[0].pairs == pairs);
    CHECK(again[0].present == again[0].reached - 1);
    CHECK(again[0].generated == 1);
    CHECK(again[0].done == std::stoull(done[2]));
    CHECK(again[0].pairs_left == pairs - again[0].reached);
    fs::remove_all(d);
}

TEST_CASE("dtb gen: --only generates the named slice and its mirror", "[tools][gen]") {
    const fs::path d = fresh_path("only");
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "2", "--out", d.string()}) == 0);
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "3", "--only", "KKvK", "--out", d.string()}) ==
            0);
    CHECK(fs::exists(d / "KKvK.wdl"));
    CHECK(fs::exists(d / "KvKK.dtc"));
    CHECK(!fs::exists(d / "KMvK.wdl"));
    fs::remove_all(d);
}

TEST_CASE("dtb gen: a missing input table is exit 3, bad arguments exit 2", "[tools][gen]") {
    const fs::path d = fresh_path("missing");
    std::string err;
    CHECK(run_status({"gen", "--variant", "international", "--pieces", "3", "--only", "KKvK", "--out", d.string()},
                     &err) == 3);
    CHECK(err.find("needs") != std::string::npos);
    CHECK(run_status({"gen", "--variant", "international", "--pieces", "3", "--only", "XvY", "--out", d.string()}) ==
          2);
    CHECK(run_status({"gen", "--variant", "chess", "--pieces", "3"}) == 2);
    CHECK(run_status({"gen", "--variant", "international"}) == 2);
    fs::remove_all(d);
}

TEST_CASE("dtb gen: a slice over --memory is refused before anything of it is written", "[tools][gen]") {
    const fs::path d = fresh_path("memory");
    std::string err;
    // 3 pieces: KvKK and its mirror need about 1.5 MB, more than 1 MB.
    CHECK(run_status({"gen", "--variant", "international", "--pieces", "3", "--memory", "1", "--out", d.string()},
                     &err) == 2);  // a --memory too small is a usage error
    CHECK(err.find("needs about") != std::string::npos);
    CHECK(err.find("MB the generator may use (--memory 1,") != std::string::npos);
    CHECK(fs::exists(d / "KvK.wdl"));  // the slices before it fit
    for (const char* ext : {".wdl", ".dtw", ".dtc", ".fmjd", ".ffjd"}) {
        INFO(ext);
        CHECK(!fs::exists(d / (std::string("KvKK") + ext)));
        CHECK(!fs::exists(d / (std::string("KKvK") + ext)));
    }
    fs::remove_all(d);
}

TEST_CASE(
    "dtb gen --spill: international tables solved by levels with arrays in files equal those solved whole (4 pieces)",
    "[tools][gen][plain-build]") {
    const fs::path whole = fs::path(DTB_TEST_TABLES) / "international";
    REQUIRE(fs::exists(whole / "KKvKM.wdl"));  // the 4-piece fixture
    const fs::path d = fresh_path("spill");
    std::string err;
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "4", "--spill", "--out", d.string()}, &err) ==
            0);
    CHECK(err.find("(it would fit: spilled as --spill asks); solved by levels") != std::string::npos);
    CHECK(err.find(" MB of arrays spilled") != std::string::npos);
    // Spilled, a pair keeps in memory only the finished slices it reads: the others, held for
    // later pairs, are released and read again from their files by the pairs that need them.
    CHECK(err.find("KMvKM: 1 MB of finished slices that only later pairs read released") != std::string::npos);
    CHECK(check_same_files(whole, d) > 200);
    fs::remove_all(d);
}

TEST_CASE(
    "dtb gen --spill: turkish tables solved by levels (row groups: sideways steps inside) equal those solved whole "
    "(4 pieces)",
    "[tools][gen][plain-build]") {
    const fs::path whole = fs::path(DTB_TEST_TABLES) / "turkish";
    REQUIRE(fs::exists(whole / "KKvKM.wdl"));  // the 4-piece fixture
    const fs::path d = fresh_path("spill_turkish");
    std::string err;
    REQUIRE(run_status({"gen", "--variant", "turkish", "--pieces", "4", "--spill", "--out", d.string()}, &err) == 0);
    CHECK(err.find("(it would fit: spilled as --spill asks); solved by levels") != std::string::npos);
    CHECK(check_same_files(whole, d) > 100);
    fs::remove_all(d);
}

namespace {
// A copy of folder ref in d without the files of the pairs named; returns the names removed.
std::vector<std::string> copy_without_pairs(const fs::path& ref, const fs::path& d,
                                            const std::vector<std::string>& pairs) {
    fs::copy(ref, d, fs::copy_options::recursive);
    std::vector<std::string> removed;
    for (const auto& entry : fs::directory_iterator(d)) {
        const std::string name = entry.path().filename().string();
        const std::string slice = name.substr(0, name.find('.'));
        for (const std::string& p : pairs)
            if (slice == p || slice == dtb::Material::parse(p)->mirrored().name()) removed.push_back(name);
    }
    for (const std::string& name : removed) fs::remove(d / name);
    return removed;
}
}  // namespace

TEST_CASE("dtb gen --blocks: tables solved by blocks equal those solved whole (both variants, 4 pieces)",
          "[tools][gen][plain-build]") {
    // The 4-piece pairs with the most blocks and men of both colours, generated again by blocks
    // into a copy of the fixture.
    const std::vector<std::string> pairs{"KMvKM", "MMvKM", "KKvMM", "MMvMM", "KKMvK"};
    for (const char* variant : {"international", "turkish"}) {
        INFO(variant);
        const fs::path ref = fs::path(DTB_TEST_TABLES) / variant;
        REQUIRE(fs::exists(ref / "KKvKM.wdl"));  // the 4-piece fixture
        const fs::path d = fresh_path(std::string("blocks_") + variant);
        const std::vector<std::string> removed = copy_without_pairs(ref, d, pairs);
        REQUIRE(removed.size() >= 20);
        std::vector<std::string> args{"gen",      "--variant", variant,    "--pieces", "4",
                                      "--blocks", "--out",     d.string(), "--only"};
        args.insert(args.end(), pairs.begin(), pairs.end());
        std::string err;
        REQUIRE(run_status(args, &err) == 0);
        CHECK(err.find("KMvKM: solved by blocks") != std::string::npos);
        CHECK(err.find(", by blocks: largest ") != std::string::npos);
        CHECK(err.find(" MB of arrays spilled") == std::string::npos);
        for (const std::string& name : removed) {
            INFO(name);
            CHECK(slurp(d / name) == slurp(ref / name));
        }
        fs::remove_all(d);
    }
    std::string err;
    const dtb::test::TempDir spill("tools_gen_blocks_spill");
    CHECK(run_status({"gen", "--pieces", "3", "--blocks", "--spill", "--out", spill.path.string()}, &err) == 2);
}

TEST_CASE("dtb gen --block-positions: levels split into groups of phases, the same tables (both variants, 4 pieces)",
          "[tools][gen][plain-build]") {
    const std::vector<std::string> pairs{"KMvKM", "MMvKM"};
    for (const char* variant : {"international", "turkish"}) {
        INFO(variant);
        const fs::path ref = fs::path(DTB_TEST_TABLES) / variant;
        REQUIRE(fs::exists(ref / "KMvKM.wdl"));  // the 4-piece fixture
        const fs::path d = fresh_path(std::string("groups_") + variant);
        const std::vector<std::string> removed = copy_without_pairs(ref, d, pairs);
        REQUIRE(removed.size() >= 6);
        std::vector<std::string> args{"gen",  "--variant", variant,    "--pieces", "4", "--block-positions",
                                      "3000", "--out",     d.string(), "--only"};
        args.insert(args.end(), pairs.begin(), pairs.end());
        std::string err;
        REQUIRE(run_status(args, &err) == 0);
        CHECK(err.find("KMvKM: solved by blocks") != std::string::npos);
        CHECK(err.find("split into groups of phases of at most 3000") != std::string::npos);
        for (const std::string& name : removed) {
            INFO(name);
            CHECK(slurp(d / name) == slurp(ref / name));
        }
        fs::remove_all(d);
    }
    std::string err;
    const dtb::test::TempDir spill("tools_gen_groups_spill");
    CHECK(run_status({"gen", "--pieces", "3", "--block-positions", "10", "--spill", "--out", spill.path.string()},
                     &err) == 2);
    CHECK(run_status({"gen", "--pieces", "3", "--block-positions", "0", "--out", spill.path.string()}, &err) == 2);
}

TEST_CASE("dtb gen: a pair with men over --memory is solved by blocks in memory, not spilled (4 pieces)",
          "[tools][gen][plain-build]") {
    // Turkish has no rule tables; KMvKM's (international) are in no counting class, so they are
    // solved by the game's blocks too.
    for (const auto& [variant, extensions] :
         {std::pair<std::string, std::vector<std::string>>{"turkish", {".wdl", ".dtw", ".dtc"}},
          std::pair<std::string, std::vector<std::string>>{"international",
                                                           {".wdl", ".dtw", ".dtc", ".fmjd", ".ffjd"}}}) {
        INFO(variant);
        const fs::path ref = fs::path(DTB_TEST_TABLES) / variant;
        REQUIRE(fs::exists(ref / "KMvKM.wdl"));  // the 4-piece fixture
        const fs::path d = fresh_path("memory_blocks_" + variant);
        fs::copy(ref, d, fs::copy_options::recursive);
        for (const std::string& ext : extensions) fs::remove(d / ("KMvKM" + ext));
        std::string err;
        REQUIRE(run_status({"gen", "--variant", variant, "--pieces", "4", "--memory",
                            variant == "turkish" ? "36" : "45", "--out", d.string()},
                           &err) == 0);
        CHECK(err.find("KMvKM: solved by blocks") != std::string::npos);
        CHECK(err.find(" MB of arrays spilled") == std::string::npos);
        for (const std::string& ext : extensions) {
            INFO(ext);
            CHECK(slurp(d / ("KMvKM" + ext)) == slurp(ref / ("KMvKM" + ext)));
        }
        fs::remove_all(d);
    }
}

TEST_CASE("dtb gen: a pair with men over --memory is solved by levels when a level fits, else refused (4 pieces)",
          "[tools][gen][plain-build]") {
    const fs::path ref = fs::path(DTB_TEST_TABLES) / "international";
    REQUIRE(fs::exists(ref / "KvKKM.ffjd"));  // the 4-piece fixture
    const fs::path d = fresh_path("memory_levels");
    fs::copy(ref, d, fs::copy_options::recursive);
    const std::vector<std::string> extensions{".wdl", ".dtw", ".dtc", ".fmjd", ".ffjd"};
    for (const std::string& ext : extensions) fs::remove(d / ("KvKKM" + ext));
    std::string err;
    // KvKKM + KKMvK: 4,974,480 positions, 56 MB at 12 bytes each (81 MB with its inputs and the
    // 4 bytes per position a whole solve holds besides: frontier lists); its largest level is far
    // smaller. Its fmjd table is a counting class (the 16-move rule), which is not solved by
    // blocks: so it is solved by levels, spilled.
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "4", "--memory", "45", "--out", d.string()},
                       &err) == 0);
    CHECK(err.find("KvKKM: 81 MB in memory would be needed; solved by levels, 56 MB of arrays in files") !=
          std::string::npos);
    // The arrays did go to files (the slice line counts what was mapped from them).
    const auto spilled = err.find(" MB of arrays spilled");
    REQUIRE(spilled != std::string::npos);
    const auto number = err.rfind(", ", spilled);
    REQUIRE(number != std::string::npos);
    CHECK(std::stoull(err.substr(number + 2, spilled - number - 2)) >= 56);
    for (const std::string& ext : extensions) {
        INFO(ext);
        CHECK(slurp(d / ("KvKKM" + ext)) == slurp(ref / ("KvKKM" + ext)));
        fs::remove(d / ("KvKKM" + ext));
    }
    // 5 MB: not even a level of it (nor the inputs held) fits.
    CHECK(run_status({"gen", "--variant", "international", "--pieces", "4", "--memory", "5", "--out", d.string()},
                     &err) == 2);
    CHECK(err.find("KvKKM needs about") != std::string::npos);
    CHECK(err.find(" MB solved by levels), more than the 4 MB the generator may use (--memory 5, less a margin") !=
          std::string::npos);  // why levels did not help
    CHECK(!fs::exists(d / "KvKKM.dtc"));
    fs::remove_all(d);
}

namespace {
// Whether p is a derived WDL table, by its checked header.
bool derived_wdl(const fs::path& p) {
    const auto info = dtb::format::read_table_info(p);
    return info.ok() && info->derived();
}
std::uintmax_t wdl_bytes(const fs::path& d) {
    std::uintmax_t n = 0;
    for (const auto& e : fs::directory_iterator(d))
        if (e.path().extension() == ".wdl") n += fs::file_size(e.path());
    return n;
}
}  // namespace

TEST_CASE("dtb gen --wdl: compact derives one side of some pairs, both-sides none", "[tools][gen]") {
    const fs::path a = fresh_path("wdl_compact"), b = fresh_path("wdl_both");
    REQUIRE(run_status(
                {"gen", "--variant", "international", "--pieces", "3", "--wdl", "compact", "--out", a.string()}) == 0);
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "3", "--wdl", "both-sides", "--out",
                        b.string()}) == 0);
    int derived = 0;
    for (const auto& e : fs::directory_iterator(a)) {
        if (!is_table_entry(e)) continue;
        const std::string name = e.path().filename().string();
        INFO(name);
        if (e.path().extension() != ".wdl") {
            CHECK(slurp(e.path()) == slurp(b / name));  // only WDL depends on --wdl
            continue;
        }
        CHECK_FALSE(derived_wdl(b / name));
        if (!derived_wdl(e.path())) continue;
        ++derived;
        // Every slice a quiet move of a derived slice reaches stores its WDL: the mirror and,
        // with a white man, the mirror of the promoted slice.
        const std::string stem = e.path().stem().string();
        const auto v = stem.find('v');
        const std::string white = stem.substr(0, v), black = stem.substr(v + 1);
        CHECK(white != black);
        CHECK_FALSE(derived_wdl(a / (black + "v" + white + ".wdl")));
        if (const auto man = white.find('M'); man != std::string::npos) {
            const std::string promoted = "K" + white.substr(0, man) + white.substr(man + 1);
            CHECK_FALSE(derived_wdl(a / (black + "v" + promoted + ".wdl")));
        }
    }
    CHECK(derived >= 5);
    CHECK(wdl_bytes(a) * 2 < wdl_bytes(b));
    CHECK(run_status({"verify", "--full", "--db", a.string()}) == 0);
    CHECK(run_status({"gen", "--variant", "international", "--pieces", "3", "--wdl", "none", "--out", a.string()}) ==
          2);

    // A 4-piece slice generated from the 3-piece tables on disk reads derived inputs (WDL from
    // DTW's parity): its files equal those made from stored inputs.
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "4", "--only", "KKKvK", "--wdl", "compact",
                        "--out", a.string()}) == 0);
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "4", "--only", "KKKvK", "--wdl", "both-sides",
                        "--out", b.string()}) == 0);
    for (const char* ext : {".dtw", ".dtc", ".fmjd", ".ffjd"}) {
        for (const char* slice : {"KKKvK", "KvKKK"}) {
            INFO(slice << ext);
            CHECK(slurp(a / (std::string(slice) + ext)) == slurp(b / (std::string(slice) + ext)));
        }
    }

    fs::remove_all(a);
    fs::remove_all(b);
}

TEST_CASE(
    "dtb gen: a write that fails (file size limit, as a full disk) is a clear error, no partial file, and a rerun "
    "completes",
    "[tools][gen]") {
    const fs::path d = fresh_path("full"), ref = fresh_path("full_ref");
    // SIGXFSZ ignored, so that a write beyond the limit fails with EFBIG, as one on a full disk
    // fails with ENOSPC: the same path through the format module's writer.
    const int status = std::system(("sh -c \"trap '' XFSZ; ulimit -f 16; exec " + std::string(DTB_EXE) +
                                    " gen --variant international --pieces 3 --out " + d.string() + "\" 2>" +
                                    (d.string() + ".err") + " >/dev/null")
                                       .c_str());
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) != 0);
    const std::string err = slurp(d.string() + ".err");
    CHECK(err.find("cannot write") != std::string::npos);
    CHECK(err.find("File too large") != std::string::npos);
    int files = 0;
    for (const auto& e : fs::directory_iterator(d)) {
        INFO(e.path().filename().string());
        CHECK(e.path().extension() != ".tmp");
        ++files;
    }
    CHECK(files > 0);  // the slices before the large file are complete
    // Without the limit the run resumes and ends with exactly the tables of an uninterrupted run.
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "3", "--out", d.string()}) == 0);
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "3", "--out", ref.string()}) == 0);
    for (const auto& e : fs::directory_iterator(ref)) {
        if (!is_table_entry(e)) continue;
        INFO(e.path().filename().string());
        CHECK(slurp(e.path()) == slurp(d / e.path().filename()));
    }
    fs::remove(d.string() + ".err");
    fs::remove_all(d);
    fs::remove_all(ref);
}

TEST_CASE("dtb gen: a pair regenerated next to a derived table that rests on it stays stored", "[tools][gen]") {
    // MvKK's quiet moves reach KKvM (its mirror) and, by promotion, KKvK. A folder whose MvKK
    // WDL is derived (made by hand here: both sides stored, then MvKK.wdl replaced) and whose
    // KKvK pair is missing: regenerating that pair compact must keep KKvK's WDL stored, though
    // KKvK is the side a fresh compact run derives.
    const fs::path d = fresh_path("rests_on");
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "3", "--out", d.string()}) == 0);
    {
        auto info = dtb::format::read_table_info(d / "MvKK.wdl");
        REQUIRE(info.ok());
        REQUIRE(dtb::format::write_derived_table(d / "MvKK.wdl", *info, info->num_entries).ok());
    }
    CHECK(run_status({"verify", "--db", d.string()}) == 0);
    for (const char* slice : {"KKvK", "KvKK"})
        for (const char* ext : {".wdl", ".dtw", ".dtc", ".fmjd", ".ffjd"}) fs::remove(d / (std::string(slice) + ext));
    std::string err;
    REQUIRE(run_status({"gen", "--variant", "international", "--pieces", "3", "--wdl", "compact", "--out", d.string()},
                       &err) == 0);
    INFO(err);
    CHECK_FALSE(derived_wdl(d / "KKvK.wdl"));
    CHECK(derived_wdl(d / "KvKK.wdl"));  // the other side may be, and is
    CHECK(derived_wdl(d / "MvKK.wdl"));  // left as it was: still valid
    CHECK(run_status({"verify", "--full", "--db", d.string()}) == 0);

    // The quick verify refuses a derived table whose successor is derived too (exit 1).
    auto info = dtb::format::read_table_info(d / "KKvK.wdl");
    REQUIRE(info.ok());
    REQUIRE(dtb::format::write_derived_table(d / "KKvK.wdl", *info, info->num_entries).ok());
    CHECK(run_status({"verify", "--db", d.string()}, &err) == 1);
    fs::remove_all(d);
}

TEST_CASE("dtb gen: a slice that would not fit on the disk is refused before any of its files", "[tools][gen]") {
    // A 1200 KB tmpfs, mounted in a private mount namespace (unshare -rm: no privilege needed
    // where user namespaces are allowed; elsewhere the test says so and checks nothing). The
    // generator wants twice the slice's positions plus 1 MB free before a slice: the 2-piece
    // slices fit, KvKK + KKvK (117,600 positions) does not.
    const fs::path d = fresh_path("nospace");
    fs::create_directories(d);
    const std::string log = d.string() + ".log";
    const std::string script = "mount -t tmpfs -o size=1200k tmpfs " + d.string() + " || exit 1; " +
                               std::string(DTB_EXE) + " gen --variant international --pieces 3 --out " + d.string() +
                               "/tb; echo rc=$?; ls " + d.string() + "/tb";
    const int status = std::system(("unshare -rm sh -c '" + script + "' >" + log + " 2>&1").c_str());
    (void)status;  // what counts is the log: rc= comes from inside the namespace
    const std::string out = slurp(log);
    fs::remove(log);
    fs::remove_all(d);
    if (out.find("rc=") == std::string::npos) {
        WARN("no private tmpfs here (unshare -rm refused), not checked: " << out);
        return;
    }
    INFO(out);
    CHECK(out.find("not enough free disk space") != std::string::npos);
    CHECK(out.find("rc=0") == std::string::npos);
    CHECK(out.find("for slice KvKK") != std::string::npos);
    const std::string listing = out.substr(out.find("rc="));  // the folder after the run
    CHECK(listing.find("KvK.wdl") != std::string::npos);      // the slices before it were written
    CHECK(listing.find("KvKK") == std::string::npos);         // nothing of the refused slice
    CHECK(listing.find("KKvK") == std::string::npos);
    CHECK(listing.find(".tmp") == std::string::npos);
}

TEST_CASE("dtb gen: Turkish tables of an older index scheme are refused and regenerated", "[tools][gen]") {
    // Scheme 1 indexed every placement; scheme 2 quotiented the men by the mirror (kings-only
    // slices kept every entry); scheme 3 quotients the kings of kings-only slices too. Slices
    // with men have as many entries under schemes 2 and 3, so only the header's scheme tells
    // their tables apart.
    const std::uint32_t current = dtb::index_scheme_version<dtb::Turkish>();
    const std::uint32_t old = GENERATE(1u, 2u);
    REQUIRE(old < current);
    const fs::path d = fresh_path("old_scheme_" + std::to_string(old));
    REQUIRE(run_status({"gen", "--variant", "turkish", "--pieces", "3", "--out", d.string()}) == 0);
    const std::string fresh_kvk = slurp(d / "KvK.dtw");
    // Every file rewritten with the old scheme in its header and valid checksums.
    int rewritten = 0;
    for (const auto& e : fs::directory_iterator(d)) {
        if (!is_table_entry(e)) continue;
        auto reader =
            dtb::format::TableReader::open(e.path(), dtb::VariantId::turkish, dtb::rules_fingerprint<dtb::Turkish>());
        REQUIRE(reader.ok());
        dtb::format::TableInfo info = reader->info();
        REQUIRE(info.index_scheme == current);
        if (info.derived()) continue;
        auto values = reader->read_all();
        REQUIRE(values.ok());
        info.index_scheme = old;
        REQUIRE(dtb::format::write_table(e.path(), info, *values, {}).ok());
        ++rewritten;
    }
    CHECK(rewritten >= 3 * 9);
    CHECK(slurp(d / "KvK.dtw") != fresh_kvk);
    std::string err;
    CHECK(run_status({"probe", "--variant", "turkish", "--db", d.string(), "W:WKa1:BKh8"}, &err) == 3);
    CHECK(err.find("index scheme " + std::to_string(old)) != std::string::npos);
    CHECK(run_status({"verify", "--variant", "turkish", "--db", d.string()}) == 1);  // a check ran and found a problem
    // The generator takes none of them as present: it regenerates every slice.
    REQUIRE(run_status({"gen", "--variant", "turkish", "--pieces", "3", "--out", d.string()}, &err) == 0);
    CHECK(err.find("present and valid") == std::string::npos);
    CHECK(slurp(d / "KvK.dtw") == fresh_kvk);
    CHECK(run_status({"verify", "--variant", "turkish", "--db", d.string()}) == 0);
    fs::remove_all(d);
}
