// The solver's in-memory results against what the driver wrote: reading every generated file
// back gives exactly the values computed in memory.
#include <unistd.h>

#include <catch2/catch.hpp>

#include "dtb/gen/finished_tables.hpp"
#include "dtb/gen/pair_memory.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "tests/support/gen_support.hpp"

using namespace dtb;

// Loads the finished slices that the pair of m reads (its captures and promotions).
template <class R>
void load_inputs(gen::FinishedTables<R>& finished, const Material& m) {
    for (const Material& x : verify::successor_materials(m))
        if (x != m.mirrored()) REQUIRE(finished.load(x).ok());
    for (const Material& x : verify::successor_materials(m.mirrored()))
        if (x != m) REQUIRE(finished.load(x).ok());
}

template <class R>
void check_read_back(int pieces,
                     typename gen::SliceSolver<R>::WinSteps win_steps = gen::SliceSolver<R>::WinSteps::by_cost) {
    const auto& dir = test::generated_tables<R>(pieces);
    gen::MappingCache cache;
    gen::FinishedTables<R> finished(dir, cache);
    verify::FullTables<R> files(dir);
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.mirrored() < m) continue;  // each pair once
        load_inputs(finished, m);
        gen::SliceSolver<R> solver(m, cache, finished.external());
        solver.set_win_steps(win_steps);
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

// Positions of a solver side whose value, DTC or capture flag differs from these arrays' entries.
template <class Side, class Values, class Dtc, class Captures>
std::uint64_t differences(const Side& a, const Values& value, const Dtc& dtc, const Captures& capture) {
    std::uint64_t differ = 0;
    for (std::uint64_t i = 0; i < a.value.size(); ++i)
        differ += (a.value[i] != value[i]) + (a.dtc[i] != dtc[i]) + (a.capture[i] != capture[i]);
    return differ;
}

// Solving by advancement levels (forward man moves as exits into the level above; a Turkish man's
// sideways steps stay inside, as they keep its row) gives the same values and DTC as solving the
// whole pair at once, for every pair up to `pieces`; returns the number of pairs with men (more
// than one level).
template <class R>
int check_levels(int pieces) {
    const auto& dir = test::generated_tables<R>(pieces);
    gen::MappingCache cache;
    gen::FinishedTables<R> finished(dir, cache);
    int pairs_with_levels = 0;
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.mirrored() < m) continue;  // each pair once
        load_inputs(finished, m);
        INFO(m.name());
        const gen::ExternalTables lookup = finished.external();
        gen::SliceSolver<R> whole(m, cache, lookup), levels(m, cache, lookup);
        whole.solve();
        levels.solve_by_levels();
        if (m.men() > 0) ++pairs_with_levels;
        for (int s = 0; s < whole.num_sides(); ++s) {
            const auto& a = whole.side(s);
            const auto& b = levels.side(s);
            REQUIRE(a.value.size() == b.value.size());
            CHECK(differences(a, b.value, b.dtc, b.capture) == 0);
        }
    }
    return pairs_with_levels;
}

TEST_CASE("solving by levels equals solving whole (international, up to 3 pieces)", "[gen]") {
    CHECK(check_levels<International>(3) >= 5);
}

TEST_CASE("solving by levels equals solving whole (international, up to 4 pieces)", "[gen][plain-build]") {
    CHECK(check_levels<International>(4) >= 15);
}

TEST_CASE("solving by levels equals solving whole (turkish, up to 3 pieces)", "[gen]") {
    CHECK(check_levels<Turkish>(3) >= 5);
}

TEST_CASE("solving by levels equals solving whole (turkish, up to 4 pieces)", "[gen][plain-build]") {
    CHECK(check_levels<Turkish>(4) >= 15);
}

// Solving by blocks (the same levels, each with arrays of its own, finished levels kept
// compressed) gives the same values, DTC and capture flags as solving whole, read back side by
// side from the block store and gathered whole again; returns the number of pairs with men.
// max_block_entries: levels larger than that are split into groups of phases (0: none).
template <class R>
int check_blocks(int pieces, std::uint64_t max_block_entries = 0) {
    using Kind = typename gen::SolverBlocks<R>::Kind;
    const auto& dir = test::generated_tables<R>(pieces);
    gen::MappingCache cache;
    gen::FinishedTables<R> finished(dir, cache);
    int pairs_with_blocks = 0;
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.mirrored() < m || m.men() == 0) continue;  // each pair with men once
        load_inputs(finished, m);
        INFO(m.name());
        const gen::ExternalTables lookup = finished.external();
        gen::SliceSolver<R> whole(m, cache, lookup), blocks(m, cache, lookup);
        whole.solve();
        blocks.solve_by_blocks({}, max_block_entries);
        REQUIRE(blocks.solved_by_blocks());
        ++pairs_with_blocks;
        CHECK(blocks.block_store_bytes() > 0);
        CHECK(blocks.largest_block() < gen::entries_of_pair<R>(m));
        for (int s = 0; s < whole.num_sides(); ++s) {
            const auto& a = whole.side(s);
            const auto value = blocks.template gathered<ValueCode>(s, Kind::kValue);
            const auto dtc = blocks.template gathered<std::uint16_t>(s, Kind::kDtc);
            const auto capture = blocks.template gathered<std::uint8_t>(s, Kind::kCapture);
            REQUIRE(value.size() == a.value.size());
            CHECK(differences(a, value, dtc, capture) == 0);
        }
        blocks.gather_whole();
        CHECK(!blocks.solved_by_blocks());
        for (int s = 0; s < whole.num_sides(); ++s) {
            const auto& a = whole.side(s);
            const auto& b = blocks.side(s);
            REQUIRE(b.value.size() == a.value.size());
            CHECK(differences(a, b.value, b.dtc, b.capture) == 0);
        }
    }
    return pairs_with_blocks;
}

