// rank and unrank are inverse bijections: exhaustively for every slice of up to 3 pieces (against
// an independent brute-force enumeration of placements), and on sampled indices and random
// positions for every 4- and 5-piece slice. With a mirror (Turkish) the bijection is between the
// indices and the canonical positions: every placement ranks to the entry of its canonical form,
// a placement and its mirror to the same entry, and each entry is reached by exactly the
// placements it stands for (one where the men are their own mirror, two elsewhere).
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <vector>

#include "dtb/index/slice_index.hpp"
#include "dtb/rules/variant.hpp"

using namespace dtb;

namespace {

// Calls f(position) for every placement of m: kinds placed in turn, each kind's squares ascending.
template <class R, class F>
void for_each_placement(const Material& m, F&& f) {
    using G = typename R::Geometry;
    const int count[4] = {m.wk, m.wm, m.bk, m.bm};
    Position p;
    auto place = [&](auto&& self, int kind, int left, int from) -> void {
        if (kind == 4) {
            if (is_indexable<R>(p)) f(p);
            return;
        }
        if (left == 0) {
            self(self, kind + 1, kind + 1 < 4 ? count[kind + 1] : 0, 0);
            return;
        }
        for (int d = from; d < G::kNumSquares; ++d) {
            const Bitboard b = bit(G::bit_of_dense(d));
            if (p.occupied() & b) continue;
            const int colour = kind < 2 ? 0 : 1;
            const bool king = kind % 2 == 0;
            p.pieces[colour] |= b;
            if (king) p.kings |= b;
            self(self, kind, left - 1, d + 1);
            p.pieces[colour] &= ~b;
            p.kings &= ~b;
        }
    };
    place(place, 0, count[0], 0);
}

// Empty when unrank(i) is a white-to-move, indexable position of m that ranks back to i.
template <class R>
std::string check_index(const SliceIndex<R>& idx, std::uint64_t i) {
    const Position p = idx.unrank(i);
    const auto at = [i](const char* what) { return std::string(what) + " at index " + std::to_string(i); };
    if (!is_indexable<R>(p)) return at("unrank is not indexable");
    if (Material::of(p) != idx.material()) return at("unrank has the wrong material");
    if (p.side_to_move != Color::white) return at("unrank has Black to move");
    if (idx.canonical(p) != p) return at("unrank is not canonical");
    if (idx.rank(p) != i) return at("rank(unrank(i)) != i");
    if constexpr (SliceIndex<R>::kMirror) {
        // One entry for a position and its mirror, unless its mirror key (men, or kings without
        // men) is its own mirror.
        const bool symmetric = idx.is_symmetric(p);
        if ((idx.rank(SliceIndex<R>::mirrored(p)) == i) == symmetric && SliceIndex<R>::mirrored(p) != p)
            return at("rank(mirror(unrank(i))) wrong");
    }
    return {};
}

template <class R>
void check_exhaustive(const Material& m) {
    INFO(R::kName << " " << m.name());
    const SliceIndex<R> idx(m);
    std::vector<int> seen(idx.size());
    std::uint64_t placements = 0, bad = 0;
    std::string first;
    for_each_placement<R>(m, [&](const Position& p) {
        ++placements;
        const std::uint64_t r = idx.rank(p);
        std::string err;
        if (r >= idx.size())
            err = "rank out of range";
        else if (idx.unrank(r) != idx.canonical(p))
            err = "unrank(rank(p)) != canonical(p) at " + std::to_string(r);
        if (r < idx.size()) ++seen[r];
        if (!err.empty() && bad++ == 0) first = err;
    });
    std::uint64_t entries_for_two = 0;
    for (std::uint64_t i = 0; i < idx.size(); ++i) {
        std::string err = check_index(idx, i);
        const Position p = idx.unrank(i);
        // An entry stands for its position, and for its mirror too unless it is symmetric.
        const bool for_two = SliceIndex<R>::kMirror && !idx.is_symmetric(p);
        entries_for_two += for_two;
        if (err.empty() && SliceIndex<R>::kMirror && for_two == idx.men_config_symmetric(i / idx.kings_per_config()))
            err = "men_config_symmetric wrong at index " + std::to_string(i);
        if (err.empty() && seen[i] != (for_two ? 2 : 1))
            err = "index " + std::to_string(i) + " reached by " + std::to_string(seen[i]) + " placements";
        if (!err.empty() && bad++ == 0) first = err;
    }
    INFO(first);
    CHECK(bad == 0);
    CHECK(placements == idx.size() + entries_for_two);
    CHECK(placements == idx.num_positions());
    if (SliceIndex<R>::kMirror) CHECK(entries_for_two > 0);  // kings-only slices too
}

// A uniformly random placement of m, drawn square by square.
template <class R>
Position random_placement(const Material& m, std::mt19937_64& rng) {
    using G = typename R::Geometry;
    for (;;) {
        Position p;
        const int count[4] = {m.wk, m.wm, m.bk, m.bm};
        std::uniform_int_distribution<int> square(0, G::kNumSquares - 1);
        for (int kind = 0; kind < 4; ++kind)
            for (int n = 0; n < count[kind];) {
                const Bitboard b = bit(G::bit_of_dense(square(rng)));
                if (p.occupied() & b) continue;
                p.pieces[kind < 2 ? 0 : 1] |= b;
                if (kind % 2 == 0) p.kings |= b;
                ++n;
            }
        if (is_indexable<R>(p)) return p;
    }
}

template <class R>
void check_sampled(int pieces, std::uint64_t samples_per_slice) {
    std::mt19937_64 rng(20240601);
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.pieces() != pieces) continue;
        INFO(R::kName << " " << m.name());
        const SliceIndex<R> idx(m);
        std::uniform_int_distribution<std::uint64_t> index(0, idx.size() - 1);
        std::uint64_t bad = 0;
        std::string first;
        for (std::uint64_t n = 0; n < samples_per_slice; ++n) {
            std::string err = check_index(idx, index(rng));
            if (!err.empty() && bad++ == 0) first = err;
        }
        for (std::uint64_t n = 0; n < samples_per_slice / 10; ++n) {
            const Position p = random_placement<R>(m, rng);
            const std::uint64_t r = idx.rank(p);
            if ((r >= idx.size() || idx.unrank(r) != idx.canonical(p)) && bad++ == 0)
                first = "unrank(rank(p)) != canonical(p)";
        }
        INFO(first);
        CHECK(bad == 0);
    }
}

}  // namespace

