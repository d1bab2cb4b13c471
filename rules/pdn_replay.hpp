// Replaying a PDN game (pdn_reader.hpp) under the rules of a variant: the variant named by its
// GameType tag, its start position (FEN tag, else the variant's start), and each move token
// matched against the legal moves by parse_move (notation.hpp), which handles short forms, full
// paths and ambiguous captures; its messages are passed on unchanged.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "expected.hpp"
#include "fen.hpp"
#include "move.hpp"
#include "notation.hpp"
#include "pdn_reader.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dtb {

// PDN GameType numbers (pdn.fmjd.org/gametype.html): 20 is international draughts 10x10
// ("20,W,10,10,N2,0"), 30 is Turkish draughts ("30,W,8,8,A0,0").
inline constexpr int kPdnGameTypeInternational = 20;
inline constexpr int kPdnGameTypeTurkish = 30;

// The variant of a game: its GameType tag, else `default_variant`. The tag's number may carry the
// optional attributes ("20,W,10,10,N2,0"; they are not checked); the variant names
// "international" and "turkish" are accepted too. Other game types are errors.
inline Expected<VariantId> pdn_game_variant(const PdnGame& g, VariantId default_variant) {
    const std::string* type = g.tag("GameType");
    if (!type) return default_variant;
    std::string_view v = *type;
    while (!v.empty() && pdn_detail::is_space(v.front())) v.remove_prefix(1);
    v = v.substr(0, v.find(','));
    while (!v.empty() && pdn_detail::is_space(v.back())) v.remove_suffix(1);
    std::string name(v);
    for (char& c : name)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (name == "20" || name == International::kName) return VariantId::international;
    if (name == "30" || name == Turkish::kName) return VariantId::turkish;
    return Error{"GameType \"" + pdn_detail::printable(*type) +
                 "\" is not supported: dtb plays 20 (international) and 30 (turkish)"};
}

// How messages name a game: "game 2 (index 1, Event "Cup")". Games count from 1 there, like
// lines and plies; `index` is the 0-based PdnGame::index.
inline std::string pdn_game_label(const PdnGame& g) {
    std::string s = "game " + std::to_string(g.index + 1) + " (index " + std::to_string(g.index);
    if (const std::string* event = g.tag("Event"))
        s += ", Event \"" + pdn_detail::printable(*event) + "\"";
    return s + ")";
}

// The start position: the FEN tag (with or without SetUp "1"), else the variant's start.
template <class R>
Expected<Position> pdn_start_position(const PdnGame& g) {
    if (const std::string* fen = g.tag("FEN")) return parse_fen<R>(*fen);
    return parse_fen<R>(R::kStartFen);
}

struct PdnReplay {
    VariantId variant = VariantId::international;
    std::vector<Position> positions;  // positions[0] the start, positions[i] after ply i
    std::vector<Move> moves;          // moves[i] is ply i + 1, played in positions[i]
};

// Plays the moves of `g` under the rules of R. Errors (one line, starting with the game's label):
// a syntax error of the reader, a GameType naming another variant, a bad FEN, or the first move
// that is illegal or ambiguous, with its ply (1-based), line and side to move and parse_move's
// message ("illegal move '28x19'; legal moves: 32-28 ..." or "ambiguous move ...: it could be").
template <class R>
Expected<PdnReplay> replay_pdn_game(const PdnGame& g) {
    const std::string label = pdn_game_label(g);
    if (!g.errors.empty()) {
        const PdnSyntaxError& e = g.errors.front();
        std::string more;
        if (g.errors.size() > 1)
            more = " (and " + std::to_string(g.errors.size() - 1) + " more syntax errors)";
        return Error{label + ", line " + std::to_string(e.line) + ": " + e.message + more};
    }
    if (g.tag("GameType")) {
        const auto v = pdn_game_variant(g, R::kId);
        if (!v) return Error{label + ": " + v.error()};
        if (*v != R::kId)
            return Error{label + ": GameType \"" + pdn_detail::printable(*g.tag("GameType")) +
                         "\" is not " + std::string(R::kName)};
    }
    auto start = pdn_start_position<R>(g);
    if (!start) return Error{label + ": " + start.error()};
    PdnReplay r;
    r.variant = R::kId;
    r.positions.reserve(g.moves.size() + 1);
    r.moves.reserve(g.moves.size());
    r.positions.push_back(*start);
    for (size_t i = 0; i < g.moves.size(); ++i) {
        const Position& p = r.positions.back();
        const auto m = parse_move<R>(p, g.moves[i].text);
        if (!m)
            return Error{label + ", ply " + std::to_string(i + 1) + " (line " +
                         std::to_string(g.moves[i].line) + ", " +
                         (p.side_to_move == Color::white ? "White" : "Black") +
                         " to move): " + m.error()};
        r.moves.push_back(*m);
        r.positions.push_back(make_move(p, *m));
    }
    return r;
}

// The same, under the game's own variant (pdn_game_variant with `default_variant`).
inline Expected<PdnReplay> replay_pdn_game(const PdnGame& g, VariantId default_variant) {
    const auto v = pdn_game_variant(g, default_variant);
    if (!v) return Error{pdn_game_label(g) + ": " + v.error()};
    return with_variant(*v, [&](auto rules) { return replay_pdn_game<decltype(rules)>(g); });
}

}  // namespace dtb
