// The solver's in-memory results against what the driver wrote: reading every generated file
// back gives exactly the values computed in memory.
#include <unistd.h>

#include <catch2/catch.hpp>

#include "gen/finished_tables.hpp"
#include "gen/slice_solver.hpp"
#include "tests/gen_support.hpp"

using namespace dtb;

// Loads the finished slices that the pair of m reads (its captures and promotions).
template <class R>
void load_inputs(gen::FinishedTables<R>& finished, const Material& m) {
    for (const Material& x : gen::successor_materials(m))
        if (x != m.mirrored()) REQUIRE(finished.load(x).ok());
    for (const Material& x : gen::successor_materials(m.mirrored()))
        if (x != m) REQUIRE(finished.load(x).ok());
}

template <class R>
void check_read_back(int pieces) {
    const auto& dir = test::generated_tables<R>(pieces);
    gen::FinishedTables<R> finished(dir);
    gen::FullTables<R> files(dir);
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.mirrored() < m) continue;  // each pair once
        load_inputs(finished, m);
        gen::SliceSolver<R> solver(m, finished.external());
        solver.solve();
        for (int s = 0; s < solver.num_sides(); ++s) {
            const auto& side = solver.side(s);
            INFO(side.index.material().name());
            const auto* stored = *files.load(side.index.material());
            REQUIRE(stored->wdl.size() == side.value.size());
            std::uint64_t differ = 0;
            for (std::uint64_t i = 0; i < side.value.size(); ++i) {
                differ += stored->wdl[i] != static_cast<std::uint16_t>(wdl_of(side.value[i]));
                differ += stored->dtw[i] != distance_of(side.value[i]);
                differ += stored->dtc[i] != side.dtc[i];
            }
            CHECK(differ == 0);
        }
    }
}

TEST_CASE("files read back equal the in-memory solution (international, up to 3 pieces)", "[gen]") {
    check_read_back<International>(3);
}

TEST_CASE("files read back equal the in-memory solution (turkish, up to 3 pieces)", "[gen]") {
    check_read_back<Turkish>(3);
}

// Solving by advancement levels (man moves as exits into the level above) gives the same values
// and DTC as solving the whole pair at once, for every international pair up to `pieces`; returns
// the number of pairs with men (more than one level).
int check_levels(int pieces) {
    using R = International;
    const auto& dir = test::generated_tables<R>(pieces);
    gen::FinishedTables<R> finished(dir);
    int pairs_with_levels = 0;
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.mirrored() < m) continue;  // each pair once
        load_inputs(finished, m);
        INFO(m.name());
        const gen::ExternalTables lookup = finished.external();
        gen::SliceSolver<R> whole(m, lookup), levels(m, lookup);
        whole.solve();
        levels.solve_by_levels();
        if (m.men() > 0) ++pairs_with_levels;
        for (int s = 0; s < whole.num_sides(); ++s) {
            const auto& a = whole.side(s);
            const auto& b = levels.side(s);
            REQUIRE(a.value.size() == b.value.size());
            std::uint64_t differ = 0;
            for (std::uint64_t i = 0; i < a.value.size(); ++i)
                differ += (a.value[i] != b.value[i]) + (a.dtc[i] != b.dtc[i]) + (a.capture[i] != b.capture[i]);
            CHECK(differ == 0);
        }
    }
    return pairs_with_levels;
}

TEST_CASE("solving by levels equals solving whole (international, up to 3 pieces)", "[gen]") {
    CHECK(check_levels(3) >= 5);
}

TEST_CASE("solving by levels equals solving whole (international, up to 4 pieces)", "[gen]") {
    CHECK(check_levels(4) >= 15);
}
