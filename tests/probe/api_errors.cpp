// The probe API on synthetic tables (tests/support/probe_api_support.hpp): values come back for either
// side to move, and every kind of trouble (missing table or metric, truncated file, flipped byte,
// illegal position, foreign variant, cache-only miss) is a clear status, never a wrong value.
#include <catch2/catch.hpp>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "tests/support/probe_api_support.hpp"

using namespace dtb;
using namespace dtb::probe;
using test::ScratchDir;
using test::synthetic_value;

namespace {

// Checks every position of the slice m (White to move, and the same value through the reversed,
// Black-to-move form) whose side to move has no capture against the synthetic values.
template <class R>
int check_slice(const Tablebase& tb, const Material& m) {
    using G = typename R::Geometry;
    const SliceIndex<R> index(m);
    int checked = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position p = index.unrank(i);
        if (has_capture<R>(p)) continue;
        const auto want = synthetic_value(m, i);
        for (const Position& q : {p, reversed<G>(p)}) {
            const Result r = tb.probe(q, kAllMetrics);
            REQUIRE(r.ok());
            REQUIRE(static_cast<int>(r.wdl) == want.wdl);
            REQUIRE(r.dtw == want.dtw);
            REQUIRE(r.dtc == want.dtc);
        }
        ++checked;
    }
    return checked;
}

template <class R>
Position first_quiet_position(const Material& m, std::uint64_t start = 0) {
    const SliceIndex<R> index(m);
    for (std::uint64_t i = start; i < index.size(); ++i)
        if (!has_capture<R>(index.unrank(i))) return index.unrank(i);
    FAIL("no position without a capture in " << m.name());
    return {};
}

}  // namespace

TEST_CASE("probe returns the stored values of positions without captures, either side to move", "[probe]") {
    ScratchDir dir("values");
    test::write_synthetic_tables<International>(dir.path / "i", 3);
    test::write_synthetic_tables<Turkish>(dir.path / "t", 3);
    auto intl = Tablebase::open(test::options_for(dir.path / "i", VariantId::international, 256 << 10));
    auto turk = Tablebase::open(test::options_for(dir.path / "t", VariantId::turkish, 256 << 10));
    REQUIRE(intl.ok());
    REQUIRE(turk.ok());
    CHECK(intl->max_pieces() == 3);
    for (const Material& m : all_materials<International>(3)) CHECK(check_slice<International>(*intl, m) > 0);
    for (const Material& m : all_materials<Turkish>(3)) CHECK(check_slice<Turkish>(*turk, m) > 0);
    CHECK(intl->cache_stats().evictions > 0);  // 256 KB is far less than the tables
}

TEST_CASE("open refuses no folder, a missing folder, and a folder without tables", "[probe]") {
    ScratchDir dir("open");
    Options o;
    CHECK_FALSE(Tablebase::open(o).ok());
    o.directories = {dir.path / "nowhere"};
    auto r = Tablebase::open(o);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Catch::Contains("nowhere"));
    o.directories = {dir.path};
    r = Tablebase::open(o);
    REQUIRE_FALSE(r.ok());
    CHECK_THAT(r.error(), Catch::Contains("no international tables"));
}

TEST_CASE("a slice without a table is missing, a capture into available slices still resolves", "[probe]") {
    ScratchDir dir("missing");
    test::write_synthetic_tables<International>(dir.path, 2);
    auto tb = Tablebase::open(test::options_for(dir.path, VariantId::international));
    REQUIRE(tb.ok());
    CHECK(tb->max_pieces() == 2);
    // KKvK without a capture: missing, and the message names the table.
    const Position quiet = *parse_fen<International>("W:WK1,K2:BK50");
    Result r = tb->probe_wdl(quiet);
    CHECK(r.status == Status::missing);
    CHECK(r.slice == Material{2, 0, 1, 0});
    CHECK_THAT(tb->explain(r), Catch::Contains("KKvK.wdl"));
    // A 6-piece position: missing too (not illegal), however many pieces.
    r = tb->probe_wdl(*parse_fen<International>("W:W31,32,33:B1,2,3"));
    CHECK(r.status == Status::missing);
    // White must capture 28x19 (or 28x14, 28x10, 28x5): KvK afterwards, which exists, so the
    // KvKM table is not needed.
    r = tb->probe_dtw(*parse_fen<International>("W:WK28:B23,K40"));
    CHECK(r.ok());
    // Capturing the last piece wins at once.
    const Position capture = *parse_fen<International>("W:WK28:BK23");
    r = tb->probe(capture, kAllMetrics);
    REQUIRE(r.ok());
    CHECK(r.wdl == Wdl::win);  // capturing the last piece
    CHECK(r.dtw == 1);
    CHECK(r.dtc == 1);
}

