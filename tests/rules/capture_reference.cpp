// The capture search (rules/capture.hpp) against a reference written for reading, not speed: it
// walks the board square by square with the geometry's neighbour table and the variant's rule
// fields, searches on from every landing square, and applies the majority rule at the end. The
// two share no code beyond the geometry, so the bit-parallel shortcuts of the real search (the
// first-jump test, the landings that end a capture found for the whole board at once) are checked
// on many random positions with kings and men of both colours, in both variants and in the rule
// variants no shipped game uses.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "dtb/rules/movegen.hpp"
#include "dtb/rules/notation.hpp"
#include "tests/support/rules_support.hpp"

using namespace dtb;

namespace {

using test::captured_list;
using test::InternationalShortKings;
using test::TurkishCrowningAtOnce;
// Captured pieces removed at once, and a king that may turn back: it can then jump again along
// the line it came by, over the square its last victim has left.
struct TurkishKingsTurnBack : Turkish {
    static constexpr bool kKingMayReverse = true;
};

// Every complete capture of the side to move as "from x landing x ... [captured squares]", before
// the majority rule.
template <class R>
class ReferenceCaptures {
    using G = typename R::Geometry;

  public:
    explicit ReferenceCaptures(const Position& p) : p_(p), us_(p.side_to_move) {}

    std::vector<std::string> all() {
        for (int from = 0; from < 64; ++from) {
            if (!(p_.of(us_) & bit(from))) continue;
            from_ = from;
            std::vector<int> path;
            search(from, (p_.kings & bit(from)) != 0, -1, 0, path);
        }
        return found_;
    }
    // The captures the rules allow: those that take the most pieces.
    std::vector<std::string> legal() {
        all();
        int most = 0;
        for (int n : counts_) most = std::max(most, n);
        std::vector<std::string> v;
        for (std::size_t i = 0; i < found_.size(); ++i)
            if (counts_[i] == most) v.push_back(found_[i]);
        std::sort(v.begin(), v.end());
        return v;
    }

  private:
    bool occupied(int sq, Bitboard captured) const {
        Bitboard occ = p_.occupied() & ~bit(from_);  // the moving piece has left its square
        if (R::kRemoveCapturedAtOnce) occ &= ~captured;
        return (occ & bit(sq)) != 0;
    }
    std::vector<Dir> directions(bool king) const {
        std::vector<Dir> v;
        if (king) {
            for (Dir d : R::kKingDirs) v.push_back(d);
        } else {
            for (Dir d : R::kManCaptureDirs) v.push_back(RulesOf<R>::for_side(d, us_));
        }
        return v;
    }
    void search(int sq, bool king, int last, Bitboard captured, std::vector<int>& path) {
        bool went_on = false;
        for (Dir d : directions(king)) {
            if (king && !R::kKingMayReverse && last >= 0 && d == opposite(static_cast<Dir>(last))) continue;
            int victim = G::neighbor(sq, d);
            if (king && R::kFlyingKings)
                while (victim >= 0 && !occupied(victim, captured)) victim = G::neighbor(victim, d);
            if (victim < 0 || !(p_.of(~us_) & bit(victim)) || (captured & bit(victim))) continue;
            for (int land = G::neighbor(victim, d); land >= 0 && !occupied(land, captured);
                 land = G::neighbor(land, d)) {
                went_on = true;
                path.push_back(land);
                const bool crowned = !king && R::kPromoteMidCapture && (RulesOf<R>::promotion_row(us_) & bit(land));
                search(land, king || crowned, static_cast<int>(d), captured | bit(victim), path);
                path.pop_back();
                if (!(king && R::kFlyingKings)) break;  // a man, or a short king, lands right behind
            }
        }
        if (went_on || !captured) return;
        std::string s = G::square_name(from_);
        for (int l : path) s += "x" + G::square_name(l);
        found_.push_back(s + " " + captured_list<R>(captured));
        counts_.push_back(popcount(captured));
    }

