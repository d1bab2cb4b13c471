// PDN game records (Portable Draughts Notation 3.0, pdn.fmjd.org, and the forms real tournament
// files use), the syntax layer: the text of a whole file -> its games, each with its tag pairs,
// its move tokens (with their source line and column) and its result. Nothing here knows the
// rules of a variant: pdn_replay.hpp matches the tokens against the legal moves.
//
// What the reader understands:
//   [Name "value"]       a tag pair, on one line; in the value \" is a quote, \\ a backslash;
//                        text that is not UTF-8 is read as Windows-1252 (Windows-1254 in a
//                        Turkish game, GameType 30) and converted (pdn_text.hpp)
//   1.  12.  1...  1 .   move numbers, skipped, also without dots ("1 32-28 18-23 2 37-32"),
//   12...                glued to the move ("1.32-28"), restarting or skipping numbers
//   32-28 28x19x10       moves: squares ([a-w,y,z]?[0-9]{1,2}) joined by '-', 'x', 'X' or ':';
//   d3-d4 d3xd5xf5       squares padded with blanks or zeros ("1- 6", "47x 9", "05-10") are
//   1- 6  47x 9  05-10   joined and unpadded ("1-6", "47x9", "5-10"); a trailing strength
//                        (! ? !! ?? !? ?!, also "(!)") or '*' is dropped; captures may name
//                        every landing square, only start and end, or one jump per token
//                        ("11x18 18x25"): whether they name legal moves is for the replay
//   0:12  1:05:30        time annotations after a move (a number of minutes "0:ss", or h:mm:ss),
//                        skipped
//   2-0 1-1 0-2 0-0      results (international style: 2 points a win; 0-0 no winner), and
//   1-0 1/2-1/2 0-1 *    results (PGN style); a result token ends its game; a Result tag that
//                        disagrees with it is reported by pdn_result_conflict
//   {...}                a comment, which may span lines (lidraughts' [%clock ..], [%eval ..]
//                        inside are comment text); ";" a comment to the end of the line
//   % ...                an escape line: '%' first (after blanks) on its line
//   ( ... )              a variation, nested to any depth, skipped with everything inside
//   $12                  a NAG, skipped; ! ? !! ?! alone too
// Line ends LF, CRLF or CR; a UTF-8 byte order mark is skipped; a text with a UTF-16 byte order
// mark is decoded first.
// Games: a game ends at its result token, where a tag section follows its moves (or repeats a
// tag of a game without moves: an empty game), or at the end of the text. A result with neither
// tags nor moves before it makes no game (PDN 3.0 also uses a lone '*' as a game separator).
// Text between games (after a result, before the first game) is skipped. Mid-game setups
// ("/W:W1:B2/") are not supported.
//
// Nothing throws. A syntax problem is recorded in the game's `errors` with its line and column,
// and reading goes on. A recoverable one (`recoverable`): a word that is none of the above inside
// the moves (it also stands in the moves as an unreadable token, for the replay to step over or
// to recover from the move after it), a stray bracket or quote, a broken tag other than FEN and
// GameType. The others leave the game unfollowable: a broken FEN or GameType tag, a setup, an
// unterminated comment or variation (which would swallow the rest of the text: reading resumes
// at the next line that starts with '[', a new game). A comment is taken as unterminated also
// when a line inside it starts with a tag pair ([Name "...), since its '}' then belongs to a
// later game.
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pdn_game.hpp"
#include "pdn_text.hpp"

namespace dtb {

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
inline bool is_move_separator(char c) {
    return c == '-' || c == 'x' || c == 'X' || c == ':';
}
// Characters that end a word: blanks and the characters that open or close another element.
inline bool ends_word(char c) {
    return is_space(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']' || c == ';' ||
           c == '$' || c == '"';
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
        if (!is_move_separator(w[i])) return false;
        ++i;
    }
}

// The move text without the leading zeros of its square numbers: "05-10" -> "5-10".
inline std::string unpad_move(std::string_view w) {
    std::string out;
    out.reserve(w.size());
    for (size_t i = 0; i < w.size(); ++i) {
        const bool square_start = i == 0 || is_move_separator(w[i - 1]);
        if (square_start && w[i] == '0' && i + 1 < w.size() && is_digit(w[i + 1])) continue;
        out += w[i];
    }
    return out;
}

// A time annotation: "0:12" (minutes 0), or h:mm:ss; "1:23" stays a capture (Russian style).
inline bool is_time_text(std::string_view w) {
    int parts = 0;
    size_t i = 0;
    while (i < w.size()) {
        const size_t b = i;
        while (i < w.size() && is_digit(w[i])) ++i;
        if (i == b || (parts > 0 && i - b != 2)) return false;
        ++parts;
        if (i < w.size() && w[i++] != ':') return false;
        if (i == w.size() && w.back() == ':') return false;
    }
    return parts == 3 || (parts == 2 && w.find_first_not_of('0') == w.find(':'));
}

class Reader {
  public:
    explicit Reader(std::string_view text) : s_(text) {}

