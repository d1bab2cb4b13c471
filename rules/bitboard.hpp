// Bitboards: one bit per playable square, in the bit layout a BoardGeometry defines.
#pragma once
#include <bit>
#include <cstdint>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace dtb {

using Bitboard = std::uint64_t;

constexpr Bitboard bit(int b) {
    return Bitboard{1} << b;
}
constexpr int popcount(Bitboard b) {
    return std::popcount(b);
}
constexpr int lowest_bit(Bitboard b) {
    return std::countr_zero(b);
}
constexpr int highest_bit(Bitboard b) {
    return 63 - std::countl_zero(b);
}
constexpr Bitboard without_lowest(Bitboard b) {
    return b & (b - 1);
}

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
constexpr BitRange bits(Bitboard b) {
    return {b};
}

// Parallel bit deposit: the k-th lowest set bit of `into` is kept where bit k of `mask` is set
// (unranking places a subset, given by positions among the free squares, with it).
constexpr Bitboard deposit_bits_portable(Bitboard mask, Bitboard into) {
    Bitboard out = 0;
    for (; into && mask; mask >>= 1, into = without_lowest(into))
        if (mask & 1) out |= into & (0 - into);
    return out;
}

// One definition whatever flags a translation unit is compiled with (no ODR trap when a program
// mixes a portable library with code built for its machine): BMI2's one instruction where the
// processor has it, chosen at run time, the loop elsewhere.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
[[gnu::target("bmi2")]] inline Bitboard deposit_bits_bmi2(Bitboard mask, Bitboard into) {
    return _pdep_u64(mask, into);
}
inline bool processor_has_bmi2() {
    static const bool has = __builtin_cpu_supports("bmi2");
    return has;
}
inline Bitboard deposit_bits(Bitboard mask, Bitboard into) {
    return processor_has_bmi2() ? deposit_bits_bmi2(mask, into) : deposit_bits_portable(mask, into);
}
#else
inline Bitboard deposit_bits(Bitboard mask, Bitboard into) {
    return deposit_bits_portable(mask, into);
}
#endif
static_assert(deposit_bits_portable(0b101, 0b11010) == 0b10010);

}  // namespace dtb
