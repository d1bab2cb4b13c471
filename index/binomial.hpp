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

struct Table {
    // c[k][n] = C(n, k): one contiguous row per k, so the rows a slice uses stay in cache.
    std::array<std::array<std::uint64_t, kMaxN + 1>, kMaxN + 1> c{};
};

constexpr Table make_table() {
    Table t{};
    for (int n = 0; n <= kMaxN; ++n) {
        t.c[0][n] = 1;
        for (int k = 1; k <= n; ++k) t.c[k][n] = t.c[k - 1][n - 1] + (k <= n - 1 ? t.c[k][n - 1] : 0);
    }
    return t;
}
inline constexpr Table kTable = make_table();
static_assert(kTable.c[2][50] == 1225 && kTable.c[5][45] == 1221759 && kTable.c[32][64] == 1832624140942590534ULL);

// C(n, k), 0 when k > n or k < 0.
constexpr std::uint64_t choose(int n, int k) {
    if (k < 0 || n < 0 || k > n) return 0;
    return kTable.c[k][n];
}

// Rank of the subset whose positions are ascending in pos[0..k-1].
constexpr std::uint64_t rank_subset(const int* pos, int k) {
    std::uint64_t r = 0;
    for (int i = 0; i < k; ++i) r += kTable.c[i + 1][pos[i]];
    return r;
}

// The inverse of rank_subset: writes k ascending positions below n into pos[0..k-1].
// Precondition: r < C(n, k).
constexpr void unrank_subset(std::uint64_t r, int k, int n, int* pos) {
    assert(r < choose(n, k));
    int hi = n;  // every remaining position is below hi
    for (int i = k; i >= 2; --i) {
        // The largest p in [i-1, hi-1] with C(p, i) <= r (C(i-1, i) = 0, so one exists).
        const auto& row = kTable.c[i];
        int lo = i - 1, up = hi - 1;
        while (lo < up) {
            const int mid = (lo + up + 1) >> 1;
            if (row[mid] <= r) {
                lo = mid;
            } else {
                up = mid - 1;
            }
        }
        pos[i - 1] = lo;
        r -= row[lo];
        hi = lo;
    }
    if (k >= 1) pos[0] = static_cast<int>(r);
}

}  // namespace dtb::binomial
