// The probe library against the generator's tables: every position of every slice, both sides to
// move, capture positions included, probed WDL/DTW/DTC equal verify::derive_from_successors over the
// stored tables (and the stored values themselves where the side to move has no capture). A
// second, WDL-only handle takes the other road through derived WDL tables: one ply of search
// instead of DTW's parity.
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <optional>
#include <sstream>

#include "dtb/gen/parallel.hpp"
#include "dtb/probe/derived_wdl.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/verify/verify_slice.hpp"
#include "tests/support/gen_probe_support.hpp"
#include "tests/support/temp_dir.hpp"

using namespace dtb;

namespace {

struct Counts {
    std::uint64_t positions = 0, captures = 0, mismatches = 0;
    int derived_slices = 0;  // slices whose WDL table is derived
};

template <class R>
Counts check_every_position(const std::filesystem::path& dir, std::vector<Material> materials) {
    using G = typename R::Geometry;
    probe::Options o;
    o.directories = {dir};
    o.variant = R::kId;
    o.cache_mb = 8;
    auto tb = probe::Tablebase::open(o);
    REQUIRE(tb.ok());
    o.metrics = probe::kWdl;
    auto wdl_only = probe::Tablebase::open(o);
    REQUIRE(wdl_only.ok());
    int derived_slices = 0;
    verify::FullTables<R> full(dir);
    std::atomic<std::uint64_t> positions{0}, captures{0}, mismatches{0};
    std::mutex report_mutex;
    std::vector<std::string> reports;
    const auto report = [&](const Position& p, const char* what, const verify::StoredValues& want,
                            const probe::Result& got) {
        if (mismatches.fetch_add(1) >= 10) return;
        std::ostringstream s;
        s << to_fen<R>(p) << ": " << what << " " << to_string(want.wdl) << "/" << want.dtw << "/" << want.dtc
          << ", probed " << probe::to_string(got.status) << " " << to_string(got.wdl) << "/" << got.dtw << "/"
          << got.dtc;
        std::lock_guard lock(report_mutex);
        reports.push_back(s.str());
    };
    const auto same = [](const verify::StoredValues& a, const probe::Result& b) {
        return b.ok() && a.wdl == b.wdl && a.dtw == b.dtw && a.dtc == b.dtc;
    };
    for (const Material& m : materials) {
        INFO(m.name());
        auto self = full.load(m);
        REQUIRE(self.ok());
        for (const Material& x : verify::successor_materials(m)) REQUIRE(full.load(x).ok());
        const auto* slice = *self;
        auto info = format::read_table_info(dir / format::file_name(m.name(), format::Metric::wdl));
        REQUIRE(info.ok());
        derived_slices += info->derived();
        // Many threads at once: the handle is shared, as the library allows.
        gen::parallel_for(slice->index.size(), [&](std::uint64_t i) {
            thread_local MoveList moves;
            const Position p = slice->index.unrank(i);
            const verify::StoredValues derived =
                verify::derive_from_successors<R>(p, moves, [&](const Position& q) { return full.at(q); });
            const bool capture = has_capture<R>(p);
            captures.fetch_add(capture, std::memory_order_relaxed);
            positions.fetch_add(1, std::memory_order_relaxed);
            const probe::Result white = tb->probe(p, probe::kAllMetrics);
            const probe::Result black = tb->probe(reversed<G>(p), probe::kAllMetrics);
            if (!same(derived, white)) report(p, "derived", derived, white);
            if (!same(derived, black)) report(reversed<G>(p), "derived", derived, black);
            for (const Position& x : {p, reversed<G>(p)}) {
                const probe::Result w = wdl_only->probe_wdl(x);
                if (!w.ok() || w.wdl != derived.wdl) report(x, "derived (WDL-only handle)", derived, w);
            }
            const verify::StoredValues stored{static_cast<Wdl>(slice->wdl[i]), slice->dtw[i], slice->dtc[i]};
            if (!capture && !same(stored, white)) report(p, "stored", stored, white);
        });
    }
    for (const std::string& r : reports) UNSCOPED_INFO(r);
    return {positions.load(), captures.load(), mismatches.load(), derived_slices};
}

}  // namespace

