// deposit_bits (BMI2's pdep where the build targets it) against the portable loop, and the
// portable loop against its definition (the k-th set bit of `into` kept where bit k of the mask
// is set), on random and edge-case bitboards.
#include "dtb/rules/bitboard.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace dtb;

namespace {
Bitboard deposit_by_definition(Bitboard mask, Bitboard into) {
    Bitboard out = 0;
    int k = 0;
    for (int b = 0; b < 64; ++b) {
        if (!(into & bit(b))) continue;
        if (k < 64 && (mask & bit(k))) out |= bit(b);
        ++k;
    }
    return out;
}
}  // namespace

TEST_CASE("deposit_bits places the mask's bits on the set bits of into, in order", "[rules][bitboard]") {
    std::mt19937_64 rng(2026);
    int bad = 0;
    auto check = [&](Bitboard mask, Bitboard into) {
        const Bitboard expected = deposit_by_definition(mask, into);
        bad += deposit_bits_portable(mask, into) != expected;
        bad += deposit_bits(mask, into) != expected;
    };
    for (Bitboard edge : {Bitboard{0}, ~Bitboard{0}, Bitboard{1}, bit(63), Bitboard{0x5555555555555555}})
        for (Bitboard other : {Bitboard{0}, ~Bitboard{0}, Bitboard{0xF0F0F0F0F0F0F0F0}}) {
            check(edge, other);
            check(other, edge);
        }
    for (int n = 0; n < 100'000; ++n) {
        const Bitboard into = rng() & rng();  // sparse and dense ones
        check(rng() >> (n % 64), n % 2 ? into : rng());
    }
    CHECK(bad == 0);
}
