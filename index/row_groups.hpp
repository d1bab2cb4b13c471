// Helpers for retrograde groups where men move sideways (Turkish): a group is every men
// configuration with the same number of white men on each row and of black men on each row, i.e.
// the same multiset of white-man rows and of black-man rows. Sideways man moves stay inside it.
//
// A multiset of k values in [0, rows) is coded by the combinatorial number system: sorted values
// a_0 <= a_1 <= ... <= a_{k-1} become the strictly increasing b_j = a_j + j in [0, rows + k - 1),
// so there are C(rows + k - 1, k) multisets, ranked densely.
#pragma once
#include <array>
#include <cstdint>

#include "binomial.hpp"
#include "dtb/rules/bitboard.hpp"

namespace dtb::row_groups {

inline constexpr int kMaxRows = 16;
using RowCounts = std::array<int, kMaxRows>;  // men per row, indexed by row offset

constexpr std::uint64_t num_multisets(int rows, int k) {
    return binomial::choose(rows + k - 1, k);
}

constexpr std::uint64_t rank_multiset(const RowCounts& counts, int rows) {
    int b[64];
    int j = 0;
    for (int row = 0; row < rows; ++row)
        for (int c = 0; c < counts[row]; ++c, ++j) b[j] = row + j;
    return binomial::rank_subset(b, j);
}

constexpr RowCounts unrank_multiset(std::uint64_t r, int rows, int k) {
    int b[64];
    binomial::unrank_subset(r, k, rows + k - 1, b);
    RowCounts counts{};
    for (int j = 0; j < k; ++j) ++counts[b[j] - j];
    return counts;
}

// Calls f(set) for every subset of `avail` with exactly counts[r] squares on the row
// row_mask(r) for each r < rows (row_mask: int -> Bitboard). Recursion depth is `rows`.
template <class RowMask, class F>
void for_each_set_with_row_counts(Bitboard avail, const RowCounts& counts, int rows, const RowMask& row_mask, F&& f,
                                  int row = 0, Bitboard acc = 0) {
    if (row == rows) {
        f(acc);
        return;
    }
    const int c = counts[row];
    if (c == 0) {
        for_each_set_with_row_counts(avail, counts, rows, row_mask, f, row + 1, acc);
        return;
    }
    const Bitboard here = avail & row_mask(row);
    int sq[64], n = 0;
    for (int s : bits(here)) sq[n++] = s;
    const std::uint64_t total = binomial::choose(n, c);
    int pos[64];
    for (std::uint64_t i = 0; i < total; ++i) {
        binomial::unrank_subset(i, c, n, pos);
        Bitboard chosen = 0;
        for (int j = 0; j < c; ++j) chosen |= bit(sq[pos[j]]);
        for_each_set_with_row_counts(avail, counts, rows, row_mask, f, row + 1, acc | chosen);
    }
}

}  // namespace dtb::row_groups
