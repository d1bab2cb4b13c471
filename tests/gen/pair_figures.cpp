// gen/pair_figures.hpp: the counts dtb plan makes without enumerating, against the index and the
// generator that enumerate (SliceIndex, SliceSolver::largest_level, run_pairs).
#include "dtb/gen/pair_figures.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "dtb/gen/pair_memory.hpp"
#include "dtb/gen/pair_worker.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "dtb/index/slice_index.hpp"

using namespace dtb;
using namespace dtb::gen;

namespace {

template <class R>
void check_slices(int max_pieces) {
    for (const Material& m : all_materials<R>(max_pieces)) {
        INFO(m.name());
        const SliceIndex<R> index(m);
        const SliceCounts c = slice_counts(R::kId, m);
        CHECK(c.entries == index.size());
        CHECK(c.positions == index.num_positions());
        CHECK(c.kings_per_config == index.kings_per_config());
    }
}

template <class R>
void check_largest_levels(int max_pieces) {
    auto figures = pair_figures(R::kId, max_pieces);
    REQUIRE(figures);
    for (const PairFigures& f : *figures) {
        INFO(f.material.name());
        CHECK(f.largest_level == SliceSolver<R>::largest_level(f.material));
    }
}

// needs_of(pair_figures) against run_pairs, which builds every index and enumerates every level.
template <class R>
void check_needs(int max_pieces) {
    GenerateOptions o;
    o.variant = R::kId;
    o.max_pieces = max_pieces;
    o.out_dir = std::filesystem::temp_directory_path() / "dtb_pair_figures_no_such_folder";
    auto expected = run_pairs(o);
    REQUIRE(expected);
    auto figures = pair_figures(R::kId, max_pieces);
    REQUIRE(figures);
    const std::vector<PairNeeds> needs = needs_of(*figures);
    REQUIRE(needs.size() == expected->size());
    for (std::size_t p = 0; p < needs.size(); ++p) {
        INFO((*expected)[p].name);
        CHECK(needs[p].name == (*expected)[p].name);
        CHECK(needs[p].positions == (*expected)[p].positions);
        CHECK(needs[p].whole_bytes == (*expected)[p].whole_bytes);
        CHECK(needs[p].level_bytes == (*expected)[p].level_bytes);
        CHECK(needs[p].inputs == (*expected)[p].inputs);
        CHECK((*figures)[p].entries == entries_of_pair<R>((*figures)[p].material));
    }
}

}  // namespace

TEST_CASE("slice counts equal the index's, every slice up to 6 pieces", "[pair_figures]") {
    check_slices<International>(6);
    check_slices<Turkish>(6);
}

TEST_CASE("the largest level counted equals SliceSolver's, every pair up to 5 pieces", "[pair_figures]") {
    check_largest_levels<International>(5);
    check_largest_levels<Turkish>(5);
}

TEST_CASE("the largest level counted equals SliceSolver's, every international pair of 6 pieces",
          "[pair_figures][.slow]") {
    check_largest_levels<International>(6);
}

TEST_CASE("what the schedule needs of each pair equals run_pairs', up to 5 pieces", "[pair_figures]") {
    check_needs<International>(5);
    check_needs<Turkish>(5);
}

TEST_CASE("8-piece figures are counted, not enumerated", "[pair_figures]") {
    for (VariantId v : {VariantId::international, VariantId::turkish}) {
        auto figures = pair_figures(v, 8);
        REQUIRE(figures);
        std::uint64_t largest = 0;
        for (const PairFigures& f : *figures) {
            INFO(f.material.name());
            CHECK(f.positions >= f.entries);
            CHECK(f.largest_level <= f.entries);
            CHECK(f.whole_bytes > f.input_bytes);
            largest = std::max(largest, f.positions);
        }
        CHECK(largest > std::uint64_t{100'000'000'000});
    }
    CHECK_FALSE(pair_figures(VariantId::international, 9));
    CHECK_FALSE(pair_figures(VariantId::international, 1));
}
