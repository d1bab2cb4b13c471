// The probe library against the generator's tables: every position of every slice, both sides to
// move, capture positions included, probed WDL/DTW/DTC equal gen::derive_from_successors over the
// stored tables (and the stored values themselves where the side to move has no capture).
#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <optional>
#include <sstream>

#include "gen/parallel.hpp"
#include "gen/verify.hpp"
#include "rules/fen.hpp"
#include "tests/gen_probe_support.hpp"

using namespace dtb;

namespace {

struct Counts {
    std::uint64_t positions = 0, captures = 0, mismatches = 0;
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
    gen::FullTables<R> full(dir);
    std::atomic<std::uint64_t> positions{0}, captures{0}, mismatches{0};
    std::mutex report_mutex;
    std::vector<std::string> reports;
    const auto report = [&](const Position& p, const char* what, const gen::StoredValues& want,
                            const probe::Result& got) {
        if (mismatches.fetch_add(1) >= 10) return;
        std::ostringstream s;
        s << to_fen<R>(p) << ": " << what << " " << to_string(want.wdl) << "/" << want.dtw << "/"
          << want.dtc << ", probed " << probe::to_string(got.status) << " " << to_string(got.wdl)
          << "/" << got.dtw << "/" << got.dtc;
        std::lock_guard lock(report_mutex);
        reports.push_back(s.str());
    };
    const auto same = [](const gen::StoredValues& a, const probe::Result& b) {
        return b.ok() && a.wdl == b.wdl && a.dtw == b.dtw && a.dtc == b.dtc;
    };
    for (const Material& m : materials) {
        INFO(m.name());
        auto self = full.load(m);
        REQUIRE(self.ok());
        for (const Material& x : gen::successor_materials(m)) REQUIRE(full.load(x).ok());
        const auto* slice = *self;
        // Many threads at once: the handle is shared, as the library allows.
        gen::parallel_for(slice->index.size(), [&](std::uint64_t i) {
            thread_local MoveList moves;
            const Position p = slice->index.unrank(i);
            const gen::StoredValues derived = gen::derive_from_successors<R>(
                p, moves, [&](const Position& q) { return full.at(q); });
            const bool capture = has_capture<R>(p);
            captures.fetch_add(capture, std::memory_order_relaxed);
            positions.fetch_add(1, std::memory_order_relaxed);
            const probe::Result white = tb->probe(p, probe::kAllMetrics);
            const probe::Result black = tb->probe(reversed<G>(p), probe::kAllMetrics);
            if (!same(derived, white)) report(p, "derived", derived, white);
            if (!same(derived, black)) report(reversed<G>(p), "derived", derived, black);
            const gen::StoredValues stored{static_cast<Wdl>(slice->wdl[i]), slice->dtw[i],
                                           slice->dtc[i]};
            if (!capture && !same(stored, white)) report(p, "stored", stored, white);
        });
    }
    for (const std::string& r : reports) UNSCOPED_INFO(r);
    return {positions.load(), captures.load(), mismatches.load()};
}

}  // namespace

TEST_CASE("probed values equal the derived ones for every position up to 3 pieces (international)",
          "[probe]") {
    auto materials = all_materials<International>(3);
    materials.push_back(Material{3, 0, 1, 0});
    materials.push_back(Material{1, 0, 3, 0});
    const Counts c = check_every_position<International>(test::international_tables(), materials);
    CHECK(c.mismatches == 0);
    CHECK(c.captures > 0);
    CHECK(c.positions > 1000000);
}

TEST_CASE("probed values equal the derived ones for every position up to 3 pieces (turkish)",
          "[probe]") {
    const Counts c =
        check_every_position<Turkish>(test::turkish_tables(), all_materials<Turkish>(3));
    CHECK(c.mismatches == 0);
    CHECK(c.captures > 0);
}

// 125 million positions, each probed twice and re-derived: about 6 minutes on 2 busy cores (plus
// 2 x 1.5 minutes of generation without the ctest fixture). Run with "[.slow]".
template <class R>
void check_four_pieces() {
    std::filesystem::path dir = test::fixture_tables(R::kId);
    std::optional<test::GeneratedTables> generated;
    if (dir.empty()) dir = generated.emplace(R::kId, 4).dir();
    const Counts c = check_every_position<R>(dir, all_materials<R>(4));
    CHECK(c.mismatches == 0);
}

TEST_CASE("probed values equal the derived ones for every position of 4 pieces", "[probe][.slow]") {
    SECTION("international") {
        check_four_pieces<International>();
    }
    SECTION("turkish") {
        check_four_pieces<Turkish>();
    }
}
