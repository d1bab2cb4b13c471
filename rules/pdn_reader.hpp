// PDN game records (Portable Draughts Notation 3.0, pdn.fmjd.org), the syntax layer: the text of
// a whole file -> its games, each with its tag pairs, its move tokens (with their source lines)
// and its result. Nothing here knows the rules of a variant: pdn_replay.hpp matches the tokens
// against the legal moves.
//
// What the reader understands (anything else is a syntax error of the game it stands in):
//   [Name "value"]       a tag pair, on one line; in the value \" is a quote, \\ a backslash
//   1.  12.  1...  12... move numbers, skipped (also when glued to the move: "1.32-28")
//   32-28 28x19x10       moves: squares ([a-w,y,z]?[0-9]{1,2}) joined by '-', 'x', 'X' or ':',
//   d3-d4 d3xd5xf5       kept as written minus a trailing strength (! ? !! ?? !? ?!, also
//                        "(!)") or '*'; whether they name legal moves is for the replay
//   2-0 1-1 0-2          results (international style: 2 points a win), and
//   1-0 1/2-1/2 0-1 *    results (PGN style); a result token ends its game
//   {...}                a comment, which may span lines; ";" a comment to the end of the line
//   % ...                an escape line: '%' first (after blanks) on its line
//   ( ... )              a variation, nested to any depth, skipped with everything inside
//   $12                  a NAG, skipped
// Games: a game ends at its result token, where a tag section follows its moves, or at the end of
// the text. A result with neither tags nor moves before it makes no game (PDN 3.0 also uses a lone
// '*' as a game separator). Mid-game setups ("/W:W1:B2/") are not supported: a syntax error.
//
// Nothing throws. A syntax problem is recorded in the game's `errors` with its line, and reading
// goes on: after a garbage token with the next token; after a broken tag with the next line; after
// an unterminated comment or variation (which would swallow the rest of the text) at the next line
// that starts with '[', which begins a new game. A comment is taken as unterminated also when a
// line inside it starts with a tag pair ([Name "...), since its '}' then belongs to a later game.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtb {

enum class PdnResult : std::uint8_t { white_wins, draw, black_wins, unknown };

struct PdnTag {
    std::string name;
    std::string value;  // unescaped
};

struct PdnMoveToken {
    std::string text;  // as written, without move number and strength: "28x19x10", "d3-d4"
    int line = 0;      // 1-based line of the source text
};

struct PdnSyntaxError {
    int line = 0;
    std::string message;  // one line, without the line number
};

struct PdnGame {
    int index = 0;                          // 0-based position of the game in the file
    int line = 0;                           // line of the game's first token
    std::vector<PdnTag> tags;               // in file order
    std::vector<PdnMoveToken> moves;        // the main line, in order
    std::string result_token;               // as written; empty when the game has none
    PdnResult result = PdnResult::unknown;  // of result_token (unknown for "*" and for none)
    std::vector<PdnSyntaxError> errors;     // empty for a well-formed game

    // The value of the first tag of that name (names compared ignoring case), or nullptr.
    const std::string* tag(std::string_view name) const {
        for (const PdnTag& t : tags)
            if (std::equal(t.name.begin(), t.name.end(), name.begin(), name.end(),
                           [](char a, char b) { return lower(a) == lower(b); }))
                return &t.value;
        return nullptr;
    }

  private:
    static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    }
};

// The result a token stands for; nullopt when it is not a result token.
inline std::optional<PdnResult> parse_pdn_result(std::string_view token) {
    if (token == "2-0" || token == "1-0") return PdnResult::white_wins;
    if (token == "1-1" || token == "1/2-1/2") return PdnResult::draw;
    if (token == "0-2" || token == "0-1") return PdnResult::black_wins;
    if (token == "*") return PdnResult::unknown;
    return std::nullopt;
}