// Up to 3 pieces (and KKKvK) with --wdl compact, where some WDL tables are derived.
const std::filesystem::path& compact_tables(VariantId variant) {
    static const test::GeneratedTables international(VariantId::international, 3, {"KKKvK"}, gen::WdlStorage::compact);
    static const test::GeneratedTables turkish(VariantId::turkish, 3, {}, gen::WdlStorage::compact);
    return variant == VariantId::turkish ? turkish.dir() : international.dir();
}

TEST_CASE("probed values equal the derived ones for every position up to 3 pieces (international)",
          "[probe][plain-build]") {
    auto materials = all_materials<International>(3);
    materials.push_back(Material{3, 0, 1, 0});
    materials.push_back(Material{1, 0, 3, 0});
    SECTION("WDL of both sides stored (the default)") {
        const Counts c = check_every_position<International>(test::international_tables(), materials);
        CHECK(c.mismatches == 0);
        CHECK(c.captures > 0);
        CHECK(c.positions > 1000000);
        CHECK(c.derived_slices == 0);
    }
    SECTION("--wdl compact") {
        const Counts c = check_every_position<International>(compact_tables(VariantId::international), materials);
        CHECK(c.mismatches == 0);
        CHECK(c.positions > 1000000);
        CHECK(c.derived_slices > 0);  // the search road was taken
    }
}

// --wdl balanced (the default) with its size floor lowered from 1 MiB (which no table up to 4
// pieces reaches) to 1,400 bytes, so that it picks among the 3-piece tables: exactly the sides
// that gen::side_to_derive picks from the stored tables' sizes are derived, and every position
// probes right.
TEST_CASE("balanced WDL derives the sides its rule picks, and their positions probe right (international, 3 pieces)",
          "[probe]") {
    constexpr std::uint64_t kFloor = 1400;
    const test::GeneratedTables balanced(VariantId::international, 3, {}, gen::WdlStorage::balanced, kFloor);
    const std::filesystem::path stored = test::international_tables();  // no derived table: checked above
    int expected = 0;
    for (const Material& m : all_materials<International>(3)) {
        if (!may_derive_wdl(m)) continue;
        const auto bytes = [](const std::filesystem::path& dir, const Material& x) {
            return static_cast<std::uint64_t>(
                std::filesystem::file_size(dir / format::file_name(x.name(), format::Metric::wdl)));
        };
        const std::uint64_t mine = bytes(stored, m), mirror = bytes(stored, m.mirrored());
        // Up to 3 pieces no successor of a side the rule picks is picked too: all are derivable.
        const bool picked = gen::side_to_derive(gen::WdlStorage::balanced, {mine, mirror}, {true, true}, kFloor) == 0;
        expected += picked;
        const auto info = format::read_table_info(balanced.dir() / format::file_name(m.name(), format::Metric::wdl));
        REQUIRE(info.ok());
        INFO(m.name() << ": " << mine << " bytes stored, its mirror " << mirror);
        CHECK(info->derived() == picked);
    }
    CHECK(expected >= 1);  // the floor lets at least one side through
    const Counts c = check_every_position<International>(balanced.dir(), all_materials<International>(3));
    CHECK(c.mismatches == 0);
    CHECK(c.derived_slices == expected);
}

TEST_CASE("probed values equal the derived ones for every position up to 3 pieces (turkish)", "[probe]") {
    for (const auto& dir : {test::turkish_tables(), compact_tables(VariantId::turkish)}) {
        INFO(dir.string());
        const Counts c = check_every_position<Turkish>(dir, all_materials<Turkish>(3));
        CHECK(c.mismatches == 0);
        CHECK(c.captures > 0);
        CHECK((c.derived_slices > 0) == (dir == compact_tables(VariantId::turkish)));
    }
}

// 125 million positions, each probed twice and re-derived, in the fixture's set and in a compact
// one generated here: about 6 minutes (for each) on 2 busy cores (plus
// 2 x 1.5 minutes of generation without the ctest fixture). Run with "[.slow]".
template <class R>
void check_four_pieces() {
    std::filesystem::path dir = test::fixture_tables(R::kId);
    std::optional<test::GeneratedTables> generated;
    if (dir.empty()) dir = generated.emplace(R::kId, 4).dir();
    const Counts c = check_every_position<R>(dir, all_materials<R>(4));
    CHECK(c.mismatches == 0);
    const test::GeneratedTables compact(R::kId, 4, {}, gen::WdlStorage::compact);
    const Counts cc = check_every_position<R>(compact.dir(), all_materials<R>(4));
    CHECK(cc.mismatches == 0);
    CHECK(cc.derived_slices > 0);
}

