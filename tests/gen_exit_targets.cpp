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

}  // namespace

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
