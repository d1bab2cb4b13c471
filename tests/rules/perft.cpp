// Perft acceptance counts of the "Foundation" issue.
//
// Sources of the published numbers: the Foundation issue text, and docs/RULES.md sections 1
// ("international start position, depth 9: 41,022,423 unique, 41,022,614 paths") and 2 ("the
// published Turkish counts (start position: 8, 64, 708, 7538, 85090, 931312, 10782382, ...)
// count paths, and the unique count at depth 7 is 10,782,308"). The other international positions
// (the Woldouby position, the all-kings and near-promotion positions and the king position with
// Black to move) are the well-known perft test positions of international draughts quoted in the
// issue.
#include "dtb/rules/perft.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string_view>
#include <vector>

#include "dtb/rules/fen.hpp"
#include "tests/support/rules_support.hpp"

using namespace dtb;

namespace {

using test::pos;

// Checks depths first_depth.. against `expected`.
template <class R>
void check_perft(std::string_view fen, CaptureMode mode, const std::vector<std::uint64_t>& expected,
                 int first_depth = 1) {
    const Position p = pos<R>(fen);
    Perft<R> perft(mode);
    for (size_t i = 0; i < expected.size(); ++i) {
        const int depth = first_depth + static_cast<int>(i);
        INFO(fen << " " << (mode == CaptureMode::unique ? "unique" : "paths") << " depth " << depth);
        CHECK(perft.count(p, depth) == expected[i]);
    }
}

}  // namespace

TEST_CASE("perft international start, unique mode, depths 1-8", "[rules][perft][plain-build]") {
    check_perft<International>("W:W31-50:B1-20", CaptureMode::unique,
                               {9, 81, 658, 4265, 27117, 167140, 1049442, 6483961});
}

TEST_CASE("perft international start, unique mode, depth 9", "[rules][perft][.slow]") {
    check_perft<International>("W:W31-50:B1-20", CaptureMode::unique, {41022423}, 9);
}

TEST_CASE("perft international start, paths mode, depths 1-8", "[rules][perft][plain-build]") {
    // Only depths 8 and 9 are published for paths mode; depths 1-7 are checked against the unique
    // counts, from which they may differ only if a capture with two paths occurs before ply 7.
    check_perft<International>("W:W31-50:B1-20", CaptureMode::paths,
                               {9, 81, 658, 4265, 27117, 167140, 1049442, 6483971});
}

TEST_CASE("perft international start, paths mode, depth 9", "[rules][perft][.slow]") {
    check_perft<International>("W:W31-50:B1-20", CaptureMode::paths, {41022614}, 9);
}

TEST_CASE("perft international kings position, Black to move", "[rules][perft]") {
    check_perft<International>("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46", CaptureMode::unique,
                               {14, 55, 1168, 5432, 87195});
}

TEST_CASE("perft international Woldouby position", "[rules][perft]") {
    check_perft<International>("W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26", CaptureMode::unique,
                               {6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050});
}

TEST_CASE("perft international all kings", "[rules][perft]") {
    check_perft<International>("W:WK31-50:BK1-20", CaptureMode::unique, {17, 79, 352, 1399, 7062, 37589});
}

TEST_CASE("perft international near promotion", "[rules][perft]") {
    check_perft<International>("W:W6,7,8,9,10:B41,42,43,44,45", CaptureMode::unique, {9, 81, 795, 7578, 86351});
}

TEST_CASE("perft turkish start, paths mode, depths 1-7", "[rules][perft]") {
    check_perft<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7", CaptureMode::paths,
                         {8, 64, 708, 7538, 85090, 931312, 10782382});
}

TEST_CASE("perft turkish start, paths mode, depth 8", "[rules][perft][.slow]") {
    check_perft<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7", CaptureMode::paths, {123290300}, 8);
}

TEST_CASE("perft turkish start, unique mode, depth 7", "[rules][perft]") {
    check_perft<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7", CaptureMode::unique, {10782308}, 7);
}

TEST_CASE("perft edge cases", "[rules][perft]") {
    Perft<International> perft(CaptureMode::unique);
    const Position start = pos<International>("W:W31-50:B1-20");
    CHECK(perft.count(start, 0) == 1);
    // A side without moves: no leaves below it.
    CHECK(perft.count(pos<International>("W:W46:B37,41"), 1) == 0);
    CHECK(perft.count(pos<International>("W:W46:B37,41"), 3) == 0);
    CHECK(perft.count(pos<International>("W:W:B1"), 2) == 0);
    // The same Perft object gives the same answers when reused, deeper or shallower.
    CHECK(perft.count(start, 5) == 27117);
    CHECK(perft.count(start, 2) == 81);
    CHECK(perft.count(start, 5) == 27117);
}

TEST_CASE("perft is invariant under colour reversal", "[rules][perft]") {
    // reversed() maps a position onto the same game seen from the other side: every perft count of
    // a position equals that of its reversal.
    for (const char* fen : {"W:W31-50:B1-20", "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
                            "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"}) {
        const Position p = pos<International>(fen);
        Perft<International> a(CaptureMode::paths), b(CaptureMode::paths);
        INFO(fen);
        for (int d = 1; d <= 5; ++d) CHECK(a.count(p, d) == b.count(reversed<International::Geometry>(p), d));
    }
    const Position t = pos<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7");
    Perft<Turkish> a(CaptureMode::paths), b(CaptureMode::paths);
    for (int d = 1; d <= 5; ++d) CHECK(a.count(t, d) == b.count(reversed<Turkish::Geometry>(t), d));
}
