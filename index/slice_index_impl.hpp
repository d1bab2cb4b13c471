// Out-of-line members of SliceIndex<R> (index/slice_index.hpp): construction, men unranking and
// retrograde groups. Included at the end of slice_index.hpp; not meant to be included directly.
#pragma once
#include <limits>
#include <stdexcept>
#include <string>

#include "slice_index.hpp"

namespace dtb {

namespace detail {
inline std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b, const Material& m) {
    std::uint64_t r;
    if (__builtin_mul_overflow(a, b, &r)) throw std::overflow_error("SliceIndex: " + m.name() + " too large");
    return r;
}
inline std::uint64_t checked_add(std::uint64_t a, std::uint64_t b, const Material& m) {
    std::uint64_t r;
    if (__builtin_add_overflow(a, b, &r)) throw std::overflow_error("SliceIndex: " + m.name() + " too large");
    return r;
}
}  // namespace detail

template <class R>
SliceIndex<R>::SliceIndex(Material m) : m_(m) {
    if (!material_fits<R>(m)) throw std::invalid_argument("SliceIndex: material " + m.name() + " does not fit");
    // Without men under the mirror, the kings are ranked as men are, on every square (see
    // slice_index.hpp): one king placement per "men configuration".
    kings_as_men_ = kMirror && m.men() == 0;
    men_white_ = kings_as_men_ ? m.wk : m.wm;
    men_black_ = kings_as_men_ ? m.bk : m.bm;
    white_men_squares_ = kings_as_men_ ? G::kPlayable : men_squares<R>(Color::white);
    black_men_squares_ = kings_as_men_ ? G::kPlayable : men_squares<R>(Color::black);
    num_white_men_squares_ = popcount(white_men_squares_);
    num_black_men_squares_ = popcount(black_men_squares_);
    int j = 0;
    for (int s : bits(white_men_squares_)) white_men_bit_[j++] = static_cast<std::int8_t>(s);

    const int free = kN - m.men();
    black_king_sets_ = kings_as_men_ ? 1 : binomial::choose(free - m.wk, m.bk);
    kings_per_config_ = kings_as_men_ ? 1 : detail::checked_mul(binomial::choose(free, m.wk), black_king_sets_, m);

    // Offsets over the white men sets, visited in rank order (colex order of positions).
    const std::uint64_t num_white = binomial::choose(num_white_men_squares_, men_white_);
    if (num_white >= std::numeric_limits<std::uint32_t>::max())
        throw std::overflow_error("SliceIndex: " + m.name() + " has too many white men sets");
    men_offset_.resize(num_white + 1);
    bool on_black_square[64];
    for (int p = 0; p < num_white_men_squares_; ++p)
        on_black_square[p] = (black_men_squares_ & bit(white_men_bit_[p])) != 0;
    int pos[64];
    for (int i = 0; i < men_white_; ++i) pos[i] = i;
    std::uint64_t total = 0, smallest = std::numeric_limits<std::uint64_t>::max();
    for (std::uint64_t r = 0; r < num_white; ++r) {
        men_offset_[r] = total;
        int overlap = 0;
        for (int i = 0; i < men_white_; ++i) overlap += on_black_square[pos[i]];
        std::uint64_t count = binomial::choose(num_black_men_squares_ - overlap, men_black_);
        if constexpr (kMirror) {
            Bitboard w = 0;
            for (int i = 0; i < men_white_; ++i) w |= bit(white_men_bit_[pos[i]]);
            const Bitboard mw = G::mirror_files(w);
            if (w > mw) {
                count = 0;  // stored as its mirror
            } else if (w == mw) {
                count = renumber_black_sets(r, w, count);
            }
        }
        if (count != 0) smallest = std::min(smallest, count);
        total = detail::checked_add(total, count, m);
        if (r + 1 == num_white) break;
        int i = 0;  // colex successor: bump the lowest position that can move up, reset those below
        while (i + 1 < men_white_ && pos[i] + 1 == pos[i + 1]) ++i;
        ++pos[i];
        for (int t = 0; t < i; ++t) pos[t] = t;
    }
    men_offset_[num_white] = total;
    size_ = detail::checked_mul(total, kings_per_config_, m);
    // An entry of a configuration that is not its own mirror stands for two positions.
    positions_ = kMirror ? detail::checked_add(size_, (total - symmetric_men_configs_) * kings_per_config_, m) : size_;

    bucket_shift_ = total == 0 ? 0 : std::bit_width(smallest) - 1;
    const std::uint64_t num_buckets = total == 0 ? 1 : ((total - 1) >> bucket_shift_) + 1;
    bucket_first_.resize(num_buckets);
    std::uint64_t r = 0;
    for (std::uint64_t b = 0; b < num_buckets; ++b) {
        const std::uint64_t first = b << bucket_shift_;
        while (r + 1 < num_white && men_offset_[r + 1] <= first) ++r;
        bucket_first_[b] = static_cast<std::uint32_t>(r);
    }

    // Row groups: rows counted from each side's lowest possible man rank.
    int wlo = G::kHeight, whi = -1, blo = G::kHeight, bhi = -1;
    for (int s : bits(white_men_squares_)) wlo = std::min(wlo, G::rank(s)), whi = std::max(whi, G::rank(s));
    for (int s : bits(black_men_squares_)) {
        const int from_black = G::kHeight - 1 - G::rank(s);
        blo = std::min(blo, from_black), bhi = std::max(bhi, from_black);
    }
    white_row_base_ = wlo, white_rows_ = whi - wlo + 1;
    black_row_base_ = blo, black_rows_ = bhi - blo + 1;
}