TEST_CASE("one metric's file missing: that metric is missing, the others still work", "[probe]") {
    ScratchDir dir("metric");
    test::write_synthetic_tables<International>(dir.path, 2);
    std::filesystem::remove(dir.path / "KvK.dtw");
    auto tb = Tablebase::open(test::options_for(dir.path, VariantId::international));
    REQUIRE(tb.ok());
    const Position p = first_quiet_position<International>(Material{1, 0, 1, 0});
    CHECK(tb->probe_wdl(p).ok());
    CHECK(tb->probe_dtc(p).ok());
    const Result r = tb->probe_dtw(p);
    CHECK(r.status == Status::missing);
    CHECK(r.metric == format::Metric::dtw);
    CHECK_THAT(tb->explain(r), Catch::Contains("KvK.dtw"));
}

TEST_CASE("a truncated table is corrupt, and only that table", "[probe]") {
    ScratchDir dir("truncated");
    test::write_synthetic_tables<International>(dir.path, 3);
    const auto path = dir.path / "KKvK.wdl";
    const std::string bytes = test::slurp(path);
    const Position in_kkvk = first_quiet_position<International>(Material{2, 0, 1, 0});
    const Position in_kvk = first_quiet_position<International>(Material{1, 0, 1, 0});
    for (std::size_t keep : {bytes.size() - 1, bytes.size() / 2, std::size_t{10}, std::size_t{0}}) {
        INFO("kept " << keep << " of " << bytes.size() << " bytes");
        test::spit(path, bytes.substr(0, keep));
        auto tb = Tablebase::open(test::options_for(dir.path, VariantId::international));
        REQUIRE(tb.ok());
        const Result r = tb->probe_wdl(in_kkvk);
        CHECK(r.status == Status::corrupt);
        CHECK_THAT(tb->explain(r), Catch::Contains("KKvK.wdl"));
        CHECK(tb->probe_wdl(in_kkvk).status == Status::corrupt);  // stays corrupt
        CHECK(tb->probe_wdl(in_kvk).ok());
    }
}

TEST_CASE("a flipped byte in a block: corrupt for that block, right values elsewhere", "[probe]") {
    ScratchDir dir("flipped");
    test::write_synthetic_tables<International>(dir.path, 3, 256);
    const Material m{2, 0, 1, 0};
    const SliceIndex<International> index(m);
    for (const char* name : {"KKvK.wdl", "KKvK.dtw", "KKvK.dtc"}) {
        INFO(name);
        const auto path = dir.path / name;
        const std::string original = test::slurp(path);
        auto reader = format::TableReader::open(path, VariantId::international, rules_fingerprint<International>());
        REQUIRE(reader.ok());
        const std::uint64_t payload = 72 + 20 * reader->info().num_blocks;
        REQUIRE(reader->info().num_blocks > 4);
        std::string damaged = original;
        damaged[payload + (original.size() - 16 - payload) / 2] ^= 0x10;
        test::spit(path, damaged);
        auto tb = Tablebase::open(test::options_for(dir.path, VariantId::international));
        REQUIRE(tb.ok());
        int corrupt = 0, ok = 0;
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position p = index.unrank(i);
            if (has_capture<International>(p)) continue;
            const Result r = tb->probe(p, kAllMetrics);
            if (r.status == Status::corrupt) {
                ++corrupt;
                CHECK_THAT(tb->explain(r), Catch::Contains("corrupt"));
                continue;
            }
            REQUIRE(r.ok());
            const auto want = synthetic_value(m, i);
            REQUIRE(static_cast<int>(r.wdl) == want.wdl);
            REQUIRE(r.dtw == want.dtw);
            REQUIRE(r.dtc == want.dtc);
            ++ok;
        }
        CHECK(corrupt > 0);
        CHECK(ok > corrupt);
        test::spit(path, original);
    }
}

