#include "dtb/solve/proof_pdn.hpp"

#include <cctype>
#include <charconv>
#include <optional>
#include <utility>
#include <vector>

#include "dtb/rules/pdn_game_type.hpp"
#include "dtb/rules/quote.hpp"

namespace dtb::solve {

std::string_view to_string(Claim c) {
    switch (c) {
        case Claim::win:
            return "win";
        case Claim::loss:
            return "loss";
        case Claim::not_win:
            return "not-win";
        case Claim::not_loss:
            break;
    }
    return "not-loss";
}

std::optional<Claim> parse_claim(std::string_view s) {
    for (Claim c : {Claim::win, Claim::loss, Claim::not_win, Claim::not_loss})
        if (to_string(c) == s) return c;
    return std::nullopt;
}

namespace {

const char* color_name(Color c) {
    return c == Color::white ? "White" : "Black";
}

std::string counter_text(const std::optional<int>& c) {
    return c ? std::to_string(*c) : "-";
}

// The side to move at the root, from the FEN's first letter.
Color root_side(std::string_view fen) {
    for (char ch : fen)
        if (ch != ' ' && ch != '"') return ch == 'B' || ch == 'b' ? Color::black : Color::white;
    return Color::white;
}

// Movetext with lines of at most about 80 columns.
class MoveTextWriter {
  public:
    explicit MoveTextWriter(std::string& out) : out_(out) {}
    void word(const std::string& w) {
        if (column_ > 0 && column_ + 1 + w.size() > 80) {
            out_ += '\n';
            column_ = 0;
        } else if (column_ > 0) {
            out_ += ' ';
            ++column_;
        }
        out_ += w;
        column_ += w.size();
    }
    void close() {
        out_ += ')';
        ++column_;
    }
    void end_line() {
        out_ += '\n';
        column_ = 0;
    }

  private:
    std::string& out_;
    std::size_t column_ = 0;
};

class TreeWriter {
  public:
    TreeWriter(MoveTextWriter& w, Color root) : w_(w), root_(root) {}

    // The moves below `node` (on ply `ply`): its first child's move, the others as variations,
    // then the first child's own line.
    void line(const ProofNode& node, int ply, bool number) {
        if (node.children.empty()) return;
        const ProofNode& main = node.children.front();
        move(main, ply, number);
        for (std::size_t i = 1; i < node.children.size(); ++i) {
            move(node.children[i], ply, true, "(");
            line(node.children[i], ply + 1, !node.children[i].children.empty() && is_black(ply + 1));
            w_.close();
        }
        const bool interrupted = node.children.size() > 1 || main.leaf != LeafKind::open;
        line(main, ply + 1, interrupted);
    }

  private:
    bool is_black(int ply) const { return (root_ == Color::white) == (ply % 2 == 1); }

    // The move, numbered when White plays it or `number` asks; `open` starts a variation.
    void move(const ProofNode& n, int ply, bool number, const std::string& open = {}) {
        const int full = 1 + (ply + (root_ == Color::black ? 1 : 0)) / 2;
        if (!is_black(ply))
            w_.word(open + std::to_string(full) + ". " + n.move);
        else if (number)
            w_.word(open + std::to_string(full) + "... " + n.move);
        else
            w_.word(open + n.move);
        const std::string c = leaf_comment(n, is_black(ply + 1) ? Color::black : Color::white);
        if (!c.empty()) w_.word("{" + c + "}");
    }

