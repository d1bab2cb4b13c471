// Where the generator's exits lead (gen/retro.hpp reversed_after, gen/dependencies.hpp): the
// position after a move, colour-reversed, must be make_move's, and every capture or promotion
// must lead to a slice the pair loads (exit_materials), or end the game. A Turkish king may end
// its capture on a square a captured piece stood on (pieces go as they are jumped): a generator
// that lost the king there looked up a slice it had not loaded.
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "dtb/gen/dependencies.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/index/material.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/variant.hpp"

using namespace dtb;

namespace {

// Checks every move of p (White to move): the generator's successor is make_move's, reversed, and
// a capture or promotion reaches a slice of `loaded` or leaves the opponent nothing.
template <class R>
void check_exits(const Position& p, const std::set<Material>& loaded) {
    using G = typename R::Geometry;
    MoveList moves;
    generate_moves<R>(p, moves);
    const Position rp = reversed<G>(p);
    for (const Move& m : moves) {
        const Position want = reversed<G>(make_move(p, m));
        const Position next = gen::reversed_after<G>(rp, m);
        INFO(to_fen<R>(p) << " move " << m.from << "-" << m.to);
        REQUIRE(next == want);
        if (!(m.is_capture() || m.promotes) || next.of(Color::white) == 0) continue;
        CHECK(loaded.count(Material::of(next)) == 1);
    }
}

template <class R>
void check_random_positions_of_every_slice(int max_pieces, int per_slice) {
    std::mt19937_64 rng(20261207);
    for (const Material& m : all_materials<R>(max_pieces)) {
        const SliceIndex<R> index(m);
        const std::vector<Material> exits = gen::exit_materials(m);
        const std::set<Material> loaded(exits.begin(), exits.end());
        std::uniform_int_distribution<std::uint64_t> pick(0, index.size() - 1);
        INFO(m.name());
        for (int k = 0; k < per_slice; ++k) check_exits<R>(index.unrank(pick(rng)), loaded);
    }
}

// Solving by blocks rests on this (gen/block_arrays.hpp): a plain move (no capture, no promotion)
// of a position of slice m leads to the mirror slice, into a men configuration of the same
// advancement level when a king moves or a Turkish man steps sideways, of the level above when a
// man steps forward. Checked on random positions of every slice with men; returns the moves seen.
template <class R>
std::uint64_t check_block_order(int max_pieces, int per_slice) {
    using G = typename R::Geometry;
    std::mt19937_64 rng(7);
    std::uint64_t moves_seen = 0;
    for (const Material& m : all_materials<R>(max_pieces)) {
        if (m.men() == 0) continue;
        const SliceIndex<R> index(m), next_index(m.mirrored());
        std::uniform_int_distribution<std::uint64_t> pick(0, index.size() - 1);
        INFO(m.name());
        MoveList moves;
        for (int k = 0; k < per_slice; ++k) {
            const std::uint64_t i = pick(rng);
            const Position p = index.unrank(i);
            const int level = index.advancement(i / index.kings_per_config());
            generate_moves<R>(p, moves);
            const Position rp = reversed<G>(p);
            for (const Move& mv : moves) {
                if (mv.is_capture() || mv.promotes) continue;
                const Position next = gen::reversed_after<G>(rp, mv);
                REQUIRE(Material::of(next) == m.mirrored());
                const int next_level = next_index.advancement(next_index.rank(next) / next_index.kings_per_config());
                const bool stays = mv.by_king || G::rank(mv.from) == G::rank(mv.to);
                INFO(to_fen<R>(p) << " move " << mv.from << "-" << mv.to);
                CHECK(next_level == level + (stays ? 0 : 1));
                ++moves_seen;
            }
        }
    }
    return moves_seen;
}

}  // namespace

TEST_CASE("blocks: a plain move keeps its advancement level, or a man's step forward rises one (up to 6 pieces)",
          "[gen][exits][blocks]") {
    CHECK(check_block_order<Turkish>(6, 500) > 100000);
    CHECK(check_block_order<International>(6, 300) > 100000);
}

TEST_CASE("exits: a Turkish king that ends its capture where a captured piece stood stays a king", "[gen][exits]") {
    // White's king: over c2, e4, d6 and c4, back to c2 (or c3, c1); Kh8 in the corner stays.
    const Position p = *parse_fen<Turkish>("W:WKa2:BKc2,Ke4,Kd6,Kc4,Kh8");
    const std::vector<Material> exits = gen::exit_materials(Material::of(p));
    check_exits<Turkish>(p, std::set<Material>(exits.begin(), exits.end()));
    MoveList moves;
    generate_moves<Turkish>(p, moves);
    REQUIRE(moves.size() == 3);
    for (const Move& m : moves) {
        const Position next = gen::reversed_after<Turkish::Geometry>(reversed<Turkish::Geometry>(p), m);
        CHECK(Material::of(next).name() == "KvK");  // the black king to move against the white king
    }
}

TEST_CASE(
    "exits: every capture and promotion of random positions of every slice up to 6 pieces leads "
    "to a slice the pair loads",
    "[gen][exits]") {
    check_random_positions_of_every_slice<Turkish>(6, 3000);
    check_random_positions_of_every_slice<International>(6, 1000);
}
