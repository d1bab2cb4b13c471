// Slice sizes against a closed formula computed here from the board alone, and against the
// published international counts.
#include <catch2/catch.hpp>

#include "dtb/index/slice_index.hpp"
#include "dtb/rules/variant.hpp"

using namespace dtb;

namespace {

// 128 bits so that the formula's intermediate products cannot overflow; __extension__ because
// -Wpedantic rejects __int128, a GCC/Clang extension.
__extension__ using u128 = unsigned __int128;

// C(n, k) by the multiplicative formula, independent of index/binomial.hpp.
u128 choose(int n, int k) {
    if (k < 0 || n < 0 || k > n) return 0;
    u128 r = 1;
    for (int i = 1; i <= k; ++i) r = r * static_cast<unsigned>(n - k + i) / static_cast<unsigned>(i);
    return r;
}

// Placements of m (with a mirror: canonical ones, see below): sum over j = white men standing on squares a black man
// may use of
//   C(both, j) C(white_only, wm - j) C(black_squares - j, bm) C(N - men, wk) C(N - men - wk, bk).
template <class R>
std::uint64_t closed_count(const Material& m, bool canonical = true) {
    using G = typename R::Geometry;
    const int h = G::kHeight;
    int both = 0, white_only = 0, black_squares = 0;
    for (int d = 0; d < G::kNumSquares; ++d) {
        const int rank = G::rank(G::bit_of_dense(d));
        const bool back_ok = !R::kManNeverOnOwnBackRow;
        const bool white_ok = rank != h - 1 && (back_ok || rank != 0);
        const bool black_ok = rank != 0 && (back_ok || rank != h - 1);
        both += white_ok && black_ok;
        white_only += white_ok && !black_ok;
        black_squares += black_ok;
    }
    const int n = G::kNumSquares, men = m.wm + m.bm;
    // Men configurations on `both`, `white_only`, `black` squares (or mirror pairs of squares).
    const auto men_configs = [](int both_, int white_only_, int black_, int wm, int bm) {
        u128 configs = 0;
        for (int j = 0; j <= wm; ++j)
            configs += choose(both_, j) * choose(white_only_, wm - j) * choose(black_ - j, bm);
        return configs;
    };
    u128 total = men_configs(both, white_only, black_squares, m.wm, m.bm);
    if (SliceIndex<R>::kMirror && canonical) {
        // Canonical configurations: one of each pair of mirror images, plus those that are their
        // own mirror. A symmetric configuration is a choice of mirror pairs of squares; a square
        // and its mirror share their rank, so the three kinds of square come in pairs.
        const u128 symmetric =
            m.wm % 2 || m.bm % 2 ? 0 : men_configs(both / 2, white_only / 2, black_squares / 2, m.wm / 2, m.bm / 2);
        total = (total + symmetric) / 2;
    }
    total *= choose(n - men, m.wk) * choose(n - men - m.wk, m.bk);
    if (SliceIndex<R>::kMirror && canonical && men == 0) {
        // Without men the quotient is over the kings: placements plus those that are their own
        // mirror (king sets made of mirror pairs), halved.
        const u128 symmetric = m.wk % 2 || m.bk % 2 ? 0 : choose(n / 2, m.wk / 2) * choose(n / 2 - m.wk / 2, m.bk / 2);
        total = (total + symmetric) / 2;
    }
    REQUIRE(total >> 64 == 0);
    return static_cast<std::uint64_t>(total);
}

template <class R>
void check_sizes(int max_pieces) {
    for (const Material& m : all_materials<R>(max_pieces)) {
        INFO(R::kName << " " << m.name());
        const SliceIndex<R> idx(m);
        CHECK(idx.size() == closed_count<R>(m));
        CHECK(idx.num_positions() == closed_count<R>(m, false));
        CHECK(idx.size() == idx.num_men_configs() * idx.kings_per_config());
        const int free = R::Geometry::kNumSquares - m.men();
        const bool kings_as_men = SliceIndex<R>::kMirror && m.men() == 0;
        CHECK(idx.kings_as_men() == kings_as_men);
        CHECK(idx.kings_per_config() ==
              (kings_as_men ? 1 : static_cast<std::uint64_t>(choose(free, m.wk) * choose(free - m.wk, m.bk))));
    }
}

// Material from the (WM, BM, WK, BK) order the published tables use.
Material wm_bm_wk_bk(int wm, int bm, int wk, int bk) {
    return Material{wk, wm, bk, bm};
}

}  // namespace

TEST_CASE("slice sizes match the closed formula up to 5 pieces", "[index][size]") {
    check_sizes<International>(5);
    check_sizes<Turkish>(5);
}

TEST_CASE("slice sizes match the published international counts", "[index][size]") {
    CHECK(SliceIndex<International>(wm_bm_wk_bk(0, 0, 1, 1)).size() == 2'450);
    CHECK(SliceIndex<International>(wm_bm_wk_bk(1, 0, 1, 1)).size() == 105'840);
    CHECK(SliceIndex<International>(wm_bm_wk_bk(1, 1, 1, 1)).size() == 4'478'160);
    CHECK(SliceIndex<International>(wm_bm_wk_bk(1, 1, 2, 1)).size() == 102'997'680);
    CHECK(SliceIndex<International>(wm_bm_wk_bk(1, 1, 2, 2)).size() == 2'317'447'800);
}

TEST_CASE("SliceIndex refuses material that does not fit", "[index][size]") {
    CHECK_THROWS_AS(SliceIndex<International>(Material{0, 0, 1, 0}), std::invalid_argument);
    CHECK_THROWS_AS(SliceIndex<Turkish>(Material{0, 49, 1, 0}), std::invalid_argument);
}