    MoveTextWriter& w_;
    Color root_;
};

std::string result_tag(Claim c, Color side) {
    if (!claim_is_win(c)) return "*";
    const Color winner = c == Claim::win ? side : ~side;
    return winner == Color::white ? "2-0" : "0-2";
}

}  // namespace

std::string leaf_comment(const ProofNode& node, Color side_to_move) {
    auto value_text = [&](Wdl v) -> std::string {
        if (v == Wdl::draw) return "draw";
        return std::string(color_name(v == Wdl::win ? side_to_move : ~side_to_move)) + " wins";
    };
    switch (node.leaf) {
        case LeafKind::table:
            return "table: " + value_text(node.value);
        case LeafKind::terminal:
            return std::string("terminal: ") + color_name(side_to_move) + " has no move";
        case LeafKind::limit:
            return "limit: draw by the " + std::string(adjudicate::to_string(node.rule)) + " rule";
        case LeafKind::repetition:
            return "repetition: ply " + std::to_string(node.repeats_ply);
        case LeafKind::depth:
        case LeafKind::open:
            break;
    }
    return {};
}

std::string write_proof_pdn(const Proof& proof) {
    std::string out;
    const Color side = root_side(proof.fen);
    for (const ProofPart& part : proof.parts) {
        auto tag = [&](std::string_view name, const std::string& value) {
            out += "[" + std::string(name) + " \"" + value + "\"]\n";
        };
        tag("Event", "dtb solve proof");
        tag("GameType",
            std::to_string(proof.variant == VariantId::turkish ? kPdnGameTypeTurkish : kPdnGameTypeInternational));
        tag("FEN", proof.fen);
        tag("Claim", std::string(to_string(part.claim)));
        tag("Rules", std::string(to_string(proof.rules)));
        if (proof.rules != CountingRules::none) {
            tag("Reversible", std::to_string(proof.counters.reversible));
            tag("Endgame", counter_text(proof.counters.endgame));
            tag("Small", counter_text(proof.counters.small));
        }
        tag("Result", result_tag(part.claim, side));
        out += "\n";
        MoveTextWriter w(out);
        const std::string root_comment = leaf_comment(part.root, side);
        if (!root_comment.empty()) w.word("{" + root_comment + "}");
        TreeWriter(w, side).line(part.root, 0, true);
        w.word(result_tag(part.claim, side));
        w.end_line();
        out += "\n";
    }
    return out;
}

// ---- reading ----

namespace {

enum class TokenKind : std::uint8_t { tag, comment, open, close, word, end };

struct Token {
    TokenKind kind = TokenKind::end;
    std::string text, value;  // tag: name and value; comment and word: the text
    int line = 0;
};

class Tokenizer {
  public:
    explicit Tokenizer(std::string_view text) : s_(text) {}

    Expected<Token> next() {
        while (i_ < s_.size()) {
            const char c = s_[i_];
            if (c == '\n') ++line_;
            if (c == ';') {
                while (i_ < s_.size() && s_[i_] != '\n') ++i_;
                continue;
            }
            if (!std::isspace(static_cast<unsigned char>(c))) break;
            ++i_;
        }
        Token t;
        t.line = line_;
        if (i_ >= s_.size()) return t;
        const char c = s_[i_];
        if (c == '[') return tag(t);
        if (c == '{') {
            const std::size_t end = s_.find('}', i_);
            if (end == std::string_view::npos)
                return Error{at(t.line) + "a comment is not closed", ErrorKind::bad_input};
            t.kind = TokenKind::comment;
            t.text = std::string(s_.substr(i_ + 1, end - i_ - 1));
            for (char ch : t.text) line_ += ch == '\n';
            i_ = end + 1;
            return t;
        }
        if (c == '(' || c == ')') {
            t.kind = c == '(' ? TokenKind::open : TokenKind::close;
            ++i_;
            return t;
        }
        const std::size_t start = i_;
        while (i_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[i_])) &&
               std::string_view("(){}[];").find(s_[i_]) == std::string_view::npos)
            ++i_;
        t.kind = TokenKind::word;
        t.text = std::string(s_.substr(start, i_ - start));
        return t;
    }

    static std::string at(int line) { return "line " + std::to_string(line) + ": "; }

  private:
    Expected<Token> tag(Token& t) {
        const std::size_t end = s_.find(']', i_);
        const std::size_t eol = s_.find('\n', i_);
        if (end == std::string_view::npos || (eol != std::string_view::npos && eol < end))
            return Error{at(t.line) + "a tag is not closed on its line", ErrorKind::bad_input};
        const std::string_view body = s_.substr(i_ + 1, end - i_ - 1);
        i_ = end + 1;
        const std::size_t q1 = body.find('"'), q2 = body.rfind('"');
        if (q1 == std::string_view::npos || q2 == q1)
            return Error{at(t.line) + "a tag without a quoted value", ErrorKind::bad_input};
        std::string_view name = body.substr(0, q1);
        while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
        t.kind = TokenKind::tag;
        t.text = std::string(name);
        t.value = std::string(body.substr(q1 + 1, q2 - q1 - 1));
        return t;
    }

    std::string_view s_;
    std::size_t i_ = 0;
    int line_ = 1;
};

bool is_result(std::string_view w) {
    for (std::string_view r : {"2-0", "0-2", "1-1", "0-0", "*", "1-0", "0-1", "1/2-1/2"})
        if (w == r) return true;
    return false;
}

