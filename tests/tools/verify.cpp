// `dtb verify --full` against a table in which one stored value was changed on purpose and the
// file rewritten with valid checksums (so only the re-derivation can find it): exit 1, and the
// report names the file, the index, the position and the stored and derived values. Done for a
// DTW table and for a rule table (verify/verify_rules.hpp).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "dtb/format/format.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "tests/support/tools_stats_support.hpp"

using namespace dtb;
using namespace dtb::test;

namespace {

using R = International;

// Rewrites `file` (valid checksums) with entry `index` two more; returns the old entry.
std::uint16_t add_two(const fs::path& file, std::uint64_t index) {
    auto reader = format::TableReader::open(file, R::kId, rules_fingerprint<R>());
    REQUIRE(reader.ok());
    const format::TableInfo info = reader->info();
    auto values = reader->read_all();
    REQUIRE(values.ok());
    std::vector<std::uint16_t> changed = *values;
    const std::uint16_t old = changed[index];
    changed[index] = static_cast<std::uint16_t>(old + 2);
    REQUIRE(format::write_table(file, info, changed, {}).ok());
    return old;
}

// The first position of slice m without a capture for the side to move whose DTW / rule entry
// is decided.
std::uint64_t first_decided_quiet(const fs::path& dir, const Material& m, format::Metric metric) {
    auto reader = format::TableReader::open(dir / format::file_name(m.name(), metric), R::kId, rules_fingerprint<R>());
    REQUIRE(reader.ok());
    auto values = reader->read_all();
    REQUIRE(values.ok());
    const SliceIndex<R> index(m);
    for (std::uint64_t i = 0; i < index.size(); ++i)
        if ((*values)[i] > 1 && !has_capture<R>(index.unrank(i))) return i;
    FAIL("no decided quiet position in " << m.name());
    return 0;
}

}  // namespace

