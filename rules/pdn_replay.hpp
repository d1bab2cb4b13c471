// Replaying a PDN game (pdn_reader.hpp) under the rules of a variant: the variant named by its
// GameType tag (pdn_game_type.hpp), its start position (FEN tag, else the variant's start), and
// each move token matched against the legal moves by parse_move (notation.hpp), which handles
// short forms, full paths and ambiguous captures; its messages are passed on unchanged.
//
// Beyond one token per move, the replay follows what real files hold:
// - a capture split into one token per jump ("11x18 18x25"): when a capture token is not a legal
//   move by itself, the tokens that go on from its last square are joined to it;
// - an unreadable word among the moves (PdnMoveToken::readable false): stepped over when the
//   move after it is legal where it stands (a stray word), else taken as the one legal move
//   after which the next move is legal; when neither, the game stops there, at that ply. After
//   the last move it is stepped over only when it cannot be a move (no digit, not right after a
//   move number): a garbled last move would change the position the result is judged on.
// What it stepped over or recovered is in the replay's notes.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "expected.hpp"
#include "fen.hpp"
#include "move.hpp"
#include "notation.hpp"
#include "pdn_game_type.hpp"
#include "pdn_reader.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dtb {

// How messages name a game: "game 2 (index 1, Event "Cup")". Games count from 1 there, like
// lines and plies; `index` is the 0-based PdnGame::index.
inline std::string pdn_game_label(const PdnGame& g) {
    std::string s = "game " + std::to_string(g.index + 1) + " (index " + std::to_string(g.index);
    if (const std::string* event = g.tag("Event")) s += ", Event \"" + pdn_detail::printable(*event) + "\"";
    return s + ")";
}

// The start position: the FEN tag (with or without SetUp "1"), else the variant's start.
template <class R>
Expected<Position> pdn_start_position(const PdnGame& g) {
    if (const std::string* fen = g.tag("FEN")) return parse_fen<R>(*fen);
    return parse_fen<R>(R::kStartFen);
}

// Something the replay stepped over or recovered (a recoverable syntax error of the reader, an
// unreadable word): where it is and what was done, one line.
struct PdnNote {
    int ply = 0;  // the ply it concerns (1-based; 0: before the moves)
    int line = 0;
    int column = 0;
    std::string message;
};

// Why a replay stopped before the end of the moves.
enum class PdnStop : std::uint8_t { none, illegal, ambiguous, unreadable };

struct PdnReplay {
    VariantId variant = VariantId::international;
    std::vector<Position> positions;  // positions[0] the start, positions[i] after ply i
    std::vector<Move> moves;          // moves[i] is ply i + 1, played in positions[i]
    std::vector<PdnNote> notes;       // in order
    PdnStop stop = PdnStop::none;     // the moves after `moves` could not be followed
    int stop_ply = 0;                 // the ply that could not be followed (1-based)
    std::string stop_message;         // one line, starting with the game's label
};

namespace pdn_detail {

inline std::string_view first_square(std::string_view move) {
    size_t i = 0;
    while (i < move.size() && !is_move_separator(move[i])) ++i;
    return move.substr(0, i);
}
inline std::string_view last_square(std::string_view move) {
    size_t i = move.size();
    while (i > 0 && !is_move_separator(move[i - 1])) --i;
    return move.substr(i);
}
inline bool is_capture_text(std::string_view move) {
    return move.find_first_of("xX:") != std::string_view::npos;
}
inline std::string where(const PdnMoveToken& t) {
    return "line " + std::to_string(t.line) + ", column " + std::to_string(t.column);
}

}  // namespace pdn_detail