    std::vector<PdnGame> read() {
        if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = line_start_ = 3;  // byte order mark
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == '\n') {
                new_line(pos_);
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
                if (!between_) error(line_, column(pos_), "unexpected '" + std::string(1, c) + "' (skipped)", true);
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
    size_t line_start_ = 0;  // where line_ begins
    size_t col_pos_ = 0;     // column()'s last answer: col_ at col_pos_ (on line_)
    int col_ = 1;
    std::vector<PdnGame> games_;
    PdnGame cur_;
    bool movetext_seen_ = false;                     // the current game has moves (or movetext garbage)
    bool between_ = true;                            // between games: after a result, before the first game
    bool after_number_ = false;                      // the last word was a move number
    size_t close_cache_from_ = 1, close_cache_ = 0;  // find_close_brace's last answer (none yet)

    void new_line(size_t newline_at) {
        ++line_;
        line_start_ = col_pos_ = newline_at + 1;
        col_ = 1;
    }
    // The 1-based column of `at` (on the current line), counted in characters.
    int column(size_t at) {
        if (col_pos_ < line_start_ || col_pos_ > at) col_pos_ = line_start_, col_ = 1;
        for (; col_pos_ < at; ++col_pos_)
            if ((static_cast<unsigned char>(s_[col_pos_]) & 0xC0) != 0x80) ++col_;
        return col_;
    }
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
            if (s_[pos_] == '\n') new_line(pos_);
    }

    void touch(int line) {
        if (cur_.line == 0) cur_.line = line;
        between_ = false;
    }
    void error(int line, int col, std::string message, bool recoverable = false) {
        touch(line);
        cur_.errors.push_back({line, col, std::move(message), recoverable});
    }
    // A word inside the moves that is none of the things the reader knows: reported, and kept
    // as an unreadable move token. Between games such text is skipped.
    void garbage(size_t at, std::string_view word, bool after_number = false) {
        if (between_) return;
        movetext_seen_ = true;
        const int col = column(at);
        error(line_, col,
              "unexpected '" + printable(word) + "' (not a move, move number, result, comment, variation or NAG)",
              true);
        cur_.moves.push_back({printable(word), std::string(word), line_, col, false, after_number});
    }
    void finish_game() {
        if (!cur_.tags.empty() || !cur_.moves.empty() || !cur_.errors.empty() || !cur_.result_token.empty()) {
            cur_.index = static_cast<int>(games_.size());
            const std::string* type = cur_.tag("GameType");
            const bool turkish = type && (type->rfind("30", 0) == 0 || *type == "Turkish" || *type == "turkish");
            for (PdnTag& t : cur_.tags)
                t.value = to_utf8(t.value, turkish ? CodePage::windows1254 : CodePage::windows1252);
            games_.push_back(std::move(cur_));
        }
        cur_ = PdnGame{};
        movetext_seen_ = false;
    }

