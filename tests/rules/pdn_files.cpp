// PDN files as tournament software writes them (tests/data/pdn/*.pdn, one file per family of
// forms): what the reader makes of each form, and that every game replays under its variant.
// tools_adjudicate_pdn.cpp judges the same files against the tables.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/pdn.hpp"

using namespace dtb;

// Named, not anonymous: a unity build puts this file beside rules_pdn.cpp.
namespace pdn_files_test {

std::string slurp(const std::string& name) {
    const std::filesystem::path p = std::filesystem::path(DTB_SOURCE_DIR) / "tests" / "data" / "pdn" / name;
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<PdnGame> read_file(const std::string& name) {
    return read_pdn(slurp(name));
}

std::vector<std::string> move_texts(const PdnGame& g) {
    std::vector<std::string> out;
    for (const PdnMoveToken& m : g.moves) out.push_back(m.text);
    return out;
}

PdnReplay follows(const PdnGame& g) {
    const auto r = follow_pdn_game(g, VariantId::international);
    INFO(pdn_game_label(g) << ": " << (r ? r->stop_message : r.error()));
    REQUIRE(r.ok());
    CHECK(r->stop == PdnStop::none);
    return *r;
}

bool has_text(const std::string& s, std::string_view part) {
    return s.find(part) != std::string::npos;
}

}  // namespace pdn_files_test

using namespace pdn_files_test;

TEST_CASE("PDN files: padded squares", "[rules][pdn][pdn-files]") {
    const auto games = read_file("padded.pdn");
    REQUIRE(games.size() == 3);
    for (const PdnGame& g : games) CHECK(g.errors.empty());
    // The example: "1- 7" and " 7-12" with the number padded.
    CHECK(move_texts(games[0]) == std::vector<std::string>{"32-28", "18-23", "37-32", "12-18", "41-37", "7-12", "46-41",
                                                           "1-7", "34-29", "23x34", "40x29"});
    CHECK(games[0].moves[7].written == "1- 7");
    CHECK(games[0].moves[7].line == 5);
    CHECK(games[0].moves[7].column == 65);
    CHECK(follows(games[0]).moves.size() == 11);
    CHECK(move_texts(games[1]) == std::vector<std::string>{"47x9"});
    CHECK(games[1].moves[0].written == "47x 9");
    CHECK(to_fen<International>(follows(games[1]).positions.back()) == "B:W9:B");
    CHECK(move_texts(games[2]) == std::vector<std::string>{"5-10", "46x5"});
    CHECK(games[2].moves[0].written == "05-10");
    CHECK(to_fen<International>(follows(games[2]).positions.back()) == "B:WK5:B");
}

TEST_CASE("PDN files: captures in every notation", "[rules][pdn][pdn-files]") {
    const auto games = read_file("captures.pdn");
    REQUIRE(games.size() == 5);
    // Every landing square, start and end only: the same move.
    const PdnReplay full = follows(games[0]), short_form = follows(games[1]);
    CHECK(full.positions == short_form.positions);
    CHECK(to_fen<International>(full.positions.back()) == "W:W:BK48");
    // An intermediate square picks one of two routes that end on 3.
    CHECK(to_fen<International>(follows(games[2]).positions.back()) == "B:WK3,19:B18");
    // The split form: two tokens, one move.
    CHECK(move_texts(games[3]) == std::vector<std::string>{"11x22", "22x31"});
    const PdnReplay split = follows(games[3]);
    REQUIRE(split.moves.size() == 1);
    CHECK(split.moves[0].num_captured() == 2);
    // Ambiguous: stops at ply 1 with both candidates.
    const auto amb = follow_pdn_game(games[4], VariantId::international);
    REQUIRE(amb.ok());
    CHECK(amb->stop == PdnStop::ambiguous);
    CHECK(amb->stop_ply == 1);
    CHECK(has_text(amb->stop_message, "ambiguous move '37x3': it could be 37x28x17x3 37x23x12x3"));
}

TEST_CASE("PDN files: move numbers and results", "[rules][pdn][pdn-files]") {
    const auto games = read_file("numbers_results.pdn");
    REQUIRE(games.size() == 10);
    const std::vector<std::pair<std::string, PdnResult>> results = {
        {"2-0", PdnResult::white_wins}, {"0-2", PdnResult::black_wins}, {"1-1", PdnResult::draw},
        {"1-0", PdnResult::white_wins}, {"1/2-1/2", PdnResult::draw},   {"0-1", PdnResult::black_wins},
        {"0-0", PdnResult::unknown},    {"*", PdnResult::unknown},      {"", PdnResult::unknown}};
    for (size_t i = 0; i < results.size(); ++i) {
        INFO(pdn_game_label(games[i]));
        CHECK(games[i].errors.empty());
        CHECK(games[i].result_token == results[i].first);
        CHECK(games[i].result == results[i].second);
        follows(games[i]);
    }
    const std::vector<std::string> four{"32-28", "19-23", "28x19", "14x23"};
    for (int i : {0, 1, 2, 3, 5}) CHECK(move_texts(games[i]) == four);
    CHECK(move_texts(games[4]) == std::vector<std::string>{"32-28", "19-23", "28x19", "14x23", "37-32"});
    // The Result tag against the moves' result: the moves' result counts, the conflict is said.
    CHECK(pdn_recorded_result(games[9]) == PdnResult::draw);
    const auto conflict = pdn_result_conflict(games[9]);
    REQUIRE(conflict);
    CHECK(has_text(*conflict, "\"2-0\" disagrees with the result 1-1"));
    CHECK_FALSE(pdn_result_conflict(games[0]));
}

TEST_CASE("PDN files: set-up positions", "[rules][pdn][pdn-files]") {
    const auto games = read_file("setups.pdn");
    REQUIRE(games.size() == 5);
    CHECK(follows(games[0]).positions == follows(games[1]).positions);
    CHECK(to_fen<International>(follows(games[0]).positions[0]) == "W:WK2,6:BK50");
    CHECK(follows(games[2]).positions[0] == parse_fen<International>(International::kStartFen).value());
    CHECK(to_fen<International>(follows(games[3]).positions[0]) == "W:WK46,K47,K48:BK5");
    const PdnReplay black = follows(games[4]);
    CHECK(black.positions[0].side_to_move == Color::black);
    CHECK(to_fen<International>(black.positions.back()) == "W:W:BK1,32");
}

TEST_CASE("PDN files: game types", "[rules][pdn][pdn-files]") {
    const auto games = read_file("game_types.pdn");
    REQUIRE(games.size() == 11);
    CHECK(follows(games[0]).variant == VariantId::international);
    CHECK(follows(games[1]).variant == VariantId::international);
    CHECK(follows(games[2]).variant == VariantId::international);  // absent: the moves fit
    CHECK(follows(games[3]).variant == VariantId::turkish);        // absent, "d3-d4"
    CHECK(follows(games[4]).variant == VariantId::turkish);
    const std::vector<std::pair<int, std::string>> others = {{21, "English"},   {22, "Italian"}, {25, "Russian"},
                                                             {26, "Brazilian"}, {40, "Frisian"}, {57, ""}};
    for (size_t i = 0; i < others.size(); ++i) {
        const PdnGame& g = games[5 + i];
        INFO(pdn_game_label(g));
        CHECK(g.errors.empty());
        const PdnGameType t = pdn_game_type(g);
        CHECK(pdn_other_variant(t));
        CHECK(t.number == others[i].first);
        CHECK(has_text(t.name, others[i].second));
        const auto r = follow_pdn_game(g, VariantId::international);
        REQUIRE_FALSE(r.ok());
        CHECK(has_text(r.error(), "another variant"));
    }
}

TEST_CASE("PDN files: comments, escapes, variations, NAGs, empty games, text between games",
          "[rules][pdn][pdn-files]") {
    const auto games = read_file("comments.pdn");
    REQUIRE(games.size() == 5);
    for (const PdnGame& g : games) {
        INFO(pdn_game_label(g));
        CHECK(g.errors.empty());
        follows(g);
    }
    CHECK(*games[0].tag("White") == "Player A");
    CHECK(move_texts(games[0]) == std::vector<std::string>{"32-28", "19-23", "28x19", "14x23"});
    CHECK(move_texts(games[1]) ==
          std::vector<std::string>{"32-28", "19-23", "28x19", "14x23", "37-32", "18-22", "41-37", "12-18"});
    CHECK(games[1].result_token == "1-1");
    CHECK(games[2].moves.empty());
    CHECK(games[2].result_token == "*");
    CHECK(*games[3].tag("Event") == "Empty game without a result");
    CHECK(games[3].moves.empty());
    CHECK(move_texts(games[4]) == std::vector<std::string>{"32-28"});
}

TEST_CASE("PDN files: encodings and line ends", "[rules][pdn][pdn-files]") {
    const auto bom = read_file("utf8_bom.pdn");
    REQUIRE(bom.size() == 2);
    CHECK(*bom[0].tag("White") == "J\u00e9r\u00f4me Dupr\u00e9");
    CHECK(bom[0].line == 1);
    const auto cyr = read_file("cyrillic.pdn");
    REQUIRE(cyr.size() == 1);
    CHECK(*cyr[0].tag("White") ==
          "\u0410\u043b\u0435\u043a\u0441\u0430\u043d\u0434\u0440 \u0428\u0432\u0430\u0440\u0446\u043c\u0430\u043d");
    for (const char* name : {"crlf.pdn", "cr.pdn"}) {
        INFO(name);
        const auto games = read_file(name);
        REQUIRE(games.size() == 2);
        CHECK(games[1].line == 9);  // lines counted by either line end
        CHECK(games[1].moves[0].line == 14);
        for (const PdnGame& g : games) {
            CHECK(g.errors.empty());
            CHECK(follows(g).moves.size() == 9);
        }
    }
    const auto cp = read_file("windows1252.pdn");
    REQUIRE(cp.size() == 4);
    CHECK(*cp[0].tag("White") == "G\u00e9rard No\u00ebl");
    CHECK(*cp[1].tag("White") == "G\u00f6khan \u00c7elik");
    CHECK(*cp[2].tag("White") == "Ay\u015fe Y\u0131ld\u0131z");  // Windows-1254 in a Turkish game
    CHECK(*cp[2].tag("Black") == "\u0130smail A\u011fao\u011flu");
    CHECK(follows(cp[2]).variant == VariantId::turkish);
    for (const PdnGame& g : cp)
        for (const PdnTag& t : g.tags) CHECK(pdn_detail::is_valid_utf8(t.value));
    // Bytes that are no text among the moves: a recoverable error, shown escaped, stepped over.
    REQUIRE(cp[3].errors.size() == 1);
    CHECK(has_text(cp[3].errors[0].message, "'\\xFF\\xFE'"));
    CHECK(pdn_detail::is_valid_utf8(cp[3].errors[0].message));
    CHECK(follows(cp[3]).moves.size() == 2);
}

TEST_CASE("PDN files: bad tokens, with line and column, recovered or not", "[rules][pdn][pdn-files]") {
    const auto rec = read_file("recovered.pdn");
    REQUIRE(rec.size() == 4);
    // A stray word: stepped over.
    REQUIRE(rec[0].errors.size() == 1);
    CHECK(rec[0].errors[0].line == 4);
    CHECK(rec[0].errors[0].column == 10);
    const PdnReplay stray = follows(rec[0]);
    CHECK(stray.moves.size() == 4);
    REQUIRE(stray.notes.size() == 1);
    CHECK(stray.notes[0].line == 4);
    CHECK(stray.notes[0].column == 10);
    // An unreadable move: the one legal move after which the next is legal.
    const PdnReplay recovered = follows(rec[1]);
    CHECK(recovered.moves.size() == 5);
    REQUIRE(recovered.notes.size() == 1);
    CHECK(recovered.notes[0].ply == 3);
    CHECK(recovered.notes[0].column == 19);
    CHECK(has_text(recovered.notes[0].message, "'28x!9' taken as 28x19"));
    CHECK(follows(rec[2]).notes.size() == 2);  // ']' and '$'
    // Words after the last move that cannot be a move: stepped over.
    const PdnReplay words = follows(rec[3]);
    CHECK(words.moves.size() == 2);
    CHECK(words.notes.size() == 2);

    const auto bad = read_file("unreadable.pdn");
    REQUIRE(bad.size() == 3);
    const auto stop = follow_pdn_game(bad[0], VariantId::international);
    REQUIRE(stop.ok());
    CHECK(stop->stop == PdnStop::unreadable);
    CHECK(stop->stop_ply == 4);
    CHECK(stop->moves.size() == 3);
    CHECK(has_text(stop->stop_message, "ply 4 (line 4, Black to move)"));
    CHECK(has_text(stop->stop_message, "'1q-23' (line 4, column 25)"));
    CHECK(has_text(stop->stop_message, "it could be 13x24 14x23"));
    follows(bad[1]);
    // A garbled last move (a digit in it): not stepped over, the game stops at ply 3.
    const auto last = follow_pdn_game(bad[2], VariantId::international);
    REQUIRE(last.ok());
    CHECK(last->stop == PdnStop::unreadable);
    CHECK(last->stop_ply == 3);
    CHECK(bad[2].moves.back().after_number);

    const auto illegal = read_file("illegal.pdn");
    REQUIRE(illegal.size() == 2);
    const auto i = follow_pdn_game(illegal[0], VariantId::international);
    REQUIRE(i.ok());
    CHECK(i->stop == PdnStop::illegal);
    CHECK(i->stop_ply == 3);
    CHECK(has_text(i->stop_message, "illegal move '28-22'; legal moves: 28x19"));
}

TEST_CASE("PDN files: Turkish games", "[rules][pdn][pdn-files]") {
    const auto games = read_file("turkish.pdn");
    REQUIRE(games.size() == 3);
    const PdnReplay win = follows(games[0]);
    CHECK(win.variant == VariantId::turkish);
    CHECK(move_texts(games[0])[0] == "d4xd6xf6");
    CHECK(win.moves[0].num_captured() == 2);
    CHECK(win.moves.size() == 17);
    CHECK(to_fen<Turkish>(win.positions.back()) == "B:WKc1:B");
}
