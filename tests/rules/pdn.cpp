// PDN game records: the reader (pdn_reader.hpp) and the replay (pdn_replay.hpp).
#include "dtb/rules/pdn.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/notation.hpp"
#include "tests/support/rules_support.hpp"

using namespace dtb;

namespace {

using test::pos;

std::vector<std::string> texts(const PdnGame& g) {
    std::vector<std::string> out;
    for (const PdnMoveToken& m : g.moves) out.push_back(m.text);
    return out;
}

template <class R>
PdnReplay replay_ok(const PdnGame& g) {
    auto r = replay_pdn_game<R>(g);
    INFO("game " << g.index << ": " << (r.ok() ? std::string("ok") : r.error()));
    REQUIRE(r.ok());
    CHECK(r->positions.size() == g.moves.size() + 1);
    CHECK(r->moves.size() == g.moves.size());
    return *r;
}

template <class R>
std::string replay_error(const PdnGame& g) {
    auto r = replay_pdn_game<R>(g);
    INFO("game " << g.index);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().find('\n') == std::string::npos);
    return r.error();
}

bool contains(const std::string& s, std::string_view part) {
    return s.find(part) != std::string::npos;
}

// The international start after 32-28 19-23 28x19 14x23, built by hand: White lost 32, Black
// lost 19 and 14 and has a man on 23.
constexpr const char* kAfterExchange =
    "W:W31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
    ":B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,20,23";

// Six games: international tags and results, PGN results, a FEN start, no tags, Turkish, and two
// games separated only by their tag sections (no result).
constexpr const char* kFile = R"PDN(% A file written for the tests; this escape line is skipped.
[Event "Cup \"A\" 2024"]
[Site "C:\\games\\cup"]
[GameType "20"]
[Result "2-0"]
1. 32-28 19-23 {a comment
over two lines (with a parenthesis} 2. 28x19! 14x23 $3
( 2... 13x24 3. 34-29 ( 3. 33-29 {inner} 24x33 ) 24x33 ) ; the rest of the line is a comment
3. 37-32?! 10-14 (?) 2-0

[Event "FEN start"]
[SetUp "1"]
[FEN "W:W19,K37:B8,18,22,32"]
1. 37x28x3 1/2-1/2
1.33-28 1...18-22 2.39-33 0-2
[Event "Turkish"]
[GameType "30,W,8,8,A0,0"]
1. d3-d4 e6-e5 2. d4-d5 e5xc5 3. e3-e4 c5-c4 4. c3xc5 c6xc4 *
[Event "No result"]
1. 32-28 19-23
[Event "Last"]
[Result "0-2"]
1. 31-27 20-24
)PDN";

}  // namespace

TEST_CASE("read_pdn: tags, moves, comments, variations, NAGs and results", "[rules][pdn]") {
    const auto games = read_pdn(kFile);
    REQUIRE(games.size() == 6);
    for (size_t i = 0; i < games.size(); ++i) {
        INFO("game " << i);
        CHECK(games[i].index == static_cast<int>(i));
        CHECK(games[i].errors.empty());
    }

    const PdnGame& g0 = games[0];
    CHECK(g0.line == 2);
    REQUIRE(g0.tags.size() == 4);
    CHECK(g0.tags[0].name == "Event");
    CHECK(g0.tags[0].value == "Cup \"A\" 2024");
    CHECK(g0.tags[1].name == "Site");
    CHECK(g0.tags[1].value == "C:\\games\\cup");
    CHECK(g0.tags[2].name == "GameType");
    CHECK(g0.tags[3].name == "Result");
    REQUIRE(g0.tag("event") != nullptr);
    CHECK(*g0.tag("event") == "Cup \"A\" 2024");
    CHECK(g0.tag("White") == nullptr);
    // The variations, the NAG, the strengths "!", "?!", "(?)" and the comments are skipped.
    CHECK(texts(g0) == std::vector<std::string>{"32-28", "19-23", "28x19", "14x23", "37-32", "10-14"});
    CHECK(g0.moves[0].line == 6);
    CHECK(g0.moves[2].line == 7);
    CHECK(g0.moves[4].line == 9);
    CHECK(g0.result_token == "2-0");
    CHECK(g0.result == PdnResult::white_wins);

    CHECK(games[1].tags.size() == 3);
    CHECK(texts(games[1]) == std::vector<std::string>{"37x28x3"});
    CHECK(games[1].result == PdnResult::draw);
    CHECK(games[1].result_token == "1/2-1/2");

    // Moves right after a result, without tags, make a game; move numbers glued to moves.
    CHECK(games[2].tags.empty());
    CHECK(games[2].line == 15);
    CHECK(texts(games[2]) == std::vector<std::string>{"33-28", "18-22", "39-33"});
    CHECK(games[2].result == PdnResult::black_wins);

    CHECK(games[3].moves.size() == 8);
    CHECK(games[3].moves[7].text == "c6xc4");
    CHECK(games[3].result_token == "*");
    CHECK(games[3].result == PdnResult::unknown);

    // A tag section after moves starts the next game: game 4 has no result token.
    CHECK(texts(games[4]) == std::vector<std::string>{"32-28", "19-23"});
    CHECK(games[4].result_token.empty());
    CHECK(games[4].result == PdnResult::unknown);
    CHECK(pdn_recorded_result(games[4]) == PdnResult::unknown);
    CHECK(*games[5].tag("Event") == "Last");
    CHECK(games[5].result_token.empty());
    CHECK(games[5].result == PdnResult::unknown);
    CHECK(pdn_recorded_result(games[5]) == PdnResult::black_wins);  // from the Result tag
    CHECK(pdn_recorded_result(games[0]) == PdnResult::white_wins);
}

