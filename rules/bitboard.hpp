// Bitboards: one bit per playable square, in the bit layout a BoardGeometry defines.
#pragma once
#include <bit>
#include <cstdint>

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

}  // namespace dtb
