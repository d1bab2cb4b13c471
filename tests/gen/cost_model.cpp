// gen/cost_model.hpp and gen/generation_plan.hpp against the runs measured on this project's
// 2-core VM (BENCHMARKS.md, "Generator"): the plan must reproduce each within 25%, choose the
// way each 6-piece pair was solved, and count its positions.
#include "dtb/gen/cost_model.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>

#include "dtb/gen/generation_plan.hpp"

using namespace dtb;
using namespace dtb::gen;

namespace {

// The machine of BENCHMARKS.md: 2 cores, MemTotal 24,683,748 kB.
constexpr int kMeasuredCores = 2;
constexpr std::uint64_t kMeasuredMemoryMb = 24105;

// BENCHMARKS.md, "2-5 pieces from scratch" (commit a638cb0): wall time of
// `dtb gen --variant V --pieces 5` into an empty folder.
constexpr double kInternational25Seconds = 258.5;
constexpr double kTurkish25Seconds = 526.1;
// BENCHMARKS.md, "6 pieces (international)" (commit 57ae61b): slice time of the 6-piece pairs.
constexpr double kInternational6Seconds = 19475.5;

// The same section's slice lines: pair, positions, solved by levels, slice line seconds.
struct MeasuredPair {
    const char* name;
    std::uint64_t positions;
    bool by_levels;
    double seconds;
};
constexpr MeasuredPair kSixPieces[] = {
    {"KvKKKKK", 190688400, false, 98.8},   {"KKvKKKK", 476721000, false, 151.7},  {"KKKvKKK", 317814000, false, 56.4},
    {"MvKKKKK", 171619560, false, 35.1},   {"KvKKKKM", 858097800, false, 284.4},  {"KMvKKKK", 858097800, false, 373.1},
    {"KKvKKKM", 1716195600, true, 431.9},  {"KKMvKKK", 1716195600, true, 341.0},  {"MvKKKKM", 772482600, false, 143.7},
    {"MMvKKKK", 385268400, false, 95.9},   {"KvKKKMM", 1541073600, true, 450.0},  {"KMvKKKM", 3089930400, true, 1705.4},
    {"KMMvKKK", 1541073600, true, 693.9},  {"KKvKKMM", 2311610400, true, 1063.9}, {"KKMvKKM", 2317447800, true, 1027.8},
    {"MvKKKMM", 1387679700, true, 284.1},  {"MMvKKKM", 1387679700, true, 407.4},  {"MMMvKKK", 460181700, false, 169.0},
    {"KvKKMMM", 1380545100, true, 417.8},  {"KMvKKMM", 4163039100, true, 2777.1}, {"KMMvKKM", 4163039100, true, 2308.3},
    {"KMMMvKK", 1380545100, true, 573.4},  {"MvKKMMM", 1243469700, true, 490.3},  {"MMvKKMM", 1870120800, true, 663.0},
    {"MMMvKKM", 1243469700, true, 607.7},  {"MMMMvKK", 308419650, false, 79.1},   {"KvKMMMM", 616839300, false, 203.4},
    {"KMvKMMM", 2486939400, true, 1566.0}, {"KMMvKMM", 1870120800, true, 925.6},  {"MvKMMMM", 555751350, false, 123.6},
    {"MMvKMMM", 1117501200, false, 277.8}, {"MMMvKMM", 1117501200, false, 253.9}, {"MMMMvKM", 555751350, false, 121.9},
    {"MMMMMvK", 109958310, false, 38.8},   {"MvMMMMM", 99098230, false, 54.9},    {"MMvMMMM", 249799900, false, 123.9},
    {"MMMvMMM", 166991800, false, 55.3},
};

Plan measured_machine_plan(VariantId v, int pieces) {
    auto plan = make_plan({v, pieces, 1, kMeasuredCores, kMeasuredMemoryMb});
    REQUIRE(plan);
    return *plan;
}

double error_of(double predicted, double measured) {
    return std::abs(predicted - measured) / measured;
}

}  // namespace

