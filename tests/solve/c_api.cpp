// dtb_solve, the C call of the solver (include/dtb/dtb.h): answers, the best move, bounds, and
// its refusals.
#include <catch2/catch.hpp>
#include <string>

#include "dtb/dtb.h"
#include "tests/support/solve_support.hpp"

TEST_CASE("dtb_solve: a 4-piece win from the 3-piece tables", "[solve][c_api]") {
    const dtb::test::SmallerTables small(dtb::test::full_tables(dtb::VariantId::international, 3), 3, "solve_c_api");
    dtb_tablebase* tb = nullptr;
    REQUIRE(dtb_open(small.dir().c_str(), DTB_VARIANT_INTERNATIONAL, 16, DTB_ALL, &tb) == DTB_OK);
    int answer = -2, lower = -2, upper = -2;
    char move[64];
    CHECK(dtb_solve(tb, "W:WK1,K26,K30:B32", 10, 100000, 16, &answer, &lower, &upper, move, sizeof move) == DTB_OK);
    CHECK(answer == DTB_WIN);
    CHECK(lower == DTB_WIN);
    CHECK(upper == DTB_WIN);
    CHECK(std::string(move).size() >= 3);  // "1-7"
    CHECK(dtb_solve(tb, "W:WK46,K48:BK3,K1", 10, 100000, 16, &answer, nullptr, nullptr, nullptr, 0) == DTB_OK);
    CHECK(answer == DTB_DRAW);
    // Refusals: no limit, no memory, a malformed FEN, a buffer too small.
    CHECK(dtb_solve(tb, "W:WK1,K26,K30:B32", 0, 0, 16, &answer, nullptr, nullptr, nullptr, 0) == DTB_BAD_ARGUMENT);
    CHECK(dtb_solve(tb, "W:WK1,K26,K30:B32", 1, 0, 0, &answer, nullptr, nullptr, nullptr, 0) == DTB_BAD_ARGUMENT);
    CHECK(dtb_solve(tb, "W:Wxx", 1, 0, 16, &answer, nullptr, nullptr, nullptr, 0) == DTB_BAD_ARGUMENT);
    char tiny[2];
    CHECK(dtb_solve(tb, "W:WK1,K26,K30:B32", 1, 0, 16, &answer, nullptr, nullptr, tiny, sizeof tiny) ==
          DTB_BAD_ARGUMENT);
    CHECK(std::string(dtb_last_error()).find("buffer") != std::string::npos);
    dtb_close(tb);
}