TEST_CASE("index is a bijection on every slice of up to 3 pieces", "[index][roundtrip]") {
    for (const Material& m : all_materials<International>(3)) check_exhaustive<International>(m);
    for (const Material& m : all_materials<Turkish>(3)) check_exhaustive<Turkish>(m);
}

TEST_CASE("index round trip on 10^6 samples of every 4-piece slice", "[index][roundtrip][plain-build]") {
    check_sampled<International>(4, 1'000'000);
    check_sampled<Turkish>(4, 1'000'000);
}

TEST_CASE("index round trip on 10^6 samples of every 5-piece slice", "[index][roundtrip][plain-build]") {
    check_sampled<International>(5, 1'000'000);
    check_sampled<Turkish>(5, 1'000'000);
}

namespace {

// step(p, i + 1) from p = unrank(i) gives unrank(i + 1): over the whole slice, or over `runs`
// runs of `length` consecutive indices from random starts (every run crosses several black-king
// and white-king wraps, and men-configuration changes where a configuration is short).
template <class R>
std::uint64_t check_steps(const Material& m, std::uint64_t runs, std::uint64_t length, std::mt19937_64& rng) {
    const SliceIndex<R> idx(m);
    std::uint64_t bad = 0;
    auto run_from = [&](std::uint64_t first, std::uint64_t n) {
        Position p = idx.unrank(first);
        for (std::uint64_t i = first + 1; i < first + n && i < idx.size(); ++i) {
            idx.step(p, i);
            if (p != idx.unrank(i)) {
                ++bad;
                p = idx.unrank(i);
            }
        }
    };
    if (runs == 0) {
        run_from(0, idx.size());
    } else {
        std::uniform_int_distribution<std::uint64_t> start(0, idx.size() - 1);
        for (std::uint64_t r = 0; r < runs; ++r) run_from(start(rng), length);
    }
    return bad;
}

template <class R>
void check_steps_up_to(int pieces, std::uint64_t runs, std::uint64_t length) {
    std::mt19937_64 rng(20261201);
    for (const Material& m : all_materials<R>(pieces)) {
        if (runs > 0 && m.pieces() != pieces) continue;
        INFO(R::kName << " " << m.name());
        CHECK(check_steps<R>(m, runs, length, rng) == 0);
    }
}

}  // namespace

TEST_CASE("stepping to the next index equals unranking it: every index up to 3 pieces", "[index][roundtrip]") {
    check_steps_up_to<International>(3, 0, 0);
    check_steps_up_to<Turkish>(3, 0, 0);
}

TEST_CASE("stepping to the next index equals unranking it: runs in every 4- and 5-piece slice",
          "[index][roundtrip][plain-build]") {
    for (int pieces : {4, 5}) {
        check_steps_up_to<International>(pieces, 20, 20'000);
        check_steps_up_to<Turkish>(pieces, 20, 20'000);
    }
}
