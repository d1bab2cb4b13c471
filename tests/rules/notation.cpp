// Move notation (notation.hpp): parse_move, move_to_string, move_full_path.
#include "dtb/rules/notation.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/rules/fen.hpp"
#include "tests/support/rules_support.hpp"

using namespace dtb;

namespace {

using test::pos;

template <class R>
Move parse_ok(const Position& p, std::string_view text) {
    auto m = parse_move<R>(p, text);
    INFO("move " << text << ": " << (m.ok() ? std::string("ok") : m.error()));
    REQUIRE(m.ok());
    return *m;
}

template <class R>
std::string parse_error(const Position& p, std::string_view text) {
    auto m = parse_move<R>(p, text);
    INFO("move " << text);
    REQUIRE_FALSE(m.ok());
    CHECK_FALSE(m.error().empty());
    return m.error();
}

template <class R>
bool contains_legal(const Position& p, const Move& m) {
    MoveList l;
    generate_moves<R>(p, l);
    for (const Move& o : l)
        if (o.same_effect(m)) return true;
    return false;
}

template <class R>
int sq(std::string_view s) {
    return R::Geometry::parse_square(s).value();
}

}  // namespace

TEST_CASE("parse_move: plain moves", "[rules][notation]") {
    const Position p = pos<International>("W:W31-50:B1-20");
    const Move m = parse_ok<International>(p, "32-28");
    CHECK(m.from == sq<International>("32"));
    CHECK(m.to == sq<International>("28"));
    CHECK_FALSE(m.is_capture());
    CHECK(contains_legal<International>(p, m));
    CHECK(move_to_string<International>(m, MoveList{m}) == "32-28");
    // Every legal move of the start parses back from its own notation.
    MoveList l;
    generate_moves<International>(p, l);
    for (const Move& x : l) CHECK(parse_ok<International>(p, move_to_string<International>(x, l)).same_effect(x));

    const Position t = pos<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7");
    const Move d = parse_ok<Turkish>(t, "d3-d4");
    CHECK(d.from == sq<Turkish>("d3"));
    CHECK(d.to == sq<Turkish>("d4"));
    CHECK(move_full_path<Turkish>(d) == "d3-d4");
}

TEST_CASE("parse_move: full paths and short forms of a capture", "[rules][notation]") {
    // King 46 takes 37 and 29 (see rules_captures.cpp): 46x23x34, 46x23x40, 46x23x45.
    const Position p = pos<International>("W:WK46:B29,37");
    const Move a = parse_ok<International>(p, "46x23x34");
    const Move b = parse_ok<International>(p, "46x34");
    CHECK(a.same_effect(b));
    CHECK(a.to == sq<International>("34"));
    CHECK(a.captured == (bit(sq<International>("29")) | bit(sq<International>("37"))));
    CHECK(contains_legal<International>(p, a));
    CHECK(move_full_path<International>(a) == "46x23x34");
    // Not a legal destination: the capture must go on from 23.
    CHECK(parse_error<International>(p, "46x23").find("illegal") != std::string::npos);
    // Man 13 takes 8 and 7 through 2: "13x2x11" and "13x11".
    const Position q = pos<International>("W:W13:B7,8");
    CHECK(parse_ok<International>(q, "13x2x11").same_effect(parse_ok<International>(q, "13x11")));
    // Turkish: the two paths of c1xa3 are one move; each full path and the short form name it.
    const Position t = pos<Turkish>("W:WKc1:Bb3,c3,e3,e5,f4");
    const Move s = parse_ok<Turkish>(t, "c1xa3");
    CHECK(parse_ok<Turkish>(t, "c1xc5xf5xf3xd3xa3").same_effect(s));
    CHECK(parse_ok<Turkish>(t, "c1xc5xf5xf3xc3xa3").same_effect(s));
    CHECK(parse_ok<Turkish>(t, "c1xf3xa3").same_effect(s));
    CHECK(s.num_captured() == 5);
}