TEST_CASE("the 6-piece pairs: positions and how each was solved, as measured", "[cost]") {
    const Plan plan = measured_machine_plan(VariantId::international, 6);
    std::map<std::string, const PlannedPair*> by_name;
    for (const PlannedPair& p : plan.pairs)
        if (p.figures.material.pieces() == 6) by_name[p.figures.material.name()] = &p;
    REQUIRE(by_name.size() == std::size(kSixPieces));
    for (const MeasuredPair& m : kSixPieces) {
        INFO(m.name);
        REQUIRE(by_name.count(m.name));
        CHECK(by_name[m.name]->figures.positions == m.positions);
        // Their 6-piece promotion targets held sparse (gen/finished_tables.hpp), these two fit whole
        // now, where the measured run, which held them whole, went by levels: no measure to check.
        if (std::string(m.name) == "MvKKMMM" || std::string(m.name) == "MMMvKKM") continue;
        CHECK((by_name[m.name]->mode == SolveMode::by_levels) == m.by_levels);
    }
}

TEST_CASE("the model predicts the measured runs within 25%", "[cost]") {
    // 2-5 runs: one process, one pair at a time: the simulated wall time on one node.
    const double int25 = measured_machine_plan(VariantId::international, 5).run.wall_seconds;
    const double tur25 = measured_machine_plan(VariantId::turkish, 5).run.wall_seconds;
    // The 6-piece run: its pairs' slice time.
    double int6 = 0;
    for (const PlannedPair& p : measured_machine_plan(VariantId::international, 6).pairs)
        if (p.figures.material.pieces() == 6) int6 += p.seconds;
    INFO("international 2-5 " << int25 << " s, international 6 " << int6 << " s, Turkish 2-5 " << tur25 << " s");
    CHECK(error_of(int25, kInternational25Seconds) < 0.25);
    CHECK(error_of(int6, kInternational6Seconds) < 0.25);
    CHECK(error_of(tur25, kTurkish25Seconds) < 0.25);
}

TEST_CASE("more cores take less time, and by levels costs more than whole", "[cost]") {
    auto figures = pair_figures(VariantId::international, 6);
    REQUIRE(figures);
    const PairFigures& largest = figures->back();
    CHECK(speedup_over_measured(2) == Approx(1.0));
    CHECK(pair_seconds(VariantId::international, largest, 32, SolveMode::whole) <
          pair_seconds(VariantId::international, largest, 2, SolveMode::whole));
    CHECK(pair_seconds(VariantId::international, largest, 2, SolveMode::by_levels) >
          pair_seconds(VariantId::international, largest, 2, SolveMode::whole));
    CHECK(kind_of(Material{2, 0, 1, 0}) == MaterialKind::kings_only);
    CHECK(kind_of(Material{0, 2, 0, 1}) == MaterialKind::men_only);
    CHECK(kind_of(Material{1, 1, 1, 0}) == MaterialKind::mixed);
}

TEST_CASE("a plan on more nodes is no slower, never beats its critical path, and says what fits nowhere",
          "[cost][schedule]") {
    double previous = 0;
    for (int nodes : {1, 2, 4, 16}) {
        auto plan = make_plan({VariantId::international, 6, nodes, 32, 256 * 1024});
        REQUIRE(plan);
        INFO(nodes << " nodes: wall " << plan->run.wall_seconds);
        CHECK(plan->run.wall_seconds >= plan->critical_path.seconds - 1e-6);
        CHECK(plan->run.wall_seconds >= plan->work_seconds / nodes - 1e-6);
        if (previous > 0) CHECK(plan->run.wall_seconds <= previous + 1e-6);
        CHECK(plan->level_sharing.bound_seconds <= plan->level_sharing.bound_without_seconds + 1e-6);
        previous = plan->run.wall_seconds;
    }
    auto tiny = make_plan({VariantId::international, 6, 4, 32, 7 * 1024});
    REQUIRE_FALSE(tiny);
    CHECK(tiny.error_kind() == ErrorKind::bad_input);
    CHECK(tiny.error().find("KMvKKMM") != std::string::npos);
    CHECK_FALSE(make_plan({VariantId::international, 9, 1, 2, 1024}));
    CHECK_FALSE(make_plan({VariantId::international, 6, 0, 2, 1024}));
    CHECK_FALSE(make_plan({VariantId::international, 6, 1, 0, 1024}));
}