TEST_CASE("solving by blocks equals solving whole (international, up to 3 pieces)", "[gen]") {
    CHECK(check_blocks<International>(3) >= 5);
}

// Every pair up to 4 pieces (about 3 minutes): the CI runs `dtb gen --blocks` on the largest 4-piece
// pairs instead (tests/tools/gen.cpp).
TEST_CASE("solving by blocks equals solving whole (international, up to 4 pieces)", "[gen][.slow]") {
    CHECK(check_blocks<International>(4) >= 15);
}

TEST_CASE("solving by blocks equals solving whole (turkish, up to 3 pieces)", "[gen]") {
    CHECK(check_blocks<Turkish>(3) >= 5);
}

TEST_CASE("solving by blocks equals solving whole (turkish, up to 4 pieces)", "[gen][.slow]") {
    CHECK(check_blocks<Turkish>(4) >= 15);
}

// Every phase a block of its own where a level has more than one entry.
TEST_CASE("solving by groups of phases equals solving whole (international, up to 3 pieces)", "[gen][phase-groups]") {
    CHECK(check_blocks<International>(3, 1) >= 5);
}

TEST_CASE("solving by groups of phases equals solving whole (turkish, up to 3 pieces)", "[gen][phase-groups]") {
    CHECK(check_blocks<Turkish>(3, 1) >= 5);
}

TEST_CASE("solving by groups of phases equals solving whole (both variants, up to 4 pieces)", "[gen][.slow]") {
    CHECK(check_blocks<International>(4, 20000) >= 15);
    CHECK(check_blocks<Turkish>(4, 5000) >= 15);
}

// The win steps of passes 2 and 4 pushed from the losses, pulled by the undecided positions, and
// chosen level by level by their estimated costs give the same values and DTC, for every pair up
// to `pieces`; returns the levels that the choice by cost pulled.
template <class R>
std::uint64_t check_win_steps(int pieces) {
    using WinSteps = typename gen::SliceSolver<R>::WinSteps;
    const auto& dir = test::generated_tables<R>(pieces);
    gen::MappingCache cache;
    gen::FinishedTables<R> finished(dir, cache);
    std::uint64_t pulled_by_cost = 0, pulled_always = 0;
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.mirrored() < m) continue;  // each pair once
        load_inputs(finished, m);
        INFO(m.name());
        const gen::ExternalTables lookup = finished.external();
        gen::SliceSolver<R> pushed(m, cache, lookup), pulled(m, cache, lookup), by_cost(m, cache, lookup);
        pushed.set_win_steps(WinSteps::pushed);
        pulled.set_win_steps(WinSteps::pulled);
        pushed.solve();
        pulled.solve();
        by_cost.solve();
        CHECK(pushed.levels_pulled() == 0);
        pulled_always += pulled.levels_pulled();
        pulled_by_cost += by_cost.levels_pulled();
        for (int s = 0; s < pushed.num_sides(); ++s) {
            const auto& a = pushed.side(s);
            std::uint64_t differ = 0;
            for (const auto* other : {&pulled.side(s), &by_cost.side(s)})
                for (std::uint64_t i = 0; i < a.value.size(); ++i)
                    differ += (a.value[i] != other->value[i]) + (a.dtc[i] != other->dtc[i]);
            CHECK(differ == 0);
        }
    }
    CHECK(pulled_always > pulled_by_cost);
    return pulled_by_cost;
}

TEST_CASE("win steps pushed, pulled or chosen by cost agree (international, up to 3 pieces)", "[gen]") {
    CHECK(check_win_steps<International>(3) > 0);
}

// The files were written with the win steps chosen by cost. Every step pulled costs several times
// a solve (52 s here, against 3 pieces' 1.3 s for all three forms), so this one is run by hand.
TEST_CASE("files read back equal the solution with every win step pulled (international, up to 4 pieces)",
          "[gen][.slow][plain-build]") {
    check_read_back<International>(4, gen::SliceSolver<International>::WinSteps::pulled);
}

TEST_CASE("win steps pushed, pulled or chosen by cost agree (turkish, up to 3 pieces)", "[gen]") {
    CHECK(check_win_steps<Turkish>(3) > 0);
}