TEST_CASE("dtb verify --full finds one value changed on purpose", "[tools][verify]") {
    const TempDir clean("verify_clean");
    REQUIRE(run_dtb({"gen", "--pieces", "3", "--out", clean.path.string()}).exit_code == 0);
    REQUIRE(run_dtb({"verify", "--db", clean.path.string(), "--full"}).exit_code == 0);
    const Material m{1, 0, 1, 1};  // KvKM
    for (format::Metric metric : {format::Metric::dtw, format::Metric::fmjd, format::Metric::ffjd}) {
        const TempDir db("verify_changed");
        fs::copy(clean.path, db.path, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
        const fs::path file = db.path / format::file_name(m.name(), metric);
        const std::uint64_t index = first_decided_quiet(db.path, m, metric);
        // A distance two plies longer (a rule threshold one ply longer): still a valid value.
        const std::uint16_t old = add_two(file, index);
        INFO(file.string() << " index " << index << ": " << old << " -> " << old + 2);
        // The checksums are valid: only the re-derivation sees it.
        CHECK(run_dtb({"verify", "--db", db.path.string()}).exit_code == 0);
        const RunResult r = run_dtb({"verify", "--db", db.path.string(), "--full", "--json"});
        INFO(r.out << r.err);
        CHECK(r.signal == 0);
        CHECK(r.exit_code == 1);
        const auto j = nlohmann::json::parse(r.out, nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        CHECK(j["ok"] == false);
        bool named = false;
        for (const auto& p : j["problems"])
            if (p.value("index", std::uint64_t{0}) == index && p.value("slice", std::string()) == m.name() &&
                p.contains("fen") && p.contains("stored") && p.contains("derived") &&
                (metric == format::Metric::dtw || p.value("file", std::string()) == file.string()))
                named = true;
        CHECK(named);
        const RunResult text = run_dtb({"verify", "--db", db.path.string(), "--full"});
        CHECK(text.exit_code == 1);
        CHECK(text.out.find("index " + std::to_string(index)) != std::string::npos);
    }
}

// A Turkish entry stands for a position and its left-right mirror (index/slice_index.hpp):
// `positions_checked` counts positions, `entries_checked` the entries re-derived, and the two
// are equal in international, whose index has no mirror.
TEST_CASE("dtb verify --full counts positions and entries apart (Turkish mirror index)", "[tools][verify]") {
    for (const std::string variant : {"turkish", "international"}) {
        const TempDir db("verify_counts");
        REQUIRE(run_dtb({"gen", "--variant", variant, "--pieces", "3", "--out", db.path.string()}).exit_code == 0);
        const RunResult r = run_dtb({"verify", "--variant", variant, "--db", db.path.string(), "--full", "--json"});
        INFO(variant << ": " << r.out << r.err);
        REQUIRE(r.exit_code == 0);
        const auto j = nlohmann::json::parse(r.out, nullptr, false);
        REQUIRE_FALSE(j.is_discarded());
        std::uint64_t positions = 0, entries = 0;
        for (const auto& entry : fs::directory_iterator(db.path)) {
            if (entry.path().extension() != ".wdl") continue;
            const Material m = *Material::parse(entry.path().stem().string());
            if (variant == "turkish") {
                const SliceIndex<Turkish> index(m);
                positions += index.num_positions();
                entries += index.size();
            } else {
                positions += SliceIndex<International>(m).num_positions();
                entries += SliceIndex<International>(m).size();
            }
        }
        if (variant == "turkish") {
            CHECK(j["positions_checked"].get<std::uint64_t>() == positions);
            CHECK(j["entries_checked"].get<std::uint64_t>() == entries);
            CHECK(positions > entries);
            const RunResult text = run_dtb({"verify", "--variant", variant, "--db", db.path.string(), "--full"});
            CHECK(text.out.find(std::to_string(positions) + " positions re-derived (" + std::to_string(entries) +
                                " entries)") != std::string::npos);
        } else {
            // Rule thresholds are re-derived too, one entry per position.
            CHECK(j["positions_checked"] == j["entries_checked"]);
            CHECK(j["positions_checked"].get<std::uint64_t>() > positions);
        }
    }
}

// --only: the named slices and their mirrors, no others; a name that is no slice is bad input
// (exit 2), a slice with no tables in the folder is "tables missing" (exit 3).
TEST_CASE("dtb verify --only checks the named slices and their mirrors", "[tools][verify]") {
    const TempDir db("verify_only");
    REQUIRE(run_dtb({"gen", "--pieces", "3", "--out", db.path.string()}).exit_code == 0);
    const Material m{1, 0, 1, 1};  // KvKM, with KMvK
    const RunResult r = run_dtb({"verify", "--db", db.path.string(), "--full", "--json", "--only", "KvKM"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto j = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    CHECK(j["slices"] == 2);
    const std::uint64_t entries = SliceIndex<R>(m).size() + SliceIndex<R>(m.mirrored()).size();
    CHECK(j["positions_checked"].get<std::uint64_t>() > entries);  // and their rule thresholds
    // A value changed in another slice is not looked at.
    const Material other{2, 0, 1, 0};  // KKvK
    add_two(db.path / format::file_name(other.name(), format::Metric::dtw),
            first_decided_quiet(db.path, other, format::Metric::dtw));
    CHECK(run_dtb({"verify", "--db", db.path.string(), "--full", "--only", "KvKM"}).exit_code == 0);
    CHECK(run_dtb({"verify", "--db", db.path.string(), "--full", "--only", "KvKK"}).exit_code == 1);
    const RunResult bad = run_dtb({"verify", "--db", db.path.string(), "--only", "XvY"});
    CHECK(bad.exit_code == 2);
    CHECK_THAT(bad.err, Catch::Contains("not a slice name"));
    const RunResult missing = run_dtb({"verify", "--db", db.path.string(), "--only", "KKKvK"});
    CHECK(missing.exit_code == 3);
    CHECK_THAT(missing.err, Catch::Contains("no tables of KKKvK"));
}
