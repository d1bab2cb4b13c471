// The schedule of a distributed run (gen/pair_schedule.hpp): ready order, memory fit, refusals,
// and its simulation (gen/schedule_simulation.hpp).
#include <catch2/catch.hpp>
#include <filesystem>
#include <set>

#include "dtb/gen/dependencies.hpp"
#include "dtb/gen/pair_schedule.hpp"
#include "dtb/gen/pair_worker.hpp"
#include "dtb/gen/schedule_simulation.hpp"
#include "tests/support/temp_dir.hpp"

using namespace dtb;
using namespace dtb::gen;

namespace {

PairNeeds pair(const std::string& name, std::uint64_t positions, std::uint64_t whole,
               std::vector<std::size_t> inputs = {}, std::uint64_t level = 0) {
    PairNeeds p;
    p.name = name;
    p.positions = positions;
    p.whole_bytes = whole;
    p.level_bytes = level;
    p.inputs = std::move(inputs);
    return p;
}

std::vector<std::string> names(const PairSchedule& s, const std::vector<Assignment>& as) {
    std::vector<std::string> out;
    for (const Assignment& a : as) out.push_back(s.pairs()[a.pair].name + "@" + std::to_string(a.worker));
    return out;
}

}  // namespace

TEST_CASE("schedule: a pair is ready only once every pair it reads is complete, largest first", "[gen][schedule]") {
    // a, b read nothing; c reads a; d reads a and b; e reads c and d.
    auto s = PairSchedule::make(
        {pair("a", 10, 1), pair("b", 30, 1), pair("c", 50, 1, {0}), pair("d", 40, 1, {0, 1}), pair("e", 5, 1, {2, 3})},
        {0});
    REQUIRE(s);
    PairSchedule& schedule = s.value();
    // One worker: the largest ready pair each time.
    CHECK(names(schedule, schedule.assign()) == std::vector<std::string>{"b@0"});
    CHECK(schedule.assign().empty());  // the worker is busy
    schedule.finished(0);
    CHECK(names(schedule, schedule.assign()) == std::vector<std::string>{"a@0"});
    schedule.finished(0);
    CHECK(names(schedule, schedule.assign()) == std::vector<std::string>{"c@0"});  // c (50) before d (40)
    schedule.finished(0);
    CHECK(names(schedule, schedule.assign()) == std::vector<std::string>{"d@0"});
    CHECK_FALSE(schedule.done());
    schedule.finished(0);
    CHECK(names(schedule, schedule.assign()) == std::vector<std::string>{"e@0"});
    schedule.finished(0);
    CHECK(schedule.done());
    CHECK(schedule.assign().empty());
}

TEST_CASE("schedule: several idle workers take the ready pairs at once; complete pairs are never handed out",
          "[gen][schedule]") {
    std::vector<PairNeeds> pairs{pair("a", 10, 1), pair("b", 30, 1), pair("c", 20, 1), pair("d", 40, 1, {0})};
    pairs[1].complete = true;
    auto s = PairSchedule::make(pairs, {0, 0, 0});
    REQUIRE(s);
    PairSchedule& schedule = s.value();
    CHECK(schedule.remaining() == 3);
    // Ties in memory (all unbounded): the lowest worker.
    CHECK(names(schedule, schedule.assign()) == std::vector<std::string>{"c@0", "a@1"});
    schedule.finished(1);  // a done: d is ready
    CHECK(names(schedule, schedule.assign()) == std::vector<std::string>{"d@1"});
    schedule.finished(0);
    schedule.finished(1);
    CHECK(schedule.done());
}

TEST_CASE("schedule: a pair goes to the idle worker with the least memory that holds it whole", "[gen][schedule]") {
    auto s = PairSchedule::make({pair("big", 100, 900), pair("small", 10, 50)}, {1000, 100, 2000});
    REQUIRE(s);
    PairSchedule& schedule = s.value();
    // big: workers 0 (1000) and 2 (2000) hold it; 0 has less. small: 1 (100) is the least that holds it.
    CHECK(names(schedule, schedule.assign()) == std::vector<std::string>{"big@0", "small@1"});
    CHECK(schedule.holds_whole(0, 0));
    CHECK_FALSE(schedule.holds_whole(1, 0));
}

TEST_CASE("schedule: a pair waits for a worker that holds it whole while smaller pairs go ahead", "[gen][schedule]") {
    // Only worker 1 holds "first" and "big" whole: "first" (the largest) takes it, "big" waits for
    // it, and "small" goes to worker 0 meanwhile.
    auto s = PairSchedule::make({pair("first", 200, 800), pair("big", 100, 900), pair("small", 10, 50)}, {100, 1000});
    REQUIRE(s);
    PairSchedule& schedule = s.value();
    CHECK(names(schedule, schedule.assign()) == std::vector<std::string>{"first@1", "small@0"});
    schedule.finished(0);
    CHECK(schedule.assign().empty());  // big still waits for worker 1, although worker 0 is idle
    schedule.finished(1);
    const auto next = schedule.assign();
    REQUIRE(next.size() == 1);
    CHECK(schedule.pairs()[next[0].pair].name == "big");
    CHECK(next[0].worker == 1);
    CHECK(next[0].mode == SolveMode::whole);
}

TEST_CASE("schedule: a pair no worker holds whole is solved by levels on the worker with the most memory",
          "[gen][schedule]") {
    auto s = PairSchedule::make({pair("huge", 100, 5000, {}, 600)}, {700, 2000, 400});
    REQUIRE(s);
    PairSchedule& schedule = s.value();
    const auto as = schedule.assign();
    REQUIRE(as.size() == 1);
    CHECK(as[0].worker == 1);
    CHECK(as[0].mode == SolveMode::by_levels);
}

