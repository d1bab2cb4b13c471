// gen/forward.hpp splits White's moves the way the generator's forward passes need them (the
// captures without their landing squares; the plain king moves counted; the plain man moves one
// by one). Checked here against generate_moves (rules/movegen.hpp) on random positions of 2 to
// 20 pieces, where multiple captures, the majority rule and repeated effects of flying kings all
// occur: the same captures in the same order, or, without one, the same plain moves.
#include "dtb/gen/forward.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "dtb/rules/movegen.hpp"
#include "dtb/rules/variant.hpp"

using namespace dtb;

namespace {

// A random position with White to move: 1 to 10 pieces a side, each a king with probability
// 1/3, men off their own promotion row.
template <class R>
Position random_position(std::mt19937_64& rng) {
    using G = typename R::Geometry;
    std::vector<int> squares;
    for (int sq : bits(G::kPlayable)) squares.push_back(sq);
    std::shuffle(squares.begin(), squares.end(), rng);
    Position p;
    std::uniform_int_distribution<int> count(1, 10), kind(0, 2);
    std::size_t next = 0;
    for (Color c : {Color::white, Color::black}) {
        const int n = count(rng);
        for (int k = 0; k < n && next < squares.size(); ++next) {
            const int sq = squares[next];
            const bool king = kind(rng) == 0;
            if (!king && (RulesOf<R>::promotion_row(c) & bit(sq))) continue;  // a man cannot stand there
            p.pieces[idx(c)] |= bit(sq);
            if (king) p.kings |= bit(sq);
            ++k;
        }
    }
    p.side_to_move = Color::white;
    return p;
}

template <class R>
void check_forward_split(int samples) {
    std::mt19937_64 rng(20261202);
    MoveList all, captures;
    int with_captures = 0, multiple = 0, quiet = 0;
    for (int n = 0; n < samples; ++n) {
        const Position p = random_position<R>(rng);
        generate_moves<R>(p, all, CaptureMode::unique);
        const bool captured = gen::generate_captures<R>(p, captures);
        if (!all.empty() && all.front().is_capture()) {
            ++with_captures;
            if (all.front().num_captured() > 1) ++multiple;
            REQUIRE(captured);
            REQUIRE(captures.size() == all.size());
            for (std::size_t i = 0; i < all.size(); ++i) {
                INFO("move " << i);
                CHECK(captures[i].same_effect(all[i]));
                CHECK(captures[i].promotes == all[i].promotes);
                CHECK(captures[i].by_king == all[i].by_king);
                CHECK(captures[i].num_landings == 0);
            }
            continue;
        }
        ++quiet;
        REQUIRE_FALSE(captured);
        REQUIRE(captures.empty());
        // Plain moves: the men's first in generate_moves' order, then the kings'.
        std::size_t men = 0;
        gen::for_each_man_step<R>(p, [&](const Move& m) {
            REQUIRE(men < all.size());
            CHECK(m.from == all[men].from);
            CHECK(m.to == all[men].to);
            CHECK(m.promotes == all[men].promotes);
            CHECK_FALSE(all[men].by_king);
            ++men;
        });
        REQUIRE(men + static_cast<std::size_t>(gen::count_king_steps<R>(p)) == all.size());
        // The kings' in another order (for_each_king_step goes by square, not nearest first).
        std::vector<std::pair<int, int>> listed, stepped;
        for (std::size_t k = men; k < all.size(); ++k) {
            CHECK(all[k].by_king);
            listed.emplace_back(all[k].from, all[k].to);
        }
        gen::for_each_king_step<R>(p, [&](const Move& m) {
            CHECK(m.by_king);
            stepped.emplace_back(m.from, m.to);
        });
        std::sort(listed.begin(), listed.end());
        std::sort(stepped.begin(), stepped.end());
        CHECK(stepped == listed);
    }
    // The sample must exercise every branch, multiple captures included.
    CHECK(with_captures > samples / 10);
    CHECK(multiple > samples / 100);
    CHECK(quiet > samples / 10);
}

}  // namespace

TEST_CASE("the generator's forward split agrees with generate_moves (international)", "[gen][forward]") {
    check_forward_split<International>(200000);
}

TEST_CASE("the generator's forward split agrees with generate_moves (turkish)", "[gen][forward]") {
    check_forward_split<Turkish>(200000);
}
