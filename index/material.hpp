// Material slices: how many kings and men each side has. A slice is the unit of generation; the
// side to move is not part of it (an index covers White to move, Black to move is its reversal).
//
// Slice order (all_materials): a move either stays in its slice (a king move or a man move that
// does not promote), or leaves it by a promotion (one more king, one fewer man, same piece count)
// or by a capture (fewer pieces). So slices are generated with fewer pieces first and, at equal
// piece count, fewer men first (kings-only first); every slice a move can reach is then done
// before the slice the move starts from. Ties are broken by (wk, wm, bk, bm).
#pragma once
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/rules/bitboard.hpp"
#include "dtb/rules/position.hpp"

namespace dtb {

struct Material {
    int wk = 0, wm = 0, bk = 0, bm = 0;  // white kings, white men, black kings, black men

    int pieces() const { return wk + wm + bk + bm; }
    int men() const { return wm + bm; }
    // Colours swapped: the material of the reversed position.
    Material mirrored() const { return {bk, bm, wk, wm}; }

    // A number of its own, below kSlots, for each material of at most 9 pieces of each kind: the
    // index of an array with a place per slice (the generator's and the verifier's slice stores).
    static constexpr int kSlots = 10'000;
    constexpr int slot() const { return ((wk * 10 + wm) * 10 + bk) * 10 + bm; }

    // White's pieces, 'v', Black's; one K per king, then one M per man: "KKMvK", "MvMMM".
    std::string name() const {
        std::string s;
        s.append(static_cast<std::size_t>(wk), 'K').append(static_cast<std::size_t>(wm), 'M');
        s += 'v';
        s.append(static_cast<std::size_t>(bk), 'K').append(static_cast<std::size_t>(bm), 'M');
        return s;
    }

    // The inverse of name(): only the canonical spelling is accepted (kings before men, upper
    // case, each side at least one piece); anything else gives nullopt.
    static std::optional<Material> parse(std::string_view name) {
        const auto v = name.find('v');
        if (v == std::string_view::npos) return std::nullopt;
        Material m;
        if (!parse_side(name.substr(0, v), m.wk, m.wm)) return std::nullopt;
        if (!parse_side(name.substr(v + 1), m.bk, m.bm)) return std::nullopt;
        return m;
    }

    static Material of(const Position& p) {
        return {popcount(p.kings_of(Color::white)), popcount(p.men(Color::white)), popcount(p.kings_of(Color::black)),
                popcount(p.men(Color::black))};
    }

    auto operator<=>(const Material&) const = default;

  private:
    static bool parse_side(std::string_view s, int& kings, int& men) {
        std::size_t i = 0;
        while (i < s.size() && s[i] == 'K') ++i;
        kings = static_cast<int>(i);
        while (i < s.size() && s[i] == 'M') ++i;
        men = static_cast<int>(i) - kings;
        return i == s.size() && !s.empty();
    }
};

// True when the slice can be reached in a game of variant R and has room on the board.
template <class R>
bool material_fits(const Material& m) {
    using G = typename R::Geometry;
    const int rows_for_men = G::kHeight - (R::kManNeverOnOwnBackRow ? 2 : 1);
    const int squares_for_men = G::kNumSquares / G::kHeight * rows_for_men;
    const bool sides_ok = m.wk + m.wm >= 1 && m.bk + m.bm >= 1 && m.wk + m.wm <= R::kMaxPiecesPerSide &&
                          m.bk + m.bm <= R::kMaxPiecesPerSide;
    return m.wk >= 0 && m.wm >= 0 && m.bk >= 0 && m.bm >= 0 && sides_ok && m.wm <= squares_for_men &&
           m.bm <= squares_for_men && m.pieces() <= G::kNumSquares;
}

// Every material with each side at least one piece and at most max_pieces in all, in generation
// order (see the comment at the top of this file).
template <class R>
std::vector<Material> all_materials(int max_pieces) {
    std::vector<Material> out;
    for (int n = 2; n <= max_pieces; ++n)
        for (int wk = 0; wk <= n; ++wk)
            for (int wm = 0; wk + wm <= n; ++wm)
                for (int bk = 0; wk + wm + bk <= n; ++bk) {
                    const Material m{wk, wm, bk, n - wk - wm - bk};
                    if (material_fits<R>(m)) out.push_back(m);
                }
    std::sort(out.begin(), out.end(), [](const Material& a, const Material& b) {
        if (a.pieces() != b.pieces()) return a.pieces() < b.pieces();
        if (a.men() != b.men()) return a.men() < b.men();
        return a < b;
    });
    return out;
}

}  // namespace dtb
