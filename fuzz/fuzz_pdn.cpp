// libFuzzer target: the PDN reader (rules/pdn_reader.hpp) and the replay of every game it finds
// under both variants (rules/pdn_replay.hpp), over the forms real files use (padded squares, bare
// move numbers, split captures, unreadable words, other game types, code-page tag text, CR line
// ends). Beyond "never crash":
// - games are numbered 0, 1, ..; every readable move token is a well-formed, unpadded move text,
//   written as it stands at its line, lines in order; every syntax error has a line, a column
//   and a one-line UTF-8 message; every tag value is UTF-8;
// - every game either replays or gets a one-line error that starts with the game's label; a game
//   with a fatal syntax error never replays; a replay that stops names its ply in a one-line
//   message starting with the label;
// - a replay has one position more than moves, each position is the previous one after the
//   move, each move is legal there, and its printed forms parse back to it;
// - the variant-dispatching replay agrees with the template one for the variant it picks, and
//   picks the other variant than the tag's default only for a game without GameType.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/rules/pdn.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
    std::fprintf(stderr, "fuzz_pdn: %s: %s\n", what, detail.c_str());
    std::abort();
}

bool one_line(const std::string& s) {
    return !s.empty() && s.find('\n') == std::string::npos;
}

template <class R>
void check_replay(const dtb::PdnGame& g) {
    using namespace dtb;
    const auto r = follow_pdn_game<R>(g);
    const auto whole = replay_pdn_game<R>(g);
    if (!r) {
        if (!one_line(r.error())) fail("replay error not one line", r.error());
        if (r.error().rfind(pdn_game_label(g), 0) != 0)
            fail("replay error does not start with the game's label", r.error());
        if (whole) fail("replay_pdn_game replayed what follow_pdn_game refused", r.error());
        return;
    }
    if (g.has_fatal_error()) fail("a game with a fatal syntax error replayed", g.errors[0].message);
    if (r->variant != R::kId) fail("replay names another variant", std::string(R::kName));
    if (r->positions.size() != r->moves.size() + 1) fail("replay sizes", std::to_string(r->moves.size()));
    if (r->stop == PdnStop::none) {
        if (!whole || !(whole->positions == r->positions)) fail("replay_pdn_game disagrees", "");
    } else {
        if (whole) fail("replay_pdn_game replayed a game that stops", r->stop_message);
        if (!one_line(r->stop_message) || r->stop_message.rfind(pdn_game_label(g), 0) != 0)
            fail("stop message", r->stop_message);
        if (r->stop_ply != static_cast<int>(r->moves.size()) + 1) fail("stop ply", r->stop_message);
        if (r->stop_message.find("ply " + std::to_string(r->stop_ply)) == std::string::npos)
            fail("stop message does not name its ply", r->stop_message);
    }
    for (const PdnNote& n : r->notes)
        if (!one_line(n.message) || !pdn_detail::is_valid_utf8(n.message)) fail("note", n.message);
    const auto start = pdn_start_position<R>(g);
    if (!start || !(*start == r->positions[0])) fail("replay does not start at the start", "");
    MoveList legal;
    for (size_t i = 0; i < r->moves.size(); ++i) {
        const Position& p = r->positions[i];
        const Move& m = r->moves[i];
        if (!(make_move(p, m) == r->positions[i + 1])) fail("position is not the previous one after the move", "");
        generate_moves<R>(p, legal);
        if (std::none_of(legal.begin(), legal.end(), [&](const Move& l) { return l.same_effect(m); }))
            fail("replayed an illegal move", to_fen<R>(p));
        for (const std::string& printed : {move_to_string<R>(m, legal), move_full_path<R>(m)}) {
            const auto again = parse_move<R>(p, printed);
            if (!again || !again->same_effect(m))
                fail("a printed move does not parse back", to_fen<R>(p) + " " + printed);
        }
    }
}

void check_dispatch(const dtb::PdnGame& g, dtb::VariantId default_variant) {
    using namespace dtb;
    const auto r = follow_pdn_game(g, default_variant);
    const auto v = pdn_game_variant(g, default_variant);
    if (!v) {
        if (r) fail("replayed a game of an unsupported type", "");
        if (!pdn_game_type(g).given) fail("no GameType, yet not the default variant", "");
        return;
    }
    const VariantId picked = r ? r->variant : *v;
    if (picked != *v && g.tag("GameType")) fail("dispatching replay left the game's GameType", "");
    with_variant(picked, [&](auto rules) {
        const auto t = follow_pdn_game<decltype(rules)>(g);
        if (r.ok() != t.ok()) fail("dispatching replay disagrees", r ? t.error() : r.error());
        if (r && !(r->positions == t->positions)) fail("dispatching replay: other positions", "");
        if (r && r->stop_message != t->stop_message) fail("dispatching replay: other stop", r->stop_message);
        if (!r && r.error() != t.error()) fail("dispatching replay: other message", r.error());
    });
    if (picked != *v && (!r || r->stop != PdnStop::none)) fail("fell back to a variant that stops too", "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace dtb;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<size_t> line_starts{0};
    for (size_t i = 0; i < text.size(); ++i)
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')))
            line_starts.push_back(i + 1);  // LF, CRLF, or a lone CR
    const int lines = static_cast<int>(line_starts.size());
    auto line_text = [&](int line) {
        const size_t b = line_starts[line - 1];
        return text.substr(b, line < lines ? line_starts[line] - b : std::string_view::npos);
    };
    const auto games = read_pdn(text);
    for (size_t i = 0; i < games.size(); ++i) {
        const PdnGame& g = games[i];
        if (g.index != static_cast<int>(i)) fail("game index", std::to_string(g.index));
        if (g.line < 1 || g.line > lines) fail("game line", std::to_string(g.line));
        int last = g.line;
        for (const PdnMoveToken& m : g.moves) {
            if (m.line < last || m.line > lines) fail("move line out of order", m.text);
            if (m.column < 1) fail("move column", m.text);
            if (m.readable) {
                if (!pdn_detail::is_move_text(m.text)) fail("malformed move token", m.text);
                if (m.text != pdn_detail::unpad_move(m.text)) fail("move token padded", m.text);
                if (line_text(m.line).find(m.written) == std::string_view::npos)
                    fail("move token not on its line", m.written + " line " + std::to_string(m.line));
            }
            if (!pdn_detail::is_valid_utf8(m.text)) fail("move token text not UTF-8", m.text);
            last = m.line;
        }
        for (const PdnSyntaxError& e : g.errors)
            if (e.line < 1 || e.line > lines || e.column < 1 || !one_line(e.message) ||
                !pdn_detail::is_valid_utf8(e.message))
                fail("syntax error", e.message);
        for (const PdnTag& t : g.tags)
            if (!pdn_detail::is_valid_utf8(t.value)) fail("tag value not UTF-8", t.name);
        if (!g.result_token.empty() && !parse_pdn_result(g.result_token)) fail("result token", g.result_token);
        if (const auto c = pdn_result_conflict(g); c && !one_line(*c)) fail("result conflict", *c);
        check_replay<International>(g);
        check_replay<Turkish>(g);
        check_dispatch(g, VariantId::international);
        check_dispatch(g, VariantId::turkish);
    }
    return 0;
}