TEST_CASE("a table of the other variant is refused as corrupt", "[probe]") {
    ScratchDir dir("variant");
    test::write_synthetic_tables<Turkish>(dir.path, 2);
    auto tb = Tablebase::open(test::options_for(dir.path, VariantId::international));
    REQUIRE(tb.ok());  // names alone look right
    const Result r = tb->probe_wdl(*parse_fen<International>("W:WK1:BK50"));
    CHECK(r.status == Status::corrupt);
    CHECK_THAT(tb->explain(r), Catch::Contains("variant"));
}

TEST_CASE("positions that cannot be probed are illegal, with a reason", "[probe]") {
    ScratchDir dir("illegal");
    test::write_synthetic_tables<International>(dir.path, 2);
    test::write_synthetic_tables<Turkish>(dir.path / "t", 2);
    auto tb = Tablebase::open(test::options_for(dir.path, VariantId::international));
    auto tt = Tablebase::open(test::options_for(dir.path / "t", VariantId::turkish));
    REQUIRE(tb.ok());
    REQUIRE(tt.ok());
    using G = International::Geometry;
    const auto sq = [](int n) { return bit(G::bit_of_dense(n - 1)); };
    auto expect_illegal = [&](const Tablebase& t, const Position& p, const char* words) {
        const Result r = t.probe(p, kAllMetrics);
        CHECK(r.status == Status::illegal);
        REQUIRE(r.reason != nullptr);
        CHECK_THAT(std::string(r.reason), Catch::Contains(words));
        CHECK_THAT(t.explain(r), Catch::Contains(words));
    };
    Position p;
    p.pieces[0] = sq(3);  // a white man on 3: White's promotion row
    p.pieces[1] = sq(50) | sq(49);
    p.kings = sq(50);
    expect_illegal(*tb, p, "promotion row");
    p.pieces[0] = sq(50);
    expect_illegal(*tb, p, "each colour");
    p.pieces[0] = sq(30);
    p.pieces[1] = 0;
    p.kings = 0;
    expect_illegal(*tb, p, "game is over");
    p.pieces[0] = 0;
    expect_illegal(*tb, p, "no pieces");
    p.pieces[0] = bit(10);  // the ghost bit after square 10
    p.pieces[1] = sq(50);
    expect_illegal(*tb, p, "off the playable");
    // Turkish: a white man on its own back row (men never move backward).
    Position t;
    t.pieces[0] = bit(3);  // d1
    t.pieces[1] = bit(60);
    t.kings = bit(60);
    expect_illegal(*tt, t, "back row");
    // The side to move without pieces has lost; no table is needed.
    Position lost;
    lost.pieces[1] = sq(20);
    const Result r = tb->probe(lost, kAllMetrics);
    REQUIRE(r.ok());
    CHECK(r.wdl == Wdl::loss);
    CHECK(r.dtw == 0);
    CHECK(r.dtc == 0);
}

TEST_CASE("a WDL-only handle never opens .dtw or .dtc files", "[probe]") {
    ScratchDir dir("wdlonly");
    test::write_synthetic_tables<International>(dir.path, 3);
    for (const auto& e : std::filesystem::directory_iterator(dir.path))
        if (e.path().extension() != ".wdl") test::spit(e.path(), "not a table");
    auto tb = Tablebase::open(test::options_for(dir.path, VariantId::international, 1 << 20, kWdl));
    REQUIRE(tb.ok());
    CHECK(tb->metrics() == kWdl);
    for (const Material& m : all_materials<International>(3)) {
        const SliceIndex<International> index(m);
        for (std::uint64_t i = 0; i < index.size(); i += 7) {
            const Position p = index.unrank(i);
            const Result r = tb->probe_wdl(p);
            REQUIRE(r.ok());
            if (!has_capture<International>(p)) REQUIRE(static_cast<int>(r.wdl) == synthetic_value(m, i).wdl);
        }
    }
    const Position p = first_quiet_position<International>(Material{1, 0, 1, 0});
    const Result r = tb->probe_dtw(p);
    CHECK(r.status == Status::missing);
    CHECK_THAT(tb->explain(r), Catch::Contains("not enabled"));
    CHECK(tb->probe_dtc(p).status == Status::missing);
    const auto opened = tb->tables_opened();
    CHECK(opened[0] > 0);
    CHECK(opened[1] == 0);
    CHECK(opened[2] == 0);
    // The same files through a handle with every metric: the garbage is found, not used.
    auto all = Tablebase::open(test::options_for(dir.path, VariantId::international));
    REQUIRE(all.ok());
    CHECK(all->probe_dtw(p).status == Status::corrupt);
}