// A move number ("12.", "12...") glued or not to its move: the move's text, possibly empty.
std::string_view strip_number(std::string_view w) {
    std::size_t i = 0;
    while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
    if (i == 0 || i >= w.size() || w[i] != '.') return w;
    while (i < w.size() && w[i] == '.') ++i;
    return w.substr(i);
}

std::optional<int> parse_int(std::string_view s) {
    int v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 0) return std::nullopt;
    return v;
}

// Reads a leaf's annotation into the node; other comments are free text.
void annotate(ProofNode& node, std::string_view comment, Color side_to_move) {
    while (!comment.empty() && std::isspace(static_cast<unsigned char>(comment.front()))) comment.remove_prefix(1);
    while (!comment.empty() && std::isspace(static_cast<unsigned char>(comment.back()))) comment.remove_suffix(1);
    auto after = [&](std::string_view prefix) -> std::optional<std::string_view> {
        if (comment.substr(0, prefix.size()) != prefix) return std::nullopt;
        return comment.substr(prefix.size());
    };
    auto winner_value = [&](std::string_view v) -> std::optional<Wdl> {
        if (v == "draw") return Wdl::draw;
        for (Color c : {Color::white, Color::black})
            if (v == std::string(color_name(c)) + " wins") return c == side_to_move ? Wdl::win : Wdl::loss;
        return std::nullopt;
    };
    if (auto v = after("table: ")) {
        if (auto w = winner_value(*v)) node = ProofNode{node.move, LeafKind::table, *w, {}, -1, true, node.line, {}};
    } else if (auto t = after("terminal: ")) {
        if (*t == std::string(color_name(side_to_move)) + " has no move") {
            node.leaf = LeafKind::terminal;
            node.value = Wdl::loss;
            node.annotated = true;
        } else {  // an annotation that names the wrong side: kept, to fail the check
            node.leaf = LeafKind::terminal;
            node.value = Wdl::win;
            node.annotated = true;
        }
    } else if (after("limit: ")) {
        node.leaf = LeafKind::limit;
        node.value = Wdl::draw;
        node.annotated = true;
    } else if (auto r = after("repetition: ply ")) {
        node.leaf = LeafKind::repetition;
        node.repeats_ply = parse_int(*r).value_or(-1);
        node.annotated = true;
    }
}

class ProofParser {
  public:
    explicit ProofParser(std::string_view text) : tokens_(text) {}

    Expected<Proof> parse() {
        Proof proof;
        if (auto e = advance(); !e.empty()) return fail(e);
        while (token_.kind != TokenKind::end) {
            const int game_line = token_.line;
            std::vector<std::pair<std::string, std::string>> tags;
            while (token_.kind == TokenKind::tag) {
                tags.emplace_back(token_.text, token_.value);
                if (auto e = advance(); !e.empty()) return fail(e);
            }
            if (tags.empty()) return fail(Tokenizer::at(game_line) + "a proof game starts with its tags");
            ProofPart part;
            if (auto e = header(tags, proof, part, proof.parts.empty(), game_line); !e.empty()) return fail(e);
            side_ = root_side(proof.fen);
            if (auto e = line(part.root, 0); !e.empty()) return fail(e);
            if (token_.kind == TokenKind::word)  // the result
                if (auto e = advance(); !e.empty()) return fail(e);
            proof.parts.push_back(std::move(part));
        }
        if (proof.parts.empty()) return fail("no proof game in the text");
        return proof;
    }

  private:
    static Error fail(const std::string& message) { return Error{message, ErrorKind::bad_input}; }

    std::string advance() {
        auto t = tokens_.next();
        if (!t) return t.error();
        token_ = t.value();
        return {};
    }

    Color side_at(int ply) const { return ply % 2 == 0 ? side_ : ~side_; }

