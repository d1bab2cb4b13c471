// Probe library throughput and latency (see BENCHMARKS.md, "Probe").
// Tables: $DTB_BENCH_TABLES (default data/tb/international), international up to 4 pieces; the
// positions probed are those of the largest slices, $DTB_BENCH_PIECES pieces (default 4), and
// the hot handles' cache is $DTB_BENCH_CACHE_MB (default 512: every 4-piece block).
//   probe_bench                                  all benchmarks
//   probe_bench --benchmark_filter=WdlHot        one of them
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/format/format.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/rules/movegen.hpp"

namespace {

using namespace dtb;
using namespace dtb::probe;

// Two pools of random positions: 4096 (their cache lines stay in the CPU caches: the cost of the
// code path) and 1M (every probe a random memory access: the cost in a real search is between).
constexpr std::size_t kSmallPool = 1 << 12;
constexpr std::size_t kLargePool = 1 << 20;

std::string tables_dir() {
    const char* env = std::getenv("DTB_BENCH_TABLES");
    return env ? env : "data/tb/international";
}

int bench_pieces() {
    const char* env = std::getenv("DTB_BENCH_PIECES");
    return env ? std::atoi(env) : 4;
}
std::size_t hot_cache_bytes() {
    const char* env = std::getenv("DTB_BENCH_CACHE_MB");
    return static_cast<std::size_t>(env ? std::atoll(env) : 512) << 20;
}

Tablebase open_or_die(std::size_t cache_bytes, unsigned metrics = kAllMetrics) {
    Options o;
    o.directories = {tables_dir()};
    o.cache_bytes = cache_bytes;
    o.metrics = metrics;
    auto tb = Tablebase::open(o);
    if (!tb) {
        std::fprintf(stderr, "probe_bench: %s (set DTB_BENCH_TABLES)\n", tb.error().c_str());
        std::exit(1);
    }
    return std::move(tb.value());
}

// Random positions of the 4-piece slices, either side to move; `quiet`: only positions whose
// side to move has no capture (a plain table lookup), otherwise any (captures resolved).
std::vector<Position> random_positions(bool quiet, std::uint64_t seed, std::size_t n) {
    std::vector<SliceIndex<International>> slices;
    for (const Material& m : all_materials<International>(bench_pieces()))
        if (m.pieces() == bench_pieces()) slices.emplace_back(m);
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    out.reserve(n);
    while (out.size() < n) {
        const auto& s = slices[rng() % slices.size()];
        Position p = s.unrank(rng() % s.size());
        if (quiet && has_capture<International>(p)) continue;
        if (rng() & 1) p = reversed<International::Geometry>(p);
        out.push_back(p);
    }
    return out;
}

const std::vector<Position>& quiet_positions(std::size_t n = kLargePool) {
    static const auto large = random_positions(true, 1, kLargePool);
    static const auto small = random_positions(true, 1, kSmallPool);
    return n == kSmallPool ? small : large;
}
const std::vector<Position>& any_positions(std::size_t n = kLargePool) {
    static const auto large = random_positions(false, 2, kLargePool);
    static const auto small = random_positions(false, 2, kSmallPool);
    return n == kSmallPool ? small : large;
}

// Whether p's WDL comes from a derived table (docs/FORMAT.md, "Derived WDL tables"): one ply of
// search instead of one table read.
bool in_derived_slice(const Position& p) {
    static std::map<Material, bool> derived;
    const Position q = p.side_to_move == Color::white ? p : reversed<International::Geometry>(p);
    const Material m = Material::of(q);
    auto it = derived.find(m);
    if (it == derived.end()) {
        auto info = format::read_table_info(std::filesystem::path(tables_dir()) /
                                            format::file_name(m.name(), format::Metric::wdl));
        it = derived.emplace(m, info.ok() && info->derived()).first;
    }
    return it->second;
}
// Positions without a capture whose WDL table is stored (false) or derived (true); empty when
// the tables have none of that kind (a set made with --wdl both-sides has no derived table).
const std::vector<Position>& quiet_positions_by_side(bool derived, std::size_t n) {
    static std::map<std::pair<bool, std::size_t>, std::vector<Position>> pools;
    auto& pool = pools[{derived, n}];
    if (pool.empty()) {
        // Up to 64 rounds: in the 5-piece balanced set only 3 of 44 sides are derived.
        for (std::uint64_t seed = 3; seed < 3 + 64 && pool.size() < n; ++seed)
            for (const Position& p : random_positions(true, seed, n))
                if (in_derived_slice(p) == derived && pool.size() < n) pool.push_back(p);
        if (pool.size() < n) pool.clear();
    }
    return pool;
}

// One handle with a cache large enough for every 4-piece block, warmed up on the samples.
const Tablebase& hot_tablebase() {
    static const Tablebase tb = [] {
        Tablebase t = open_or_die(hot_cache_bytes());
        for (const auto* set : {&quiet_positions(), &any_positions(), &quiet_positions_by_side(false, kLargePool),
                                &quiet_positions_by_side(true, kLargePool), &quiet_positions_by_side(false, kSmallPool),
                                &quiet_positions_by_side(true, kSmallPool)})
            for (const Position& p : *set)
                for (unsigned metrics : {kAllMetrics, kWdl})  // WDL alone: derived WDL searches
                    if (const Result r = t.probe(p, metrics); !r.ok()) {
                        std::fprintf(stderr, "probe_bench: %s\n", t.explain(r).c_str());
                        std::exit(1);
                    }
        return t;
    }();
    return tb;
}

void run_probes(benchmark::State& state, const Tablebase& tb, const std::vector<Position>& positions, unsigned metrics,
                Access access = Access::load) {
    if (positions.empty()) {
        state.SkipWithError("no such positions in these tables");
        return;
    }
    std::size_t k = static_cast<std::size_t>(state.thread_index()) * 7919;
    const std::size_t mask = positions.size() - 1;
    std::uint64_t failed = 0;
    for (auto _ : state) {
        const Result r = tb.probe(positions[k & mask], metrics, access);
        failed += !r.ok();
        benchmark::DoNotOptimize(r);
        ++k;
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["failed"] = static_cast<double>(failed);
}

// WDL of positions without a capture, every block in the cache: the engine-search case.
// Argument: the pool size (see kSmallPool, kLargePool).
void BM_WdlHot(benchmark::State& state) {
    run_probes(state, hot_tablebase(), quiet_positions(state.range(0)), kWdl);
}
// The same split by where WDL comes from: a stored table (one read) or a derived one (one ply of
// search into the mirror slice's table).
void BM_WdlHotStoredSide(benchmark::State& state) {
    run_probes(state, hot_tablebase(), quiet_positions_by_side(false, state.range(0)), kWdl);
}
void BM_WdlHotDerivedSide(benchmark::State& state) {
    run_probes(state, hot_tablebase(), quiet_positions_by_side(true, state.range(0)), kWdl);
}
// One handle per thread (nothing shared): separates the cost of sharing a handle from what the
// machine's two vCPUs give anyway.
void BM_WdlHotPerThreadHandle(benchmark::State& state) {
    static const Tablebase* handles[2] = {nullptr, nullptr};
    static std::once_flag once;
    std::call_once(once, [] {
        for (auto& h : handles) {
            auto* t = new Tablebase(open_or_die(hot_cache_bytes(), kWdl));
            for (const Position& p : quiet_positions(kSmallPool)) (void)t->probe(p, kWdl);
            h = t;  // kept for the life of the program
        }
    });
    run_probes(state, *handles[state.thread_index() % 2], quiet_positions(kSmallPool), kWdl);
}
// The same through the cache-only path.
void BM_WdlHotCacheOnly(benchmark::State& state) {
    run_probes(state, hot_tablebase(), quiet_positions(state.range(0)), kWdl, Access::cache_only);
}
// WDL of any position: a part of them must capture and are resolved through their captures.
void BM_WdlHotWithCaptures(benchmark::State& state) {
    run_probes(state, hot_tablebase(), any_positions(state.range(0)), kWdl);
}
void BM_DtwHot(benchmark::State& state) {
    run_probes(state, hot_tablebase(), quiet_positions(state.range(0)), kWdl | kDtw);
}
void BM_AllMetricsHot(benchmark::State& state) {
    run_probes(state, hot_tablebase(), quiet_positions(state.range(0)), kAllMetrics);
}

// A cache of one block: every probe reads, checks and decompresses its block (the file itself
// is in the OS page cache after the first round). The latency of a cache miss.
void BM_WdlColdBlock(benchmark::State& state) {
    static const Tablebase tb = open_or_die(1);
    run_probes(state, tb, quiet_positions(), kWdl);
}
// A derived-side WDL probe with a cache of one block: every successor probed reads and
// decompresses its block (the worst case: a cold engine cache).
void BM_WdlColdDerivedSide(benchmark::State& state) {
    static const Tablebase tb = open_or_die(1);
    run_probes(state, tb, quiet_positions_by_side(true, kLargePool), kWdl);
}
void BM_DtwColdBlock(benchmark::State& state) {
    static const Tablebase tb = open_or_die(1);
    run_probes(state, tb, quiet_positions(), kWdl | kDtw);
}

// The very first probe of a fresh handle: open the table file (header, block table), read and
// decompress a block.
void BM_FirstProbe(benchmark::State& state) {
    std::size_t k = 0;
    for (auto _ : state) {
        state.PauseTiming();
        auto tb = std::make_unique<Tablebase>(open_or_die(std::size_t{16} << 20, kWdl));
        state.ResumeTiming();
        benchmark::DoNotOptimize(tb->probe(quiet_positions()[k++ & (kLargePool - 1)], kWdl));
        state.PauseTiming();
        tb.reset();
        state.ResumeTiming();
    }
}

// Bytes allocated on the heap now (glibc: arena plus mmapped chunks).
std::size_t heap_bytes() {
    const struct mallinfo2 mi = ::mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

// Memory held for a cache budget: random probes (WDL and DTW) until the cache evicts, or until
// every 4-piece block is in (the 4-piece WDL and DTW tables decompress to 49 MB), then the heap
// growth against the budget.
void BM_MemoryForBudget(benchmark::State& state) {
    const std::size_t budget = static_cast<std::size_t>(state.range(0)) << 20;
    const auto& pool = quiet_positions();
    for (auto _ : state) {
        const std::size_t before = heap_bytes();
        const Tablebase tb = open_or_die(budget, kWdl | kDtw);
        for (std::size_t k = 0; k < pool.size(); ++k) {
            benchmark::DoNotOptimize(tb.probe(pool[k], kWdl | kDtw));
            if (k % 1024 == 0 && tb.cache_stats().evictions > 0) break;
        }
        const CacheStats s = tb.cache_stats();
        state.counters["budget_MB"] = static_cast<double>(budget) / (1 << 20);
        state.counters["cached_MB"] = static_cast<double>(s.bytes) / (1 << 20);
        state.counters["blocks"] = static_cast<double>(s.blocks);
        state.counters["heap_growth_MB"] =
            (static_cast<double>(heap_bytes()) - static_cast<double>(before)) / (1 << 20);
    }
}

}  // namespace

// Counting rules (adjudicate/adjudicator.hpp): the counter-aware WDL an engine asks, and the whole
// adjudication (result, plies to the end, moves that keep it) a user asks. Counters: fresh,
// except `reversible` cycling through 0..49. Warm cache with the rule tables.
const Tablebase& hot_rule_tablebase() {
    static const Tablebase tb = [] {
        Tablebase t = open_or_die(std::size_t{512} << 20, kAllMetrics | kRuleMetrics);
        const dtb::adjudicate::Adjudicator judge(t, dtb::CountingRules::fmjd);
        for (const Position& p : any_positions(kSmallPool)) judge.probe_wdl(p, {});
        return t;
    }();
    return tb;
}
void BM_RuleWdlHot(benchmark::State& state) {
    const Tablebase& tb = hot_rule_tablebase();
    const dtb::adjudicate::Adjudicator judge(tb, dtb::CountingRules::fmjd);
    const auto& positions = any_positions(kSmallPool);
    std::size_t k = 0;
    std::uint64_t failed = 0;
    for (auto _ : state) {
        const Result r = judge.probe_wdl(
            positions[k & (kSmallPool - 1)],
            dtb::adjudicate::Counters{.reversible = static_cast<int>(k % 50), .endgame = {}, .small = {}});
        failed += !r.ok();
        benchmark::DoNotOptimize(r);
        ++k;
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["failed"] = static_cast<double>(failed);
}
void BM_Adjudicate(benchmark::State& state) {
    const Tablebase& tb = hot_rule_tablebase();
    const dtb::adjudicate::Adjudicator judge(tb, dtb::CountingRules::fmjd);
    const auto& positions = any_positions(kSmallPool);
    std::size_t k = 0;
    for (auto _ : state) {
        const auto a = judge.adjudicate(positions[k & (kSmallPool - 1)], {});
        benchmark::DoNotOptimize(a);
        ++k;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RuleWdlHot);
BENCHMARK(BM_Adjudicate);

BENCHMARK(BM_WdlHot)->Arg(kSmallPool)->Arg(kLargePool)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_WdlHotStoredSide)->Arg(kSmallPool)->Arg(kLargePool);
BENCHMARK(BM_WdlHotDerivedSide)->Arg(kSmallPool)->Arg(kLargePool);
BENCHMARK(BM_WdlHotPerThreadHandle)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_WdlHotCacheOnly)->Arg(kSmallPool)->Arg(kLargePool);
BENCHMARK(BM_WdlHotWithCaptures)->Arg(kSmallPool)->Arg(kLargePool)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_DtwHot)->Arg(kSmallPool)->Arg(kLargePool);
BENCHMARK(BM_AllMetricsHot)->Arg(kSmallPool)->Arg(kLargePool);
BENCHMARK(BM_WdlColdBlock)->Threads(1)->Threads(2)->UseRealTime();
BENCHMARK(BM_WdlColdDerivedSide);
BENCHMARK(BM_DtwColdBlock);
BENCHMARK(BM_FirstProbe)->Iterations(200);
BENCHMARK(BM_MemoryForBudget)->Arg(4)->Arg(16)->Arg(64)->Iterations(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