TEST_CASE("parse_move: ambiguous short form is rejected with the alternatives", "[rules][notation]") {
    // King 37 = (8,3), white man 19 = (4,7), black men 32, 22, 18, 8.
    // 37: NE over 32 lands 28 or 23 (19 is white). From 28: NW over 22 lands 17, 11, 6; from 17
    // NE over 8 (12 empty) lands 3 (row 1). From 23: NW over 18 lands 12, 7, 1; from 12 NE over 8
    // lands 3. Nothing else continues (11, 6, 7, 1 see no piece; 3 sees nothing). Two legal
    // captures of three pieces, both 37 -> 3: {32,22,8} and {32,18,8}.
    const Position p = pos<International>("W:W19,K37:B8,18,22,32");
    MoveList l;
    generate_moves<International>(p, l);
    std::vector<std::string> printed;
    for (const Move& m : l) printed.push_back(move_to_string<International>(m, l));
    std::sort(printed.begin(), printed.end());
    CHECK(printed == std::vector<std::string>{"37x23x12x3", "37x28x17x3"});

    const std::string err = parse_error<International>(p, "37x3");
    CHECK(err.find("ambiguous") != std::string::npos);
    CHECK(err.find("37x28x17x3") != std::string::npos);
    CHECK(err.find("37x23x12x3") != std::string::npos);
    // Any intermediate landing square settles it.
    const Move a = parse_ok<International>(p, "37x28x3");
    CHECK(a.captured == (bit(sq<International>("32")) | bit(sq<International>("22")) | bit(sq<International>("8"))));
    CHECK(parse_ok<International>(p, "37x17x3").same_effect(a));
    CHECK(parse_ok<International>(p, "37x28x17x3").same_effect(a));
    const Move b = parse_ok<International>(p, "37x12x3");
    CHECK(b.captured == (bit(sq<International>("32")) | bit(sq<International>("18")) | bit(sq<International>("8"))));
    CHECK(parse_ok<International>(p, "37x23x12x3").same_effect(b));
    // The full paths printed by move_to_string parse back to their own moves.
    for (const Move& m : l) CHECK(parse_ok<International>(p, move_to_string<International>(m, l)).same_effect(m));
}

TEST_CASE("parse_move: illegal moves are rejected naming the legal moves", "[rules][notation]") {
    const Position p = pos<International>("W:W31-50:B1-20");
    // An unparsable text gets a syntax message; a well-formed but illegal one lists the moves.
    for (const char* bad : {"32-23", "28-23", "46-41", "31-26x", "20-25", "32-28-23", "32x28x23"})
        CHECK_FALSE(parse_move<International>(p, bad).ok());
    const std::string err = parse_error<International>(p, "32-23");
    CHECK(err.find("illegal") != std::string::npos);
    for (const char* m : {"31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"}) {
        INFO(m);
        CHECK(err.find(m) != std::string::npos);
    }
    // Captures are compulsory: a plain move is illegal when a capture exists.
    const Position c = pos<International>("W:W32,47:B42,K28");
    const std::string err2 = parse_error<International>(c, "47-41");
    CHECK(err2.find("32x23") != std::string::npos);
    CHECK(err2.find("47x38") != std::string::npos);
    // Malformed texts and squares that do not exist.
    for (const char* bad : {"", "32", "hello", "32-", "-28", "32--28", "99-28", "a2-a3"})
        CHECK_FALSE(parse_move<International>(p, bad).ok());
    const Position t = pos<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7");
    for (const char* bad : {"d3-d5", "d3-e4", "d2-d3", "32-28", "i3-i4", "d3"})
        CHECK_FALSE(parse_move<Turkish>(t, bad).ok());
    const std::string err3 = parse_error<Turkish>(t, "d3-d5");
    CHECK(err3.find("d3-d4") != std::string::npos);
    // No legal move at all.
    CHECK_FALSE(parse_move<International>(pos<International>("W:W46:B37,41"), "46-41").ok());
}

TEST_CASE("move_to_string: full path only when two legal captures share from and to", "[rules][notation]") {
    MoveList l;
    // One capture per (from, to): short forms, even for a multi-capture.
    const Position p = pos<International>("W:WK46:B29,37");
    generate_moves<International>(p, l);
    std::vector<std::string> s;
    for (const Move& m : l) s.push_back(move_to_string<International>(m, l));
    std::sort(s.begin(), s.end());
    CHECK(s == std::vector<std::string>{"46x34", "46x40", "46x45"});
    // Two paths of the same move are one legal move: the short form.
    const Position q = pos<International>("W:W32:B17,18,27,28");
    generate_moves<International>(q, l);
    REQUIRE(l.size() == 1);
    CHECK(move_to_string<International>(l[0], l) == "32x32");
    const Position t = pos<Turkish>("W:WKc1:Bb3,c3,e3,e5,f4");
    generate_moves<Turkish>(t, l);
    REQUIRE(l.size() == 1);
    CHECK(move_to_string<Turkish>(l[0], l) == "c1xa3");
    // Turkish quiet moves.
    generate_moves<Turkish>(pos<Turkish>("W:Wd4:Bh7"), l);
    s.clear();
    for (const Move& m : l) s.push_back(move_to_string<Turkish>(m, l));
    std::sort(s.begin(), s.end());
    CHECK(s == std::vector<std::string>{"d4-c4", "d4-d5", "d4-e4"});
    // legal_moves_text: the moves separated by spaces, "(none)" when there are none.
    CHECK(legal_moves_text<International>(pos<International>("W:W46:B37,41")) == "(none)");
    CHECK(legal_moves_text<International>(pos<International>("W:WK46:B37")).find("46x5") != std::string::npos);
}
