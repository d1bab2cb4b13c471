// Shared by the rules tests.
#pragma once
#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::test {

// Rule fields that no shipped variant sets, so that their code paths are compiled and exercised.
struct InternationalShortKings : International {
    static constexpr bool kFlyingKings = false;
};
struct TurkishCrowningAtOnce : Turkish {
    static constexpr bool kPromoteMidCapture = true;
};

// "[a,b,...]": the squares of b in board order, as move lists in the tests print captured sets.
template <class R>
std::string captured_list(Bitboard b) {
    using G = typename R::Geometry;
    std::string s = "[";
    bool first = true;
    for (int d = 0; d < G::kNumSquares; ++d) {
        const int sq = G::bit_of_dense(d);
        if (!(b & bit(sq))) continue;
        if (!first) s += ",";
        first = false;
        s += G::square_name(sq);
    }
    return s + "]";
}

// The position of a FEN the test knows to be valid (fails the test otherwise).
template <class R>
Position pos(std::string_view fen) {
    auto p = parse_fen<R>(fen);
    INFO("FEN " << fen << ": " << (p.ok() ? std::string("ok") : p.error()));
    REQUIRE(p.ok());
    return *p;
}

}  // namespace dtb::test
