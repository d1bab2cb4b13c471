// Consistency checks over every position of small game trees: the move generator's two modes,
// has_capture, move counting, notation and FEN must all agree with each other.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "dtb/rules/count.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/notation.hpp"
#include "tests/support/rules_support.hpp"

using namespace dtb;

namespace {

using test::pos;

struct Stats {
    long positions = 0, captures = 0, multi_path = 0;
};

template <class R>
void check_position(const Position& p, Stats& st) {
    using G = typename R::Geometry;
    ++st.positions;
    MoveList uniq, paths;
    const int nu = generate_moves<R>(p, uniq, CaptureMode::unique);
    const int np = generate_moves<R>(p, paths, CaptureMode::paths);
    const std::string fen = to_fen<R>(p);
    INFO(R::kName << " " << fen);
    // FEN round trip.
    const auto back = parse_fen<R>(fen);
    REQUIRE(back.ok());
    REQUIRE(*back == p);
    // Position invariants.
    REQUIRE((p.kings & ~p.occupied()) == 0);
    REQUIRE((p.pieces[0] & p.pieces[1]) == 0);
    REQUIRE((p.occupied() & ~G::kPlayable) == 0);
    // Both modes agree on the capture size, and has_capture agrees with them.
    REQUIRE(nu == np);
    REQUIRE(has_capture<R>(p) == (nu > 0));
    if (nu > 0) ++st.captures;
    MoveList caps;
    REQUIRE(MoveGenerator<R>(p, caps, CaptureMode::unique).generate_captures_only() == nu);
    REQUIRE(caps.size() == (nu > 0 ? uniq.size() : 0));
    // Counting (perft's last ply) agrees with the lists it never builds.
    REQUIRE(count_moves<R>(p, CaptureMode::unique) == uniq.size());
    REQUIRE(count_moves<R>(p, CaptureMode::paths) == paths.size());
    // Unique mode: distinct effects; paths mode: distinct paths; same set of effects.
    std::set<std::tuple<int, int, Bitboard>> ue, pe;
    for (const Move& m : uniq) {
        REQUIRE(m.num_captured() == nu);
        REQUIRE(ue.insert({m.from, m.to, m.captured}).second);
        REQUIRE(m.num_landings == (m.is_capture() ? m.num_captured() : 0));
        REQUIRE((p.of(p.side_to_move) & bit(m.from)) != 0);
        REQUIRE((m.captured & ~p.of(~p.side_to_move)) == 0);
        // A man's move counts as a king's only when it was crowned during its capture.
        if ((p.kings & bit(m.from)) != 0 || !R::kPromoteMidCapture)
            REQUIRE(m.by_king == ((p.kings & bit(m.from)) != 0));
        else if (m.by_king) {
            bool crowned = false;
            for (int i = 0; i < m.num_landings; ++i)
                crowned = crowned || (RulesOf<R>::promotion_row(p.side_to_move) & bit(m.landings[i]));
            REQUIRE(crowned);
        }
        if (m.num_landings > 0) REQUIRE(m.landings[m.num_landings - 1] == m.to);
    }
    std::set<std::string> seen_paths;
    for (const Move& m : paths) {
        REQUIRE(m.num_captured() == np);
        pe.insert({m.from, m.to, m.captured});
        REQUIRE(seen_paths.insert(move_full_path<R>(m)).second);
    }
    REQUIRE(ue == pe);
    if (paths.size() != uniq.size()) ++st.multi_path;
    // Notation: the printed form and the full path both parse back to the same move.
    for (const Move& m : uniq) {
        const std::string s = move_to_string<R>(m, uniq);
        auto a = parse_move<R>(p, s);
        INFO("move " << s);
        REQUIRE(a.ok());
        REQUIRE(a->same_effect(m));
        auto b = parse_move<R>(p, move_full_path<R>(m));
        REQUIRE(b.ok());
        REQUIRE(b->same_effect(m));
    }
}

template <class R>
void walk(const Position& p, int depth, Stats& st) {
    check_position<R>(p, st);
    if (depth == 0) return;
    MoveList l;
    generate_moves<R>(p, l, CaptureMode::unique);
    for (const Move& m : l) {
        const Position q = make_move(p, m);
        REQUIRE(q.side_to_move == ~p.side_to_move);
        REQUIRE(popcount(q.of(~p.side_to_move)) == popcount(p.of(~p.side_to_move)) - m.num_captured());
        REQUIRE(popcount(q.of(p.side_to_move)) == popcount(p.of(p.side_to_move)));
        walk<R>(q, depth - 1, st);
    }
}

using test::InternationalShortKings;
using test::TurkishCrowningAtOnce;

}  // namespace

TEST_CASE("tree consistency, international", "[rules][tree]") {
    Stats st;
    walk<International>(pos<International>("W:W31-50:B1-20"), 4, st);
    walk<International>(pos<International>("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"), 3, st);
    walk<International>(pos<International>("W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26"), 6, st);
    walk<International>(pos<International>("W:WK31-50:BK1-20"), 3, st);
    walk<International>(pos<International>("W:W6,7,8,9,10:B41,42,43,44,45"), 3, st);
    walk<International>(pos<International>("W:WK32:B17,18,27,28"), 2, st);
    CHECK(st.positions > 5000);
    CHECK(st.captures > 100);
    CHECK(st.multi_path > 0);
}

TEST_CASE("tree consistency, turkish", "[rules][tree]") {
    Stats st;
    walk<Turkish>(pos<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7"), 4, st);
    walk<Turkish>(pos<Turkish>("W:WKd4:Bd6,e4,f7,g5"), 3, st);
    walk<Turkish>(pos<Turkish>("W:Wa2,b2,Kd4:Bc7,Kh8"), 3, st);
    CHECK(st.positions > 5000);
    CHECK(st.captures > 100);
    CHECK(st.multi_path > 0);
}

TEST_CASE("tree consistency, rule fields no shipped variant sets", "[rules][tree]") {
    Stats st;
    walk<InternationalShortKings>(pos<InternationalShortKings>("W:WK31-50:BK1-20"), 3, st);
    walk<InternationalShortKings>(pos<InternationalShortKings>("W:WK32:B17,18,27,28"), 3, st);
    walk<InternationalShortKings>(pos<InternationalShortKings>("W:W6,7,8,9,10:B41,42,43,44,45"), 4, st);
    walk<TurkishCrowningAtOnce>(pos<TurkishCrowningAtOnce>("W:Wc6:Bc4,c7,e5,Kd8,Kf8"), 4, st);
    walk<TurkishCrowningAtOnce>(pos<TurkishCrowningAtOnce>("W:Wb6,c6,Kd4:Bb7,Kd8,e4,f7,g5"), 4, st);
    CHECK(st.positions > 1000);
    CHECK(st.captures > 100);
}
