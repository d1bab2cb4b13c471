// Shared by the rules tests.
#pragma once
#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "rules/fen.hpp"

namespace dtb::test {

// The position of a FEN the test knows to be valid (fails the test otherwise).
template <class R>
Position pos(std::string_view fen) {
    auto p = parse_fen<R>(fen);
    INFO("FEN " << fen << ": " << (p.ok() ? std::string("ok") : p.error()));
    REQUIRE(p.ok());
    return *p;
}

}  // namespace dtb::test
