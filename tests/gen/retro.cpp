// for_each_predecessor_rank (the solver's road: king un-moves ranked incrementally) gives the
// same ranks, in the same order, as for_each_predecessor followed by SliceIndex::rank: every
// position of up to 3 pieces, 20,000 sampled positions of every 4-piece slice, with and without
// man un-moves. With a mirror (Turkish: an entry stands for a position and its mirror) the
// multiset of ranks is checked instead against forward move generation: each entry comes out as
// many times as its stored position has plain moves into the entry of p.
#include "dtb/gen/retro.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <vector>

#include "dtb/index/slice_index.hpp"
#include "dtb/rules/move.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/variant.hpp"

using namespace dtb;

namespace {

// The entries of pred_idx with plain moves into entry i of idx, each as many times as its stored
// position has such moves (king moves only for kings_only; promotions leave the slice), found by
// forward move generation from every candidate: the predecessors of unrank(i) and of its mirror.
template <class R>
std::vector<std::uint64_t> entries_moving_into(const SliceIndex<R>& idx, const SliceIndex<R>& pred_idx, std::uint64_t i,
                                               gen::UnmoveKinds kinds) {
    using G = typename R::Geometry;
    const Position p = idx.unrank(i);
    std::vector<std::uint64_t> candidates;
    for (const Position& target : {p, SliceIndex<R>::mirrored(p)})
        gen::for_each_predecessor<R, gen::Quiet::assume>(
            target, gen::UnmoveKinds::all, [&](const Position& q) { candidates.push_back(pred_idx.rank(q)); });
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    std::vector<std::uint64_t> entries;
    for (std::uint64_t y : candidates) {
        const Position q = pred_idx.unrank(y);
        for_each_quiet_move<R, Color::white>(q, [&](const Move& m) {
            if (m.promotes || (kinds == gen::UnmoveKinds::kings_only && !m.by_king)) return;
            Position reached = reversed<G>(make_move(q, m));
            reached.side_to_move = Color::white;
            if (idx.rank(reached) == i) entries.push_back(y);
        });
    }
    return entries;
}

template <class R>
void check_predecessor_ranks(int pieces, std::uint64_t samples_per_slice) {
    std::mt19937_64 rng(7);
    std::uint64_t predecessors = 0;
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.pieces() != pieces) continue;
        INFO(R::kName << " " << m.name());
        const SliceIndex<R> idx(m), pred_idx(m.mirrored());
        const bool all = idx.size() <= samples_per_slice;
        std::uniform_int_distribution<std::uint64_t> index(0, idx.size() - 1);
        std::uint64_t differ = 0;
        for (std::uint64_t n = 0; n < (all ? idx.size() : samples_per_slice); ++n) {
            const Position p = idx.unrank(all ? n : index(rng));
            for (gen::UnmoveKinds kinds : {gen::UnmoveKinds::all, gen::UnmoveKinds::kings_only}) {
                std::vector<std::uint64_t> expected, got;
                gen::for_each_predecessor_rank<R>(p, kinds, pred_idx, [&](std::uint64_t j) { got.push_back(j); });
                if constexpr (SliceIndex<R>::kMirror) {
                    expected = entries_moving_into(idx, pred_idx, idx.rank(p), kinds);
                    std::sort(got.begin(), got.end());
                } else {
                    gen::for_each_predecessor<R, gen::Quiet::assume>(
                        p, kinds, [&](const Position& q) { expected.push_back(pred_idx.rank(q)); });
                }
                differ += expected != got;
                predecessors += expected.size();
            }
        }
        CHECK(differ == 0);
    }
    CHECK(predecessors > 0);
}

}  // namespace

TEST_CASE("predecessor ranks equal un-moves ranked from scratch (up to 3 pieces, all positions)",
          "[gen][retro][plain-build]") {
    for (int n = 2; n <= 3; ++n) {
        check_predecessor_ranks<International>(n, ~std::uint64_t{0});
        check_predecessor_ranks<Turkish>(n, ~std::uint64_t{0});
    }
}

TEST_CASE("predecessor ranks equal un-moves ranked from scratch (4 pieces, sampled)", "[gen][retro][plain-build]") {
    check_predecessor_ranks<International>(4, 20'000);
    check_predecessor_ranks<Turkish>(4, 20'000);
}
