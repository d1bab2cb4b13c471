// PDN FEN: "W:W31,32,K46:B1,2,K5". On input the two lists come in either order, ranges such as
// 31-35 or K31-35 are accepted and a final '.' is ignored; on output the form is canonical: White
// first, squares ascending (dense order), no ranges.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "expected.hpp"
#include "movegen.hpp"
#include "position.hpp"
#include "quote.hpp"
#include "variant.hpp"

namespace dtb {

namespace fen_detail {
inline std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '"')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r' ||
                          s.back() == '"' || s.back() == '.'))
        s.remove_suffix(1);
    return s;
}
}  // namespace fen_detail

// The variant a FEN is written for, from how it names squares: a letter and a digit ("d4") is
// Turkish, a number ("31") international; nullopt when it names no square of either kind (the
// caller then says which flag decides).
inline std::optional<VariantId> fen_variant(std::string_view text) {
    // The first square named after the side to move: skip "W:" or "B:", then colour letters and
    // the king mark.
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    for (std::size_t i = colon + 1; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') return VariantId::international;
        if (c >= 'a' && c <= 'h' && i + 1 < text.size() && text[i + 1] >= '1' && text[i + 1] <= '8')
            return VariantId::turkish;
    }
    return std::nullopt;
}

template <class R>
Expected<Position> parse_fen(std::string_view text) {
    using G = typename R::Geometry;
    using namespace fen_detail;
    const std::string quoted = quote_input(text);
    std::string_view s = trim(text);
    if (s.empty()) return Error{"empty FEN"};
    Position p;
    const char side = s[0];
    if (side == 'W' || side == 'w')
        p.side_to_move = Color::white;
    else if (side == 'B' || side == 'b')
        p.side_to_move = Color::black;
    else
        return Error{"FEN " + quoted + ": must start with the side to move, W or B"};
    s.remove_prefix(1);
    bool seen[2] = {false, false};
    while (!s.empty()) {
        if (s[0] != ':') return Error{"FEN " + quoted + ": expected ':' before a piece list"};
        s.remove_prefix(1);
        const size_t end = s.find(':');
        std::string_view list = trim(s.substr(0, end));
        s = end == std::string_view::npos ? std::string_view{} : s.substr(end);
        if (list.empty()) return Error{"FEN " + quoted + ": empty piece list (write W or B alone for no pieces)"};
        Color c;
        if (list[0] == 'W' || list[0] == 'w')
            c = Color::white;
        else if (list[0] == 'B' || list[0] == 'b')
            c = Color::black;
        else
            return Error{"FEN " + quoted + ": a piece list must start with W or B"};
        if (seen[idx(c)]) return Error{"FEN " + quoted + ": two piece lists for one colour"};
        seen[idx(c)] = true;
        list.remove_prefix(1);
        while (!list.empty()) {
            const size_t comma = list.find(',');
            std::string_view item = trim(list.substr(0, comma));
            list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
            if (item.empty()) return Error{"FEN " + quoted + ": empty item in a piece list"};
            bool king = false;
            if (item[0] == 'K' || item[0] == 'k') {
                king = true;
                item.remove_prefix(1);
            }
            std::string_view first = item, last = item;
            // A range 31-35; algebraic squares never contain '-'.
            if (const size_t dash = item.find('-'); dash != std::string_view::npos) {
                first = item.substr(0, dash);
                last = item.substr(dash + 1);
                if (!last.empty() && (last[0] == 'K' || last[0] == 'k')) last.remove_prefix(1);
            }
            if (first.empty() || last.empty())
                return Error{"FEN " + quoted + ": " + quote_input(item, 16) +
                             " is neither a square nor a range of squares (like 31-35)"};
            const auto a = G::parse_square(first), b = G::parse_square(last);
            if (!a)
                return Error{"FEN " + quoted + ": unknown square " + quote_input(first, 16) + " for " +
                             std::string(R::kName)};
            if (!b)
                return Error{"FEN " + quoted + ": unknown square " + quote_input(last, 16) + " for " +
                             std::string(R::kName)};
            int da = G::dense(*a), db = G::dense(*b);
            if (db < da) return Error{"FEN " + quoted + ": range " + quote_input(item, 16) + " runs backwards"};
            if constexpr (G::kNaming == SquareNaming::algebraic) {
                // A range along a rank (a2-h2) or a file (d2-d6).
                const bool same_rank = G::rank(*a) == G::rank(*b), same_file = G::file(*a) == G::file(*b);
                if (!same_rank && !same_file)
                    return Error{"FEN " + quoted + ": range " + quote_input(item, 16) +
                                 " is not along a rank or a file"};
                const int step = same_rank ? 1 : G::kWidth;
                for (int d = da; d <= db; d += step) {
                    const int sq = G::bit_of_dense(d);
                    if (p.occupied() & bit(sq))
                        return Error{"FEN " + quoted + ": square " + G::square_name(sq) + " given twice"};
                    p.pieces[idx(c)] |= bit(sq);
                    if (king) p.kings |= bit(sq);
                }
                continue;
            }
            for (int d = da; d <= db; ++d) {
                const int sq = G::bit_of_dense(d);
                if (p.occupied() & bit(sq))
                    return Error{"FEN " + quoted + ": square " + G::square_name(sq) + " given twice"};
                p.pieces[idx(c)] |= bit(sq);
                if (king) p.kings |= bit(sq);
            }
        }
    }
    for (Color c : {Color::white, Color::black}) {
        if (popcount(p.of(c)) > R::kMaxPiecesPerSide)
            return Error{"FEN " + quoted + ": " + std::string(c == Color::white ? "White" : "Black") + " has " +
                         std::to_string(popcount(p.of(c))) + " pieces, more than " +
                         std::to_string(R::kMaxPiecesPerSide)};
        if constexpr (R::kManNeverOnOwnBackRow) {
            const Bitboard back = p.men(c) & RulesOf<R>::back_row(c);
            if (back)
                return Error{"FEN " + quoted + ": " + std::string(c == Color::white ? "white" : "black") + " man on " +
                             G::square_name(lowest_bit(back)) + ", its own back row (men never move backward)"};
        }
        const Bitboard bad = p.men(c) & RulesOf<R>::promotion_row(c);
        if (bad)
            return Error{"FEN " + quoted + ": " + std::string(c == Color::white ? "white" : "black") + " man on " +
                         G::square_name(lowest_bit(bad)) + ", its promotion row (it would be a king)"};
    }
    return p;
}

template <class R>
std::string to_fen(const Position& p) {
    using G = typename R::Geometry;
    std::string s = p.side_to_move == Color::white ? "W" : "B";
    for (Color c : {Color::white, Color::black}) {
        s += c == Color::white ? ":W" : ":B";
        bool first = true;
        for (int d = 0; d < G::kNumSquares; ++d) {
            const int sq = G::bit_of_dense(d);
            if (!(p.of(c) & bit(sq))) continue;
            if (!first) s += ',';
            first = false;
            if (p.kings & bit(sq)) s += 'K';
            s += G::square_name(sq);
        }
    }
    return s;
}

}  // namespace dtb
