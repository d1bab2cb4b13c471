// The solver's in-memory results against what the driver wrote: reading every generated file
// back gives exactly the values computed in memory.
#include <unistd.h>

#include <catch2/catch.hpp>

#include "gen/finished_tables.hpp"
#include "gen/slice_solver.hpp"
#include "tests/gen_support.hpp"

using namespace dtb;

template <class R>
void check_read_back(int pieces) {
    const auto& dir = test::generated_tables<R>(pieces);
    gen::FinishedTables<R> finished(dir);
    gen::FullTables<R> files(dir);
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.mirrored() < m) continue;  // each pair once
        for (const Material& x : gen::successor_materials(m))
            if (x != m.mirrored()) REQUIRE(finished.load(x).ok());
        for (const Material& x : gen::successor_materials(m.mirrored()))
            if (x != m) REQUIRE(finished.load(x).ok());
        gen::SliceSolver<R> solver(m, [&](const Position& p) { return finished.value(p); });
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
