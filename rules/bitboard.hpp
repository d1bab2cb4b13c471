// Bitboards: one bit per playable square, in the bit layout a BoardGeometry defines.
#pragma once
#include <bit>
#include <cstdint>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace dtb {

using Bitboard = std::uint64_t;

constexpr Bitboard bit(int b) { return Bitboard{1} << b; }
constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr int lowest_bit(Bitboard b) { return std::countr_zero(b); }
constexpr int highest_bit(Bitboard b) { return 63 - std::countl_zero(b); }
constexpr Bitboard without_lowest(Bitboard b) { return b & (b - 1); }

// Iterate over set bits: for (int sq : bits(bb)) ...
struct BitRange {
    Bitboard b;
    struct Iter {
        Bitboard b;
        int operator*() const { return lowest_bit(b); }
        Iter& operator++() {
            b = without_lowest(b);
            return *this;
        }
        bool operator!=(const Iter& o) const { return b != o.b; }
    };
    Iter begin() const { return {b}; }
    Iter end() const { return {0}; }
};
constexpr BitRange bits(Bitboard b) { return {b}; }

// Parallel bit deposit: the k-th lowest set bit of `into` is kept where bit k of `mask` is set.
// One instruction where the build targets BMI2 (unranking places a subset, given by positions
// among the free squares, with it); this loop elsewhere, and in the test that compares the two.
constexpr Bitboard deposit_bits_portable(Bitboard mask, Bitboard into) {
    Bitboard out = 0;
    for (; into && mask; mask >>= 1, into = without_lowest(into))
        if (mask & 1) out |= into & (0 - into);
    return out;
}
inline Bitboard deposit_bits(Bitboard mask, Bitboard into) {
#if defined(__BMI2__)
    return _pdep_u64(mask, into);
#else
    return deposit_bits_portable(mask, into);
#endif
}
static_assert(deposit_bits_portable(0b101, 0b11010) == 0b10010);

}  // namespace dtb
