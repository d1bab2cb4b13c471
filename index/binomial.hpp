// Binomial coefficients and the combinatorial number system, the building block of every index.
//
// A k-subset of {0..n-1}, written as positions p_1 < p_2 < ... < p_k, has the rank
//     sum_{i=1..k} C(p_i, i)
// which numbers all C(n, k) subsets densely from 0, whatever n is (the rank does not depend on n,
// only on the positions). Unranking takes the largest p_k with C(p_k, k) <= r, subtracts, and goes
// on with k-1.
#pragma once
#include <array>
#include <cassert>
#include <cstdint>

namespace dtb::binomial {

// Subsets of up to 64 squares; C(64, 32) < 2^61, so every entry fits.
inline constexpr int kMaxN = 64;
// Rows are padded to 128 columns with UINT64_MAX, so that a branchless binary search for the
// largest n with C(n, k) <= r may probe past n = 64 (it never goes there for a valid r).
inline constexpr int kRowLength = 128;

struct Table {
    // c[k][n] = C(n, k): one contiguous row per k, so the rows a slice uses stay in cache.
    std::array<std::array<std::uint64_t, kRowLength>, kMaxN + 1> c{};
};

constexpr Table make_table() {
    Table t{};
    for (int n = 0; n <= kMaxN; ++n) {
        t.c[0][n] = 1;
        for (int k = 1; k <= n; ++k) t.c[k][n] = t.c[k - 1][n - 1] + t.c[k][n - 1];
    }
    for (auto& row : t.c)
        for (int n = kMaxN + 1; n < kRowLength; ++n) row[n] = ~std::uint64_t{0};
    return t;
}
inline constexpr Table kTable = make_table();
static_assert(kTable.c[2][50] == 1225 && kTable.c[5][45] == 1221759 && kTable.c[32][64] == 1832624140942590534ULL);

// C(n, k), 0 when k > n or k < 0.
constexpr std::uint64_t choose(int n, int k) {
    if (k < 0 || n < 0 || k > n) return 0;
    assert(n <= kMaxN);
    return kTable.c[k][n];
}

// Rank of the subset whose positions are ascending in pos[0..k-1].
constexpr std::uint64_t rank_subset(const int* pos, int k) {
    std::uint64_t r = 0;
    for (int i = 0; i < k; ++i) r += kTable.c[i + 1][pos[i]];
    return r;
}

// Every 2- and 3-subset of {0..63} by rank, 6 bits per position, lowest position lowest, so
// that the last three positions of a subset come from one lookup (rank order is colex order).
struct SmallSubsets {
    std::array<std::uint16_t, 2016> two{};     // C(64, 2)
    std::array<std::uint32_t, 41664> three{};  // C(64, 3)
};
constexpr SmallSubsets make_small_subsets() {
    SmallSubsets t{};
    int i = 0;
    for (int b = 1; b < 64; ++b)
        for (int a = 0; a < b; ++a) t.two[i++] = static_cast<std::uint16_t>(a | b << 6);
    i = 0;
    for (int c = 2; c < 64; ++c)
        for (int b = 1; b < c; ++b)
            for (int a = 0; a < b; ++a) t.three[i++] = static_cast<std::uint32_t>(a | b << 6 | c << 12);
    return t;
}
inline constexpr SmallSubsets kSmallSubsets = make_small_subsets();

// The inverse of rank_subset: writes k ascending positions below n into pos[0..k-1].
// Precondition: r < C(n, k). (The result does not depend on n; n only bounds it.)
constexpr void unrank_subset(std::uint64_t r, int k, [[maybe_unused]] int n, int* pos) {
    assert(r < choose(n, k));
    for (int i = k; i > 3; --i) {
        // The largest p with C(p, i) <= r; it is below the previous position since r < C(hi, i).
        const auto& row = kTable.c[i];
        int p = 0;
        for (int step = 32; step > 0; step >>= 1) p += row[p + step] <= r ? step : 0;
        pos[i - 1] = p;
        r -= row[p];
    }
    if (k >= 3) {
        const std::uint32_t t = kSmallSubsets.three[r];
        pos[0] = static_cast<int>(t & 63), pos[1] = static_cast<int>(t >> 6 & 63), pos[2] = static_cast<int>(t >> 12);
    } else if (k == 2) {
        const std::uint16_t t = kSmallSubsets.two[r];
        pos[0] = t & 63, pos[1] = t >> 6;
    } else if (k == 1) {
        pos[0] = static_cast<int>(r);
    }
}

}  // namespace dtb::binomial
