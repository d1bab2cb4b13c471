// make_move and colour reversal (position.hpp, move.hpp).
#include <catch2/catch.hpp>
#include <string>
#include <string_view>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/notation.hpp"
#include "tests/support/rules_support.hpp"

using namespace dtb;

namespace {

using test::pos;

// The FEN after playing `text` (a legal move in `fen`).
template <class R>
std::string after(std::string_view fen, std::string_view text) {
    const Position p = pos<R>(fen);
    auto m = parse_move<R>(p, text);
    INFO(fen << " move " << text << ": " << (m.ok() ? std::string("ok") : m.error()));
    REQUIRE(m.ok());
    const Position q = make_move(p, *m);
    // Invariants of every position: kings are pieces, colours do not overlap, squares exist.
    CHECK((q.kings & ~q.occupied()) == 0);
    CHECK((q.pieces[0] & q.pieces[1]) == 0);
    CHECK((q.occupied() & ~R::Geometry::kPlayable) == 0);
    CHECK(q.side_to_move == ~p.side_to_move);
    return to_fen<R>(q);
}

}  // namespace

TEST_CASE("make_move: plain man and king moves, side to move flips", "[rules][make_move]") {
    CHECK(after<International>("W:W31-50:B1-20", "32-28") ==
          "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,"
          "12,13,14,15,16,17,18,19,20");
    CHECK(after<International>("B:W31-50:B1-20", "19-23") ==
          "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,"
          "12,13,14,15,16,17,18,20,23");
    // A king move keeps the king a king.
    CHECK(after<International>("W:WK46,50:B1", "46-5") == "B:WK5,50:B1");
    CHECK(after<International>("B:W50:BK1,K2", "1-45") == "W:W50:BK2,K45");
    CHECK(after<Turkish>("W:WKd4:Bh7", "d4-d8") == "B:WKd8:Bh7");
    CHECK(after<Turkish>("W:Wd4:Bh7", "d4-e4") == "B:We4:Bh7");
}

TEST_CASE("make_move: promotion by a plain move", "[rules][make_move]") {
    CHECK(after<International>("W:W6:B45", "6-1") == "B:WK1:B45");
    CHECK(after<International>("B:W6:B45", "45-50") == "W:W6:BK50");
    CHECK(after<Turkish>("W:Wc7:Bh2", "c7-c8") == "B:WKc8:Bh2");
    CHECK(after<Turkish>("B:Wa7:Bf2", "f2-f1") == "W:Wa7:BKf1");
    // A sideways move on the seventh row does not promote.
    CHECK(after<Turkish>("W:Wc7:Bh2", "c7-d7") == "B:Wd7:Bh2");
}

TEST_CASE("make_move: captures remove men and kings, promotions crown", "[rules][make_move]") {
    // Capturing a king removes it from the king set too.
    const Position p = pos<International>("W:W32:BK28,1");
    MoveList l;
    generate_moves<International>(p, l);
    REQUIRE(l.size() == 1);
    const Position q = make_move(p, l[0]);
    CHECK(to_fen<International>(q) == "B:W23:B1");
    CHECK(q.kings == 0);
    // A king capturing keeps being a king; its origin empties.
    CHECK(after<International>("W:WK46:B29,37,1", "46x23x40") == "B:WK40:B1");
    // Circuits back to the origin.
    CHECK(after<International>("W:W32:B17,18,27,28,1", "32x32") == "B:W32:B1");
    CHECK(after<International>("W:WK32:B17,18,27,28,1", "32x32") == "B:WK32:B1");
    // Promotion at the end of a capture; passing the row mid-capture does not crown.
    CHECK(after<International>("W:W13:B8,45", "13x2") == "B:WK2:B45");
    CHECK(after<International>("W:W13:B7,8,45", "13x11") == "B:W11:B45");
    CHECK(after<International>("B:W6,43:B38", "38x49") == "W:W6:BK49");
    CHECK(after<Turkish>("W:Wc6:Bc4,c7,e5,Kd8,Kf8", "c6xg8") == "B:WKg8:Bc4,e5");
    CHECK(after<Turkish>("W:WKc1:Bb3,c3,e3,e5,f4,Ka8", "c1xa3") == "B:WKa3:BKa8");
    // Black capturing a white king.
    CHECK(after<Turkish>("B:WKd4,a2:Bd5", "d5xd3") == "W:Wa2:Bd3");
    // Turkish pieces go as they are jumped: a king may end on a captured piece's square (c2 here,
    // over c2, e4, d6, c4) and stays a king.
    CHECK(after<Turkish>("W:WKa2:BKc2,Ke4,Kd6,Kc4,Kh8", "a2xc2") == "B:WKc2:BKh8");
    CHECK(after<Turkish>("B:WKc2,Ke4,Kd6,Kc4,Kh8:BKa2", "a2xc2") == "W:WKh8:BKc2");
}