TEST_CASE("probed values equal the derived ones for every position of 4 pieces", "[probe][.slow][plain-build]") {
    SECTION("international") {
        check_four_pieces<International>();
    }
    SECTION("turkish") {
        check_four_pieces<Turkish>();
    }
}

TEST_CASE("a derived WDL table whose successor is derived too is corrupt, never a wrong value", "[probe]") {
    namespace fs = std::filesystem;
    const test::TempDir temp("derived_chain");
    const fs::path& dir = temp.path;
    const fs::path tables = compact_tables(VariantId::international);
    for (const Material& m : all_materials<International>(3))
        for (auto metric : {format::Metric::wdl, format::Metric::dtw, format::Metric::dtc}) {
            const std::string name = format::file_name(m.name(), metric);
            fs::copy_file(tables / name, dir / name);
        }
    // A derived slice and its mirror, whose stored WDL is replaced by a derived table.
    std::optional<Material> derived;
    for (const Material& m : all_materials<International>(3)) {
        auto info = format::read_table_info(dir / format::file_name(m.name(), format::Metric::wdl));
        REQUIRE(info.ok());
        if (info->derived() && m.wm == 0) derived = m;
    }
    REQUIRE(derived);
    const Material mirror = derived->mirrored();
    auto info = format::read_table_info(dir / format::file_name(mirror.name(), format::Metric::wdl));
    REQUIRE(info.ok());
    REQUIRE(format::write_derived_table(dir / format::file_name(mirror.name(), format::Metric::wdl), *info,
                                        info->num_entries)
                .ok());
    probe::Options o;
    o.directories = {dir};
    o.metrics = probe::kWdl;
    auto tb = probe::Tablebase::open(o);
    REQUIRE(tb.ok());
    o.directories = {tables};
    auto good = probe::Tablebase::open(o);
    REQUIRE(good.ok());
    const SliceIndex<International> index(*derived);
    int corrupt = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position p = index.unrank(i);
        if (has_capture<International>(p)) continue;
        MoveList moves;
        generate_moves<International>(p, moves);
        if (moves.empty()) continue;
        // A move into a capture position of the mirror is still decided by its captures: a
        // value may come back, and then it is the right one.
        const probe::Result r = tb->probe_wdl(p);
        if (r.ok()) {
            CHECK(r.wdl == good->probe_wdl(p).wdl);
        } else {
            CHECK(r.status == probe::Status::corrupt);
            ++corrupt;
        }
    }
    CHECK(corrupt > 100);
    // And the verifier refuses the folder.
    verify::FullTables<International> full(dir);
    auto loaded = full.load(*derived);
    CHECK_FALSE(loaded.ok());
    if (!loaded) CHECK_THAT(loaded.error(), Catch::Contains("derived too"));
}

// A derived side's search reads its successors' entries in a batch (BlockCache::lookup_many);
// a block the batch did not find (evicted) is loaded without asking the cache again: every miss
// is one block read and cached.
TEST_CASE("derived WDL probes through a small cache count each block read once", "[probe]") {
    const std::filesystem::path dir = compact_tables(VariantId::international);
    probe::Options o;
    o.directories = {dir};
    o.variant = VariantId::international;
    o.cache_bytes = 40 << 10;  // a few 3-piece WDL blocks: the batch meets evicted blocks
    o.cache_shards = 1;
    o.metrics = probe::kWdl;
    auto tb = probe::Tablebase::open(o);
    REQUIRE(tb.ok());
    std::uint64_t probed = 0;
    for (const Material& m : all_materials<International>(3)) {
        auto info = format::read_table_info(dir / format::file_name(m.name(), format::Metric::wdl));
        REQUIRE(info.ok());
        if (!info->derived()) continue;
        const SliceIndex<International> index(m);
        for (std::uint64_t i = 0; i < index.size(); i += 7) {
            const probe::Result r = tb->probe_wdl(index.unrank(i));
            REQUIRE(r.ok());
            ++probed;
        }
    }
    const probe::CacheStats stats = tb->cache_stats();
    INFO(probed << " probes, " << stats.hits << " hits, " << stats.misses << " misses, " << stats.insertions
                << " insertions");
    CHECK(probed > 1000);
    CHECK(stats.insertions > 0);
    CHECK(stats.evictions > 100);
    CHECK(stats.misses == stats.insertions);  // one thread: each miss is one block read
}