// The recorded result: the result token of the moves, else the Result tag, else unknown.
inline PdnResult pdn_recorded_result(const PdnGame& g) {
    if (!g.result_token.empty()) return g.result;
    if (const std::string* r = g.tag("Result"))
        if (const auto v = parse_pdn_result(*r)) return *v;
    return PdnResult::unknown;
}

namespace pdn_detail {

inline bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}
inline bool is_space(char c) {
    return is_blank(c) || c == '\n';
}
inline bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
inline bool is_name_char(char c) {
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
// A file letter of an algebraic square; 'x' separates squares.
inline bool is_file_letter(char c) {
    return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) && c != 'x' && c != 'X';
}
// Characters that end a word: blanks and the characters that open or close another element.
inline bool ends_word(char c) {
    return is_space(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']' ||
           c == ';' || c == '$' || c == '"';
}

// A snippet of the input for a message: at most 40 bytes, control characters as \xNN.
inline std::string printable(std::string_view s) {
    std::string out;
    const size_t n = std::min<size_t>(s.size(), 40);
    for (size_t i = 0; i < n; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    if (s.size() > n) out += "...";
    return out;
}

// Squares joined by separators: "32-28", "28x19x10", "d3xd5xf5" (at least two squares).
inline bool is_move_text(std::string_view w) {
    size_t i = 0;
    int squares = 0;
    while (true) {
        if (i < w.size() && is_file_letter(w[i])) ++i;
        int digits = 0;
        while (i < w.size() && is_digit(w[i]) && digits < 2) ++i, ++digits;
        if (digits == 0) return false;
        ++squares;
        if (i == w.size()) return squares >= 2;
        if (w[i] != '-' && w[i] != 'x' && w[i] != 'X' && w[i] != ':') return false;
        ++i;
    }
}

class Reader {
  public:
    explicit Reader(std::string_view text) : s_(text) {}

    std::vector<PdnGame> read() {
        if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // UTF-8 byte order mark
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == '\n') {
                ++line_;
                ++pos_;
            } else if (is_blank(c)) {
                ++pos_;
            } else if (c == '%' && at_line_start(pos_)) {
                skip_to_end_of_line();
            } else if (c == ';') {
                skip_to_end_of_line();
            } else if (c == '{') {
                comment();
            } else if (c == '(') {
                variation();
            } else if (c == '[') {
                tag();
            } else if (c == '$') {
                nag();
            } else if (c == ')' || c == ']' || c == '}' || c == '"') {
                garbage(line_, std::string_view(&s_[pos_], 1));
                ++pos_;
            } else {
                word();
            }
        }
        finish_game();
        return std::move(games_);
    }

  private:
    std::string_view s_;
    size_t pos_ = 0;
    int line_ = 1;
    std::vector<PdnGame> games_;
    PdnGame cur_;
    bool movetext_seen_ = false;  // the current game has moves (or movetext garbage)
    size_t close_cache_from_ = 1, close_cache_ = 0;  // find_close_brace's last answer (none yet)

    bool at_line_start(size_t i) const {
        while (i > 0 && (s_[i - 1] == ' ' || s_[i - 1] == '\t')) --i;
        return i == 0 || s_[i - 1] == '\n';
    }
    void skip_to_end_of_line() {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
    }
    // Moves pos_ to `to`, counting the lines on the way.
    void advance_to(size_t to) {
        for (; pos_ < to; ++pos_)
            if (s_[pos_] == '\n') ++line_;
    }

    void touch(int line) {
        if (cur_.line == 0) cur_.line = line;
    }
    void error(int line, std::string message) {
        touch(line);
        cur_.errors.push_back({line, std::move(message)});
    }
    void garbage(int line, std::string_view word) {
        movetext_seen_ = true;
        error(line, "unexpected '" + printable(word) +
                        "' (not a move, move number, result, comment, variation or NAG)");
    }
    void finish_game() {
        if (!cur_.tags.empty() || !cur_.moves.empty() || !cur_.errors.empty() ||
            !cur_.result_token.empty()) {
            cur_.index = static_cast<int>(games_.size());
            games_.push_back(std::move(cur_));
        }
        cur_ = PdnGame{};
        movetext_seen_ = false;
    }

    // After an unterminated comment or variation opened at `open` (on line `open_line`): the
    // current game ends, and reading resumes at the first line from `look_from` on that starts
    // with '[' (a new tag section), if any.
    void resync(size_t open, int open_line, size_t look_from, std::string message) {
        error(open_line, std::move(message));
        finish_game();
        pos_ = open;
        line_ = open_line;
        size_t i = look_from;
        while (i < s_.size() && !(s_[i] == '[' && at_line_start(i))) ++i;
        advance_to(i);
    }

    // Where the next '}' from `from` on is, or npos. Remembers its last answer, so that many
    // comments that end at one far '}' (or never end) cost one scan, not one each.
    size_t find_close_brace(size_t from) {
        if (from >= close_cache_from_ && from <= close_cache_)
            return close_cache_;  // no '}' in [close_cache_from_, close_cache_)
        close_cache_from_ = from;
        close_cache_ = s_.find('}', from);
        return close_cache_;
    }

    // A line in [from, to) that starts with a tag pair ("[Event \"..."), or npos: inside a
    // comment it means that the comment was never closed and its '}' belongs to a later game.
    size_t tag_line_within(size_t from, size_t to) const {
        const std::string_view within = s_.substr(0, to);
        for (size_t i = within.find('\n', from); i < to; i = within.find('\n', i + 1)) {
            size_t j = i + 1;
            while (j < to && (s_[j] == ' ' || s_[j] == '\t')) ++j;
            if (j >= to || s_[j] != '[') continue;
            const size_t bracket = j++;
            const size_t name = j;
            while (j < to && is_name_char(s_[j])) ++j;
            if (j == name) continue;
            while (j < to && is_blank(s_[j])) ++j;
            if (j < to && s_[j] == '"') return bracket;
        }
        return std::string_view::npos;
    }

    // The comment opened at `open`: where its '}' is (`close`), or, when it is not closed (no
    // '}', or a tag section before it), close == npos and where to look for the next game.
    struct CommentEnd {
        size_t close;
        size_t resume;
    };
    CommentEnd comment_end(size_t open) {
        const size_t close = find_close_brace(open + 1);
        if (close == std::string_view::npos) return {close, open + 1};
        const size_t tag = tag_line_within(open + 1, close);
        if (tag != std::string_view::npos) return {std::string_view::npos, tag};
        return {close, close};
    }

    void comment() {
        const CommentEnd end = comment_end(pos_);
        if (end.close == std::string_view::npos)
            return resync(pos_, line_, end.resume, "unterminated comment '{'");
        advance_to(end.close + 1);
    }

    void variation() {
        // "(!)", "(?!)": a move strength in parentheses, not a variation.
        size_t j = pos_ + 1;
        while (j < s_.size() && (s_[j] == '!' || s_[j] == '?')) ++j;
        if (j > pos_ + 1 && j < s_.size() && s_[j] == ')') {
            pos_ = j + 1;
            return;
        }
        movetext_seen_ = true;
        const size_t open = pos_;
        const int open_line = line_;
        int depth = 0;
        size_t i = pos_;
        for (; i < s_.size(); ++i) {
            const char c = s_[i];
            if (c == '(') {
                ++depth;
            } else if (c == ')') {
                if (--depth == 0) return advance_to(i + 1);
            } else if (c == '{') {
                const CommentEnd end = comment_end(i);
                if (end.close == std::string_view::npos)
                    return resync(open, open_line, end.resume,
                                  "unterminated comment '{' inside a variation");
                i = end.close;
            } else if (c == ';' || (c == '%' && at_line_start(i))) {
                while (i + 1 < s_.size() && s_[i + 1] != '\n') ++i;
            } else if (c == '[' && at_line_start(i)) {
                break;  // a tag section: the variation was never closed
            }
        }
        resync(open, open_line, i, "unterminated variation '('");
    }

    void tag() {
        if (movetext_seen_) finish_game();
        touch(line_);
        const int line = line_;
        size_t i = pos_ + 1;
        auto skip_blanks = [&] {
            while (i < s_.size() && is_blank(s_[i])) ++i;
        };
        auto fail = [&](std::string message) {
            error(line, std::move(message));
            skip_to_end_of_line();
        };
        skip_blanks();
        const size_t name_begin = i;
        while (i < s_.size() && is_name_char(s_[i])) ++i;
        const std::string name(s_.substr(name_begin, i - name_begin));
        if (name.empty())
            return fail("tag without a name: '[' must be followed by a name such as Event");
        skip_blanks();
        if (i >= s_.size() || s_[i] != '"')
            return fail("tag [" + name + ": the value must follow in double quotes");
        std::string value;
        for (++i;; ++i) {
            if (i >= s_.size() || s_[i] == '\n')
                return fail("unterminated tag [" + name + ": the value's closing '\"' is missing");
            if (s_[i] == '"') break;
            if (s_[i] == '\\' && i + 1 < s_.size() && (s_[i + 1] == '"' || s_[i + 1] == '\\')) ++i;
            value += s_[i];
        }
        ++i;
        skip_blanks();
        if (i >= s_.size() || s_[i] != ']')
            return fail("unterminated tag [" + name + " \"" + printable(value) +
                        "\": ']' is missing");
        cur_.tags.push_back({name, std::move(value)});
        pos_ = i + 1;
    }

    void nag() {
        movetext_seen_ = true;
        size_t i = pos_ + 1;
        while (i < s_.size() && is_digit(s_[i])) ++i;
        if (i == pos_ + 1) garbage(line_, "$");
        pos_ = i;
    }

    void word() {
        const size_t begin = pos_;
        if (s_[pos_] == '/') {
            // A PDN 3.0 setup "/FEN/" inside the moves.
            size_t end = pos_ + 1;
            while (end < s_.size() && s_[end] != '/' && s_[end] != '\n') ++end;
            if (end < s_.size() && s_[end] == '/') ++end;
            movetext_seen_ = true;
            error(line_, "setup '" + printable(s_.substr(begin, end - begin)) +
                             "' inside the moves is not supported");
            pos_ = end;
            return;
        }
        while (pos_ < s_.size() && !ends_word(s_[pos_])) ++pos_;
        std::string_view w = s_.substr(begin, pos_ - begin);
        if (const auto r = parse_pdn_result(w)) return result(w, *r);
        if (w.find_first_not_of('.') == std::string_view::npos) return;  // "..." after "12."
        // A move number, alone or glued to its move.
        size_t i = 0;
        while (i < w.size() && is_digit(w[i])) ++i;
        if (i > 0 && i < w.size() && w[i] == '.') {
            while (i < w.size() && w[i] == '.') ++i;
            w.remove_prefix(i);
            if (w.empty()) return;
        }
        std::string_view move = w;
        while (!move.empty() && (move.back() == '!' || move.back() == '?' || move.back() == '*'))
            move.remove_suffix(1);
        if (move.empty() && w.find('*') == std::string_view::npos) return;  // "!?" alone
        if (!is_move_text(move)) return garbage(line_, w);
        touch(line_);
        movetext_seen_ = true;
        cur_.moves.push_back({std::string(move), line_});
    }

    void result(std::string_view token, PdnResult r) {
        if (cur_.tags.empty() && cur_.moves.empty() && cur_.errors.empty()) return;
        touch(line_);
        cur_.result_token = std::string(token);
        cur_.result = r;
        finish_game();
    }
};

}  // namespace pdn_detail

// Every game of a PDN file, in file order (see the head of this file).
inline std::vector<PdnGame> read_pdn(std::string_view text) {
    return pdn_detail::Reader(text).read();
}

}  // namespace dtb
