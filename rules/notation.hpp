// Move notation: "32-28" for a plain move, "32x23" for a capture, "28x19x10" (every landing
// square) when that is needed to tell two legal captures apart. Turkish: "d3-d4", "d3xd5xf5".
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "expected.hpp"
#include "movegen.hpp"
#include "quote.hpp"

namespace dtb {

template <class R>
std::string move_full_path(const Move& m) {
    using G = typename R::Geometry;
    std::string s = G::square_name(m.from);
    if (!m.is_capture()) return s + "-" + G::square_name(m.to);
    for (int i = 0; i < m.num_landings; ++i) s += "x" + G::square_name(m.landings[i]);
    return s;
}

// The shortest unambiguous notation of `m` among the legal moves `legal`.
template <class R>
std::string move_to_string(const Move& m, const MoveList& legal) {
    using G = typename R::Geometry;
    if (!m.is_capture()) return G::square_name(m.from) + "-" + G::square_name(m.to);
    for (const Move& o : legal)
        if (o.is_capture() && o.from == m.from && o.to == m.to && o.captured != m.captured) return move_full_path<R>(m);
    return G::square_name(m.from) + "x" + G::square_name(m.to);
}

template <class R>
std::string legal_moves_text(const Position& p) {
    MoveList legal;
    generate_moves<R>(p, legal);
    if (legal.empty()) return "(none)";
    std::string s;
    for (const Move& m : legal) {
        if (!s.empty()) s += ' ';
        s += move_to_string<R>(m, legal);
    }
    return s;
}

// Matches the user's text against the legal moves of `p`. The squares the text names must be the
// origin, the destination and, in order, some of the landing squares of one legal capture.
template <class R>
Expected<Move> parse_move(const Position& p, std::string_view text) {
    using G = typename R::Geometry;
    std::vector<int> squares;
    std::string cur;
    const std::string quoted = quote_input(text);
    auto flush = [&]() -> bool {
        if (cur.empty()) return false;
        const auto sq = G::parse_square(cur);
        if (!sq) return false;
        squares.push_back(*sq);
        cur.clear();
        return true;
    };
    for (char c : text) {
        if (c == '-' || c == 'x' || c == 'X' || c == ':') {
            if (!flush()) return Error{"move " + quoted + ": not a move of the form 32-28 or 28x19x10"};
        } else if (c != ' ' && c != '*' && c != '!' && c != '?') {
            cur += c;
        }
    }
    if (!flush() || squares.size() < 2) return Error{"move " + quoted + ": not a move of the form 32-28 or 28x19x10"};
    MoveList paths;
    MoveGenerator<R>(p, paths, CaptureMode::paths).generate();
    std::vector<Move> found;
    for (const Move& m : paths) {
        if (m.from != squares.front() || m.to != squares.back()) continue;
        // Intermediate squares must appear among the landings, in order.
        size_t k = 1;
        for (int i = 0; i < m.num_landings && k + 1 < squares.size(); ++i)
            if (m.landings[i] == squares[k]) ++k;
        if (k + 1 != squares.size()) continue;
        bool dup = false;
        for (const Move& f : found) dup = dup || f.same_effect(m);
        if (!dup) found.push_back(m);
    }
    if (found.size() == 1 && !found[0].is_capture()) return found[0];  // one form in both modes
    if (found.size() == 1) {
        // Return the unique-mode representative so that callers compare like with like.
        MoveList legal;
        generate_moves<R>(p, legal);
        for (const Move& m : legal)
            if (m.same_effect(found[0])) return m;
        return found[0];
    }
    if (found.empty()) return Error{"illegal move " + quoted + "; legal moves: " + legal_moves_text<R>(p)};
    std::string alts;
    for (const Move& m : found) alts += " " + move_full_path<R>(m);
    return Error{"ambiguous move " + quoted + ": it could be" + alts};
}

}  // namespace dtb
