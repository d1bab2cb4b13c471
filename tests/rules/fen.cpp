// PDN FEN parsing and printing (fen.hpp; RULES.md 1 and 2, "Board and notation").
#include "dtb/rules/fen.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tests/support/rules_support.hpp"

using namespace dtb;

namespace {

using test::pos;

// Canonical form: side, then ":W" list, then ":B" list; squares ascending in the numbering order
// (international numbers; Turkish a1, b1, .., h1, a2, ..); no ranges; 'K' before kings.
template <class R>
bool is_canonical(const std::string& fen) {
    using G = typename R::Geometry;
    if (fen.size() < 5 || (fen[0] != 'W' && fen[0] != 'B')) return false;
    if (fen.substr(1, 2) != ":W") return false;
    const size_t b = fen.find(":B");
    if (b == std::string::npos || fen.find(":B", b + 1) != std::string::npos) return false;
    if (fen.find('-') != std::string::npos) return false;
    for (const std::string_view list : {std::string_view(fen).substr(3, b - 3), std::string_view(fen).substr(b + 2)}) {
        int last = -1;
        std::string_view rest = list;
        while (!rest.empty()) {
            const size_t comma = rest.find(',');
            std::string_view item = rest.substr(0, comma);
            rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
            if (!item.empty() && item[0] == 'K') item.remove_prefix(1);
            const auto sq = G::parse_square(item);
            if (!sq) return false;
            if (G::square_name(*sq) != item) return false;  // no leading zeros or upper case
            if (G::dense(*sq) <= last) return false;
            last = G::dense(*sq);
        }
    }
    return true;
}

template <class R>
void check_round_trip(std::string_view fen) {
    INFO(R::kName << " " << fen);
    const Position p = pos<R>(fen);
    const std::string out = to_fen<R>(p);
    INFO("to_fen: " << out);
    CHECK(is_canonical<R>(out));
    const Position q = pos<R>(out);
    CHECK(q == p);
    CHECK(to_fen<R>(q) == out);
}

template <class R>
void check_rejected(std::string_view fen) {
    const auto p = parse_fen<R>(fen);
    INFO(R::kName << " FEN '" << fen << "'");
    CHECK_FALSE(p.ok());
    if (!p.ok()) {
        INFO("message: " << p.error());
        CHECK_FALSE(p.error().empty());
        CHECK(p.error().find('\n') == std::string::npos);  // one line, for the command-line tool
    }
}

const char* const kInternationalFens[] = {
    "W:W31-50:B1-20",
    "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
    "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
    "W:WK31-50:BK1-20",
    "W:W6,7,8,9,10:B41,42,43,44,45",
    "W:W32,47:B33,42,K28",
    "W:W32,47:B42,K28",
    "W:W36,K46:B29,31,37",
    "W:WK28:B19,37",
    "W:WK32:B7,8,17,28",
    "W:W37:B12,13,22,23,32,33,43,K48",
    "W:W13:B7,8",
    "W:W13:B8",
    "B:W43:B38",
    "W:WK46:B29,37",
    "W:WK46:B37",
    "W:W32:B17,18,27,28",
    "W:WK32:B17,18,27,28",
    "W:W28:B33",
    "B:W23:B28",
    "W:W46:B37,41",
    "B:W10,14:B5",
    "W:W:B1",
    "B:W50:B",
    "W:W19,K37:B8,18,22,32",
    "W:W6,10:B45",
    "W:WK46:B19,23",
    "B:W42,43:B37",
    "W:WK46:B23,37",
    // Positions of rules_make_move.cpp and rules_notation.cpp, before and after the moves.
    "B:W11:B",
    "B:W11:B45",
    "B:W23:B1",
    "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,"
    "14,15,16,17,18,19,20",
    "B:W32:B",
    "B:W32:B1",
    "B:W50:BK1,K2",
    "B:W50:BK5,19",
    "B:W6,43:B38",
    "B:W6:B45",
    "B:WK1:B45",
    "B:WK2:B45",
    "B:WK32:B1",
    "B:WK40:B1",
    "B:WK5,50:B1",
    "B:WK5:B",
    "W:W13:B7,8,45",
    "W:W13:B8,45",
    "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,"
    "14,15,16,17,18,20,23",
    "W:W32,K46:B1",
    "W:W32:B17,18,27,28,1",
    "W:W32:BK28,1",
    "W:W50:BK2,K45",
    "W:W6:B45",
    "W:W6:BK49",
    "W:W6:BK50",
    "W:WK32:B17,18,27,28,1",
    "W:WK46,50:B1",
    "W:WK46:B29,37,1",
};

const char* const kTurkishFens[] = {
    "W:Wa2-h2,a3-h3:Ba6-h6,a7-h7",
    "W:Wa2,b2,Kd4:Bc7,Kh8",
    "W:Wb2,g2:Bb5,g3,g5,g7,Kb3",
    "W:Wc6:Bc4,c7,e5,Kd8,Kf8",
    "W:WKa1:Ba3,c5",
    "W:WKa1:BKd1",
    "W:WKc1:Bb3,c3,e3,e5,f4",
    "W:Wb2:Bc2,c4,d3",
    "W:WKc1:BKb1,Ke1",
    "W:WKc1:BKe1,g3",
    "W:WKd4:Bd6,e4,f7,g5",
    "W:Wd4:Bd3",
    "W:Wd4:Bd3,e4",
    "B:Wd6:Bd5",
    "B:Wd4:Bd5",
    "W:Wd4:Be5",
    "W:Wa2:Ba3,a4,b2,c2",
    "W:W:Ba7",
    "W",
    "B:Wc2,Kd1,Kf1:Bc3",
    "W:WKa1:Ba3,a6",
    // Positions of rules_make_move.cpp, before and after the moves.
    "B:WKa1,f2:BKe5,g7,h7",
    "B:WKa1:Bh7",
    "B:WKa3:BKa8",
    "B:WKc8:Bh2",
    "B:WKd4,a2:Bd5",
    "B:WKd8:Bh7",
    "B:WKg8:Bc4,e5",
    "B:Wa2-h2,a3-h3:Ba6-h6,a7-h7",
    "B:Wa2:Bd5",
    "B:Wa7:Bf2",
    "B:Wd7:Bh2",
    "B:We4:Bh7",
    "W:W:BKg1",
    "W:WKa1:Bh7",
    "W:WKc1:Bb3,c3,e3,e5,f4,Ka8",
    "W:WKd4:Bh7",
    "W:Wa2:Bd3",
    "W:Wa7:BKf1",
    "W:Wc7:Bh2",
    "W:Wd4:Bh7",
};

}  // namespace