    // After an unterminated comment or variation opened at `open` (on line `open_line`, which
    // starts at `open_line_start`): the current game ends, and reading resumes at the first line
    // from `look_from` on that starts with '[' (a new tag section), if any.
    void resync(size_t open, int open_line, size_t open_line_start, size_t look_from, std::string message) {
        pos_ = open;
        line_ = open_line;
        line_start_ = col_pos_ = open_line_start;
        col_ = 1;
        error(open_line, column(open), std::move(message));
        finish_game();
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
            return resync(pos_, line_, line_start_, end.resume, "unterminated comment '{'");
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
        const size_t open = pos_, open_line_start = line_start_;
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
                    return resync(open, open_line, open_line_start, end.resume,
                                  "unterminated comment '{' inside a variation");
                i = end.close;
            } else if (c == ';' || (c == '%' && at_line_start(i))) {
                while (i + 1 < s_.size() && s_[i + 1] != '\n') ++i;
            } else if (c == '[' && at_line_start(i)) {
                break;  // a tag section: the variation was never closed
            }
        }
        resync(open, open_line, open_line_start, i, "unterminated variation '('");
    }

    void tag() {
        after_number_ = false;
        const int line = line_, col = column(pos_);
        size_t i = pos_ + 1;
        auto skip_blanks = [&] {
            while (i < s_.size() && is_blank(s_[i])) ++i;
        };
        skip_blanks();
        const size_t name_begin = i;
        while (i < s_.size() && is_name_char(s_[i])) ++i;
        const std::string name(s_.substr(name_begin, i - name_begin));
        // A new game: after moves, or when a game without moves gets a tag a second time.
        if (movetext_seen_ || (!name.empty() && cur_.tag(name))) finish_game();
        touch(line);
        // FEN and GameType decide how the moves read: without them the game cannot be followed.
        const bool recoverable = name != "FEN" && name != "GameType";
        auto fail = [&](std::string message) {
            error(line, col, std::move(message), recoverable);
            skip_to_end_of_line();
        };
        if (name.empty()) return fail("tag without a name: '[' must be followed by a name such as Event");
        skip_blanks();
        if (i >= s_.size() || s_[i] != '"') return fail("tag [" + name + ": the value must follow in double quotes");
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
            return fail("unterminated tag [" + name + " \"" + printable(value) + "\": ']' is missing");
        cur_.tags.push_back({name, std::move(value)});
        pos_ = i + 1;
    }

    void nag() {
        size_t i = pos_ + 1;
        while (i < s_.size() && is_digit(s_[i])) ++i;
        if (i == pos_ + 1) {
            if (!between_) error(line_, column(pos_), "'$' without a number (skipped)", true);
        } else {
            movetext_seen_ = true;
        }
        pos_ = i;
    }

    // The end of the word starting at `from`.
    size_t word_end(size_t from) const {
        while (from < s_.size() && !ends_word(s_[from])) ++from;
        return from;
    }

    void word() {
        const size_t begin = pos_;
        if (s_[pos_] == '/') {
            // A PDN 3.0 setup "/FEN/" inside the moves.
            size_t end = pos_ + 1;
            while (end < s_.size() && s_[end] != '/' && s_[end] != '\n') ++end;
            if (end < s_.size() && s_[end] == '/') ++end;
            movetext_seen_ = true;
            error(line_, column(pos_),
                  "setup '" + printable(s_.substr(begin, end - begin)) + "' inside the moves is not supported");
            pos_ = end;
            return;
        }
        pos_ = word_end(pos_);
        std::string_view w = s_.substr(begin, pos_ - begin);
        if (const auto r = parse_pdn_result(w)) return result(w, *r);
        if (w.find_first_not_of('.') == std::string_view::npos) return;  // "..." after "12."
        // A move number, alone (with or without dots) or glued to its move.
        const bool after_number = after_number_;
        after_number_ = false;
        size_t i = 0;
        while (i < w.size() && is_digit(w[i])) ++i;
        if (i == w.size()) {
            after_number_ = true;
            return;
        }
        bool glued = false;
        if (i > 0 && w[i] == '.') {
            while (i < w.size() && w[i] == '.') ++i;
            w.remove_prefix(i);
            after_number_ = w.empty();
            if (w.empty()) return;
            glued = true;
        }
        if (is_time_text(w)) return;
        // Squares padded with blanks: "1- 6", "47x 9": the word ends in a separator and a
        // square follows on the line.
        std::string joined(w);
        size_t end = pos_;
        while (!joined.empty() && is_move_separator(joined.back()) && is_move_text(joined + "1")) {
            size_t j = end;
            while (j < s_.size() && (s_[j] == ' ' || s_[j] == '\t')) ++j;
            const size_t k = j < s_.size() && is_file_letter(s_[j]) ? j + 1 : j;
            if (j == end || k >= s_.size() || !is_digit(s_[k])) break;
            end = word_end(j);
            joined.append(s_.substr(j, end - j));
        }
        std::string_view move = joined;
        while (!move.empty() && (move.back() == '!' || move.back() == '?' || move.back() == '*')) move.remove_suffix(1);
        if (move.empty() && w.find('*') == std::string_view::npos) return;  // "!?" alone
        if (!is_move_text(move)) return garbage(begin, w, after_number || glued);
        pos_ = end;
        const int col = column(begin);
        touch(line_);
        movetext_seen_ = true;
        cur_.moves.push_back({unpad_move(move), std::string(s_.substr(begin, end - begin)), line_, col, true});
    }

    void result(std::string_view token, PdnResult r) {
        after_number_ = false;
        if (cur_.tags.empty() && cur_.moves.empty() && cur_.errors.empty()) {
            between_ = true;  // a lone result separates games
            return;
        }
        touch(line_);
        cur_.result_token = std::string(token);
        cur_.result = r;
        finish_game();
        between_ = true;
    }
};

}  // namespace pdn_detail

// Every game of a PDN file, in file order (see the head of this file).
inline std::vector<PdnGame> read_pdn(std::string_view text) {
    std::string decoded;
    if (pdn_detail::decode_utf16(text, decoded)) text = decoded;
    std::string normalized;
    if (pdn_detail::normalize_line_ends(text, normalized)) return pdn_detail::Reader(normalized).read();
    return pdn_detail::Reader(text).read();
}

}  // namespace dtb
