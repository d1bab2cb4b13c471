// Unit tests of the move generator on hand-made positions (RULES.md sections 1 and 2). Every
// expected move list below was worked out by hand; the reasoning is in the comments. Coordinates
// in comments for international draughts are (row from the top 1..10, column from the left 1..10),
// so that square 1 = (1,2), 46 = (10,1), and the dark squares are those with row + column odd.
#include <algorithm>
#include <catch2/catch.hpp>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/rules/count.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/notation.hpp"
#include "tests/support/rules_support.hpp"

using namespace dtb;

namespace {

using test::captured_list;
using test::pos;
using test::TurkishCrowningAtOnce;

// "path [captured] +K" where +K marks a promotion; the whole effect of a move, path included.
template <class R>
std::string full(const Move& m) {
    std::string s = move_full_path<R>(m);
    if (m.is_capture()) s.append(" ").append(captured_list<R>(m.captured));
    if (m.promotes) s += " +K";
    return s;
}

// "from x to [captured] +K": what makes two moves the same move in unique mode.
template <class R>
std::string effect(const Move& m) {
    using G = typename R::Geometry;
    std::string s = G::square_name(m.from) + (m.is_capture() ? "x" : "-") + G::square_name(m.to);
    if (m.is_capture()) s.append(" ").append(captured_list<R>(m.captured));
    if (m.promotes) s += " +K";
    return s;
}

template <class R>
std::vector<std::string> moves_full(const Position& p, CaptureMode mode) {
    MoveList l;
    generate_moves<R>(p, l, mode);
    std::vector<std::string> v;
    for (const Move& m : l) v.push_back(full<R>(m));
    std::sort(v.begin(), v.end());
    return v;
}

template <class R>
std::vector<std::string> moves_effect(const Position& p, CaptureMode mode) {
    MoveList l;
    generate_moves<R>(p, l, mode);
    std::vector<std::string> v;
    for (const Move& m : l) v.push_back(effect<R>(m));
    std::sort(v.begin(), v.end());
    return v;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

template <class R>
int sq(std::string_view name) {
    const auto b = R::Geometry::parse_square(name);
    REQUIRE(b.has_value());
    return *b;
}

// Square number of (row from the top, column from the left) on the international board, computed
// independently of geometry.hpp: odd rows hold columns 2,4,..,10, even rows columns 1,3,..,9.
int intl_number(int row, int col) {
    const int i = row % 2 == 1 ? (col - 2) / 2 : (col - 1) / 2;
    return (row - 1) * 5 + i + 1;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Geometry: the hand reasoning below depends on it, so it is checked first, independently.

TEST_CASE("international geometry matches RULES.md numbering", "[rules][geometry]") {
    using G = International::Geometry;
    // RULES 1: 46 is the bottom-left corner; the long diagonal 46-41-37-32-28-23-19-14-10-5.
    const int diag[] = {46, 41, 37, 32, 28, 23, 19, 14, 10, 5};
    for (int i = 0; i + 1 < 10; ++i) {
        CHECK(G::neighbor(sq<International>(std::to_string(diag[i])), Dir::NE) ==
              sq<International>(std::to_string(diag[i + 1])));
        CHECK(G::neighbor(sq<International>(std::to_string(diag[i + 1])), Dir::SW) ==
              sq<International>(std::to_string(diag[i])));
    }
    int count = 0;
    for (int row = 1; row <= 10; ++row) {
        for (int col = 1; col <= 10; ++col) {
            if ((row + col) % 2 == 0) continue;
            ++count;
            const int n = intl_number(row, col);
            const int b = sq<International>(std::to_string(n));
            CHECK(G::square_name(b) == std::to_string(n));
            CHECK(G::rank(b) == 10 - row);
            CHECK(G::file(b) == col - 1);
            // Neighbours: North is towards row 1 (White's promotion row).
            const struct {
                Dir d;
                int dr, dc;
            } steps[] = {{Dir::NW, -1, -1}, {Dir::NE, -1, +1}, {Dir::SW, +1, -1}, {Dir::SE, +1, +1}};
            for (const auto& s : steps) {
                const int r = row + s.dr, c = col + s.dc;
                const bool on = r >= 1 && r <= 10 && c >= 1 && c <= 10;
                INFO("square " << n << " dir " << static_cast<int>(s.d));
                if (on)
                    CHECK(G::neighbor(b, s.d) == sq<International>(std::to_string(intl_number(r, c))));
                else
                    CHECK(G::neighbor(b, s.d) == -1);
            }
            CHECK(G::rotate_bit(b) == sq<International>(std::to_string(51 - n)));
        }
    }
    CHECK(count == 50);
    CHECK_FALSE(G::parse_square("0"));
    CHECK_FALSE(G::parse_square("51"));
    CHECK_FALSE(G::parse_square("a1"));
}

TEST_CASE("turkish geometry: a1..h8, all 64 squares", "[rules][geometry]") {
    using G = Turkish::Geometry;
    for (int r = 0; r < 8; ++r) {
        for (int f = 0; f < 8; ++f) {
            std::string name;
            name += static_cast<char>('a' + f);
            name += std::to_string(r + 1);
            const int b = sq<Turkish>(name);
            CHECK(G::square_name(b) == name);
            CHECK(G::rank(b) == r);
            CHECK(G::file(b) == f);
            CHECK(G::neighbor(b, Dir::N) == (r < 7 ? b + 8 : -1));
            CHECK(G::neighbor(b, Dir::S) == (r > 0 ? b - 8 : -1));
            CHECK(G::neighbor(b, Dir::E) == (f < 7 ? b + 1 : -1));
            CHECK(G::neighbor(b, Dir::W) == (f > 0 ? b - 1 : -1));
            std::string rot;
            rot += static_cast<char>('a' + 7 - f);
            rot += std::to_string(8 - r);
            CHECK(G::rotate_bit(b) == sq<Turkish>(rot));
        }
    }
    CHECK_FALSE(G::parse_square("i3"));
    CHECK_FALSE(G::parse_square("a9"));
    CHECK_FALSE(G::parse_square("a0"));
    CHECK_FALSE(G::parse_square("31"));
}

// ---------------------------------------------------------------------------------------------
// Start positions and plain moves.

TEST_CASE("international start: nine man moves", "[rules][movegen]") {
    const Position p = pos<International>("W:W31-50:B1-20");
    CHECK(moves_full<International>(p, CaptureMode::unique) ==
          sorted({"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}));
    Position b = p;
    b.side_to_move = Color::black;
    CHECK(moves_full<International>(b, CaptureMode::unique) ==
          sorted({"16-21", "17-21", "17-22", "18-22", "18-23", "19-23", "19-24", "20-24", "20-25"}));
}

TEST_CASE("turkish start: eight forward moves, no sideways room", "[rules][movegen]") {
    const Position p = pos<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7");
    CHECK(moves_full<Turkish>(p, CaptureMode::unique) ==
          sorted({"a3-a4", "b3-b4", "c3-c4", "d3-d4", "e3-e4", "f3-f4", "g3-g4", "h3-h4"}));
}

TEST_CASE("turkish man moves forward and sideways, king flies orthogonally", "[rules][movegen]") {
    // White man d4: d5, c4, e4 (never backward, never diagonal). White king a1 (corner): a2..a8 and
    // b1..h1, 14 moves. Black man h7 is far away.
    CHECK(moves_full<Turkish>(pos<Turkish>("W:Wd4:Bh7"), CaptureMode::unique) == sorted({"d4-d5", "d4-c4", "d4-e4"}));
    std::vector<std::string> king;
    for (char r = '2'; r <= '8'; ++r) king.push_back(std::string("a1-a") + r);
    for (char f = 'b'; f <= 'h'; ++f) king.push_back(std::string("a1-") + f + "1");
    CHECK(moves_full<Turkish>(pos<Turkish>("W:WKa1:Bh7"), CaptureMode::unique) == sorted(king));
    // Black man d5 moves towards row 1: d4, c5, e5.
    CHECK(moves_full<Turkish>(pos<Turkish>("B:Wa2:Bd5"), CaptureMode::unique) == sorted({"d5-d4", "d5-c5", "d5-e5"}));
}

TEST_CASE("international king flies along diagonals; man promotes by a plain move", "[rules][movegen]") {
    // King 46 (corner): only the long diagonal; black men on 23 and 19 (nothing to take: 19 stands
    // behind 23), so 41, 37, 32, 28.
    CHECK(moves_full<International>(pos<International>("W:WK46:B19,23"), CaptureMode::unique) ==
          sorted({"46-41", "46-37", "46-32", "46-28"}));
    // White man 6 = (2,1): only NE to 1 = (1,2), promoting. White man 10 = (2,9): 4 = (1,8), 5 =
    // (1,10). (Black man 45 = (9,10) is far away.)
    CHECK(moves_full<International>(pos<International>("W:W6,10:B45"), CaptureMode::unique) ==
          sorted({"6-1 +K", "10-4 +K", "10-5 +K"}));
}

// ---------------------------------------------------------------------------------------------
// Majority rule.

TEST_CASE("international majority: two men outweigh one king", "[rules][captures][majority]") {
    // White man 32 = (7,4) can take the black king 28 = (6,5) landing on 23 = (5,6); from 23
    // nothing more (18, 19 empty; 29 empty; 28 is taken). White man 47 = (10,3) takes 42 = (9,4)
    // landing on 38 = (8,5), then 33 = (7,6) landing on 29 = (6,7): two men. A king counts as one
    // piece, so only the two-man capture is legal.
    const Position p = pos<International>("W:W32,47:B33,42,K28");
    CHECK(moves_full<International>(p, CaptureMode::unique) == sorted({"47x38x29 [33,42]"}));
    CHECK(moves_full<International>(p, CaptureMode::paths) == sorted({"47x38x29 [33,42]"}));
    // Without 33 both captures take one piece, and the player chooses freely.
    const Position q = pos<International>("W:W32,47:B42,K28");
    CHECK(moves_full<International>(q, CaptureMode::unique) == sorted({"32x23 [28]", "47x38 [42]"}));
}

TEST_CASE("international majority: a king's long capture beats a man's short one", "[rules][captures][majority]") {
    // King 46 takes 37 and, landing on 23, 29 (see the landing-choice test below): two pieces.
    // White man 36 = (8,1) takes 31 = (7,2) landing on 27 = (6,3), then nothing (21, 22 empty):
    // one piece. 31 lies on none of the king's lines. Only the king's captures are legal.
    const Position p = pos<International>("W:W36,K46:B29,31,37");
    CHECK(moves_full<International>(p, CaptureMode::unique) ==
          sorted({"46x23x34 [29,37]", "46x23x40 [29,37]", "46x23x45 [29,37]"}));
}

TEST_CASE("turkish majority: most pieces wins, a king counts as one", "[rules][captures][majority]") {
    // White man b2: N over b3 (black king) to b4, then N over b5 to b6: two pieces.
    // White man g2: E? no; N over g3 to g4 then N over g5 to g6 then N over g7 to g8: three men.
    // The three-man capture is the only legal move, and g8 crowns.
    const Position p = pos<Turkish>("W:Wb2,g2:Bb5,g3,g5,g7,Kb3");
    CHECK(moves_full<Turkish>(p, CaptureMode::unique) == sorted({"g2xg4xg6xg8 [g3,g5,g7] +K"}));
}

// ---------------------------------------------------------------------------------------------
// International: captured pieces stay on the board until the end of the capture.

TEST_CASE("international king cannot turn back over a piece it has jumped", "[rules][captures][blocking]") {
    // King 28 = (6,5) on the long diagonal. NE: 23 empty, 19 black, then 14, 10, 5 empty -> lands
    // on any of them; from there the only way to 37 is back over 19, which still stands: no second
    // capture. SW: 32 empty, 37 black, lands 41 or 46; the way back to 19 crosses 37. Five single
    // captures. (Were 19 removed at once, 28x14 could go on to take 37 as well.)
    const Position p = pos<International>("W:WK28:B19,37");
    CHECK(moves_full<International>(p, CaptureMode::paths) ==
          sorted({"28x14 [19]", "28x10 [19]", "28x5 [19]", "28x41 [37]", "28x46 [37]"}));
    CHECK(moves_full<International>(p, CaptureMode::unique) == moves_full<International>(p, CaptureMode::paths));
}

TEST_CASE("international king cannot pass through a piece it captured earlier in a circuit",
          "[rules][captures][blocking]") {
    // King 32 = (7,4), black men 28 (6,5), 8 (2,5), 7 (2,3), 17 (4,3).
    //  - NE over 28: landings 23 (5,6), 19 (4,7), 14, 10, 5.
    //    * from 19, NW: 13 (3,6) empty, 8 black, 2 (1,4) empty -> lands on 2 (row 1 ends it).
    //      from 2, SW: 7 black, lands 11 (3,2) or 16 (4,1).
    //        from 11, SE: 17 black, then 22 (5,4) empty, then 28: captured, still standing -> the
    //        only landing is 22. From 22 nothing is left (28 and 17 block, 27/31/36 and 18/13/9/4
    //        are empty). Four pieces.
    //        from 16: SE line 21, 27, 32 (its own origin: empty), 38.. holds no piece. Three.
    //    * from 23, NW: 18, 12 empty, 7 black, 1 empty: takes 7, then nothing. Two pieces.
    //    * from 14, 10, 5: no other piece on their lines.
    //  - the other three directions from 32 hold no piece.
    // So the only legal move is the four-piece circuit, ending on 22. Were 28 removed when jumped,
    // the king could also land on 28, 33, 39, 44 or 50.
    const Position p = pos<International>("W:WK32:B7,8,17,28");
    CHECK(moves_full<International>(p, CaptureMode::paths) == sorted({"32x19x2x11x22 [7,8,17,28]"}));
    CHECK(moves_full<International>(p, CaptureMode::unique) == sorted({"32x19x2x11x22 [7,8,17,28]"}));
}

TEST_CASE("international man may pass the same empty square twice, never jump a piece twice",
          "[rules][captures][duplicates]") {
    // White man 37 = (8,3), black men 12, 13, 22, 23, 32, 33, 43; a black king on 48 = (10,5).
    // 37: only NE over 32 to 28 = (6,5). From 28 three ways:
    //  a) NW over 22 to 17 = (4,3); NE over 12 to 8 = (2,5); SE over 13 to 19 = (4,7); SW over 23
    //     back to 28 (an empty square passed a second time); SE over 33 to 39 = (8,7). From 39,
    //     SW over 43 would land on 48 (occupied): no. NW 22, NE 23, SW 32 are taken and stand. Six.
    //  b) NE over 23 to 19; NW over 13 to 8; SW over 12 to 17; SE over 22 to 28; SE over 33 to 39.
    //     The same six pieces.
    //  c) SE over 33 to 39, then nothing: two.
    // (A man can never land on the square of a piece it took: those squares are on rows of the
    // other parity.) One move in unique mode, two paths.
    const Position p = pos<International>("W:W37:B12,13,22,23,32,33,43,K48");
    CHECK(moves_effect<International>(p, CaptureMode::unique) == sorted({"37x39 [12,13,22,23,32,33]"}));
    CHECK(moves_full<International>(p, CaptureMode::paths) ==
          sorted({"37x28x17x8x19x28x39 [12,13,22,23,32,33]", "37x28x19x8x17x28x39 [12,13,22,23,32,33]"}));
}

// ---------------------------------------------------------------------------------------------
// Promotion during a capture.

TEST_CASE("international man passing the last row mid-capture stays a man", "[rules][captures][promotion]") {
    // White man 13 = (3,6): NW over 8 (2,5) lands on 2 (1,4) on row 1; from 2, SW over 7 (2,3)
    // lands on 11 (3,2); from 11 nothing. It ends off the last row: no promotion.
    const Position p = pos<International>("W:W13:B7,8");
    MoveList l;
    generate_moves<International>(p, l);
    REQUIRE(l.size() == 1);
    CHECK(full<International>(l[0]) == "13x2x11 [7,8]");
    CHECK_FALSE(l[0].promotes);
    CHECK_FALSE(l[0].by_king);
    const Position after = make_move(p, l[0]);
    CHECK(to_fen<International>(after) == "B:W11:B");
    CHECK(after.kings == 0);
    // Ending on the row promotes.
    CHECK(moves_full<International>(pos<International>("W:W13:B8"), CaptureMode::unique) == sorted({"13x2 [8] +K"}));
    // Black too: man 38 = (8,5) takes 43 = (9,6) (forward for Black) landing on 49 = (10,7), on
    // Black's promotion row.
    CHECK(moves_full<International>(pos<International>("B:W43:B38"), CaptureMode::unique) == sorted({"38x49 [43] +K"}));
}

TEST_CASE("turkish man reaching the last row mid-capture goes on sideways as a man", "[rules][captures][promotion]") {
    // White man c6; black men c4, c7, e5, kings d8, f8 (black men never stand on row 8).
    // N over c7 to c8 (last row), then only as a man: E over d8 to e8, E over f8 to
    // g8, crowned at the end. A king on c8 could also have flown S over c4 (c7 gone, c6 its
    // origin) and one on e8 S over e5; a man cannot capture backward, so there is one move.
    const Position p = pos<Turkish>("W:Wc6:Bc4,c7,e5,Kd8,Kf8");
    CHECK(moves_full<Turkish>(p, CaptureMode::paths) == sorted({"c6xc8xe8xg8 [c7,d8,f8] +K"}));
    MoveList l;
    generate_moves<Turkish>(p, l);
    REQUIRE(l.size() == 1);
    CHECK(l[0].promotes);
    CHECK_FALSE(l[0].by_king);
    CHECK(to_fen<Turkish>(make_move(p, l[0])) == "B:WKg8:Bc4,e5");
}

// RULES 2: "Sources on Turkish draughts differ here (some let the new king go on capturing at
// once), so this is a field of the variant". No shipped variant sets it; the generator must
// still honour it (test::TurkishCrowningAtOnce, tests/support/rules_support.hpp).

TEST_CASE("turkish crowning at once: the new king goes on capturing", "[rules][captures][promotion]") {
    // White man b6 jumps N over b7 to b8. As a man it stops there (c8 is empty, so no sideways
    // jump). Crowned at once it flies E over the king on d8 to any of e8..h8 (a 180-degree turn
    // back S is banned, and from e8..h8 nothing more is in reach).
    const Position p = pos<Turkish>("W:Wb6:Bb7,Kd8");
    CHECK(moves_full<Turkish>(p, CaptureMode::paths) == sorted({"b6xb8 [b7] +K"}));
    CHECK(moves_full<TurkishCrowningAtOnce>(p, CaptureMode::paths) ==
          sorted({"b6xb8xe8 [b7,d8]", "b6xb8xf8 [b7,d8]", "b6xb8xg8 [b7,d8]", "b6xb8xh8 [b7,d8]"}));
    CHECK(count_moves<TurkishCrowningAtOnce>(p, CaptureMode::unique) == 4);
    MoveList l;
    generate_moves<TurkishCrowningAtOnce>(p, l);
    REQUIRE(l.size() == 4);
    CHECK(l[0].by_king);
    CHECK(to_fen<Turkish>(make_move(p, l[0])) == "B:WKe8:B");
}

TEST_CASE("black men: the same promotion rules, mirrored", "[rules][captures][promotion]") {
    // International: black man 37 = (8,3) takes 42 = (9,4) landing on 48 = (10,5) (Black's
    // promotion row), then 43 = (9,6) landing on 39 = (8,7), where nothing is left: a man.
    const Position p = pos<International>("B:W42,43:B37");
    CHECK(moves_full<International>(p, CaptureMode::paths) == sorted({"37x48x39 [42,43]"}));
    // Turkish: black man c3 takes c2 landing on c1 (its last row), then sideways as a man over the
    // white kings d1 and f1 to e1 and g1, crowned at the end. (Nothing on b1, b3, d3.)
    const Position t = pos<Turkish>("B:Wc2,Kd1,Kf1:Bc3");
    CHECK(moves_full<Turkish>(t, CaptureMode::paths) == sorted({"c3xc1xe1xg1 [d1,f1,c2] +K"}));
    MoveList l;
    generate_moves<Turkish>(t, l);
    REQUIRE(l.size() == 1);
    CHECK(to_fen<Turkish>(make_move(t, l[0])) == "W:W:BKg1");
}

// ---------------------------------------------------------------------------------------------
// Flying king landings.

TEST_CASE("international king: every landing square is a move; a continuing landing is forced",
          "[rules][captures][king]") {
    // King 46: NE over 37 (8,3), may land on 32, 28, 23, 19, 14, 10, 5. Only from 23 (5,6) is there
    // more: SE over 29 (6,7), landing on 34, 40 or 45 (three moves). From 32 (NW 27.., SE 38..), 28
    // (NW 22.., SE 33..), 19 (SE 24, 30, 35), 14 (SE 20, 25), 10 (SE 15) no piece; the majority
    // rule therefore forces the landing on 23.
    const Position p = pos<International>("W:WK46:B29,37");
    CHECK(moves_full<International>(p, CaptureMode::paths) ==
          sorted({"46x23x34 [29,37]", "46x23x40 [29,37]", "46x23x45 [29,37]"}));
    CHECK(moves_full<International>(p, CaptureMode::unique) == moves_full<International>(p, CaptureMode::paths));
    // With 29 gone, each of the seven landings is a move of its own.
    CHECK(moves_full<International>(pos<International>("W:WK46:B37"), CaptureMode::unique) ==
          sorted({"46x32 [37]", "46x28 [37]", "46x23 [37]", "46x19 [37]", "46x14 [37]", "46x10 [37]", "46x5 [37]"}));
}

TEST_CASE("international king: the landing square before the next jump makes a different path",
          "[rules][captures][king][duplicates]") {
    // King 46, black 37 and 23 on the long diagonal. Over 37 it may land on 32 or 28 (23 stops the
    // flight); from either it takes 23 (same direction) landing on 19, 14, 10 or 5; nothing else on
    // the lines of those squares. Four moves, eight paths.
    const Position p = pos<International>("W:WK46:B23,37");
    CHECK(moves_effect<International>(p, CaptureMode::unique) ==
          sorted({"46x19 [23,37]", "46x14 [23,37]", "46x10 [23,37]", "46x5 [23,37]"}));
    std::vector<std::string> paths;
    for (const char* mid : {"32", "28"})
        for (const char* end : {"19", "14", "10", "5"})
            paths.push_back(std::string("46x") + mid + "x" + end + " [23,37]");
    CHECK(moves_full<International>(p, CaptureMode::paths) == sorted(paths));
}

TEST_CASE("turkish king: the landing square before the next jump makes a different path",
          "[rules][captures][king][duplicates]") {
    // King a1, black a3 and a6: over a3 it lands on a4 or a5, then takes a6 landing on a7 or a8.
    const Position p = pos<Turkish>("W:WKa1:Ba3,a6");
    CHECK(moves_effect<Turkish>(p, CaptureMode::unique) == sorted({"a1xa7 [a3,a6]", "a1xa8 [a3,a6]"}));
    CHECK(moves_full<Turkish>(p, CaptureMode::paths) ==
          sorted({"a1xa4xa7 [a3,a6]", "a1xa4xa8 [a3,a6]", "a1xa5xa7 [a3,a6]", "a1xa5xa8 [a3,a6]"}));
}

TEST_CASE("turkish king: every landing square is a move; a continuing landing is forced", "[rules][captures][king]") {
    // King a1: N over a3, lands a4..a8. From a5 only: E over c5, lands d5..h5 (five moves).
    const Position p = pos<Turkish>("W:WKa1:Ba3,c5");
    CHECK(moves_full<Turkish>(p, CaptureMode::paths) ==
          sorted({"a1xa5xd5 [a3,c5]", "a1xa5xe5 [a3,c5]", "a1xa5xf5 [a3,c5]", "a1xa5xg5 [a3,c5]", "a1xa5xh5 [a3,c5]"}));
    CHECK(moves_full<Turkish>(pos<Turkish>("W:WKa1:BKd1"), CaptureMode::unique) ==
          sorted({"a1xe1 [d1]", "a1xf1 [d1]", "a1xg1 [d1]", "a1xh1 [d1]"}));
}

// ---------------------------------------------------------------------------------------------
// Same move by several paths; the origin is empty during the capture.

TEST_CASE("international man circuit back to its origin: once in unique mode, per path in paths mode",
          "[rules][captures][duplicates]") {
    // White man 32 = (7,4), black men 28 (6,5), 18 (4,5), 17 (4,3), 27 (6,3) around 22 (5,4).
    // Clockwise: NE over 28 to 23, NW over 18 to 12, SW over 17 to 21, SE over 27 to 32, its own
    // origin, which counts as empty. Anticlockwise: 32x21x12x23x32. No other branch (every other
    // neighbour is empty; after the loop 27 and 28 are taken and block). Same origin, destination
    // and captured set: one move in unique mode, two paths.
    const Position p = pos<International>("W:W32:B17,18,27,28");
    CHECK(moves_effect<International>(p, CaptureMode::unique) == sorted({"32x32 [17,18,27,28]"}));
    CHECK(moves_full<International>(p, CaptureMode::paths) ==
          sorted({"32x23x12x21x32 [17,18,27,28]", "32x21x12x23x32 [17,18,27,28]"}));
    MoveList l;
    generate_moves<International>(p, l);
    REQUIRE(l.size() == 1);
    const Position after = make_move(p, l[0]);
    CHECK(to_fen<International>(after) == "B:W32:B");
}

TEST_CASE("international king circuit: origin passed and landed on, duplicates merged",
          "[rules][captures][duplicates]") {
    // The same four men with a king on 32.
    //  - Clockwise: after 28 the king may land on 23, 19, 14, 10, 5; only 23 continues (NW over
    //    18). After 18: 12, 7, 1; only 12 continues (SW over 17). After 17: 21, 26; only 21
    //    continues (SE over 27). After 27: 32 (the origin, empty), 38, 43, 49, and nothing more
    //    (28 still stands NE of 32).
    //  - Anticlockwise: after 27: 21, 16; only 21 continues (NE over 17). After 17: 12, 8, 3; only
    //    12 (SE over 18). After 18: 23, 29, 34, 40, 45; only 23 (SW over 28). After 28: 32, 37,
    //    41, 46, and nothing more.
    // The two circuits share the destination 32: seven moves in unique mode, eight paths.
    const Position p = pos<International>("W:WK32:B17,18,27,28");
    std::vector<std::string> unique, paths;
    for (const char* end : {"32", "38", "43", "49", "37", "41", "46"})
        unique.push_back(std::string("32x") + end + " [17,18,27,28]");
    for (const char* end : {"32", "38", "43", "49"})
        paths.push_back(std::string("32x23x12x21x") + end + " [17,18,27,28]");
    for (const char* end : {"32", "37", "41", "46"})
        paths.push_back(std::string("32x21x12x23x") + end + " [17,18,27,28]");
    CHECK(moves_effect<International>(p, CaptureMode::unique) == sorted(unique));
    CHECK(moves_full<International>(p, CaptureMode::paths) == sorted(paths));
}

TEST_CASE("turkish king crosses squares freed by its own captures", "[rules][captures][turkish]") {
    // King c1; black c3, e5, f4, e3, b3.
    //  - N over c3 (removed at once): landings c4..c8.
    //    * c4: E d4, e4 empty, f4 black, g4 empty: takes f4, lands g4/h4, then nothing. Two.
    //    * c5: E over e5, lands f5, g5, h5.
    //        f5: S over f4, lands f3, f2, f1 (N would be no 180 turn... N is empty anyway).
    //          f3: W over e3, lands d3, then c3 (freed by the first jump), then b3 black: stop.
    //            d3: W: c3 (freed), b3 black, a3 empty: takes b3, lands a3. Five.
    //            c3: W over b3, lands a3. Five.
    //          f2, f1: nothing on their lines (c1 is the empty origin). Three.
    //        g5, h5: nothing. Two.
    //    * c6, c7, c8: nothing.
    // Max five: one move c1xa3 reached by two paths.
    const Position p = pos<Turkish>("W:WKc1:Bb3,c3,e3,e5,f4");
    CHECK(moves_effect<Turkish>(p, CaptureMode::unique) == sorted({"c1xa3 [b3,c3,e3,f4,e5]"}));
    CHECK(moves_full<Turkish>(p, CaptureMode::paths) ==
          sorted({"c1xc5xf5xf3xd3xa3 [b3,c3,e3,f4,e5]", "c1xc5xf5xf3xc3xa3 [b3,c3,e3,f4,e5]"}));
}

TEST_CASE("turkish man multi-capture forward and sideways", "[rules][captures][turkish]") {
    // Man b2: E over c2 to d2 (N b3 and W a2 hold nothing); from d2 N over d3 to d4 (W: c2 is
    // gone, nothing to take); from d4 W over c4 to b4; from b4 nothing (a4, b5 empty). A man never
    // lands on a square it emptied: jumps keep the parity of rank and file.
    const Position p = pos<Turkish>("W:Wb2:Bc2,c4,d3");
    CHECK(moves_full<Turkish>(p, CaptureMode::paths) == sorted({"b2xd2xd4xb4 [c2,d3,c4]"}));
}

TEST_CASE("turkish king may not turn 180 degrees between two jumps", "[rules][captures][turkish]") {
    // King c1, black kings b1 and e1 on the same row (black men cannot stand on row 1). E over e1
    // lands f1/g1/h1; turning back W (e1 gone, c1 empty) would take b1: forbidden. W over b1 lands
    // a1; back E would take e1: forbidden. Four single captures.
    const Position p = pos<Turkish>("W:WKc1:BKb1,Ke1");
    CHECK(moves_full<Turkish>(p, CaptureMode::paths) ==
          sorted({"c1xf1 [e1]", "c1xg1 [e1]", "c1xh1 [e1]", "c1xa1 [b1]"}));
    // A 90-degree turn is fine: king c1, black king e1 and man g3: E over e1 lands f1, g1, h1; from
    // g1 N over g3 lands g4..g8 (five moves). From f1/h1 nothing.
    CHECK(moves_effect<Turkish>(pos<Turkish>("W:WKc1:BKe1,g3"), CaptureMode::unique) ==
          sorted({"c1xg4 [e1,g3]", "c1xg5 [e1,g3]", "c1xg6 [e1,g3]", "c1xg7 [e1,g3]", "c1xg8 [e1,g3]"}));
}

TEST_CASE("turkish king starting square is empty during its capture", "[rules][captures][turkish][duplicates]") {
    // King d4; black d6, e4, f7, g5.
    //  - N over d6 (gone): lands d7, d8. d8: nothing. d7: E over f7 to g7 or h7. h7: nothing.
    //    g7: S over g5 to g4..g1; only g4 goes on: W over e4 to d4 (its own origin, empty), c4,
    //    b4, a4; from there nothing (d6 gone). Four pieces, ending on d4, c4, b4, a4.
    //  - E over e4: lands f4, g4, h4. f4: N over f7 to f8, then nothing (two). h4: nothing.
    //    g4: N over g5 to g6, g7, g8. g6: W over d6 to c6/b6/a6, then nothing (three). g8: nothing.
    //    g7: W over f7 to e7..a7; only d7 goes on: S over d6 to d5, d4 (origin), d3, d2, d1, then
    //    nothing (e4, g5 gone). Four pieces.
    // Max four, same captured set everywhere: unique mode merges the two ways to d4.
    const Position p = pos<Turkish>("W:WKd4:Bd6,e4,f7,g5");
    std::vector<std::string> unique, paths;
    for (const char* to : {"a4", "b4", "c4", "d4", "d5", "d3", "d2", "d1"})
        unique.push_back(std::string("d4x") + to + " [e4,g5,d6,f7]");
    for (const char* to : {"d4", "c4", "b4", "a4"})
        paths.push_back(std::string("d4xd7xg7xg4x") + to + " [e4,g5,d6,f7]");
    for (const char* to : {"d5", "d4", "d3", "d2", "d1"})
        paths.push_back(std::string("d4xg4xg7xd7x") + to + " [e4,g5,d6,f7]");
    CHECK(moves_effect<Turkish>(p, CaptureMode::unique) == sorted(unique));
    CHECK(moves_full<Turkish>(p, CaptureMode::paths) == sorted(paths));
}

TEST_CASE("international man captures backward; turkish man never does", "[rules][captures][men]") {
    // White man 28 = (6,5); black 33 = (7,6) is behind it (SE), 39 = (8,7) empty.
    CHECK(moves_full<International>(pos<International>("W:W28:B33"), CaptureMode::unique) == sorted({"28x39 [33]"}));
    // Black man 28; white 23 = (5,6) is behind it for Black (NE), 19 empty.
    CHECK(moves_full<International>(pos<International>("B:W23:B28"), CaptureMode::unique) == sorted({"28x19 [23]"}));
    // Turkish white man d4 with a black man behind on d3 (d2 empty): no capture, plain moves.
    CHECK(moves_full<Turkish>(pos<Turkish>("W:Wd4:Bd3"), CaptureMode::unique) == sorted({"d4-d5", "d4-c4", "d4-e4"}));
    CHECK_FALSE(has_capture<Turkish>(pos<Turkish>("W:Wd4:Bd3")));
    // ... but sideways it must capture.
    CHECK(moves_full<Turkish>(pos<Turkish>("W:Wd4:Bd3,e4"), CaptureMode::unique) == sorted({"d4xf4 [e4]"}));
    // Black man d5 with a white man behind on d6: no capture.
    CHECK(moves_full<Turkish>(pos<Turkish>("B:Wd6:Bd5"), CaptureMode::unique) == sorted({"d5-d4", "d5-c5", "d5-e5"}));
    // Black man d5 captures forward (towards row 1) over d4.
    CHECK(moves_full<Turkish>(pos<Turkish>("B:Wd4:Bd5"), CaptureMode::unique) == sorted({"d5xd3 [d4]"}));
}

TEST_CASE("turkish man never moves or captures diagonally", "[rules][captures][men]") {
    // White man d4, black e5 (diagonal, f6 empty): no capture; plain moves only.
    CHECK(moves_full<Turkish>(pos<Turkish>("W:Wd4:Be5"), CaptureMode::unique) == sorted({"d4-d5", "d4-c4", "d4-e4"}));
}

// ---------------------------------------------------------------------------------------------
// No moves.

TEST_CASE("a blocked side has no moves; a side without pieces has none", "[rules][movegen][end]") {
    MoveList l;
    // White man 46 = (10,1): its only forward square 41 holds a black man, and 37 behind 41 is
    // occupied, so no capture either.
    CHECK(generate_moves<International>(pos<International>("W:W46:B37,41"), l) == 0);
    CHECK(l.empty());
    // Black to move, man 5 = (1,10): 10 holds a white man, 14 behind it holds a white man.
    CHECK(generate_moves<International>(pos<International>("B:W10,14:B5"), l) == 0);
    CHECK(l.empty());
    // Turkish white man a2: a3 and b2 black, a4 and c2 behind them black too.
    CHECK(generate_moves<Turkish>(pos<Turkish>("W:Wa2:Ba3,a4,b2,c2"), l) == 0);
    CHECK(l.empty());
    // No pieces at all for the side to move.
    generate_moves<International>(pos<International>("W:W:B1"), l);
    CHECK(l.empty());
    generate_moves<International>(pos<International>("B:W50:B"), l);
    CHECK(l.empty());
    generate_moves<Turkish>(pos<Turkish>("W:W:Ba7"), l);
    CHECK(l.empty());
    generate_moves<Turkish>(pos<Turkish>("W"), l);
    CHECK(l.empty());
}

TEST_CASE("generate returns the number of pieces each legal capture takes", "[rules][movegen]") {
    MoveList l;
    CHECK(generate_moves<International>(pos<International>("W:W31-50:B1-20"), l) == 0);
    CHECK(generate_moves<International>(pos<International>("W:WK32:B17,18,27,28"), l) == 4);
    CHECK(generate_moves<Turkish>(pos<Turkish>("W:WKc1:Bb3,c3,e3,e5,f4"), l) == 5);
    CHECK(has_capture<International>(pos<International>("W:WK32:B17,18,27,28")));
    CHECK_FALSE(has_capture<International>(pos<International>("W:W31-50:B1-20")));
    // Counting gives the list's length without building it: the man circuit above is one move
    // and two paths.
    CHECK(count_moves<International>(pos<International>("W:W31-50:B1-20")) == 9);
    CHECK(count_moves<International>(pos<International>("W:W32:B17,18,27,28")) == 1);
    CHECK(count_moves<International>(pos<International>("W:W32:B17,18,27,28"), CaptureMode::paths) == 2);
    // Captures-only generation leaves quiet moves out.
    CHECK(MoveGenerator<International>(pos<International>("W:W31-50:B1-20"), l, CaptureMode::unique)
              .generate_captures_only() == 0);
    CHECK(l.empty());
}