    // The tags of one game; every game of a proof has the same position, variant and rules.
    static std::string header(const std::vector<std::pair<std::string, std::string>>& tags, Proof& proof,
                              ProofPart& part, bool first, int game_line) {
        const std::string at = Tokenizer::at(game_line);
        std::optional<std::string> fen, claim;
        VariantId variant = VariantId::international;
        CountingRules rules = CountingRules::none;
        adjudicate::Counters counters;
        for (const auto& [name, value] : tags) {
            if (name == "FEN") fen = value;
            if (name == "Claim") claim = value;
            if (name == "GameType") {
                const std::string_view number = std::string_view(value).substr(0, value.find(','));
                if (number == "30")
                    variant = VariantId::turkish;
                else if (number != "20")
                    return at + "GameType " + quote_input(value) +
                           ": a proof is of international (20) or Turkish (30) draughts";
            }
            if (name == "Rules") {
                const auto r = parse_counting_rules(value);
                if (!r) return at + "Rules " + quote_input(value) + ": none, fmjd or ffjd";
                rules = *r;
            }
            if (name == "Reversible" || name == "Endgame" || name == "Small") {
                std::optional<int> v;
                if (value != "-") {
                    v = parse_int(value);
                    if (!v || *v > adjudicate::kMaxCounterPlies)
                        return at + name + " " + quote_input(value) + ": not a counter";
                }
                if (name == "Reversible") counters.reversible = v.value_or(0);
                if (name == "Endgame") counters.endgame = v;
                if (name == "Small") counters.small = v;
            }
        }
        if (!fen) return at + "the game has no FEN tag";
        if (!claim) return at + "the game has no Claim tag";
        const auto c = parse_claim(*claim);
        if (!c) return at + "Claim " + quote_input(*claim) + ": win, loss, not-win or not-loss";
        part.claim = *c;
        if (first) {
            proof.fen = *fen;
            proof.variant = variant;
            proof.rules = rules;
            proof.counters = counters;
        } else if (proof.fen != *fen || proof.variant != variant || proof.rules != rules ||
                   !(proof.counters == counters)) {
            return at + "every game of a proof is of the same position, variant, rules and counters";
        }
        return {};
    }

    // Moves from the node `at` (on ply `ply`) to the end of its line: a result, a tag (the next
    // game) or the end of the text. A variation opens a line of its own from the parent of its
    // move; the open lines are a stack, not a recursion, so that nesting costs no call stack.
    std::string line(ProofNode& at, int ply) {
        struct OpenLine {
            ProofNode* parent = nullptr;  // the node before the last move, null before any move
            std::size_t index = 0;        // the last move's place among parent's children
            ProofNode* current = nullptr;
            int ply = 0;
        };
        std::vector<OpenLine> open{OpenLine{nullptr, 0, &at, ply}};
        while (true) {
            OpenLine& top = open.back();
            const bool nested = open.size() > 1;
            switch (token_.kind) {
                case TokenKind::end:
                case TokenKind::tag:
                    return nested ? Tokenizer::at(token_.line) + "a variation is not closed" : std::string();
                case TokenKind::close: {
                    if (!nested) return Tokenizer::at(token_.line) + "')' without its '('";
                    if (auto e = advance(); !e.empty()) return e;
                    open.pop_back();
                    // The variation added children to the parent: pointers into them moved.
                    OpenLine& outer = open.back();
                    outer.current = &outer.parent->children[outer.index];
                    break;
                }
                case TokenKind::open: {
                    if (top.parent == nullptr) return Tokenizer::at(token_.line) + "a variation before any move";
                    if (open.size() > static_cast<std::size_t>(kMaxProofPlies))
                        return Tokenizer::at(token_.line) + "variations nested more than " +
                               std::to_string(kMaxProofPlies) + " deep";
                    if (auto e = advance(); !e.empty()) return e;
                    const OpenLine variation{nullptr, 0, top.parent, top.ply - 1};
                    open.push_back(variation);
                    break;
                }
                case TokenKind::comment:
                    annotate(*top.current, token_.text, side_at(top.ply));
                    if (auto e = advance(); !e.empty()) return e;
                    break;
                case TokenKind::word: {
                    if (is_result(token_.text)) {
                        if (nested) return Tokenizer::at(token_.line) + "a result inside a variation";
                        return {};
                    }
                    const std::string_view move = strip_number(token_.text);
                    if (!move.empty() && top.ply >= kMaxProofPlies)
                        return Tokenizer::at(token_.line) + "a line of more than " + std::to_string(kMaxProofPlies) +
                               " plies";
                    if (!move.empty()) {
                        top.parent = top.current;
                        ProofNode& child = top.parent->children.emplace_back();
                        child.move = std::string(move);
                        child.line = token_.line;
                        top.index = top.parent->children.size() - 1;
                        top.current = &child;
                        ++top.ply;
                    }
                    if (auto e = advance(); !e.empty()) return e;
                    break;
                }
            }
        }
    }

    Tokenizer tokens_;
    Token token_;
    Color side_ = Color::white;
};

}  // namespace

Expected<Proof> read_proof_pdn(std::string_view text) {
    return ProofParser(text).parse();
}

}  // namespace dtb::solve
