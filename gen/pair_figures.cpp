#include "dtb/gen/pair_figures.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "dtb/gen/dependencies.hpp"
#include "dtb/gen/generate.hpp"
#include "dtb/gen/pair_memory.hpp"
#include "dtb/gen/pair_steps.hpp"
#include "dtb/index/binomial.hpp"
#include "dtb/index/placement.hpp"
#include "dtb/index/slice_index.hpp"

namespace dtb::gen {

namespace {

// Bits per position of each metric's tables, from the largest sets measured (docs/SCALING.md,
// "Disk"): international WDL at 6 pieces (BENCHMARKS.md, "International 6 pieces": 578.9 MB under
// --wdl balanced for 46,198,758,750 positions), every other metric at 5 pieces (the files of
// `dtb gen --pieces 5`, format version 2: 1,570,600,750 international and 3,717,485,280 Turkish
// 5-piece positions).
struct BitsPerPosition {
    double wdl, dtw, dtc, rule_tables;
};
constexpr BitsPerPosition kInternationalBits{0.10025, 0.77273, 0.32180, 0.071745};
constexpr BitsPerPosition kTurkishBits{0.042787, 0.50802, 0.18327, 0.0};

// A place men (or, in a slice without men under the mirror, kings) may take as one: a square, or
// under the mirror quotient a square and its mirror image together (symmetric sets are unions of
// such pairs). white/black: whether a white / black piece may stand there; *_advancement: what
// the place adds to the advancement (SliceIndex::advancement) when it holds that colour.
struct Place {
    int size;
    bool white, black;
    int white_advancement, black_advancement;
};

// counts[w][b][a], flattened: ways to fill places with w white and b black pieces of total
// advancement a, each place empty or taken whole by one colour.
std::vector<std::uint64_t> count_by_advancement(const std::vector<Place>& places, int white, int black,
                                                int max_advancement) {
    const int levels = max_advancement + 1;
    const auto at = [&](int w, int b, int a) { return (static_cast<std::size_t>(w) * (black + 1) + b) * levels + a; };
    std::vector<std::uint64_t> dp(static_cast<std::size_t>(white + 1) * (black + 1) * levels, 0), next;
    dp[at(0, 0, 0)] = 1;
    for (const Place& p : places) {
        next = dp;  // the place left empty
        for (int w = 0; w <= white; ++w)
            for (int b = 0; b <= black; ++b)
                for (int a = 0; a < levels; ++a) {
                    const std::uint64_t n = dp[at(w, b, a)];
                    if (n == 0) continue;
                    if (p.white && w + p.size <= white && a + p.white_advancement < levels)
                        next[at(w + p.size, b, a + p.white_advancement)] += n;
                    if (p.black && b + p.size <= black && a + p.black_advancement < levels)
                        next[at(w, b + p.size, a + p.black_advancement)] += n;
                }
        dp.swap(next);
    }
    return std::vector<std::uint64_t>(dp.begin() + static_cast<std::ptrdiff_t>(at(white, black, 0)),
                                      dp.begin() + static_cast<std::ptrdiff_t>(at(white, black, 0) + levels));
}

template <class R>
SliceCounts counts_of(const Material& m) {
    using G = typename R::Geometry;
    constexpr int kN = G::kNumSquares;
    if (!material_fits<R>(m)) throw std::invalid_argument("material " + m.name() + " does not fit");
    // As SliceIndex ranks them: the men, or under the mirror without men the kings, on their
    // squares; advancement counts men only.
    const bool kings_as_men = SliceIndex<R>::kMirror && m.men() == 0;
    const int white = kings_as_men ? m.wk : m.wm, black = kings_as_men ? m.bk : m.bm;
    const Bitboard white_squares = kings_as_men ? G::kPlayable : men_squares<R>(Color::white);
    const Bitboard black_squares = kings_as_men ? G::kPlayable : men_squares<R>(Color::black);
    const auto white_advancement = [&](int s) { return kings_as_men ? 0 : G::rank(s); };
    const auto black_advancement = [&](int s) { return kings_as_men ? 0 : G::kHeight - 1 - G::rank(s); };
    const int max_advancement = (white + black) * (G::kHeight - 1);

    std::vector<Place> squares;
    for (int s : bits(G::kPlayable))
        squares.push_back({1, (white_squares & bit(s)) != 0, (black_squares & bit(s)) != 0, white_advancement(s),
                           black_advancement(s)});
    const std::vector<std::uint64_t> all = count_by_advancement(squares, white, black, max_advancement);

    SliceCounts c;
    c.kings_per_config =
        kings_as_men ? 1 : binomial::choose(kN - m.men(), m.wk) * binomial::choose(kN - m.men() - m.wk, m.bk);
    std::vector<std::uint64_t> canonical = all;
    if constexpr (SliceIndex<R>::kMirror) {
        // A configuration and its mirror are one entry unless it is its own mirror (symmetric):
        // canonical = (all + symmetric) / 2 at every advancement (the mirror keeps each rank).
        std::vector<Place> orbits;
        for (int s : bits(G::kPlayable)) {
            const Bitboard orbit = bit(s) | G::mirror_files(bit(s));
            if (lowest_bit(orbit) != s) continue;
            const int size = popcount(orbit);
            orbits.push_back({size, (white_squares & orbit) == orbit, (black_squares & orbit) == orbit,
                              size * white_advancement(s), size * black_advancement(s)});
        }
        const std::vector<std::uint64_t> symmetric = count_by_advancement(orbits, white, black, max_advancement);
        for (std::size_t a = 0; a < canonical.size(); ++a) canonical[a] = (all[a] + symmetric[a]) / 2;
    }
    while (canonical.size() > 1 && canonical.back() == 0) canonical.pop_back();
    for (std::size_t a = 0; a < canonical.size(); ++a) {
        c.entries_by_advancement.push_back(canonical[a] * c.kings_per_config);
        c.entries += canonical[a] * c.kings_per_config;
        c.positions += all[a] * c.kings_per_config;
    }
    return c;
}

template <class R>
DiskBytes disk_of(std::uint64_t positions) {
    const BitsPerPosition& bits_per = R::kCountingRules ? kInternationalBits : kTurkishBits;
    const auto bytes = [&](double b) { return static_cast<std::uint64_t>(static_cast<double>(positions) * b / 8.0); };
    return {bytes(bits_per.wdl), bytes(bits_per.dtw), bytes(bits_per.dtc), bytes(bits_per.rule_tables)};
}

template <class R>
std::vector<PairFigures> figures_of(int max_pieces) {
    const std::vector<Material> order = pairs_in_order<R>(max_pieces);
    std::map<Material, SliceCounts> slices;
    const auto counts = [&](const Material& m) -> const SliceCounts& {
        auto it = slices.find(m);
        if (it == slices.end()) it = slices.emplace(m, counts_of<R>(m)).first;
        return it->second;
    };
    const std::vector<std::vector<std::size_t>> inputs = inputs_in_order(order);
    std::vector<PairFigures> out;
    for (const Material& m : order) {
        PairFigures f;
        f.material = m;
        std::vector<std::uint64_t> levels;
        std::vector<Material> sides{m};
        if (m.mirrored() != m) sides.push_back(m.mirrored());
        for (const Material& side : sides) {
            const SliceCounts& c = counts(side);
            f.entries += c.entries;
            f.positions += c.positions;
            f.kings_per_config = c.kings_per_config;
            if (levels.size() < c.entries_by_advancement.size()) levels.resize(c.entries_by_advancement.size(), 0);
            for (std::size_t a = 0; a < c.entries_by_advancement.size(); ++a) levels[a] += c.entries_by_advancement[a];
        }
        f.levels = static_cast<int>(std::count_if(levels.begin(), levels.end(), [](std::uint64_t n) { return n; }));
        f.largest_level = *std::max_element(levels.begin(), levels.end());
        for (const Material& x : inputs_of_pair(m)) f.input_bytes += held_bytes_of<R>(x, counts(x).entries, max_pieces);
        f.inputs = inputs[out.size()];
        // As run_pairs (gen/pair_worker.cpp) gives them to the schedule.
        std::uint64_t kept = 0;  // as if a later pair read it
        for (const Material& side : sides) kept += held_bytes_of<R>(side, counts(side).entries, max_pieces);
        const ScheduledMemory memory = scheduled_memory<R>(m, f.entries, f.kings_per_config, f.input_bytes, kept, false,
                                                           false, [&] { return f.largest_level; });
        f.whole_bytes = memory.whole_bytes;
        f.level_bytes = memory.level_bytes;
        f.level_by_blocks = memory.by_blocks;
        f.disk = disk_of<R>(f.positions);
        out.push_back(std::move(f));
    }
    return out;
}

}  // namespace

SliceCounts slice_counts(VariantId v, const Material& m) {
    return with_variant(v, [&](auto r) { return counts_of<decltype(r)>(m); });
}

Expected<std::vector<PairFigures>> pair_figures(VariantId v, int max_pieces) {
    if (max_pieces < 2 || max_pieces > kMaxPieces)
        return Error{"pieces must be 2 to " + std::to_string(kMaxPieces) + ", not " + std::to_string(max_pieces),
                     ErrorKind::bad_input};
    return with_variant(v, [&](auto r) { return figures_of<decltype(r)>(max_pieces); });
}

std::vector<PairNeeds> needs_of(const std::vector<PairFigures>& figures) {
    std::vector<PairNeeds> out;
    for (const PairFigures& f : figures)
        out.push_back(
            {f.material.name(), f.positions, f.whole_bytes, f.level_bytes, f.level_by_blocks, f.inputs, false});
    return out;
}

}  // namespace dtb::gen
