// SliceIndex<R>: a dense bijection between the legal placements of one Material with White to
// move (index/placement.hpp) and the integers [0, size()).
//
// Index formula. Sets of squares are ranked with the combinatorial number system
// (index/binomial.hpp): positions p_1 < ... < p_k inside an ordered candidate list give
// sum C(p_i, i). Candidate lists are in ascending dense (= bit) order.
//   r_w    white men among the Aw squares a white man may stand on: C(|Aw|, wm) values.
//   r_b    black men among Ab minus the squares white men occupy; that list has |Ab| - j squares,
//          j = white men standing on Ab, so the count depends on r_w. A prefix table
//          offset[r_w] = sum_{r < r_w} C(|Ab| - j(r), bm) makes r_men = offset[r_w] + r_b dense.
//   r_wk   white kings among the N - men squares no man occupies (a square's position there is
//          its dense index minus the men on lower dense squares).
//   r_bk   black kings among the N - men - wk squares still free.
//   r_kings = r_wk * C(N - men - wk, bk) + r_bk
//   index   = r_men * kings_per_config + r_kings
//   kings_per_config = C(N - men, wk) * C(N - men - wk, bk)
// So one men configuration is the contiguous index range [r_men * kpc, (r_men + 1) * kpc).
//
// Mirror (kMirror: rules the same in a left-right mirror, rules/variant.hpp; Turkish). A position
// and its mirror have the same value, so only men configurations that are canonical are indexed:
// (wmen, bmen) with wmen < mirror(wmen), or wmen = mirror(wmen) and bmen <= mirror(bmen)
// (bitboards compared as integers). rank() of a position with other men ranks its mirror. Men
// configurations that are their own mirror ("symmetric") keep every king placement, so a
// position there and its mirror are two entries (of equal value). Ranks: offset[r_w] counts
// only canonical configurations (none for a white set above its mirror); under a symmetric white
// set the black sets are renumbered through a table (black_rank_, canonical_black_). No square
// lies on the mirror's axis (8 files), so odd sets are never symmetric: slices with men take
// about half the placements.
// Slices without men (kings_as_men()): their one men configuration (none) is its own mirror, so
// the quotient is taken over the kings instead. The kings are ranked as the men are above, white
// kings among all squares, black kings among those left: every index is a "configuration" of
// its own (kings_per_config() = 1), canonical and symmetric as its king sets are. So the
// mirror_key of a position, the sets the quotient looks at, is its men, or its kings when it
// has no men; an entry stands for one position when that key is its own mirror, else for two.
//
// Retrograde groups (group_of): the indices a generator solves together. Without sideways man
// moves (international) a group is one men configuration. With sideways man moves (Turkish) a
// group is every men configuration with the same number of white men on each row and of black men
// on each row (index/row_groups.hpp); group = rank(white rows) * #(black row multisets) +
// rank(black rows); a key whose rows cannot hold its men (more men on a row than it has squares)
// is an empty group, which never happens below 9 men. Solving order: groups in DECREASING
// advancement (the sum of white men's ranks plus black men's ranks counted from Black's side).
// A forward man move raises advancement by 1, a sideways move keeps it and stays in the group,
// promotions and captures leave the slice (to slices generated earlier, see material.hpp). So
// every group a move leads to is solved before the group it starts from, and groups of equal
// advancement are independent.
#pragma once
#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "binomial.hpp"
#include "dtb/rules/direction.hpp"
#include "dtb/rules/position.hpp"
#include "dtb/rules/variant.hpp"
#include "material.hpp"
#include "placement.hpp"
#include "row_groups.hpp"

namespace dtb {

template <class R>
class SliceIndex {
    using G = typename R::Geometry;
    static constexpr int kN = G::kNumSquares;

  public:
    // True when men move sideways (a man step that keeps its rank): groups are then row groups.
    static constexpr bool kRowGroups =
        std::any_of(R::kManStepDirs.begin(), R::kManStepDirs.end(), [](Dir d) { return dir_rank_step(d) == 0; });
    // True when the index holds one of each position and its mirror (see the comment at the top).
    static constexpr bool kMirror = has_mirror_symmetry<R>();

