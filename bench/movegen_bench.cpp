// Move generation speed: perft nodes per second from the start positions, and ns per
// generate_moves / count_moves call over every position of a small game tree (the mix of quiet
// and capture positions perft and the generator meet, not one hand-picked position); and ns per
// capture search over a spread of positions of a kings endgame slice, where the generator's seed
// passes and the prober's capture resolution spend their move generation.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "dtb/index/material.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/count.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/perft.hpp"

namespace {

using namespace dtb;

template <class R>
Position start() {
    return *parse_fen<R>(R::kStartFen);
}

// Every position of the tree below `p`, `depth` plies deep (with repeats, as perft meets them).
template <class R>
void collect(const Position& p, int depth, std::vector<Position>& out) {
    out.push_back(p);
    if (depth == 0) return;
    MoveList l;
    generate_moves<R>(p, l, CaptureMode::paths);
    for (const Move& m : l) collect<R>(make_move(p, m), depth - 1, out);
}

template <class R, CaptureMode mode>
void BM_perft(benchmark::State& state) {
    const int depth = static_cast<int>(state.range(0));
    Perft<R> perft(mode);
    std::uint64_t nodes = 0;
    for (auto _ : state) nodes += perft.count(start<R>(), depth);
    state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
    state.SetLabel(std::string(R::kName) + (mode == CaptureMode::paths ? " paths" : " unique"));
}

template <class R>
void BM_generate(benchmark::State& state) {
    std::vector<Position> ps;
    collect<R>(start<R>(), 4, ps);
    MoveList l;
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(generate_moves<R>(ps[k], l));
        benchmark::DoNotOptimize(l.data());
        if (++k == ps.size()) k = 0;
    }
    state.SetLabel(std::string(R::kName) + ", " + std::to_string(ps.size()) + " positions");
}

template <class R>
void BM_count(benchmark::State& state) {
    std::vector<Position> ps;
    collect<R>(start<R>(), 4, ps);
    MoveCounter<R> counter(CaptureMode::unique);
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(counter.count(ps[k]));
        if (++k == ps.size()) k = 0;
    }
    state.SetLabel(std::string(R::kName) + ", " + std::to_string(ps.size()) + " positions");
}

// Every `stride`-th position of slice `name` (White to move): quiet and capture positions in the
// slice's own mix.
template <class R>
std::vector<Position> spread_of(const char* name, std::uint64_t stride) {
    const SliceIndex<R> index(*Material::parse(name));
    std::vector<Position> ps;
    for (std::uint64_t i = 0; i < index.size(); i += stride) ps.push_back(index.unrank(i));
    return ps;
}

// The captures only, without their landing squares, as the generator's seed pass asks for them
// (gen/forward.hpp); quiet positions cost the test that finds no capture.
template <class R>
void capture_effects(benchmark::State& state, const char* slice) {
    const std::vector<Position> ps = spread_of<R>(slice, 97);
    MoveList l;
    std::size_t k = 0, captures = 0;
    for (auto _ : state) {
        MoveGenerator<R>(ps[k], l, CaptureMode::unique).generate_capture_effects();
        captures += l.size();
        benchmark::DoNotOptimize(l.data());
        if (++k == ps.size()) k = 0;
    }
    benchmark::DoNotOptimize(captures);
    state.SetLabel(std::string(R::kName) + " " + slice + ", " + std::to_string(ps.size()) + " positions");
}

BENCHMARK_TEMPLATE(BM_perft, International, CaptureMode::unique)->Arg(8)->Unit(benchmark::kMillisecond);
BENCHMARK_TEMPLATE(BM_perft, Turkish, CaptureMode::paths)->Arg(7)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_generate<International>);
BENCHMARK(BM_generate<Turkish>);
BENCHMARK(BM_count<International>);
BENCHMARK(BM_count<Turkish>);
void BM_capture_effects_international_KKKvKK(benchmark::State& s) {
    capture_effects<International>(s, "KKKvKK");
}
void BM_capture_effects_international_KKvKKM(benchmark::State& s) {
    capture_effects<International>(s, "KKvKKM");
}
void BM_capture_effects_turkish_KKKvKK(benchmark::State& s) {
    capture_effects<Turkish>(s, "KKKvKK");
}
BENCHMARK(BM_capture_effects_international_KKKvKK);
BENCHMARK(BM_capture_effects_international_KKvKKM);
BENCHMARK(BM_capture_effects_turkish_KKKvKK);

}  // namespace
