// Ranks of the positions that differ from a base position only in where one white king stands:
// what the retrograde generator needs for every king un-move (gen/retro.hpp). A king moving back
// along its rays gives some 10-60 predecessors per position, and ranking each from scratch
// (SliceIndex::rank) would dominate the generator's time; here each costs three popcounts and two
// table lookups.
//
// How (notation of index/slice_index.hpp). The men are fixed, so r_men and the candidate list of
// white kings (free = the squares no man holds) are fixed. Let the moving king stand on x and the
// other white kings on o_1 < ... < o_m, at positions po_j among free. With t - 1 of them below x,
//     r_wk(x) = sum_{j<t} C(po_j, j) + C(pos(x), t) + sum_{j>=t} C(po_j, j + 1)
// and both sums depend on t alone: W[t]. The black kings y_1 < ... < y_n rank among free minus
// the white kings; without x their positions are pb_j, and x (a free square) lowers by one the
// position of every black king above it. With u of them below x,
//     r_bk(x) = sum_{j<=u} C(pb_j, j) + sum_{j>u} C(pb_j - 1, j) = Bk[u].
// So rank(x) = men_base + (W[t] + C(pos(x), t)) * black_king_sets + Bk[u], where pos(x), t and u
// are the popcounts of free, the other white kings and the black kings below x.
//
// A Turkish slice without men (SliceIndex::kings_as_men) ranks its kings as men are: the same
// r_wk and Bk[u] (every square is free), combined as offset[r_wk] + Bk[u]. That holds where the
// white kings with x lie below their mirror (no renumbering of the black sets, and the position
// is stored as it is); the caller ranks the other positions otherwise (gen/retro.hpp).
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

#include "dtb/index/binomial.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/position.hpp"

namespace dtb {

template <class R>
class KingMoveRanks {
    using G = typename R::Geometry;

  public:
    // base: White to move, with the material of index and is_indexable<R> (the positions ranked
    // below must be too: the caller moves a king only to empty squares it may stand on).
    KingMoveRanks(const SliceIndex<R>& index, const Position& base)
        : base_(base),
          free_(G::kPlayable & ~(base.men(Color::white) | base.men(Color::black))),
          black_kings_(base.kings_of(Color::black)),
          black_king_sets_(index.black_king_sets()),
          men_base_(index.kings_as_men() ? 0
                                         : index.men_config_of(base.men(Color::white), base.men(Color::black)) *
                                               index.kings_per_config()),
          offsets_(index.kings_as_men() ? index.men_offsets() : nullptr) {
        // King moves keep the men, so the positions ranked here are stored as they are.
        assert(index.kings_as_men() || SliceIndex<R>::men_canonical(base.men(Color::white), base.men(Color::black)));
        // What select() needs of every king, whichever white king it moves: each white king's
        // place among the free squares, each black king's among the free squares no white king
        // holds.
        const Bitboard white_kings = base.kings_of(Color::white);
        for (int o : bits(white_kings)) white_pos_[num_white_++] = std::popcount(free_ & (bit(o) - 1));
        for (int y : bits(black_kings_)) black_pos_[num_black_++] = std::popcount(free_ & ~white_kings & (bit(y) - 1));
    }

    // Chooses the white king (on square king) that moves; rank() then places it.
    void select(int king) {
        others_ = base_.kings_of(Color::white) & ~bit(king);
        const auto& c = binomial::kTable.c;
        // W[t] for t = 1 .. m + 1: kings below the mover keep their index j, those above take
        // j + 1. W[t] = below(t) + above(t); moving from t to t + 1 takes the t-th king from the
        // kings above to those below, so every W costs one step (this runs once per king of
        // every item of the generator's retrograde passes).
        const int mover = std::popcount(base_.kings_of(Color::white) & (bit(king) - 1));
        const int m = num_white_ - 1;
        const auto po = [&](int j) { return white_pos_[j < mover ? j : j + 1]; };  // 0-based, others only
        std::uint64_t below = 0, above = 0;
        for (int j = 1; j <= m; ++j) above += c[j + 1][po(j - 1)];
        for (int t = 1; t <= m + 1; ++t) {
            white_[t] = below + above;
            if (t <= m) {
                below += c[t][po(t - 1)];
                above -= c[t + 1][po(t - 1)];
            }
        }
        // Bk[u] for u = 0 .. n: black kings 1..u lie below the mover, the others above it, one
        // place lower. A black king's place among the candidates (free squares but the other
        // white kings) is its place without any white king, plus one above the mover. pb - 1 < 0
        // only for a u that no empty square gives (a black king on the lowest candidate has no
        // square below it): clamped, that entry is never read.
        const int n = num_black_;
        const int under = std::popcount(black_kings_ & (bit(king) - 1));
        const auto pb = [&](int j) { return black_pos_[j] + (j >= under ? 1 : 0); };  // 0-based
        std::uint64_t low = 0, high = 0;
        for (int j = 1; j <= n; ++j) high += c[j][std::max(pb(j - 1) - 1, 0)];
        for (int u = 0; u <= n; ++u) {
            black_[u] = low + high;
            if (u < n) {
                low += c[u + 1][pb(u)];
                high -= c[u + 1][std::max(pb(u) - 1, 0)];
            }
        }
    }

    // The rank of base with the selected king on x instead (x empty in base). With kings_as_men,
    // only for an x that puts the white kings below their mirror.
    [[gnu::always_inline]] std::uint64_t rank(int x) const {
        const Bitboard below = bit(x) - 1;
        const int t = 1 + std::popcount(others_ & below);
        const std::uint64_t r_wk = white_[t] + binomial::kTable.c[t][std::popcount(free_ & below)];
        const std::uint64_t r_bk = black_[std::popcount(black_kings_ & below)];
        if (offsets_) return offsets_[r_wk] + r_bk;
        return men_base_ + r_wk * black_king_sets_ + r_bk;
    }

  private:
    Position base_;
    Bitboard free_, black_kings_, others_ = 0;
    std::uint64_t black_king_sets_, men_base_;
    const std::uint64_t* offsets_;  // kings_as_men: offset of each white king set
    // Written by select() for every t and u that rank() can read, so left uninitialised: one
    // KingMoveRanks is built per item of the retrograde passes, and zeroing these 1 KB each time
    // shows in a pair's profile.
    std::array<std::uint64_t, 65> white_, black_;
    int white_pos_[64], black_pos_[64], num_white_ = 0, num_black_ = 0;
};

}  // namespace dtb