// Plays the moves of `g` under the rules of R as far as they can be followed. Errors (one line,
// starting with the game's label) for what stops the game before its first move: a syntax error
// that leaves it unfollowable, a GameType naming another variant, a bad FEN. A move that is
// illegal or ambiguous, or an unreadable word that cannot be recovered, ends the replay there
// (stop, stop_ply, stop_message: the ply (1-based), line and side to move and parse_move's
// message, "illegal move '28x19'; legal moves: 32-28 ..." or "ambiguous move ...: it could be").
template <class R>
Expected<PdnReplay> follow_pdn_game(const PdnGame& g) {
    using namespace pdn_detail;
    const std::string label = pdn_game_label(g);
    if (g.has_fatal_error()) {
        const PdnSyntaxError* e = nullptr;
        for (const PdnSyntaxError& x : g.errors)
            if (!x.recoverable && !e) e = &x;
        std::string more;
        if (g.errors.size() > 1) more = " (and " + std::to_string(g.errors.size() - 1) + " more syntax errors)";
        return Error{label + ", line " + std::to_string(e->line) + ", column " + std::to_string(e->column) + ": " +
                     e->message + more};
    }
    if (g.tag("GameType")) {
        const PdnGameType type = pdn_game_type(g);
        if (!type.variant) return Error{label + ": " + pdn_game_type_error(type)};
        if (*type.variant != R::kId)
            return Error{label + ": GameType \"" + printable(type.text) + "\" is not " + std::string(R::kName)};
    }
    auto start = pdn_start_position<R>(g);
    if (!start) return Error{label + ": " + start.error()};
    PdnReplay r;
    r.variant = R::kId;
    r.positions.reserve(g.moves.size() + 1);
    r.moves.reserve(g.moves.size());
    r.positions.push_back(*start);
    for (const PdnSyntaxError& e : g.errors)
        if (e.recoverable && e.message.find("(not a move,") == std::string::npos)
            r.notes.push_back({0, e.line, e.column, e.message});
    const auto side = [](const Position& p) { return p.side_to_move == Color::white ? "White" : "Black"; };
    const auto stop = [&](PdnStop why, const PdnMoveToken& t, const std::string& message) {
        const Position& p = r.positions.back();
        r.stop = why;
        r.stop_ply = static_cast<int>(r.moves.size()) + 1;
        r.stop_message = label + ", ply " + std::to_string(r.stop_ply) + " (line " + std::to_string(t.line) + ", " +
                         side(p) + " to move): " + message;
    };
    const auto play = [&](const Move& m) {
        r.moves.push_back(m);
        r.positions.push_back(make_move(r.positions.back(), m));
    };
    for (size_t t = 0; t < g.moves.size(); ++t) {
        const Position& p = r.positions.back();
        const PdnMoveToken& tok = g.moves[t];
        const int ply = static_cast<int>(r.moves.size()) + 1;
        if (!tok.readable) {
            const PdnMoveToken* next = nullptr;  // the next readable token
            for (size_t u = t + 1; u < g.moves.size() && !next; ++u)
                if (g.moves[u].readable) next = &g.moves[u];
            const std::string word = "'" + tok.text + "'";
            // Last of the moves: stepped over when it cannot be a move (no digit, not where a
            // move number puts a move); a garbled last move would change the final position.
            const bool last = !next;
            const bool movelike = tok.after_number || tok.text.find_first_of("0123456789") != std::string::npos;
            if ((last && !movelike) || (next && parse_move<R>(p, next->text))) {
                r.notes.push_back({ply, tok.line, tok.column, word + " is not a move: skipped"});
                continue;
            }
            std::vector<Move> fits;
            if (next) {
                MoveList legal;
                generate_moves<R>(p, legal);
                for (const Move& m : legal)
                    if (parse_move<R>(make_move(p, m), next->text)) fits.push_back(m);
            }
            if (fits.size() == 1) {
                MoveList legal;
                generate_moves<R>(p, legal);
                r.notes.push_back({ply, tok.line, tok.column,
                                   "ply " + std::to_string(ply) + ": unreadable " + word + " taken as " +
                                       move_to_string<R>(fits[0], legal) + ", the only move after which " + next->text +
                                       " is legal"});
                play(fits[0]);
                continue;
            }
            std::string msg = "could not follow the game at the unreadable " + word + " (" + where(tok) + ")";
            if (fits.size() > 1) {
                msg += ": it could be";
                MoveList legal;
                generate_moves<R>(p, legal);
                for (const Move& m : fits) msg += " " + move_to_string<R>(m, legal);
            }
            stop(PdnStop::unreadable, tok, msg);
            break;
        }
        auto m = parse_move<R>(p, tok.text);
        if (!m && is_capture_text(tok.text)) {
            // The split form: one token per jump, each from the square the last one reached.
            std::string joined = tok.text;
            for (size_t u = t + 1; u < g.moves.size(); ++u) {
                const PdnMoveToken& more = g.moves[u];
                if (!more.readable || !is_capture_text(more.text) || first_square(more.text) != last_square(joined))
                    break;
                joined += more.text.substr(first_square(more.text).size());
                if (auto j = parse_move<R>(p, joined)) {
                    m = std::move(j);
                    t = u;
                    break;
                }
            }
        }
        if (!m) {
            const bool ambiguous = m.error().rfind("ambiguous", 0) == 0;
            stop(ambiguous ? PdnStop::ambiguous : PdnStop::illegal, tok, m.error());
            break;
        }
        play(*m);
    }
    return r;
}

// The same, to the end or not at all: a stop is an error (its stop_message).
template <class R>
Expected<PdnReplay> replay_pdn_game(const PdnGame& g) {
    auto r = follow_pdn_game<R>(g);
    if (r && r->stop != PdnStop::none) return Error{r->stop_message};
    return r;
}

// follow_pdn_game under the game's own variant (pdn_game_variant with `default_variant`). A
// game without a GameType tag is tried under the other variant too when the default's rules
// cannot follow it and the other's follow it to the end (international is assumed when the
// moves fit; "d3-d4" moves are Turkish).
inline Expected<PdnReplay> follow_pdn_game(const PdnGame& g, VariantId default_variant) {
    const auto v = pdn_game_variant(g, default_variant);
    if (!v) return Error{pdn_game_label(g) + ": " + v.error()};
    auto r = with_variant(*v, [&](auto rules) { return follow_pdn_game<decltype(rules)>(g); });
    if (g.tag("GameType") || (r && r->stop == PdnStop::none)) return r;
    const VariantId other = *v == VariantId::international ? VariantId::turkish : VariantId::international;
    auto o = with_variant(other, [&](auto rules) { return follow_pdn_game<decltype(rules)>(g); });
    if (o && o->stop == PdnStop::none) return o;
    return r;
}

// The same, to the end or not at all.
inline Expected<PdnReplay> replay_pdn_game(const PdnGame& g, VariantId default_variant) {
    auto r = follow_pdn_game(g, default_variant);
    if (r && r->stop != PdnStop::none) return Error{r->stop_message};
    return r;
}

}  // namespace dtb
