// A fast reader of the FEN form to_fen writes ("W:W28,K46:BK5": side, White's list, Black's
// list, no ranges, no spaces), for the probe calls where parsing costs as much as the probe.
// nullopt for any other text and for any position parse_fen refuses: the caller then asks
// parse_fen (rules/fen.hpp), which reads the same position or says what is wrong.
#pragma once
#include <optional>
#include <string_view>

#include "dtb/rules/fen.hpp"

namespace dtb::python {

template <class R>
std::optional<Position> parse_canonical_fen(std::string_view s) {
    using G = typename R::Geometry;
    Position p;
    if (s.size() < 3 || s[1] != ':' || s[2] != 'W') return std::nullopt;
    if (s[0] == 'W')
        p.side_to_move = Color::white;
    else if (s[0] == 'B')
        p.side_to_move = Color::black;
    else
        return std::nullopt;
    std::size_t i = 3;
    for (Color c : {Color::white, Color::black}) {
        while (i < s.size() && s[i] != ':') {
            const bool king = s[i] == 'K';
            if (king) ++i;
            std::size_t end = i;
            while (end < s.size() && s[end] != ',' && s[end] != ':') ++end;
            const auto sq = G::parse_square(s.substr(i, end - i));
            if (!sq || (p.occupied() & bit(*sq))) return std::nullopt;
            p.pieces[idx(c)] |= bit(*sq);
            if (king) p.kings |= bit(*sq);
            i = end;
            if (i < s.size() && s[i] == ',' && (++i == s.size() || s[i] == ':')) return std::nullopt;
        }
        if (c == Color::white) {
            if (s.substr(i, 2) != ":B") return std::nullopt;
            i += 2;
        } else if (i != s.size()) {
            return std::nullopt;
        }
    }
    // parse_fen's refusals of a well-formed text.
    for (Color c : {Color::white, Color::black}) {
        if (popcount(p.of(c)) > R::kMaxPiecesPerSide) return std::nullopt;
        if constexpr (R::kManNeverOnOwnBackRow)
            if (p.men(c) & RulesOf<R>::back_row(c)) return std::nullopt;
        if (p.men(c) & RulesOf<R>::promotion_row(c)) return std::nullopt;
    }
    return p;
}

}  // namespace dtb::python
