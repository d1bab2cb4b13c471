// ns per SliceIndex::rank and ::unrank on random indices of a few slices, and per position for
// KingMoveRanks (every white king selected, each of its empty neighbours ranked).
// Each iteration handles one index out of a pre-drawn table of 4096, so the table stays in cache
// while the slice's offset tables are hit at random, as the generator hits them.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "dtb/index/king_move_ranks.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/variant.hpp"

namespace {

constexpr std::size_t kSamples = 4096;

template <class R>
std::vector<std::uint64_t> random_indices(const dtb::SliceIndex<R>& idx) {
    std::mt19937_64 rng(12345);
    std::uniform_int_distribution<std::uint64_t> d(0, idx.size() - 1);
    std::vector<std::uint64_t> v(kSamples);
    for (auto& x : v) x = d(rng);
    return v;
}

template <class R>
void BM_unrank(benchmark::State& state, dtb::Material m) {
    const dtb::SliceIndex<R> idx(m);
    const auto v = random_indices(idx);
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(idx.unrank(v[k]));
        k = (k + 1) & (kSamples - 1);
    }
    state.SetLabel(std::string(R::kName) + " " + m.name());
}

template <class R>
void BM_rank(benchmark::State& state, dtb::Material m) {
    const dtb::SliceIndex<R> idx(m);
    std::vector<dtb::Position> positions;
    for (auto i : random_indices(idx)) positions.push_back(idx.unrank(i));
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(idx.rank(positions[k]));
        k = (k + 1) & (kSamples - 1);
    }
    state.SetLabel(std::string(R::kName) + " " + m.name());
}

// What the generator's un-moves do per position: select each white king, then rank it on the
// empty squares next to it (a stand-in for its rays; the select is the part measured).
template <class R>
void BM_king_move_ranks(benchmark::State& state, dtb::Material m) {
    using G = typename R::Geometry;
    const dtb::SliceIndex<R> idx(m);
    std::vector<dtb::Position> positions;
    for (auto i : random_indices(idx)) positions.push_back(idx.unrank(i));
    std::size_t k = 0;
    for (auto _ : state) {
        const dtb::Position& p = positions[k];
        dtb::KingMoveRanks<R> ranks(idx, p);
        std::uint64_t sum = 0;
        const dtb::Bitboard empty = G::kPlayable & ~p.occupied();
        for (int king : dtb::bits(p.kings_of(dtb::Color::white))) {
            ranks.select(king);
            for (dtb::Dir d : R::kKingDirs) {
                const int to = G::neighbor(king, d);
                if (to >= 0 && (empty & dtb::bit(to))) sum += ranks.rank(to);
            }
        }
        benchmark::DoNotOptimize(sum);
        k = (k + 1) & (kSamples - 1);
    }
    state.SetLabel(std::string(R::kName) + " " + m.name());
}

const dtb::Material kKMvKM{1, 1, 1, 1};
const dtb::Material kKKMvKK{2, 1, 2, 0};
const dtb::Material kMMMvMM{0, 3, 0, 2};
const dtb::Material kKMMvKM{1, 2, 1, 1};
const dtb::Material kKKKvKKK{3, 0, 3, 0};
const dtb::Material kKKKKKvK{5, 0, 1, 0};

void BM_rank_international(benchmark::State& s, dtb::Material m) {
    BM_rank<dtb::International>(s, m);
}
void BM_unrank_international(benchmark::State& s, dtb::Material m) {
    BM_unrank<dtb::International>(s, m);
}
void BM_king_move_ranks_international(benchmark::State& s, dtb::Material m) {
    BM_king_move_ranks<dtb::International>(s, m);
}
void BM_rank_turkish(benchmark::State& s, dtb::Material m) {
    BM_rank<dtb::Turkish>(s, m);
}
void BM_unrank_turkish(benchmark::State& s, dtb::Material m) {
    BM_unrank<dtb::Turkish>(s, m);
}

}  // namespace

BENCHMARK_CAPTURE(BM_rank_international, KMvKM, kKMvKM);
BENCHMARK_CAPTURE(BM_unrank_international, KMvKM, kKMvKM);
BENCHMARK_CAPTURE(BM_rank_international, KKMvKK, kKKMvKK);
BENCHMARK_CAPTURE(BM_unrank_international, KKMvKK, kKKMvKK);
BENCHMARK_CAPTURE(BM_rank_international, MMMvMM, kMMMvMM);
BENCHMARK_CAPTURE(BM_unrank_international, MMMvMM, kMMMvMM);
BENCHMARK_CAPTURE(BM_king_move_ranks_international, KKKvKKK, kKKKvKKK);
BENCHMARK_CAPTURE(BM_king_move_ranks_international, KKKKKvK, kKKKKKvK);
BENCHMARK_CAPTURE(BM_king_move_ranks_international, KKMvKK, kKKMvKK);
BENCHMARK_CAPTURE(BM_rank_turkish, KMMvKM, kKMMvKM);
BENCHMARK_CAPTURE(BM_unrank_turkish, KMMvKM, kKMMvKM);
BENCHMARK_CAPTURE(BM_rank_turkish, MMMvMM, kMMMvMM);
BENCHMARK_CAPTURE(BM_unrank_turkish, MMMvMM, kMMMvMM);