    // The position mirrored left to right (kMirror only).
    static Position mirrored(const Position& p) {
        Position q = p;
        q.pieces[0] = G::mirror_files(p.pieces[0]);
        q.pieces[1] = G::mirror_files(p.pieces[1]);
        q.kings = G::mirror_files(p.kings);
        return q;
    }
    // Whether the index stores positions with these men as they are (true unless kMirror); the
    // same test on the kings of a slice without men (mirror_key).
    static bool men_canonical(Bitboard wmen, Bitboard bmen) {
        if constexpr (!kMirror) {
            return true;
        } else {
            const Bitboard mw = G::mirror_files(wmen);
            return wmen < mw || (wmen == mw && bmen <= G::mirror_files(bmen));
        }
    }
    // Whether these men (or, without men, kings: mirror_key) are their own mirror: a position with
    // them and its mirror are then two entries; else one entry stands for both (false unless
    // kMirror).
    static bool men_symmetric(Bitboard wmen, Bitboard bmen) {
        if constexpr (!kMirror) {
            return false;
        } else {
            return wmen == G::mirror_files(wmen) && bmen == G::mirror_files(bmen);
        }
    }
    // The sets the mirror quotient looks at: the men, or the kings when there are no men.
    struct MirrorKey {
        Bitboard white, black;
    };
    static MirrorKey mirror_key(const Position& p) {
        const Bitboard wmen = p.men(Color::white), bmen = p.men(Color::black);
        if ((wmen | bmen) == 0) return {p.kings_of(Color::white), p.kings_of(Color::black)};
        return {wmen, bmen};
    }
    // Whether the index stores p as it is (else its mirror), and whether p's entry stands for p
    // alone (p and its mirror are two entries) rather than for p and its mirror.
    static bool is_canonical(const Position& p) {
        const MirrorKey k = mirror_key(p);
        return men_canonical(k.white, k.black);
    }
    static bool is_symmetric(const Position& p) {
        const MirrorKey k = mirror_key(p);
        return men_symmetric(k.white, k.black);
    }
    // The position the index stores for p: p, or its mirror.
    static Position canonical(const Position& p) {
        if constexpr (kMirror) {
            if (!is_canonical(p)) return mirrored(p);
        }
        return p;
    }

    // Throws std::invalid_argument when m does not fit the board or R (material_fits), and
    // std::overflow_error when the slice has 2^64 placements or more.
    explicit SliceIndex(Material m);

    const Material& material() const { return m_; }
    std::uint64_t size() const { return size_; }
    // The positions the entries stand for (White to move, this material): size() unless kMirror,
    // where an entry stands for a position and its mirror unless the men are their own mirror.
    std::uint64_t num_positions() const { return positions_; }
    std::uint64_t num_men_configs() const { return men_offset_.back(); }
    std::uint64_t kings_per_config() const { return kings_per_config_; }
    // A slice without men under the mirror: kings ranked as men are (see the comment at the top).
    bool kings_as_men() const { return kings_as_men_; }

    // Precondition: p has White to move, exactly this material, and is_indexable<R>(p).
    // With kMirror, the rank of canonical(p).
    std::uint64_t rank(const Position& p) const {
        assert(p.side_to_move == Color::white && Material::of(p) == m_ && is_indexable<R>(p));
        if constexpr (kMirror) {
            if (!is_canonical(p)) return rank_canonical(mirrored(p));
        }
        return rank_canonical(p);
    }
    // rank(p) for a p that is canonical (is_canonical).
    std::uint64_t rank_canonical(const Position& p) const {
        assert(is_canonical(p));
        if (kings_as_men_) return rank_men(p.kings_of(Color::white), p.kings_of(Color::black));
        const Bitboard wmen = p.men(Color::white), bmen = p.men(Color::black);
        const Bitboard wkings = p.kings_of(Color::white);
        const Bitboard free = G::kPlayable & ~(wmen | bmen);
        const std::uint64_t r_kings =
            rank_among(wkings, free) * black_king_sets_ + rank_among(p.kings_of(Color::black), free & ~wkings);
        return rank_men(wmen, bmen) * kings_per_config_ + r_kings;
    }

    // Precondition: i < size(). Returns a White-to-move position (with canonical men).
    Position unrank(std::uint64_t i) const {
        MenCache fresh;
        return unrank(i, fresh);
    }
    // The men of the last configuration unranked through it: indices that share their men
    // configuration with the previous one (a frontier's items often do: an item's king
    // predecessors are appended together) skip unrank_men, the costly half of an unrank.
    struct MenCache {
        std::uint64_t men_config = ~std::uint64_t{0};
        Bitboard white = 0, black = 0;
    };
    Position unrank(std::uint64_t i, MenCache& cache) const {
        assert(i < size_);
        const std::uint64_t men_config = i / kings_per_config_;
        if (men_config != cache.men_config) {
            unrank_men(men_config, cache.white, cache.black);
            cache.men_config = men_config;
        }
        Position p;
        p.pieces[0] = cache.white;
        p.pieces[1] = cache.black;
        if (kings_as_men_) {  // the "men" unranked are the kings
            p.kings = cache.white | cache.black;
            return p;
        }
        const std::uint64_t r_kings = i - men_config * kings_per_config_;
        const std::uint64_t r_wk = r_kings / black_king_sets_;
        const std::uint64_t r_bk = r_kings - r_wk * black_king_sets_;
        const Bitboard men = p.pieces[0] | p.pieces[1];
        const Bitboard wk = unrank_kings(r_wk, m_.wk, men);
        const Bitboard bk = unrank_kings(r_bk, m_.bk, men | wk);
        p.pieces[0] |= wk;
        p.pieces[1] |= bk;
        p.kings = wk | bk;
        return p;
    }