TEST_CASE("reversed: twice is the identity; the start maps to itself", "[rules][reversed]") {
    using GI = International::Geometry;
    using GT = Turkish::Geometry;
    for (const char* fen : {"W:W31-50:B1-20", "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
                            "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26", "W:WK31-50:BK1-20",
                            "W:W6,7,8,9,10:B41,42,43,44,45", "W:W:B1", "B:WK5:B"}) {
        INFO(fen);
        const Position p = pos<International>(fen);
        CHECK(reversed<GI>(reversed<GI>(p)) == p);
        CHECK(reversed<GI>(p) != p);  // the side to move differs at least
    }
    for (const char* fen : {"W:Wa2-h2,a3-h3:Ba6-h6,a7-h7", "W:Wa2,b2,Kd4:Bc7,Kh8", "B:WKa1:Bh7", "W"}) {
        INFO(fen);
        const Position p = pos<Turkish>(fen);
        CHECK(reversed<GT>(reversed<GT>(p)) == p);
    }
    // The start position is symmetric: reversed, it is the start with Black to move.
    CHECK(reversed<GI>(pos<International>("W:W31-50:B1-20")) == pos<International>("B:W31-50:B1-20"));
    CHECK(reversed<GI>(pos<International>("B:W31-50:B1-20")) == pos<International>("W:W31-50:B1-20"));
    CHECK(reversed<GT>(pos<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7")) == pos<Turkish>("B:Wa2-h2,a3-h3:Ba6-h6,a7-h7"));
    // Square n maps to 51 - n, colours swap: white man 32 and king 46 become black 19 and K5.
    CHECK(to_fen<International>(reversed<GI>(pos<International>("W:W32,K46:B1"))) == "B:W50:BK5,19");
    // a1 <-> h8, d4 <-> e5.
    CHECK(to_fen<Turkish>(reversed<GT>(pos<Turkish>("W:Wa2,b2,Kd4:Bc7,Kh8"))) == "B:WKa1,f2:BKe5,g7,h7");
}

TEST_CASE("reversed: the moves of a reversed position are the rotated moves", "[rules][reversed]") {
    using G = International::Geometry;
    for (const char* fen : {"W:WK32:B17,18,27,28", "W:W37:B12,13,22,23,32,33,43,K48",
                            "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"}) {
        INFO(fen);
        const Position p = pos<International>(fen);
        const Position r = reversed<G>(p);
        MoveList a, b;
        generate_moves<International>(p, a, CaptureMode::paths);
        generate_moves<International>(r, b, CaptureMode::paths);
        REQUIRE(a.size() == b.size());
        for (const Move& m : a) {
            bool found = false;
            for (const Move& o : b) {
                if (o.from != G::rotate_bit(m.from) || o.to != G::rotate_bit(m.to) ||
                    o.captured != G::rotate(m.captured) || o.num_landings != m.num_landings)
                    continue;
                bool same = true;
                for (int i = 0; i < m.num_landings; ++i) same = same && o.landings[i] == G::rotate_bit(m.landings[i]);
                found = found || same;
            }
            CHECK(found);
        }
        // Every move of p has its rotated twin among the moves of r, and the positions after them
        // are reversals of each other.
        for (const Move& m : a) {
            const Move* twin = nullptr;
            for (const Move& o : b) {
                if (o.from != G::rotate_bit(m.from) || o.to != G::rotate_bit(m.to) ||
                    o.captured != G::rotate(m.captured) || o.num_landings != m.num_landings ||
                    o.promotes != m.promotes || o.by_king != m.by_king)
                    continue;
                bool same = true;
                for (int i = 0; i < m.num_landings; ++i) same = same && o.landings[i] == G::rotate_bit(m.landings[i]);
                if (same) twin = &o;
            }
            INFO("move " << move_full_path<International>(m));
            REQUIRE(twin != nullptr);
            CHECK(reversed<G>(make_move(p, m)) == make_move(r, *twin));
        }
    }
}