    const Position& p_;
    Color us_;
    int from_ = 0;
    std::vector<std::string> found_;
    std::vector<int> counts_;
};

// "from x landing x ... [captured]", as the reference writes a capture.
template <class R>
std::string text(const Move& m) {
    return move_full_path<R>(m) + " " + captured_list<R>(m.captured);
}

// "from x to [captured]": what makes two captures the same in unique mode.
template <class R>
std::string effect_text(const Move& m) {
    using G = typename R::Geometry;
    return G::square_name(m.from) + "x" + G::square_name(m.to) + " " + captured_list<R>(m.captured);
}

// The same of a reference capture: its first and last squares.
std::string effect_of(const std::string& full) {
    const auto space = full.find(' ');
    const auto first_x = full.find('x');
    const auto last_x = full.rfind('x', space);
    return full.substr(0, first_x) + full.substr(last_x, space - last_x) + full.substr(space);
}

// A random position: 1 to 7 pieces a side, each a king or a man with even odds, men off their
// promotion row; either side to move.
template <class R>
Position random_position(std::mt19937_64& rng) {
    using G = typename R::Geometry;
    Position p;
    std::uniform_int_distribution<int> count(1, 7), square(0, G::kNumSquares - 1), coin(0, 1);
    for (Color c : {Color::white, Color::black}) {
        for (int n = count(rng); n > 0;) {
            const int sq = G::bit_of_dense(square(rng));
            if (p.occupied() & bit(sq)) continue;
            const bool king = coin(rng) == 1;
            if (!king && (RulesOf<R>::promotion_row(c) & bit(sq))) continue;
            p.pieces[idx(c)] |= bit(sq);
            if (king) p.kings |= bit(sq);
            --n;
        }
    }
    p.side_to_move = coin(rng) ? Color::white : Color::black;
    return p;
}

template <class R>
void compare_with_reference(int positions, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    int with_captures = 0, multi = 0;
    for (int k = 0; k < positions; ++k) {
        const Position p = random_position<R>(rng);
        const std::vector<std::string> expected = ReferenceCaptures<R>(p).legal();
        std::vector<std::string> expected_effects;
        for (const std::string& s : expected) expected_effects.push_back(effect_of(s));
        std::sort(expected_effects.begin(), expected_effects.end());
        expected_effects.erase(std::unique(expected_effects.begin(), expected_effects.end()), expected_effects.end());

        MoveList l;
        generate_moves<R>(p, l, CaptureMode::paths);
        std::vector<std::string> paths;
        for (const Move& m : l)
            if (m.is_capture()) paths.push_back(text<R>(m));
        std::sort(paths.begin(), paths.end());

        MoveGenerator<R>(p, l, CaptureMode::unique).generate_capture_effects();
        std::vector<std::string> effects;
        for (const Move& m : l) effects.push_back(effect_text<R>(m));
        std::sort(effects.begin(), effects.end());

        INFO(R::kName << " position " << k << ": " << (p.side_to_move == Color::white ? "W" : "B") << " white "
                      << p.of(Color::white) << " black " << p.of(Color::black) << " kings " << p.kings);
        REQUIRE(paths == expected);
        REQUIRE(effects == expected_effects);
        REQUIRE(has_capture<R>(p) == !expected.empty());
        if (!expected.empty()) ++with_captures;
        if (!expected.empty() && popcount(l[0].captured) > 1) ++multi;
    }
    // The sample must exercise what it checks.
    CHECK(with_captures > positions / 4);
    CHECK(multi > positions / 100);
}

}  // namespace

TEST_CASE("capture search equals a square-by-square reference on random positions", "[rules][captures][reference]") {
    compare_with_reference<International>(20000, 1);
    compare_with_reference<Turkish>(20000, 2);
}

TEST_CASE("capture search equals the reference in rule variants no shipped game uses", "[rules][captures][reference]") {
    compare_with_reference<InternationalShortKings>(10000, 3);
    compare_with_reference<TurkishCrowningAtOnce>(10000, 4);
    compare_with_reference<TurkishKingsTurnBack>(10000, 5);
}