TEST_CASE("schedule: a pair larger than every worker is refused before anything is handed out, with a message",
          "[gen][schedule]") {
    SECTION("no way to split it") {
        auto s = PairSchedule::make({pair("KvK", 1, 10), pair("KKMvKKM", 100, 5 << 20)}, {1 << 20, 2 << 20});
        REQUIRE_FALSE(s);
        CHECK(s.error_kind() == ErrorKind::bad_input);
        CHECK_THAT(s.error(),
                   Catch::Contains("KKMvKKM") && Catch::Contains("5 MB solved whole") && Catch::Contains("2 MB"));
    }
    SECTION("its largest level too large as well") {
        auto s = PairSchedule::make({pair("KMvKKM", 100, 50 << 20, {}, 3 << 20)}, {2 << 20});
        REQUIRE_FALSE(s);
        CHECK_THAT(s.error(), Catch::Contains("KMvKKM") && Catch::Contains("3 MB by levels"));
    }
    SECTION("a complete pair is not checked") {
        std::vector<PairNeeds> pairs{pair("KMvKKM", 100, 50 << 20)};
        pairs[0].complete = true;
        CHECK(PairSchedule::make(pairs, {2 << 20}));
    }
    SECTION("malformed requests") {
        CHECK_FALSE(PairSchedule::make({pair("a", 1, 1)}, {}));
        CHECK_FALSE(PairSchedule::make({pair("a", 1, 1, {0})}, {0}));  // reads itself
    }
}

TEST_CASE("schedule simulation: wall time, busy time, idle share and the critical path", "[gen][schedule]") {
    // a (4 s) and b (2 s) are independent; c (3 s) reads both.
    std::vector<PairNeeds> pairs{pair("a", 40, 1), pair("b", 20, 1), pair("c", 30, 1, {0, 1})};
    const auto seconds = [&](std::size_t p, int, SolveMode) { return static_cast<double>(pairs[p].positions) / 10; };
    SECTION("two workers") {
        auto run = simulate(PairSchedule::make(pairs, {0, 0}).value(), seconds);
        REQUIRE(run);
        CHECK(run->wall_seconds == Approx(7.0));  // a on 0 (0-4), b on 1 (0-2), c on 0 (4-7)
        CHECK(run->busy_seconds == std::vector<double>{7.0, 2.0});
        CHECK(run->busiest == 0);
        CHECK(run->idle_share == Approx(1.0 - 9.0 / 14.0));
        REQUIRE(run->pairs.size() == 3);
        CHECK(run->pairs[2].start == Approx(4.0));
    }
    SECTION("one worker") {
        auto run = simulate(PairSchedule::make(pairs, {0}).value(), seconds);
        REQUIRE(run);
        CHECK(run->wall_seconds == Approx(9.0));
        CHECK(run->idle_share == Approx(0.0));
    }
    const CriticalPath path = critical_path(pairs, [&](std::size_t p) { return seconds(p, 0, SolveMode::whole); });
    CHECK(path.seconds == Approx(7.0));
    CHECK(path.pairs == std::vector<std::size_t>{0, 2});
}

TEST_CASE("run_pairs: the pairs of a run in generation order, each reading only earlier pairs", "[gen][schedule]") {
    test::TempDir dir("schedule");
    for (VariantId v : {VariantId::international, VariantId::turkish}) {
        GenerateOptions o;
        o.variant = v;
        o.max_pieces = 4;
        o.out_dir = dir.path;
        auto pairs = run_pairs(o);
        REQUIRE(pairs);
        CHECK(pairs->size() == 23);  // 2-4 pieces: 23 pairs in both variants (slice and mirror)
        std::set<std::string> seen;
        for (std::size_t p = 0; p < pairs->size(); ++p) {
            const PairNeeds& needs = (*pairs)[p];
            CHECK_FALSE(needs.complete);  // an empty folder
            CHECK(needs.positions > 0);
            CHECK(needs.whole_bytes > 0);
            // Every slice a capture or promotion of the pair leads to is one of its inputs' pairs.
            const Material m = *Material::parse(needs.name);
            std::set<std::string> input_names;
            for (std::size_t x : needs.inputs) {
                CHECK(x < p);
                input_names.insert((*pairs)[x].name);
            }
            for (const Material& x : inputs_of_pair(m)) {
                const bool own_mirror = x == x.mirrored();
                CHECK((input_names.count(x.name()) + (own_mirror ? 0 : input_names.count(x.mirrored().name()))) == 1);
            }
            seen.insert(needs.name);
        }
        CHECK(seen.size() == pairs->size());
        // With every pair the same size, three workers finish what one does, in fewer rounds.
        auto one = simulate(PairSchedule::make(*pairs, {0}).value(), [](std::size_t, int, SolveMode) { return 1.0; });
        auto three =
            simulate(PairSchedule::make(*pairs, {0, 0, 0}).value(), [](std::size_t, int, SolveMode) { return 1.0; });
        REQUIRE(one);
        REQUIRE(three);
        CHECK(one->wall_seconds == Approx(23.0));
        CHECK(three->wall_seconds < 23.0);
        CHECK(three->pairs.size() == 23);
    }
    // A bad request is refused as generate refuses it.
    GenerateOptions bad;
    bad.max_pieces = 9;
    bad.out_dir = dir.path;
    auto r = run_pairs(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error_kind() == ErrorKind::bad_input);
}