TEST_CASE("read_pdn: both result notations", "[rules][pdn]") {
    const std::vector<std::pair<const char*, PdnResult>> cases = {
        {"2-0", PdnResult::white_wins}, {"1-0", PdnResult::white_wins}, {"1-1", PdnResult::draw},
        {"1/2-1/2", PdnResult::draw},   {"0-2", PdnResult::black_wins}, {"0-1", PdnResult::black_wins},
        {"*", PdnResult::unknown}};
    for (const auto& [token, result] : cases) {
        INFO(token);
        const auto games = read_pdn(std::string("1. 32-28 ") + token + "\n1. 33-28 " + token);
        REQUIRE(games.size() == 2);
        for (const PdnGame& g : games) {
            CHECK(g.result_token == token);
            CHECK(g.result == result);
            CHECK(g.moves.size() == 1);
        }
    }
    CHECK_FALSE(parse_pdn_result("2-1").has_value());
    CHECK_FALSE(parse_pdn_result("32-28").has_value());
}

TEST_CASE("read_pdn: empty and comment-only input make no games", "[rules][pdn]") {
    for (const char* text :
         {"", "   \n\t\r\n", "{just a comment}\n; and another\n% escape\n", "*", "* * 2-0", "\xEF\xBB\xBF"}) {
        INFO("'" << text << "'");
        CHECK(read_pdn(text).empty());
    }
    // Tags alone make a game without moves.
    const auto games = read_pdn("[Event \"Only tags\"]\n[Site \"x\"]\n");
    REQUIRE(games.size() == 1);
    CHECK(games[0].moves.empty());
    CHECK(games[0].tags.size() == 2);
    CHECK(games[0].result_token.empty());
    const auto r = replay_ok<International>(games[0]);
    CHECK(to_fen<International>(r.positions[0]) == to_fen<International>(pos<International>(International::kStartFen)));
}

