// KingMoveRanks (incremental ranks of one white king moved) against SliceIndex::rank from scratch:
// every white king of the base position to every empty square, for every position of every slice
// of up to 3 pieces and for sampled positions of every 4- and 5-piece slice, both variants
// (in Turkish slices without men, SliceIndex::kings_as_men, the moves that leave the white kings
// below their mirror: the others are ranked otherwise).
#include "dtb/index/king_move_ranks.hpp"

#include <catch2/catch.hpp>
#include <random>
#include <string>

#include "dtb/index/slice_index.hpp"
#include "dtb/rules/variant.hpp"

using namespace dtb;

namespace {

// Empty when every move of a white king of p to an empty square ranks as from scratch; else the
// first mismatch.
template <class R>
std::string check_moves(const SliceIndex<R>& idx, const Position& p, std::uint64_t& checked) {
    using G = typename R::Geometry;
    KingMoveRanks<R> ranks(idx, p);
    const Bitboard empty = G::kPlayable & ~p.occupied();
    for (int king : bits(p.kings_of(Color::white))) {
        ranks.select(king);
        for (int x : bits(empty)) {
            Position q = p;
            q.pieces[0] ^= bit(king) | bit(x);
            q.kings ^= bit(king) | bit(x);
            // kings_as_men: defined where the white kings lie below their mirror.
            if constexpr (SliceIndex<R>::kMirror) {
                const Bitboard white = q.kings_of(Color::white);
                if (idx.kings_as_men() && !(white < G::mirror_files(white))) continue;
            }
            ++checked;
            if (ranks.rank(x) != idx.rank(q))
                return "king " + std::to_string(king) + " to " + std::to_string(x) + " from index " +
                       std::to_string(idx.rank(p));
        }
    }
    return {};
}

template <class R>
void check_slices(int pieces, std::uint64_t samples_per_slice) {
    std::mt19937_64 rng(20261130);
    std::uint64_t checked = 0;
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.pieces() != pieces || m.wk == 0) continue;
        INFO(R::kName << " " << m.name());
        const SliceIndex<R> idx(m);
        const bool all = samples_per_slice == 0 || idx.size() <= samples_per_slice;
        std::uniform_int_distribution<std::uint64_t> index(0, idx.size() - 1);
        std::string first;
        for (std::uint64_t n = 0; n < (all ? idx.size() : samples_per_slice) && first.empty(); ++n)
            first = check_moves(idx, idx.unrank(all ? n : index(rng)), checked);
        INFO(first);
        CHECK(first.empty());
    }
    CHECK(checked > 0);
}

}  // namespace

TEST_CASE("a king moved ranks as from scratch: every position of up to 3 pieces", "[index][king-move-ranks]") {
    for (int n = 2; n <= 3; ++n) {
        check_slices<International>(n, 0);
        check_slices<Turkish>(n, 0);
    }
}

TEST_CASE("a king moved ranks as from scratch: 20,000 positions of every 4- and 5-piece slice",
          "[index][king-move-ranks][plain-build]") {
    for (int n = 4; n <= 5; ++n) {
        check_slices<International>(n, 20'000);
        check_slices<Turkish>(n, 20'000);
    }
}
