// The don't-care fills of gen/dont_care.hpp: quiet entries are never changed, and capture entries
// get the value each fill promises.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "gen/dont_care.hpp"

using dtb::gen::fill_dont_care;

namespace {
constexpr std::uint16_t X = 9;  // a don't-care entry's stored value before the fill
constexpr std::uint16_t kDraw = 1;
}  // namespace

TEST_CASE("fill_dont_care without between: the last quiet value before, the first one for a leading run", "[gen]") {
    std::vector<std::uint16_t> v{X, X, 2, X, 0, X, X};
    const std::vector<std::uint8_t> cap{1, 1, 0, 1, 0, 1, 1};
    fill_dont_care(v, cap);
    CHECK(v == std::vector<std::uint16_t>{2, 2, 2, 2, 0, 0, 0});
    std::vector<std::uint16_t> all{X, X};
    fill_dont_care(all, std::vector<std::uint8_t>(2, 1));
    CHECK(all == std::vector<std::uint16_t>{X, X});
}

TEST_CASE("fill_dont_care with between: equal neighbours extend, different ones meet at draw", "[gen]") {
    std::vector<std::uint16_t> v{X, 2, X, X, 2, X, 0, X, X};
    const std::vector<std::uint8_t> cap{1, 0, 1, 1, 0, 1, 0, 1, 1};
    fill_dont_care(v, cap, kDraw);
    //          leading: first quiet | 2..2 agree | 2..0 differ | trailing: last quiet
    CHECK(v == std::vector<std::uint16_t>{2, 2, 2, 2, 2, kDraw, 0, 0, 0});
}

TEST_CASE("fill_dont_care with between: quiet entries are kept, an all-capture table is left alone", "[gen]") {
    std::vector<std::uint16_t> quiet{0, 2, 1, 0};
    fill_dont_care(quiet, std::vector<std::uint8_t>(4, 0), kDraw);
    CHECK(quiet == std::vector<std::uint16_t>{0, 2, 1, 0});
    std::vector<std::uint16_t> all{X, X, X};
    fill_dont_care(all, std::vector<std::uint8_t>(3, 1), kDraw);
    CHECK(all == std::vector<std::uint16_t>{X, X, X});
    std::vector<std::uint16_t> empty;
    fill_dont_care(empty, std::vector<std::uint8_t>{}, kDraw);
    CHECK(empty.empty());
}
