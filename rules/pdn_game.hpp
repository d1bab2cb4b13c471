// A PDN game record as the reader (pdn_reader.hpp) hands it out: tag pairs, move tokens with
// their place in the source, the result, the syntax problems met; and the recorded result.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pdn_text.hpp"

namespace dtb {

enum class PdnResult : std::uint8_t { white_wins, draw, black_wins, unknown };

struct PdnTag {
    std::string name;
    std::string value;  // unescaped, UTF-8
};

struct PdnMoveToken {
    std::string text;           // the move unpadded, without move number and strength: "28x19x10",
                                // "1-6" for "1- 6"; for an unreadable token the word as written
    std::string written;        // as in the source ("1- 6", "32-28!")
    int line = 0;               // 1-based line of the source text
    int column = 0;             // 1-based column (characters) of its first character
    bool readable = true;       // false: a word that is no move, kept for the replay to step over
    bool after_number = false;  // unreadable, where a move stands: right after a move number
};

struct PdnSyntaxError {
    int line = 0;
    int column = 0;
    std::string message;  // one line, without the line number
    bool recoverable = false;
};

struct PdnGame {
    int index = 0;                          // 0-based position of the game in the file
    int line = 0;                           // line of the game's first token
    std::vector<PdnTag> tags;               // in file order
    std::vector<PdnMoveToken> moves;        // the main line, in order
    std::string result_token;               // as written; empty when the game has none
    PdnResult result = PdnResult::unknown;  // of result_token (unknown for "*", "0-0", none)
    std::vector<PdnSyntaxError> errors;     // empty for a well-formed game

    // The value of the first tag of that name (names compared ignoring case), or nullptr.
    const std::string* tag(std::string_view name) const {
        for (const PdnTag& t : tags)
            if (std::equal(t.name.begin(), t.name.end(), name.begin(), name.end(),
                           [](char a, char b) { return lower(a) == lower(b); }))
                return &t.value;
        return nullptr;
    }
    // Whether a syntax error leaves the game unfollowable (see the head of this file).
    bool has_fatal_error() const {
        return std::any_of(errors.begin(), errors.end(), [](const PdnSyntaxError& e) { return !e.recoverable; });
    }

  private:
    static char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
};

// Whether a record of a PDN text is a game: it has a move or a result. A text whose records are
// all of tags only, or of stray text (a run of '['), holds no game: every front end says so (bad
// input) instead of judging it. Among games, a record of tags only stays an empty game.
inline bool is_game(const PdnGame& g) {
    return !g.moves.empty() || !g.result_token.empty();
}
inline bool holds_a_game(const std::vector<PdnGame>& records) {
    return std::any_of(records.begin(), records.end(), [](const PdnGame& g) { return is_game(g); });
}

// The result a token stands for; nullopt when it is not a result token.
inline std::optional<PdnResult> parse_pdn_result(std::string_view token) {
    if (token == "2-0" || token == "1-0") return PdnResult::white_wins;
    if (token == "1-1" || token == "1/2-1/2") return PdnResult::draw;
    if (token == "0-2" || token == "0-1") return PdnResult::black_wins;
    if (token == "*" || token == "0-0") return PdnResult::unknown;
    return std::nullopt;
}

// The recorded result: the result token of the moves, else the Result tag, else unknown.
inline PdnResult pdn_recorded_result(const PdnGame& g) {
    if (!g.result_token.empty()) return g.result;
    if (const std::string* r = g.tag("Result"))
        if (const auto v = parse_pdn_result(*r)) return *v;
    return PdnResult::unknown;
}

// When the Result tag and the result after the moves name different results (both known), what
// to say about it; the moves' result is the one recorded.
inline std::optional<std::string> pdn_result_conflict(const PdnGame& g) {
    const std::string* tag = g.tag("Result");
    if (!tag || g.result_token.empty() || g.result == PdnResult::unknown) return std::nullopt;
    const auto t = parse_pdn_result(*tag);
    if (!t || *t == PdnResult::unknown || *t == g.result) return std::nullopt;
    return "the Result tag \"" + pdn_detail::printable(*tag) + "\" disagrees with the result " + g.result_token +
           " after the moves; " + g.result_token + " is taken";
}

}  // namespace dtb
