// gen/wdl_storage.hpp: which side of a pair gets a derived WDL table under each --wdl choice.
#include "dtb/gen/wdl_storage.hpp"

#include <catch2/catch.hpp>

using dtb::gen::kBalancedMinBytes;
using dtb::gen::side_to_derive;
using dtb::gen::WdlStorage;

TEST_CASE("side_to_derive: both-sides never derives", "[gen]") {
    CHECK(side_to_derive(WdlStorage::both_sides, {5'000'000, 10}, {true, true}) == -1);
}

TEST_CASE("side_to_derive: compact derives the larger side that may be derived", "[gen]") {
    CHECK(side_to_derive(WdlStorage::compact, {100, 300}, {true, true}) == 1);
    CHECK(side_to_derive(WdlStorage::compact, {300, 100}, {true, true}) == 0);
    CHECK(side_to_derive(WdlStorage::compact, {300, 100}, {false, true}) == 1);  // the other, however small
    CHECK(side_to_derive(WdlStorage::compact, {300, 100}, {false, false}) == -1);
    CHECK(side_to_derive(WdlStorage::compact, {200, 200}, {true, true}) == 0);  // a tie: the first
}

TEST_CASE("side_to_derive: balanced derives a large side at least twice its mirror, nothing else", "[gen]") {
    const std::uint64_t big = 3 * kBalancedMinBytes;
    CHECK(side_to_derive(WdlStorage::balanced, {big, big / 2}, {true, true}) == 0);  // exactly twice
    CHECK(side_to_derive(WdlStorage::balanced, {big / 2, big}, {true, true}) == 1);
    CHECK(side_to_derive(WdlStorage::balanced, {big, big / 2 + 1}, {true, true}) == -1);  // just under twice
    CHECK(side_to_derive(WdlStorage::balanced, {big, 0}, {true, true}) == 0);
    // The larger side may not be derived: the smaller is not derived in its place.
    CHECK(side_to_derive(WdlStorage::balanced, {big, 10}, {false, true}) == -1);
    // Below the floor, however lopsided.
    CHECK(side_to_derive(WdlStorage::balanced, {kBalancedMinBytes - 1, 1}, {true, true}) == -1);
    CHECK(side_to_derive(WdlStorage::balanced, {kBalancedMinBytes, 1}, {true, true}) == 0);
    // The floor is a parameter (tests lower it).
    CHECK(side_to_derive(WdlStorage::balanced, {1000, 400}, {true, true}, 1000) == 0);
    CHECK(side_to_derive(WdlStorage::balanced, {999, 400}, {true, true}, 1000) == -1);
}