TEST_CASE("FEN round trip and canonical output, international", "[rules][fen]") {
    for (const char* fen : kInternationalFens) check_round_trip<International>(fen);
}

TEST_CASE("FEN round trip and canonical output, turkish", "[rules][fen]") {
    for (const char* fen : kTurkishFens) check_round_trip<Turkish>(fen);
}

TEST_CASE("FEN canonical strings", "[rules][fen]") {
    CHECK(to_fen<International>(pos<International>("W:W31-50:B1-20")) ==
          "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,"
          "12,13,14,15,16,17,18,19,20");
    CHECK(to_fen<International>(pos<International>("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46")) ==
          "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24");
    CHECK(to_fen<International>(pos<International>("W:W46,K32,31:B1")) == "W:W31,K32,46:B1");
    CHECK(to_fen<Turkish>(pos<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7")) ==
          "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,"
          "e7,f7,g7,h7");
    CHECK(to_fen<Turkish>(pos<Turkish>("W:Wa2,b2,Kd4:Bc7,Kh8")) == "W:Wa2,b2,Kd4:Bc7,Kh8");
    CHECK(to_fen<Turkish>(pos<Turkish>("B:BKh8,c7:WKd4,b2,a2")) == "B:Wa2,b2,Kd4:Bc7,Kh8");
    // No pieces: both lists still printed.
    CHECK(to_fen<International>(pos<International>("W:W:B1")) == "W:W:B1");
    CHECK(to_fen<International>(pos<International>("B:W50")) == "B:W50:B");
    CHECK(to_fen<Turkish>(pos<Turkish>("W")) == "W:W:B");
}

TEST_CASE("FEN piece lists in either order; ranges; kings", "[rules][fen]") {
    CHECK(pos<International>("W:B1-20:W31-50") == pos<International>("W:W31-50:B1-20"));
    CHECK(pos<International>("B:B1-20:W31-50") == pos<International>("B:W31-50:B1-20"));
    CHECK(pos<Turkish>("W:Ba6-h6,a7-h7:Wa2-h2,a3-h3") == pos<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7"));
    const Position p = pos<International>("W:W31-50:B1-20");
    CHECK(p.side_to_move == Color::white);
    CHECK(popcount(p.of(Color::white)) == 20);
    CHECK(popcount(p.of(Color::black)) == 20);
    CHECK(p.kings == 0);
    // Ranges expand to every square; K31-35 makes five kings.
    CHECK(to_fen<International>(pos<International>("W:WK31-35,36:B1")) == "W:WK31,K32,K33,K34,K35,36:B1");
    CHECK(pos<International>("W:WK31-K35:B1") == pos<International>("W:WK31,K32,K33,K34,K35:B1"));
    CHECK(pos<International>("B:W31-31:B1") == pos<International>("B:W31:B1"));
    // Turkish ranges along a rank or a file.
    CHECK(pos<Turkish>("W:Wd2-d4:Ba7") == pos<Turkish>("W:Wd2,d3,d4:Ba7"));
    CHECK(pos<Turkish>("W:WKa4-c4:Ba7") == pos<Turkish>("W:WKa4,Kb4,Kc4:Ba7"));
    // Side to move and list colour in lower case; a trailing '.' and surrounding quotes.
    CHECK(pos<International>("w:w31-50:b1-20") == p);
    CHECK(pos<International>("W:W31-50:B1-20.") == p);
    CHECK(pos<International>("\"W:W31-50:B1-20\"") == p);
    // Kings are pieces of their colour.
    const Position k = pos<International>("B:WK46,31:BK5,1");
    CHECK(k.side_to_move == Color::black);
    CHECK(k.kings_of(Color::white) == bit(International::Geometry::parse_square("46").value()));
    CHECK(k.kings_of(Color::black) == bit(International::Geometry::parse_square("5").value()));
    CHECK(popcount(k.men(Color::white)) == 1);
    CHECK(popcount(k.men(Color::black)) == 1);
    // A king may stand anywhere, also on its own promotion row.
    CHECK(parse_fen<International>("W:WK3:BK48").ok());
    CHECK(parse_fen<Turkish>("W:WKa8:BKh1").ok());
}

TEST_CASE("FEN malformed input is rejected with a message", "[rules][fen]") {
    // Unknown squares.
    check_rejected<International>("W:W51:B1");
    check_rejected<International>("W:W0:B1");
    check_rejected<International>("W:W31:B1,z9");
    check_rejected<International>("W:W31-51:B1");
    check_rejected<Turkish>("W:Wi3:Ba7");
    check_rejected<Turkish>("W:Wz9:Ba7");
    check_rejected<Turkish>("W:Wa9:Ba7");
    check_rejected<Turkish>("W:Wa0:Ba7");
    // A square twice, in one list or across the lists.
    check_rejected<International>("W:W31,31:B1");
    check_rejected<International>("W:W31,K31:B1");
    check_rejected<International>("W:W31:B31");
    check_rejected<International>("W:W31-35,33:B1");
    check_rejected<Turkish>("W:Wa2,a2:Ba7");
    check_rejected<Turkish>("W:Wa2:Ba2");
    // A man on its promotion row.
    check_rejected<International>("W:W3:B20");
    check_rejected<International>("W:W31:B48");
    check_rejected<Turkish>("W:Wa8:Bh7");
    check_rejected<Turkish>("W:Wa2:Bh1");
    // Too many pieces.
    check_rejected<International>("W:W30-50:B1");
    check_rejected<International>("W:W31-50:B1-20,21");
    check_rejected<Turkish>("W:Wa2-h2,a3-h3,a4:Ba7");
    // The other variant's square names.
    check_rejected<International>("W:Wa2:B1");
    check_rejected<International>("W:W31:Bc7");
    check_rejected<Turkish>("W:W31:Ba7");
    check_rejected<Turkish>("W:Wa2:B7");
    check_rejected<Turkish>("W:W31-50:B1-20");
    check_rejected<International>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7");
    // Garbage.
    for (const char* bad :
         {"hello", "W:X1", "", "W:W1,,2", "W:W31,,32:B1", "X:W31:B1", "W:W31:B1:W32", "W:W31:B1:B2",
          "W:W31:", "W:W35-31:B1", "W:W31-:B1", "W:WK:B1", "W;W31;B1", "W:W31 32:B1", "   ", ":W31:B1"}) {
        check_rejected<International>(bad);
    }
    for (const char* bad : {"hello", "W:X1", "", "W:Wa2,,b2", "W:Wa2-c3:Ba7", "W:Wd6-d2:Ba7"})
        check_rejected<Turkish>(bad);
}