    // unrank(next) for next = i + 1 < size(), given p = unrank(i), in a few bit operations
    // instead of an unrank: a pass over consecutive indices steps from one position to the next.
    // Within a men configuration the black kings take their next set in rank (colex) order; after
    // their last one, the white kings take their next set and the black kings the lowest squares
    // left; after both, the next men configuration is unranked afresh.
    void step(Position& p, std::uint64_t next) const {
        assert(next < size_ && next > 0);
        if (kings_per_config_ == 1) {  // no kings, or kings_as_men(): every index is a configuration of its own
            p = unrank(next);
            return;
        }
        const Bitboard free = G::kPlayable & ~(p.men(Color::white) | p.men(Color::black));
        const Bitboard wk = p.kings_of(Color::white), bk = p.kings_of(Color::black);
        Bitboard nw = wk, nb = 0;
        if (!next_set(bk, free & ~wk, nb)) {
            if (!next_set(wk, free, nw)) {
                p = unrank(next);
                return;
            }
            nb = lowest_squares(free & ~nw, m_.bk);
        }
        p.pieces[0] = (p.pieces[0] & ~wk) | nw;
        p.pieces[1] = (p.pieces[1] & ~bk) | nb;
        p.kings = nw | nb;
        assert(p == unrank(next));
    }

    // The men configuration (index / kings_per_config()) of the men wmen, bmen; and the number of
    // black king sets (r_kings = r_wk * black_king_sets() + r_bk). For incremental ranking
    // (index/king_move_ranks.hpp).
    // With kMirror, men that are not canonical give their mirror's configuration.
    // Not for kings_as_men() slices, whose configurations are king sets.
    std::uint64_t men_config_of(Bitboard wmen, Bitboard bmen) const {
        assert(!kings_as_men_);
        if constexpr (kMirror) {
            if (!men_canonical(wmen, bmen)) return rank_men(G::mirror_files(wmen), G::mirror_files(bmen));
        }
        return rank_men(wmen, bmen);
    }
    // Whether the men of a configuration (the kings with kings_as_men()) are their own mirror
    // (men_symmetric): its entries then stand for one position each, the others' for two (a
    // position and its mirror).
    bool men_config_symmetric(std::uint64_t men_config) const {
        if constexpr (!kMirror) {
            return false;
        } else {
            Bitboard w, b;
            unrank_men(men_config, w, b);
            return men_symmetric(w, b);
        }
    }
    std::uint64_t black_king_sets() const { return black_king_sets_; }
    // offset[r_w] of the white sets (men, or kings with kings_as_men()), one past the last = the
    // number of configurations: for incremental ranking (index/king_move_ranks.hpp).
    const std::uint64_t* men_offsets() const { return men_offset_.data(); }

    // Sum over white men of their rank and over black men of H-1-rank.
    int advancement(std::uint64_t men_config) const {
        if (kings_as_men_) return 0;
        Bitboard w, b;
        unrank_men(men_config, w, b);
        int a = 0;
        for (int s : bits(w)) a += G::rank(s);
        for (int s : bits(b)) a += G::kHeight - 1 - G::rank(s);
        return a;
    }

    // Groups (see the comment at the top): keys in [0, num_groups()).
    std::uint64_t group_of(std::uint64_t index) const { return group_of_men_config(index / kings_per_config_); }
    std::uint64_t group_of_men_config(std::uint64_t men_config) const;
    std::uint64_t num_groups() const;
    int group_advancement(std::uint64_t group) const;
    // Calls f(men_config) for every men configuration of the group, in no particular order.
    template <class F>
    void for_each_men_config_in_group(std::uint64_t group, F&& f) const;