TEST_CASE("read_pdn: syntax errors are recorded per game and reading goes on", "[rules][pdn]") {
    SECTION("unterminated comment: the next tag section starts the next game") {
        const auto games =
            read_pdn("[Event \"A\"]\n1. 32-28 {never closed\n19-23 2-0\n\n[Event \"B\"]\n1. 33-28 2-0\n");
        REQUIRE(games.size() == 2);
        REQUIRE(games[0].errors.size() == 1);
        CHECK(games[0].errors[0].line == 2);
        CHECK(contains(games[0].errors[0].message, "unterminated comment"));
        CHECK(texts(games[0]) == std::vector<std::string>{"32-28"});
        CHECK(games[1].errors.empty());
        CHECK(*games[1].tag("Event") == "B");
        CHECK(texts(games[1]) == std::vector<std::string>{"33-28"});
        CHECK(games[1].result == PdnResult::white_wins);
        const std::string e = replay_error<International>(games[0]);
        CHECK(contains(e, "game 1 (index 0, Event \"A\")"));
        CHECK(contains(e, "line 2"));
        CHECK(contains(e, "unterminated comment"));
        replay_ok<International>(games[1]);
    }
    SECTION("unterminated comment closed by a later game's '}': the tag section ends it") {
        const auto games = read_pdn(
            "[Event \"A\"]\n1. 32-28 {never closed\n19-23 2-0\n[Event \"B\"]\n"
            "1. 33-28 {closed} 18-22 2-0\n");
        REQUIRE(games.size() == 2);
        REQUIRE(games[0].errors.size() == 1);
        CHECK(contains(games[0].errors[0].message, "unterminated comment"));
        CHECK(games[1].errors.empty());
        CHECK(texts(games[1]) == std::vector<std::string>{"33-28", "18-22"});
        // A line in a closed comment that does not look like a tag pair is comment text.
        const auto ok = read_pdn("1. 32-28 {see\n[%clock 1:00]\n[diagram]} 19-23 2-0");
        REQUIRE(ok.size() == 1);
        CHECK(ok[0].errors.empty());
        CHECK(texts(ok[0]) == std::vector<std::string>{"32-28", "19-23"});
    }
    SECTION("unterminated comment at the end of the file") {
        const auto games = read_pdn("1. 32-28 {never closed 19-23");
        REQUIRE(games.size() == 1);
        REQUIRE(games[0].errors.size() == 1);
        CHECK(games[0].errors[0].line == 1);
    }
    SECTION("unterminated variation, nested") {
        const auto games = read_pdn("1. 32-28 (1. 33-28 (1. 34-29\n19-23 2-0\n[Event \"B\"]\n1. 33-28 *\n");
        REQUIRE(games.size() == 2);
        REQUIRE(games[0].errors.size() == 1);
        CHECK(contains(games[0].errors[0].message, "unterminated variation"));
        CHECK(games[0].errors[0].line == 1);
        CHECK(games[1].errors.empty());
        CHECK(texts(games[1]) == std::vector<std::string>{"33-28"});
    }
    SECTION("broken tags: reading goes on with the next line") {
        const auto games = read_pdn(
            "[Event \"no closing quote]\n[Site \"x\"\n[ \"no name\"]\n[Round 5]\n[White \"W\"]\n"
            "1. 32-28 *\n");
        REQUIRE(games.size() == 1);
        REQUIRE(games[0].errors.size() == 4);
        CHECK(games[0].errors[0].line == 1);
        CHECK(contains(games[0].errors[0].message, "unterminated tag [Event"));
        CHECK(games[0].errors[1].line == 2);
        CHECK(contains(games[0].errors[1].message, "']' is missing"));
        CHECK(games[0].errors[2].line == 3);
        CHECK(games[0].errors[3].line == 4);
        REQUIRE(games[0].tags.size() == 1);
        CHECK(games[0].tags[0].name == "White");
        CHECK(texts(games[0]) == std::vector<std::string>{"32-28"});
    }
    SECTION("garbage tokens, a setup, a stray bracket") {
        // "32 - 28": numbers without dots are move numbers; the '-' alone is no move.
        const auto games = read_pdn("1. 32-28 hello 19-23 ] 2. 28x19 32 - 28 $ /W:W1:B2/ 14x23 2-0\n1. 33-28 2-0");
        REQUIRE(games.size() == 2);
        const auto& errors = games[0].errors;
        REQUIRE(errors.size() == 5);
        CHECK(contains(errors[0].message, "'hello'"));
        CHECK(errors[0].column == 10);
        CHECK(errors[0].recoverable);
        CHECK(contains(errors[1].message, "']'"));
        CHECK(errors[1].column == 22);
        CHECK(contains(errors[2].message, "'-'"));
        CHECK(contains(errors[3].message, "'$'"));
        CHECK(contains(errors[4].message, "setup"));
        CHECK_FALSE(errors[4].recoverable);
        std::vector<std::string> readable;
        for (const PdnMoveToken& m : games[0].moves)
            if (m.readable) readable.push_back(m.text);
        CHECK(readable == std::vector<std::string>{"32-28", "19-23", "28x19", "14x23"});
        CHECK(texts(games[0]) == std::vector<std::string>{"32-28", "hello", "19-23", "28x19", "-", "14x23"});
        const std::string e = replay_error<International>(games[0]);
        CHECK(contains(e, "setup"));
        CHECK(contains(e, "(and 4 more syntax errors)"));
        CHECK(games[1].errors.empty());
        // A setup never closed ends at its line; the next line is counted.
        const auto open_setup = read_pdn("1. 32-28 /W:W1\n19-23 2-0");
        REQUIRE(open_setup.size() == 1);
        REQUIRE(open_setup[0].errors.size() == 1);
        REQUIRE(open_setup[0].moves.size() == 2);
        CHECK(open_setup[0].moves[1].line == 2);
    }
    SECTION("control characters are shown escaped in messages") {
        const auto games = read_pdn(std::string("1. 32-28 a\x01z 2-0", 16));
        REQUIRE(games.size() == 1);
        REQUIRE(games[0].errors.size() == 1);
        CHECK(contains(games[0].errors[0].message, "a\\x01z"));
    }
}

