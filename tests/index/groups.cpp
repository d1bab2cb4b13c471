// Retrograde groups: every non-promoting man step (computed here from the geometry, not the move
// generator) stays in its group when sideways and otherwise reaches a group of higher advancement,
// which the documented order (decreasing advancement) solves earlier. Groups partition the slice.
#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "dtb/index/slice_index.hpp"
#include "dtb/rules/variant.hpp"

using namespace dtb;

namespace {

template <class R>
void check_steps(const Material& m) {
    using G = typename R::Geometry;
    INFO(R::kName << " " << m.name());
    const SliceIndex<R> idx(m);
    std::uint64_t bad = 0, sideways = 0, forward = 0;
    std::string first;
    auto fail = [&](std::uint64_t i, const char* what) {
        if (bad++ == 0) first = std::string(what) + " from index " + std::to_string(i);
    };
    for (std::uint64_t i = 0; i < idx.size(); ++i) {
        const Position p = idx.unrank(i);
        const std::uint64_t g = idx.group_of(i);
        const int a = idx.group_advancement(g);
        if (a != idx.advancement(i / idx.kings_per_config())) fail(i, "group advancement differs");
        for (int colour = 0; colour < 2; ++colour) {
            const Color c = colour == 0 ? Color::white : Color::black;
            const int promotion_rank = colour == 0 ? G::kHeight - 1 : 0;
            for (int s : bits(p.men(c)))
                for (Dir d : R::kManStepDirs) {
                    const int t = G::neighbor(s, colour == 0 ? d : rotated(d));
                    if (t < 0 || (p.occupied() & bit(t)) || G::rank(t) == promotion_rank) continue;
                    Position q = p;
                    q.pieces[colour] ^= bit(s) | bit(t);
                    if (!is_indexable<R>(q)) {
                        fail(i, "a step leaves the index");
                        continue;
                    }
                    const std::uint64_t h = idx.group_of(idx.rank(q));
                    if (dir_rank_step(d) == 0) {
                        ++sideways;
                        if (h != g) fail(i, "a sideways step changes the group");
                    } else {
                        ++forward;
                        if (idx.group_advancement(h) != a + 1) fail(i, "a forward step does not advance by 1");
                    }
                }
        }
    }
    INFO(first);
    CHECK(bad == 0);
    CHECK(forward > 0);
    CHECK((sideways > 0) == SliceIndex<R>::kRowGroups);
}

template <class R>
void check_partition(const Material& m) {
    INFO(R::kName << " " << m.name());
    const SliceIndex<R> idx(m);
    std::vector<std::uint8_t> seen(idx.num_men_configs());
    std::uint64_t bad = 0;
    for (std::uint64_t g = 0; g < idx.num_groups(); ++g)
        idx.for_each_men_config_in_group(g, [&](std::uint64_t c) {
            if (c >= seen.size() || seen[c]++ != 0 || idx.group_of_men_config(c) != g ||
                idx.advancement(c) != idx.group_advancement(g))
                ++bad;
        });
    CHECK(bad == 0);
    std::uint64_t missing = 0;
    for (auto s : seen) missing += s != 1;
    CHECK(missing == 0);
}

}  // namespace

TEST_CASE("man steps stay in the group or reach a group solved earlier", "[index][groups]") {
    for (const Material& m : all_materials<International>(3))
        if (m.men() > 0) check_steps<International>(m);
    for (const Material& m : all_materials<Turkish>(3))
        if (m.men() > 0) check_steps<Turkish>(m);
    check_steps<Turkish>(Material{0, 2, 0, 2});
}

TEST_CASE("groups partition the men configurations", "[index][groups]") {
    STATIC_REQUIRE(SliceIndex<Turkish>::kRowGroups);
    STATIC_REQUIRE_FALSE(SliceIndex<International>::kRowGroups);
    for (const Material& m : all_materials<International>(4)) check_partition<International>(m);
    for (const Material& m : all_materials<Turkish>(4)) check_partition<Turkish>(m);
    const SliceIndex<International> i(Material{0, 2, 1, 1});
    CHECK(i.num_groups() == i.num_men_configs());
    CHECK(i.group_of(12345) == 12345 / i.kings_per_config());
}