TEST_CASE("cache-only probes answer from memory or say not cached", "[probe]") {
    ScratchDir dir("cacheonly");
    test::write_synthetic_tables<International>(dir.path, 3);
    auto tb = Tablebase::open(test::options_for(dir.path, VariantId::international));
    REQUIRE(tb.ok());
    const Material m{1, 1, 1, 0};
    const SliceIndex<International> index(m);
    const Position p = first_quiet_position<International>(m);
    Result r = tb->probe(p, kAllMetrics, Access::cache_only);
    CHECK(r.status == Status::not_cached);
    CHECK(tb->tables_opened() == std::array<int, format::kNumMetrics>{});  // not even opened
    REQUIRE(tb->probe(p, kWdl).ok());
    r = tb->probe(p, kWdl, Access::cache_only);
    REQUIRE(r.ok());
    CHECK(static_cast<int>(r.wdl) == synthetic_value(m, index.rank(p)).wdl);
    CHECK(tb->probe(p, kAllMetrics, Access::cache_only).status == Status::not_cached);  // DTW not read yet
    REQUIRE(tb->probe(p, kAllMetrics).ok());
    r = tb->probe(reversed<International::Geometry>(p), kAllMetrics, Access::cache_only);
    REQUIRE(r.ok());
    CHECK(r.dtw == synthetic_value(m, index.rank(p)).dtw);
}

TEST_CASE("the block cache keeps within its budget and gives hit blocks a second chance", "[probe]") {
    BlockCache cache(4 * BlockCache::charge(100), 1);
    const auto block = [](std::uint16_t v) {
        std::vector<std::uint16_t> values(400, v);
        return PackedBlock::pack(values.data(), values.size(), 2);  // 100 bytes
    };
    for (std::uint16_t b = 0; b < 4; ++b) CHECK(cache.insert({1, b}, block(b), 5) == b);
    CHECK(cache.stats().blocks == 4);
    // Over budget: the sweep clears every mark and evicts one of the old blocks.
    CHECK(cache.insert({1, 4}, block(3), 399) == 3);
    CacheStats s = cache.stats();
    CHECK(s.blocks == 4);
    CHECK(s.evictions == 1);
    CHECK(s.bytes <= s.budget);
    CHECK(cache.contains({1, 4}));
    std::vector<std::uint64_t> old;
    for (std::uint64_t b = 0; b < 4; ++b)
        if (cache.contains({1, b})) old.push_back(b);
    REQUIRE(old.size() == 3);
    // A hit marks old[1]; the next eviction takes an unmarked old block, never old[1] or 4.
    CHECK(cache.lookup({1, old[1]}, 17) == std::optional<std::uint16_t>(static_cast<std::uint16_t>(old[1])));
    cache.insert({1, 5}, block(1), 0);
    CHECK(cache.contains({1, old[1]}));
    CHECK(cache.contains({1, 4}));
    CHECK(cache.contains({1, 5}));
    CHECK(cache.contains({1, old[0]}) != cache.contains({1, old[2]}));
    s = cache.stats();
    CHECK(s.blocks == 4);
    CHECK(s.evictions == 2);
    CHECK(s.bytes <= s.budget);
    CHECK_FALSE(cache.lookup({2, 0}, 0).has_value());
    // Packing round trip at every width.
    for (int bits : {2, 4, 8, 16}) {
        std::vector<std::uint16_t> v(333);
        for (std::size_t j = 0; j < v.size(); ++j)
            v[j] = static_cast<std::uint16_t>((j * 2654435761u) & ((1u << bits) - 1));
        const PackedBlock pb = PackedBlock::pack(v.data(), v.size(), bits);
        for (std::size_t j = 0; j < v.size(); ++j) REQUIRE(pb.get(j) == v[j]);
    }
}