TEST_CASE("replay: an international game, position by position", "[rules][pdn]") {
    const auto games = read_pdn(kFile);
    REQUIRE(games.size() == 6);
    const PdnReplay r = replay_ok<International>(games[0]);
    CHECK(r.variant == VariantId::international);
    CHECK(to_fen<International>(r.positions[0]) ==
          "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
          ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
    CHECK(to_fen<International>(r.positions[1]) ==
          "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
          ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
    CHECK(to_fen<International>(r.positions[4]) == kAfterExchange);
    CHECK(to_fen<International>(r.positions[6]) ==
          "W:W31,32,33,34,35,36,38,39,40,41,42,43,44,45,46,47,48,49,50"
          ":B1,2,3,4,5,6,7,8,9,11,12,13,14,15,16,17,18,20,23");
    // The moves are the legal Move objects, printed back as written.
    CHECK(r.moves[2].is_capture());
    CHECK(r.moves[2].num_captured() == 1);
    MoveList legal;
    generate_moves<International>(r.positions[3], legal);
    CHECK(move_to_string<International>(r.moves[3], legal) == "14x23");
    for (size_t i = 0; i < r.moves.size(); ++i) CHECK(make_move(r.positions[i], r.moves[i]) == r.positions[i + 1]);

    // The non-template replay picks the variant from GameType and agrees.
    const auto any = replay_pdn_game(games[0], VariantId::turkish);
    REQUIRE(any.ok());
    CHECK(any->positions == r.positions);

    // Game 2: no tags, so the default variant.
    const PdnReplay g2 = replay_ok<International>(games[2]);
    CHECK(to_fen<International>(g2.positions.back()) ==
          "B:W28,31,32,33,34,35,36,37,38,40,41,42,43,44,45,46,47,48,49,50"
          ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,19,20,22");
    // Without GameType the default's rules come first; Turkish ones cannot follow 32-28, so
    // the game is international after all.
    const auto fallback = replay_pdn_game(games[2], VariantId::turkish);
    REQUIRE(fallback.ok());
    CHECK(fallback->variant == VariantId::international);
    CHECK_FALSE(replay_pdn_game<Turkish>(games[2]).ok());
}

TEST_CASE("replay: FEN start, full-path captures and ambiguous captures", "[rules][pdn]") {
    const auto games = read_pdn(kFile);
    REQUIRE(games.size() == 6);
    // King 37 takes 32, 22, 8 or 32, 18, 8, both ending on 3 (rules_notation.cpp): the game
    // names the landing square 28, which settles it.
    const PdnReplay r = replay_ok<International>(games[1]);
    CHECK(to_fen<International>(r.positions[0]) == "W:W19,K37:B8,18,22,32");
    CHECK(to_fen<International>(r.positions[1]) == "B:WK3,19:B18");
    CHECK(r.moves[0].num_captured() == 3);

    // Without SetUp, and with the short form: ambiguous, the candidates listed.
    const auto amb = read_pdn("[Event \"Amb\"]\n[FEN \"W:W19,K37:B8,18,22,32\"]\n1. 37x3 2-0");
    REQUIRE(amb.size() == 1);
    const std::string e = replay_error<International>(amb[0]);
    CHECK(contains(e, "game 1 (index 0, Event \"Amb\")"));
    CHECK(contains(e, "ply 1 (line 3, White to move)"));
    CHECK(contains(e, "ambiguous move '37x3'"));
    CHECK(contains(e, "37x28x17x3"));
    CHECK(contains(e, "37x23x12x3"));
    // A king's capture with a choice of landing squares, in the short form.
    const auto king = read_pdn("[FEN \"W:WK46:B29,37\"]\n1. 46x34 *");
    REQUIRE(king.size() == 1);
    CHECK(to_fen<International>(replay_ok<International>(king[0]).positions[1]) == "B:WK34:B");
    // Black to move first: the ply count starts with Black.
    const auto black = read_pdn("[FEN \"B:W28:B23,K1\"]\n1... 23x32 2. 41-37 *");
    REQUIRE(black.size() == 1);
    const std::string e2 = replay_error<International>(black[0]);
    CHECK(contains(e2, "ply 2 (line 2, White to move): illegal move '41-37'; legal moves: (none)"));
    // A bad FEN.
    const auto bad = read_pdn("[FEN \"W:W99:B1\"]\n1. 32-28 *");
    CHECK(contains(replay_error<International>(bad[0]), "unknown square '99'"));
}

TEST_CASE("replay: a Turkish game", "[rules][pdn]") {
    const auto games = read_pdn(kFile);
    REQUIRE(games.size() == 6);
    const PdnGame& g = games[3];
    CHECK(pdn_game_variant(g, VariantId::international).value() == VariantId::turkish);
    const PdnReplay r = replay_ok<Turkish>(g);
    CHECK(r.variant == VariantId::turkish);
    CHECK(to_fen<Turkish>(r.positions[0]) ==
          "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3"
          ":Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7");
    // 2... e5xc5 takes d5 sideways (d6xd4 was the other choice).
    CHECK(to_fen<Turkish>(r.positions[4]) ==
          "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3"
          ":Bc5,a6,b6,c6,d6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7");
    CHECK(to_fen<Turkish>(r.positions.back()) ==
          "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,f3,g3,h3,e4"
          ":Bc4,a6,b6,d6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7");
    // The non-template replay follows GameType whatever the default.
    const auto any = replay_pdn_game(g, VariantId::international);
    REQUIRE(any.ok());
    CHECK(any->variant == VariantId::turkish);
    CHECK(any->positions == r.positions);
    // Under the other variant's rules: refused, naming the game type.
    CHECK(contains(replay_error<International>(g), "GameType \"30,W,8,8,A0,0\" is not international"));
    // The variant by name; unsupported game types.
    const auto named = read_pdn("[GameType \"Turkish\"]\n[FEN \"W:Wd4:Bd5,h7\"]\n1. d4xd6 *");
    REQUIRE(named.size() == 1);
    CHECK(to_fen<Turkish>(replay_ok<Turkish>(named[0]).positions[1]) == "B:Wd6:Bh7");
    const auto english = read_pdn("[GameType \"21\"]\n1. 11-15 *");
    CHECK_FALSE(pdn_game_variant(english[0], VariantId::international).ok());
    CHECK(contains(replay_pdn_game(english[0], VariantId::international).error(),
                   "GameType \"21\" is English draughts (checkers), another variant"));
}

TEST_CASE("replay: an illegal move names the game, the ply and the legal moves", "[rules][pdn]") {
    const auto games = read_pdn(
        "[Event \"Good\"]\n1. 32-28 *\n"
        "[Event \"Bad\"]\n[Round \"3\"]\n1. 32-28 19-23\n2. 28-22 14x23 *\n");
    REQUIRE(games.size() == 2);
    replay_ok<International>(games[0]);
    const std::string e = replay_error<International>(games[1]);
    // After 32-28 19-23 White must take 28x19: 28-22 is illegal.
    const Position p = pos<International>(
        "W:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50"
        ":B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23");
    const auto expected = parse_move<International>(p, "28-22");
    REQUIRE_FALSE(expected.ok());
    CHECK(e == "game 2 (index 1, Event \"Bad\"), ply 3 (line 6, White to move): " + expected.error());
    CHECK(contains(e, "illegal move '28-22'; legal moves: 28x19"));
    CHECK(contains(e, legal_moves_text<International>(p)));
    // Through the dispatching overload: the same message.
    CHECK(replay_pdn_game(games[1], VariantId::international).error() == e);
}