// Under the white set r_w = w (its own mirror), numbers the canonical black sets among the
// `count` black sets (black_rank_, canonical_black_); returns how many there are.
template <class R>
std::uint64_t SliceIndex<R>::renumber_black_sets(std::uint64_t r_w, Bitboard w, std::uint64_t count) {
    if (count >= kNotCanonical) throw std::overflow_error("SliceIndex: " + m_.name() + " has too many black men sets");
    Bitboard candidate_bits[64];
    int n = 0;
    for (int s : bits(black_men_squares_ & ~w)) candidate_bits[n++] = bit(s);
    std::vector<std::uint32_t> rank_of(static_cast<std::size_t>(count), kNotCanonical), canonical;
    int pos[64];
    for (std::uint64_t r_b = 0; r_b < count; ++r_b) {
        binomial::unrank_subset(r_b, men_black_, n, pos);
        Bitboard b = 0;
        for (int j = 0; j < men_black_; ++j) b |= candidate_bits[pos[j]];
        const Bitboard mb = G::mirror_files(b);
        if (b > mb) continue;
        symmetric_men_configs_ += b == mb;
        rank_of[r_b] = static_cast<std::uint32_t>(canonical.size());
        canonical.push_back(static_cast<std::uint32_t>(r_b));
    }
    symmetric_white_.push_back(r_w);  // r_w ascends: the list stays sorted
    black_rank_.push_back(std::move(rank_of));
    canonical_black_.push_back(std::move(canonical));
    return canonical_black_.back().size();
}

template <class R>
void SliceIndex<R>::unrank_men(std::uint64_t men_config, Bitboard& wmen, Bitboard& bmen) const {
    std::uint64_t r_w = bucket_first_[men_config >> bucket_shift_];
    while (men_offset_[r_w + 1] <= men_config) ++r_w;
    std::uint64_t r_b = men_config - men_offset_[r_w];
    int pos[64];
    binomial::unrank_subset(r_w, men_white_, num_white_men_squares_, pos);
    Bitboard white_positions = 0;
    for (int j = 0; j < men_white_; ++j) white_positions |= bit(pos[j]);
    wmen = deposit_bits(white_positions, white_men_squares_);
    if constexpr (kMirror) {
        if (wmen == G::mirror_files(wmen)) r_b = canonical_black_[symmetric_slot(r_w)][r_b];
    }
    // Black men are ranked among the black-man squares the white men leave, in square order: the
    // positions' mask deposited into those squares.
    const Bitboard black_candidates = black_men_squares_ & ~wmen;
    binomial::unrank_subset(r_b, men_black_, std::popcount(black_candidates), pos);
    Bitboard positions = 0;
    for (int k = 0; k < men_black_; ++k) positions |= bit(pos[k]);
    bmen = deposit_bits(positions, black_candidates);
}

template <class R>
std::uint64_t SliceIndex<R>::num_groups() const {
    if constexpr (!kRowGroups) {
        return num_men_configs();
    } else {
        return row_groups::num_multisets(white_rows_, m_.wm) * row_groups::num_multisets(black_rows_, m_.bm);
    }
}

template <class R>
std::uint64_t SliceIndex<R>::group_of_men_config(std::uint64_t men_config) const {
    if constexpr (!kRowGroups) {
        return men_config;
    } else {
        if (kings_as_men_) return 0;  // no men: one group
        Bitboard w, b;
        unrank_men(men_config, w, b);
        row_groups::RowCounts cw{}, cb{};
        for (int s : bits(w)) ++cw[G::rank(s) - white_row_base_];
        for (int s : bits(b)) ++cb[G::kHeight - 1 - G::rank(s) - black_row_base_];
        return row_groups::rank_multiset(cw, white_rows_) * row_groups::num_multisets(black_rows_, m_.bm) +
               row_groups::rank_multiset(cb, black_rows_);
    }
}

template <class R>
int SliceIndex<R>::group_advancement(std::uint64_t group) const {
    if constexpr (!kRowGroups) {
        return advancement(group);
    } else {
        const std::uint64_t nb = row_groups::num_multisets(black_rows_, m_.bm);
        const auto cw = row_groups::unrank_multiset(group / nb, white_rows_, m_.wm);
        const auto cb = row_groups::unrank_multiset(group % nb, black_rows_, m_.bm);
        int a = 0;
        for (int r = 0; r < white_rows_; ++r) a += cw[r] * (r + white_row_base_);
        for (int r = 0; r < black_rows_; ++r) a += cb[r] * (r + black_row_base_);
        return a;
    }
}

template <class R>
template <class F>
void SliceIndex<R>::for_each_men_config_in_group(std::uint64_t group, F&& f) const {
    if constexpr (!kRowGroups) {
        f(group);
    } else {
        if (kings_as_men_) {  // no men: one group of every king configuration
            for (std::uint64_t mc = 0; mc < num_men_configs(); ++mc) f(mc);
            return;
        }
        const std::uint64_t nb = row_groups::num_multisets(black_rows_, m_.bm);
        const auto cw = row_groups::unrank_multiset(group / nb, white_rows_, m_.wm);
        const auto cb = row_groups::unrank_multiset(group % nb, black_rows_, m_.bm);
        const auto white_row = [this](int r) { return G::rank_mask(r + white_row_base_); };
        const auto black_row = [this](int r) { return G::rank_mask(G::kHeight - 1 - r - black_row_base_); };
        row_groups::for_each_set_with_row_counts(white_men_squares_, cw, white_rows_, white_row, [&](Bitboard w) {
            row_groups::for_each_set_with_row_counts(black_men_squares_ & ~w, cb, black_rows_, black_row,
                                                     [&](Bitboard b) {
                                                         if (men_canonical(w, b)) f(rank_men(w, b));
                                                     });
        });
    }
}

}  // namespace dtb