  private:
    // Rank of the set `pieces` as a combination among the squares of `candidates`.
    static std::uint64_t rank_among(Bitboard pieces, Bitboard candidates) {
        std::uint64_t r = 0;
        for (int i = 1; pieces != 0; ++i, pieces &= pieces - 1) {
            const Bitboard below = (pieces & (0 - pieces)) - 1;
            r += binomial::kTable.c[i][std::popcount(candidates & below)];
        }
        return r;
    }
    // Precondition: men_canonical(wmen, bmen).
    std::uint64_t rank_men(Bitboard wmen, Bitboard bmen) const {
        const std::uint64_t r_w = rank_among(wmen, white_men_squares_);
        const std::uint64_t r_b = rank_among(bmen, black_men_squares_ & ~wmen);
        if constexpr (kMirror) {
            if (wmen == G::mirror_files(wmen)) {
                const std::vector<std::uint32_t>& renumber = black_rank_[symmetric_slot(r_w)];
                assert(renumber[r_b] != kNotCanonical);
                return men_offset_[r_w] + renumber[r_b];
            }
        }
        return men_offset_[r_w] + r_b;
    }
    // Position of the white set r_w (its own mirror) in symmetric_white_.
    std::size_t symmetric_slot(std::uint64_t r_w) const {
        const auto it = std::lower_bound(symmetric_white_.begin(), symmetric_white_.end(), r_w);
        assert(it != symmetric_white_.end() && *it == r_w);
        return static_cast<std::size_t>(it - symmetric_white_.begin());
    }
    // The set after `set` in colex order among the squares of `candidates` (which hold it), into
    // `out`; false when `set` is empty or the last one. In colex order the successor moves the
    // top piece of the lowest run (pieces on consecutive candidates) up to the next candidate and
    // the rest of the run down to the lowest candidates. Adding the lowest piece to the set with
    // every non-candidate bit set carries through that run and into the next candidate.
    static bool next_set(Bitboard set, Bitboard candidates, Bitboard& out) {
        if (set == 0) return false;
        const Bitboard t = ((set | ~candidates) + (set & (0 - set))) & candidates;
        if ((t & ~set) == 0) return false;  // the carry ran off the board: the last set
        out = t | lowest_squares(candidates, std::popcount(set & ~t) - 1);
        return true;
    }
    // The k lowest squares of `squares` (which has at least k).
    static Bitboard lowest_squares(Bitboard squares, int k) {
        Bitboard out = 0;
        for (; k > 0; --k, squares &= squares - 1) out |= squares & (0 - squares);
        return out;
    }
    // The k kings of rank r among the playable squares outside `taken`.
    // Kings are ranked among the free squares in dense order, which is bit order on every board
    // (dense_order_is_bit_order): the positions' mask deposited into the free squares.
    static Bitboard unrank_kings(std::uint64_t r, int k, Bitboard taken) {
        static_assert(dense_order_is_bit_order());
        int pos[64];
        binomial::unrank_subset(r, k, kN - popcount(taken), pos);
        Bitboard positions = 0;
        for (int j = 0; j < k; ++j) positions |= bit(pos[j]);
        return deposit_bits(positions, G::kPlayable & ~taken);
    }
    static constexpr bool dense_order_is_bit_order() {
        for (int d = 0; d + 1 < kN; ++d)
            if (G::bit_of_dense(d) >= G::bit_of_dense(d + 1)) return false;
        return true;
    }
    void unrank_men(std::uint64_t men_config, Bitboard& wmen, Bitboard& bmen) const;
    std::uint64_t renumber_black_sets(std::uint64_t r_w, Bitboard w, std::uint64_t count);

    Material m_;
    // kings_as_men(): the "men" ranked below are the kings, on every square; men_white_ and
    // men_black_ count the pieces ranked as men (the kings then, else the men).
    bool kings_as_men_ = false;
    int men_white_ = 0, men_black_ = 0;
    Bitboard white_men_squares_, black_men_squares_;
    int num_white_men_squares_, num_black_men_squares_;
    std::array<std::int8_t, 64> white_men_bit_{};  // candidate position -> bit (white men)
    std::uint64_t kings_per_config_ = 0, black_king_sets_ = 0, size_ = 0, positions_ = 0;
    std::uint64_t symmetric_men_configs_ = 0;  // kMirror: configurations that are their own mirror
    std::vector<std::uint64_t> men_offset_;    // offset[r_w], one past the end = num_men_configs
    // Unranking men: r_w = bucket_first_[r_men >> bucket_shift_], then step while the next offset
    // is still <= r_men. A bucket is no wider than the smallest non-empty r_w range, so the step
    // loop runs at most once when no range is empty.
    std::vector<std::uint32_t> bucket_first_;
    int bucket_shift_ = 0;
    // kMirror: the white men sets that are their own mirror (r_w, ascending), and for each one,
    // black_rank_[slot][r_b] = the rank of black set r_b among the canonical ones under it
    // (kNotCanonical for the others), and canonical_black_[slot][k] = the k-th canonical r_b.
    static constexpr std::uint32_t kNotCanonical = 0xFFFFFFFFu;
    std::vector<std::uint64_t> symmetric_white_;
    std::vector<std::vector<std::uint32_t>> black_rank_, canonical_black_;
    // Row groups: ranks are offset so that the lowest rank a man can stand on is row 0.
    int white_row_base_ = 0, black_row_base_ = 0, white_rows_ = 0, black_rows_ = 0;
};

}  // namespace dtb

#include "slice_index_impl.hpp"
