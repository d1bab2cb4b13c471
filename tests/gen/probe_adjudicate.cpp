// Adjudication under the counting rules (adjudicate/adjudicator.hpp) against the generator's rule
// tables: the boundary cases of docs/RULES.md and the issue, and two independent checks over the
// counting classes, both with the counters as part of the state and the counter bookkeeping
// written here from docs/RULES.md 1, not taken from the library:
//  - one ply: for sampled positions and EVERY counter value, the library's result equals the
//    best result over the moves, each successor judged by the library with the counters after
//    the move. With the counters in the state the game graph has no cycle (every ply either
//    raises a counter or makes an irreversible change of material or men), so when this holds for
//    every state, every value is the game's value by induction; the test samples that proof.
//  - full search: for positions with at most 3 plies of class budget left, a plain minimax to
//    the end of the class (exits out of every class read the library, with fresh counters).
#include <catch2/catch.hpp>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "tests/support/gen_probe_support.hpp"

using namespace dtb;
using adjudicate::Adjudicator;
using adjudicate::Counters;
using adjudicate::DecidingRule;

namespace {

using R = International;
using G = R::Geometry;

// The fixture's 4-piece set, or up to 3 pieces plus the 4-piece counting classes.
const std::filesystem::path& tables() {
    static const std::filesystem::path dir = [] {
        if (auto d = test::fixture_tables(VariantId::international); !d.empty()) return d;
        static const test::GeneratedTables t(VariantId::international, 3, {"KKKvK", "KKMvK", "KMMvK"});
        return t.dir();
    }();
    return dir;
}

const probe::Tablebase& tablebase() {
    static auto tb = [] {
        probe::Options o;
        o.directories = {tables()};
        o.metrics = probe::kAllMetrics | probe::kRuleMetrics;
        o.cache_mb = 128;
        return probe::Tablebase::open(o);
    }();
    REQUIRE(tb.ok());
    return *tb;
}

// A folder's tables with every metric and the rule tables, as adjudication needs them.
probe::Tablebase open_with_rules(const std::filesystem::path& dir) {
    probe::Options o;
    o.directories = {dir};
    o.metrics = probe::kAllMetrics | probe::kRuleMetrics;
    auto tb = probe::Tablebase::open(o);
    REQUIRE(tb.ok());
    return std::move(tb.value());
}

Counters with_reversible(int plies) {
    Counters k;
    k.reversible = plies;
    return k;
}

Position fen(const std::string& f) {
    auto p = parse_fen<R>(f);
    REQUIRE(p.ok());
    return *p;
}

adjudicate::Adjudication judge(const std::string& f, CountingRules rules, int reversible,
                               std::optional<int> endgame = {}, std::optional<int> small = {}) {
    const Adjudicator a(tablebase(), rules);
    adjudicate::Adjudication out = a.adjudicate(fen(f), Counters{reversible, endgame, small});
    INFO(f << " r=" << reversible << " e=" << endgame.value_or(-1) << " s=" << small.value_or(-1) << ": "
           << tablebase().explain(out.status));
    REQUIRE(out.ok());
    return out;
}

void check(const std::string& f, CountingRules rules, int reversible, std::optional<int> endgame,
           std::optional<int> small, Wdl result, int plies, DecidingRule rule) {
    const auto a = judge(f, rules, reversible, endgame, small);
    INFO(f << " r=" << reversible << " e=" << endgame.value_or(-1) << " s=" << small.value_or(-1));
    CHECK(a.result == result);
    CHECK(a.plies == plies);
    CHECK(a.rule == rule);
}

// ---- docs/RULES.md 1 bookkeeping, written independently of the library ----

CountClass cls(const Position& p, CountingRules rules) {
    return count_class(Material::of(p), rules);
}
bool km_v_k(const Position& p) {
    const Material m = Material::of(p);
    return (m == Material{1, 1, 1, 0}) || (m == Material{1, 0, 1, 1});
}

// A state: the position and the counters that apply to it.
struct State {
    Position p;
    int r = 0;
    std::optional<int> e, s;
};

// The counters after move m from state x.
State after(const State& x, const Move& m, CountingRules rules) {
    State y;
    y.p = make_move(x.p, m);
    y.r = m.is_capture() || !m.by_king ? 0 : x.r + 1;
    const CountClass from = cls(x.p, rules), to = cls(y.p, rules);
    // 16-move count: starts on entering its class, goes on while in it; carried into the
    // 5-move class (fmjd), into 2K v K / K v K and K+M v K (ffjd).
    if (to == CountClass::sixteen)
        y.e = from == CountClass::sixteen ? *x.e + 1 : 0;
    else if (x.e &&
             (to == CountClass::five || to == CountClass::ffjd_small || (rules == CountingRules::ffjd && km_v_k(y.p))))
        y.e = *x.e + 1;
    if (to == CountClass::five) y.s = from == CountClass::five ? *x.s + 1 : 0;
    return y;
}

// The game is drawn in state y, reached by a ply that did not end the game.
bool drawn(const State& y, CountingRules rules) {
    if (y.r >= 50) return true;
    if (y.e && *y.e >= 32) return true;
    if (y.s && *y.s >= 10) return true;
    return rules == CountingRules::ffjd && cls(y.p, rules) == CountClass::ffjd_small && !has_capture<R>(y.p);
}

Counters counters_of(const State& x) {
    return Counters{x.r, x.e, x.s};
}

Wdl better(Wdl a, Wdl b) {
    return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

// The result of state x from its successors, each judged by `successor`.
template <class Judge>
Wdl from_successors(const State& x, CountingRules rules, Judge&& successor) {
    MoveList moves;
    generate_moves<R>(x.p, moves);
    if (moves.empty()) return Wdl::loss;
    if (drawn(x, rules)) return Wdl::draw;  // a limit already reached in the query
    Wdl best = Wdl::loss;
    for (const Move& m : moves) {
        const State y = after(x, m, rules);
        MoveList replies;
        generate_moves<R>(y.p, replies);
        Wdl v;
        if (y.p.of(y.p.side_to_move) == 0 || replies.empty())
            v = Wdl::win;  // the game ends on this ply, before any limit
        else if (drawn(y, rules))
            v = Wdl::draw;
        else
            v = flip(successor(y));
        best = better(best, v);
    }
    return best;
}

// Every counter value that matters for a position of class c: the 25-move budget on both sides
// of the class budget, and every class count.
std::vector<State> states_of(const Position& p, CountingRules rules) {
    std::vector<State> out;
    const CountClass c = cls(p, rules);
    const std::vector<int> reversible{0, 9, 20, 30, 38, 45, 49, 50};
    for (int r : reversible) {
        if (c == CountClass::sixteen) {
            for (int e = 0; e <= 32; ++e) out.push_back(State{p, r, e, std::nullopt});
        } else if (c == CountClass::five) {
            for (int s = 0; s <= 10; ++s) {
                out.push_back(State{p, r, std::nullopt, s});
                for (int e : {22, 25, 28, 31, 32}) out.push_back(State{p, r, e, s});
            }
        } else if (c == CountClass::ffjd_small || (rules == CountingRules::ffjd && km_v_k(p))) {
            out.push_back(State{p, r, std::nullopt, std::nullopt});
            for (int e = 20; e <= 32; ++e) out.push_back(State{p, r, e, std::nullopt});
        } else {
            out.push_back(State{p, r, std::nullopt, std::nullopt});
        }
    }
    return out;
}

std::vector<Position> sample(const Material& m, Color side, std::size_t count, unsigned seed) {
    const SliceIndex<R> index(side == Color::white ? m : m.mirrored());
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    const std::size_t n = std::min<std::size_t>(count, index.size());
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint64_t i = n == index.size() ? k : rng() % index.size();
        Position p = index.unrank(i);
        if (side == Color::black) p = reversed<G>(p);
        out.push_back(p);
    }
    return out;
}

const std::vector<Material> kClassMaterials{{3, 0, 1, 0}, {2, 1, 1, 0}, {1, 2, 1, 0}, {2, 0, 1, 0}, {1, 1, 1, 0}};

// Plain minimax with the counters in the state, to the end of the class budget (at most
// `depth` plies): exits into material outside every class read the library (fresh counters).
Wdl search(const State& x, CountingRules rules, const Adjudicator& library, int depth) {
    const CountClass c = cls(x.p, rules);
    const bool carried = rules == CountingRules::ffjd && km_v_k(x.p) && x.e;
    if (c == CountClass::none && !carried) {
        const probe::Result r = library.probe_wdl(x.p, counters_of(x));
        REQUIRE(r.ok());
        return r.wdl;
    }
    REQUIRE(depth >= 0);
    return from_successors(x, rules, [&](const State& y) { return search(y, rules, library, depth - 1); });
}

}  // namespace

TEST_CASE("adjudication: the boundary cases of the counting rules", "[adjudicate][plain-build]") {
    const auto fmjd = CountingRules::fmjd;
    // K+M v K, 5-move class: 9 plies to win, 10 - small plies allowed.
    check("W:WK2,6:BK50", fmjd, 0, {}, 0, Wdl::win, 9, DecidingRule::none);
    check("W:WK2,6:BK50", fmjd, 0, {}, 1, Wdl::win, 9, DecidingRule::none);
    check("W:WK2,6:BK50", fmjd, 0, {}, 2, Wdl::draw, -1, DecidingRule::five);
    // ... with a 16-move limit carried in, which binds first.
    check("W:WK2,6:BK50", fmjd, 0, 23, 0, Wdl::win, 9, DecidingRule::none);
    check("W:WK2,6:BK50", fmjd, 0, 24, 0, Wdl::draw, -1, DecidingRule::sixteen);
    // 2K+M v K, 16-move class: 31 plies.
    check("W:WK40,K45,50:BK11", fmjd, 0, 0, {}, Wdl::win, 31, DecidingRule::none);
    check("W:WK40,K45,50:BK11", fmjd, 0, 1, {}, Wdl::win, 31, DecidingRule::none);
    check("W:WK40,K45,50:BK11", fmjd, 0, 2, {}, Wdl::draw, -1, DecidingRule::sixteen);
    // 3K v K: 15 plies, also with reversible 38: a sacrifice makes the lone king capture.
    check("W:WK6,K22,K27:BK49", fmjd, 0, 17, {}, Wdl::win, 15, DecidingRule::none);
    check("W:WK6,K22,K27:BK49", fmjd, 0, 18, {}, Wdl::draw, -1, DecidingRule::sixteen);
    check("W:WK6,K22,K27:BK49", fmjd, 38, 0, {}, Wdl::win, 15, DecidingRule::none);
    // Black to move, lost in exactly 32 plies with endgame 0, drawn with 1.
    check("B:WK40,K45,50:BK7", fmjd, 0, 0, {}, Wdl::loss, 32, DecidingRule::none);
    check("B:WK40,K45,50:BK7", fmjd, 0, 1, {}, Wdl::draw, -1, DecidingRule::sixteen);
    // A counter at its limit draws, unless the side to move cannot move.
    check("W:WK40,K45,50:BK11", fmjd, 0, 32, {}, Wdl::draw, -1, DecidingRule::sixteen);
    check("W:WK2,6:BK50", fmjd, 50, {}, 0, Wdl::draw, -1, DecidingRule::twenty_five);
    // `none` is the game-theoretic value.
    check("B:WK40,K45,50:BK7", CountingRules::none, 49, 31, {}, Wdl::loss, 32, DecidingRule::none);
    check("W:WK2,6:BK50", CountingRules::none, 0, {}, 9, Wdl::win, 9, DecidingRule::none);
}

TEST_CASE("adjudication: a kings-only 4-piece win with reversible near 50", "[adjudicate][plain-build]") {
    // 2K v 2K, won in 7; its first capture comes after 3 plies, the longest of any 2K v 2K win:
    // won with reversible up to 47, drawn by the 25-move rule from 48.
    const std::string f = "W:WK6,K7:BK1,K50";
    for (int r = 0; r <= 47; ++r) {
        const auto a = judge(f, CountingRules::fmjd, r);
        CHECK(a.result == Wdl::win);
        CHECK(a.plies == 7);
    }
    for (int r = 48; r <= 50; ++r) {
        const auto a = judge(f, CountingRules::fmjd, r);
        CHECK(a.result == Wdl::draw);
        CHECK(a.rule == DecidingRule::twenty_five);
        CHECK(a.theoretical == Wdl::win);
    }
    // Under ffjd every win of it goes through 2K v K (a capture of a black king), drawn at once.
    const auto ffjd = judge(f, CountingRules::ffjd, 0);
    CHECK(ffjd.result == Wdl::draw);
    CHECK(ffjd.rule == DecidingRule::two_kings);
}

namespace {

std::size_t legal_moves(const std::string& f) {
    MoveList moves;
    generate_moves<R>(fen(f), moves);
    return moves.size();
}

std::vector<std::string> move_texts(const adjudicate::Adjudication& a) {
    std::vector<std::string> out;
    for (const adjudicate::RuleMove& m : a.moves)
        out.push_back(m.text + ":" + std::to_string(static_cast<int>(m.result)));
    return out;
}

}  // namespace

TEST_CASE("adjudication: a game already drawn by a limit keeps every move, and ffjd 2K v K draws are labelled 2k-v-k",
          "[adjudicate][plain-build]") {
    // ffjd: 2K v K with White to move and no capture is drawn at once, though White wins in 3
    // (14-46 forces the lone king to capture into the long diagonal). The rule is 2K v K's, with
    // or without a 16-move count carried in, and every legal move keeps the draw.
    for (const std::optional<int> endgame : {std::optional<int>{}, std::optional<int>{3}}) {
        const auto a = judge("W:WK10,K14:BK5", CountingRules::ffjd, 0, endgame);
        CHECK(a.result == Wdl::draw);
        CHECK(a.theoretical == Wdl::win);
        CHECK(a.rule == DecidingRule::two_kings);
        CHECK(a.moves.size() == legal_moves("W:WK10,K14:BK5"));
        for (const adjudicate::RuleMove& m : a.moves) CHECK(m.result == Wdl::draw);
    }
    // A 25-move count at its limit has drawn the game before the 16-move one (one ply left).
    const auto at_limit = judge("B:WK40,K45,50:BK7", CountingRules::fmjd, 50, 31);
    CHECK(at_limit.result == Wdl::draw);
    CHECK(at_limit.rule == DecidingRule::twenty_five);
    CHECK(at_limit.moves.size() == legal_moves("B:WK40,K45,50:BK7"));
    // A class count at its limit: every move is listed too.
    CHECK(judge("W:WK40,K45,50:BK11", CountingRules::fmjd, 0, 32).moves.size() == legal_moves("W:WK40,K45,50:BK11"));

    // Every sampled ffjd 2K v K and K v K position that is drawn though won in theory: drawn at
    // once when the side to move has a move and no capture, else on the line; never labelled by
    // a 25-move or 16-move limit that fresh counters cannot reach first.
    const Adjudicator ffjd(tablebase(), CountingRules::ffjd);
    int drawn_wins = 0;
    for (const Material m : {Material{1, 0, 1, 0}, Material{2, 0, 1, 0}}) {
        for (Color side : {Color::white, Color::black}) {
            for (const Position& p : sample(m, side, 3000, 11)) {
                const adjudicate::Adjudication a = ffjd.adjudicate(p, {});
                REQUIRE(a.ok());
                if (a.result != Wdl::draw || a.theoretical == Wdl::draw) continue;
                ++drawn_wins;
                INFO(to_fen<R>(p));
                CHECK(a.rule == DecidingRule::two_kings);
                MoveList moves;
                generate_moves<R>(p, moves);
                if (!has_capture<R>(p)) CHECK(a.moves.size() == moves.size());
            }
        }
    }
    CHECK(drawn_wins > 10);
}

TEST_CASE("adjudication: counters up to INT_MAX are answered like any count past the limit",
          "[adjudicate][plain-build]") {
    constexpr int kMax = std::numeric_limits<int>::max();
    for (const char* f : {"B:WK40,K45,50:BK7", "W:WK40,K45,50:BK11", "W:WK2,6:BK50", "W:WK6,K7:BK1,K50"}) {
        INFO(f);
        for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
            const auto past = judge(f, rules, 1000, 1000, 1000);
            for (const int count : {kMax - 1, kMax}) {
                const auto a = judge(f, rules, count, count, count);
                CHECK(a.result == past.result);
                CHECK(a.rule == past.rule);
                CHECK(move_texts(a) == move_texts(past));
                CHECK(a.moves.size() == legal_moves(f));
                for (const adjudicate::RuleMove& m : a.moves) {
                    CHECK(m.after.reversible >= 0);
                    CHECK(m.after.endgame.value_or(0) >= 0);
                    CHECK(m.after.small.value_or(0) >= 0);
                }
            }
        }
    }
}

TEST_CASE("adjudication: fmjd and ffjd differ on 2K v K, K v K and K+M v K; none is the theory",
          "[adjudicate][plain-build]") {
    const Adjudicator fmjd(tablebase(), CountingRules::fmjd), ffjd(tablebase(), CountingRules::ffjd),
        none(tablebase(), CountingRules::none);
    std::map<std::string, int> ffjd_draws;
    for (const Material m : {Material{1, 0, 1, 0}, Material{2, 0, 1, 0}, Material{1, 1, 1, 0}}) {
        for (Color side : {Color::white, Color::black}) {
            for (const Position& p : sample(m, side, 200000, 1)) {
                const probe::Result theory = tablebase().probe_dtw(p);
                REQUIRE(theory.ok());
                // fmjd: every win of these classes is within 10 plies, so fresh counters keep it.
                CHECK(fmjd.probe_wdl(p, {}).wdl == theory.wdl);
                // none: whatever the counters, the theory; its plies are the DTW, found here as
                // the best over the moves (one more than each successor's), not read back.
                const auto untimed = none.adjudicate(p, {49, 31, 9});
                REQUIRE(untimed.ok());
                CHECK(untimed.result == theory.wdl);
                CHECK(untimed.rule == DecidingRule::none);
                if (theory.wdl != Wdl::draw) CHECK(untimed.plies == theory.dtw);
                const Wdl f = ffjd.probe_wdl(p, {}).wdl;
                MoveList moves;
                generate_moves<R>(p, moves);
                if (m != Material{1, 1, 1, 0} && !moves.empty() && !has_capture<R>(p)) CHECK(f == Wdl::draw);
                if (f != theory.wdl) ++ffjd_draws[m.name()];
            }
        }
    }
    // ffjd draws where fmjd wins: 2K v K and K v K at once, K+M v K through its promotion.
    CHECK(ffjd_draws["KKvK"] > 1000);
    CHECK(ffjd_draws["KvK"] > 10);
    CHECK(ffjd_draws["KMvK"] > 100);
    // Outside the counting classes and far from them, fmjd and ffjd agree: M v M has no king.
    for (Color side : {Color::white, Color::black})
        for (const Position& p : sample(Material{0, 1, 0, 1}, side, 5000, 2))
            CHECK(fmjd.probe_wdl(p, {}).wdl == ffjd.probe_wdl(p, {}).wdl);
}

TEST_CASE("adjudication: every counter value of the counting classes follows from its successors",
          "[adjudicate][plain-build]") {
    std::uint64_t states = 0;
    for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
        const Adjudicator library(tablebase(), rules);
        const auto value = [&](const State& x) {
            const probe::Result r = library.probe_wdl(x.p, counters_of(x));
            REQUIRE(r.ok());
            return r.wdl;
        };
        for (const Material& m : kClassMaterials) {
            for (Color side : {Color::white, Color::black}) {
                const std::size_t count = m.pieces() == 4 ? 500 : 1500;
                for (const Position& p : sample(m, side, count, 7 + static_cast<unsigned>(m.pieces()))) {
                    for (const State& x : states_of(p, rules)) {
                        INFO(to_string(rules) << " " << to_fen<R>(p) << " r=" << x.r << " e=" << x.e.value_or(-1)
                                              << " s=" << x.s.value_or(-1));
                        REQUIRE(value(x) == from_successors(x, rules, value));
                        ++states;
                    }
                }
            }
        }
    }
    CHECK(states > 1000000);
}

TEST_CASE("adjudication: a plain search to the end of the class budget agrees", "[adjudicate][plain-build]") {
    for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
        const Adjudicator library(tablebase(), rules);
        for (const Material& m : kClassMaterials) {
            for (Color side : {Color::white, Color::black}) {
                for (const Position& p : sample(m, side, 150, 11)) {
                    for (int left = 0; left <= 3; ++left) {
                        State x{p, 0, std::nullopt, std::nullopt};
                        const CountClass c = cls(p, rules);
                        if (c == CountClass::sixteen)
                            x.e = 32 - left;
                        else if (c == CountClass::five)
                            x.s = 10 - left;
                        else
                            x.e = 32 - left;  // ffjd: 2K v K, K v K, K+M v K with a carried limit
                        for (int r : {0, 48}) {
                            x.r = r;
                            INFO(to_string(rules) << " " << to_fen<R>(p) << " r=" << x.r << " e=" << x.e.value_or(-1)
                                                  << " s=" << x.s.value_or(-1));
                            const probe::Result got = library.probe_wdl(p, counters_of(x));
                            REQUIRE(got.ok());
                            CHECK(got.wdl == search(x, rules, library, left + 1));
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("adjudication: the counters after a move follow docs/RULES.md", "[adjudicate][plain-build]") {
    const Adjudicator fmjd(tablebase(), CountingRules::fmjd), ffjd(tablebase(), CountingRules::ffjd);
    for (const Material& m : kClassMaterials)
        for (Color side : {Color::white, Color::black})
            for (const Position& p : sample(m, side, 100, 3))
                for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
                    const Adjudicator& lib = rules == CountingRules::fmjd ? fmjd : ffjd;
                    for (const State& x : states_of(p, rules)) {
                        MoveList moves;
                        generate_moves<R>(p, moves);
                        for (const Move& mv : moves) {
                            const State y = after(x, mv, rules);
                            const Counters got = lib.after_move(p, counters_of(x), mv);
                            INFO(to_string(rules) << " " << to_fen<R>(p) << " r=" << x.r);
                            // `after` keeps exactly the counters that apply after the move, as
                            // docs/RULES.md 1 says: compared whole, not through the library's applicable().
                            CHECK(got == counters_of(y));
                        }
                    }
                }
}

// The counting classes, written out from docs/RULES.md's text (the one-ply checks above take the
// class from the library, so a wrong class would pass them): a lone king against exactly three
// pieces with a king is the 16-move class; against 2K, K+M or K the fmjd 5-move class; under ffjd
// against 2K or K the immediate draw; K+M v K under ffjd in no class; nothing under none.
TEST_CASE("adjudication: the counting classes of docs/RULES.md, material by material", "[adjudicate][plain-build]") {
    using C = CountClass;
    struct Row {
        const char* material;
        C fmjd, ffjd;
    };
    const Row rows[] = {
        {"KKKvK", C::sixteen, C::sixteen}, {"KKMvK", C::sixteen, C::sixteen}, {"KMMvK", C::sixteen, C::sixteen},
        {"MMMvK", C::none, C::none},       {"KKvK", C::five, C::ffjd_small},  {"KMvK", C::five, C::none},
        {"MMvK", C::none, C::none},        {"KvK", C::five, C::ffjd_small},   {"MvK", C::none, C::none},
        {"KKKKvK", C::none, C::none},      {"KKKvM", C::none, C::none},       {"KKKvKM", C::none, C::none},
        {"KKvKK", C::none, C::none},       {"KvMM", C::none, C::none},        {"KKMMvK", C::none, C::none},
        {"KMvM", C::none, C::none},
    };
    for (const Row& row : rows) {
        const auto m = Material::parse(row.material);
        REQUIRE(m);
        for (const Material x : {*m, m->mirrored()}) {
            INFO(x.name());
            CHECK(count_class(x, CountingRules::fmjd) == row.fmjd);
            CHECK(count_class(x, CountingRules::ffjd) == row.ffjd);
            CHECK(count_class(x, CountingRules::none) == C::none);
            CHECK(is_ffjd_carried(x) == (std::string(row.material) == "KMvK"));
        }
    }
}

TEST_CASE("adjudication: refuses what it cannot judge", "[adjudicate][plain-build]") {
    const Adjudicator judge(tablebase(), CountingRules::fmjd);
    // More pieces than the tables hold.
    const auto a = judge.adjudicate(fen("W:W31-50:B1-20"), {});
    CHECK(a.status.status == probe::Status::missing);
    // A handle without the rule tables.
    probe::Options o;
    o.directories = {tables()};
    auto plain = probe::Tablebase::open(o);
    REQUIRE(plain.ok());
    const Adjudicator without(*plain, CountingRules::fmjd);
    const auto b = without.adjudicate(fen("W:WK2,6:BK50"), {});
    CHECK(b.status.status == probe::Status::missing);
    CHECK_THAT(plain->explain(b.status), Catch::Contains("fmjd"));
    // Another variant's tables: the counting rules are international draughts' (docs/RULES.md 2).
    probe::Options t;
    t.directories = {test::turkish_tables()};
    t.variant = VariantId::turkish;
    t.metrics = probe::kAllMetrics;
    auto turkish = probe::Tablebase::open(t);
    REQUIRE(turkish.ok());
    const auto tp = turkish->parse_fen("W:WKa8:BKh1");
    REQUIRE(tp.ok());
    REQUIRE(turkish->probe_wdl(*tp).ok());
    for (CountingRules rules : {CountingRules::none, CountingRules::fmjd, CountingRules::ffjd}) {
        const Adjudicator other(*turkish, rules);
        const auto c = other.adjudicate(*tp, {});
        CHECK(c.status.status == probe::Status::illegal);
        CHECK(c.moves.empty());
        CHECK(other.probe_wdl(*tp, {}).status == probe::Status::illegal);
    }
}

// Beyond the tables' reach (more pieces than their largest slice) a limit already reached has
// drawn the game and a side without a move has lost, as docs/RULES.md 1 says, without a table; every
// other position there is refused as before.
TEST_CASE("adjudication: beyond the tables, the rules alone decide a limit reached or a side without a move",
          "[adjudicate][plain-build]") {
    const probe::Tablebase& tb = tablebase();
    const std::string kings = "W:WK1,K2,K3,K4:BK46,K47,K48", blocked = "W:W6,16:B1,7,11,17";
    REQUIRE(Material::of(fen(kings)).pieces() > tb.max_pieces());
    REQUIRE(Material::of(fen(blocked)).pieces() > tb.max_pieces());
    REQUIRE_FALSE(has_capture<R>(fen(kings)));
    REQUIRE(legal_moves(blocked) == 0);
    for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
        const Adjudicator judge(tb, rules);
        CHECK(judge.adjudicate(fen(kings), with_reversible(49)).status.status == probe::Status::missing);
        CHECK(judge.probe_wdl(fen(kings), with_reversible(49)).status == probe::Status::missing);
        for (const int reversible : {50, 51, std::numeric_limits<int>::max()}) {
            INFO(reversible);
            const auto a = judge.adjudicate(fen(kings), with_reversible(reversible));
            REQUIRE(a.ok());
            CHECK(a.result == Wdl::draw);
            CHECK(a.plies == -1);
            CHECK(a.rule == DecidingRule::twenty_five);
            CHECK_FALSE(a.theoretical_known);
            CHECK(a.theoretical_dtw == -1);
            CHECK(a.counters.reversible == reversible);
            REQUIRE(a.moves.size() == legal_moves(kings));
            for (const adjudicate::RuleMove& m : a.moves) {
                CHECK(m.result == Wdl::draw);
                CHECK(m.plies == -1);
                CHECK(m.after.reversible ==
                      (reversible == std::numeric_limits<int>::max() ? reversible : reversible + 1));
            }
            const probe::Result w = judge.probe_wdl(fen(kings), with_reversible(reversible));
            REQUIRE(w.ok());
            CHECK(w.wdl == Wdl::draw);
        }
    }
    for (CountingRules rules : {CountingRules::none, CountingRules::fmjd, CountingRules::ffjd}) {
        const Adjudicator judge(tb, rules);
        for (const int reversible : {0, 50}) {
            const auto a = judge.adjudicate(fen(blocked), with_reversible(reversible));
            REQUIRE(a.ok());
            CHECK(a.result == Wdl::loss);
            CHECK(a.plies == 0);
            CHECK(a.theoretical_known);
            CHECK(a.theoretical == Wdl::loss);
            CHECK(a.theoretical_dtw == 0);
            CHECK(a.rule == DecidingRule::none);
            CHECK(a.moves.empty());
            const probe::Result w = judge.probe_wdl(fen(blocked), with_reversible(reversible));
            REQUIRE(w.ok());
            CHECK(w.wdl == Wdl::loss);
        }
    }
    // Without rules no limit exists: the tables would be needed.
    const Adjudicator none(tb, CountingRules::none);
    CHECK(none.adjudicate(fen(kings), with_reversible(50)).status.status == probe::Status::missing);
    CHECK(none.probe_wdl(fen(kings), with_reversible(50)).status == probe::Status::missing);
}

// The same with folders of 2 and 3 pieces, where the counting classes lie beyond the reach: their
// limits (16-move, 5-move, ffjd's carried 16-move count and immediate 2K v K draw) decide without
// a table; a capture from beyond the reach is compulsory and so the only move kept; and a table
// missing within the reach, reached through such a capture, is reported, not answered around.
TEST_CASE("adjudication: beyond a small folder, the class limits decide, and a gap inside it is reported",
          "[adjudicate][plain-build]") {
    const auto status = [](const Adjudicator& judge, const std::string& f, const Counters& k) {
        return judge.adjudicate(fen(f), k).status.status;
    };
    const test::GeneratedTables two(VariantId::international, 2), three(VariantId::international, 3);
    const probe::Tablebase tb2 = open_with_rules(two.dir()), tb3 = open_with_rules(three.dir());
    REQUIRE(tb2.max_pieces() == 2);
    REQUIRE(tb3.max_pieces() == 3);
    const Adjudicator fmjd2(tb2, CountingRules::fmjd), ffjd2(tb2, CountingRules::ffjd), fmjd3(tb3, CountingRules::fmjd);
    const auto drawn_by = [](const Adjudicator& judge, const std::string& f, const Counters& k) {
        INFO(f);
        const adjudicate::Adjudication a = judge.adjudicate(fen(f), k);
        REQUIRE(a.ok());
        CHECK(a.result == Wdl::draw);
        CHECK_FALSE(a.theoretical_known);
        CHECK(a.moves.size() == legal_moves(f));
        const probe::Result w = judge.probe_wdl(fen(f), k, probe::Access::cache_only);
        REQUIRE(w.ok());
        CHECK(w.wdl == Wdl::draw);
        return a.rule;
    };
    // 3K v K (16-move class) beyond 3 pieces: drawn at the 16-move limit, not one ply before.
    CHECK(drawn_by(fmjd3, "W:WK1,K2,K3:BK50", Counters{0, 32, std::nullopt}) == DecidingRule::sixteen);
    CHECK(status(fmjd3, "W:WK1,K2,K3:BK50", Counters{0, 31, std::nullopt}) == probe::Status::missing);
    // 2K v K (5-move class) beyond 2 pieces: the 5-move limit, or a 16-move one carried in.
    CHECK(drawn_by(fmjd2, "W:WK1,K2:BK50", Counters{0, std::nullopt, 10}) == DecidingRule::five);
    CHECK(drawn_by(fmjd2, "W:WK1,K2:BK50", Counters{0, 32, 4}) == DecidingRule::sixteen);
    CHECK(status(fmjd2, "W:WK1,K2:BK50", Counters{0, 31, 9}) == probe::Status::missing);
    // ffjd: 2K v K is drawn at once (no capture for the side to move); K+M v K keeps a carried
    // 16-move count only.
    CHECK(drawn_by(ffjd2, "W:WK1,K2:BK50", Counters{}) == DecidingRule::two_kings);
    CHECK(drawn_by(ffjd2, "W:WK2,6:BK50", Counters{0, 32, std::nullopt}) == DecidingRule::sixteen);
    CHECK(status(ffjd2, "W:WK2,6:BK50", Counters{0, 31, std::nullopt}) == probe::Status::missing);
    CHECK(status(ffjd2, "W:WK2,6:BK50", Counters{}) == probe::Status::missing);

    // 3K v 2K beyond 3 pieces with a capture into 3K v K, beyond too: at the 25-move limit the
    // captures are the moves, each restarting the count.
    const std::string capture = "W:WK1,K2,K10:BK14,K50";
    REQUIRE(has_capture<R>(fen(capture)));
    CHECK(drawn_by(fmjd3, capture, with_reversible(50)) == DecidingRule::twenty_five);
    for (const adjudicate::RuleMove& m : fmjd3.adjudicate(fen(capture), with_reversible(50)).moves) {
        CHECK(m.move.is_capture());
        CHECK(m.after.reversible == 0);
    }
    CHECK(status(fmjd3, capture, with_reversible(49)) == probe::Status::missing);

    // 2K v 2K beyond 3 pieces whose captures lead into 2K v K: answered from the tables; with
    // 2K v K gone from the folder it is the folder's fault, whatever the counters.
    const std::string into_tables = "W:WK1,K10:BK14,K50";
    REQUIRE(has_capture<R>(fen(into_tables)));
    {
        const adjudicate::Adjudication a = fmjd3.adjudicate(fen(into_tables), with_reversible(50));
        REQUIRE(a.ok());
        CHECK(a.theoretical_known);
        CHECK(a.result == Wdl::draw);
    }
    const test::GeneratedTables gap(VariantId::international, 3);
    for (const char* name : {"KKvK", "KvKK"})
        for (const char* ext : {".wdl", ".dtw", ".dtc", ".fmjd", ".ffjd"})
            std::filesystem::remove(gap.dir() / (std::string(name) + ext));
    const probe::Tablebase tb_gap = open_with_rules(gap.dir());
    REQUIRE(tb_gap.max_pieces() == 3);
    for (CountingRules rules : {CountingRules::none, CountingRules::fmjd, CountingRules::ffjd}) {
        const Adjudicator judge(tb_gap, rules);
        for (const int reversible : {0, 50}) {
            const adjudicate::Adjudication a = judge.adjudicate(fen(into_tables), with_reversible(reversible));
            CHECK(a.status.status == probe::Status::missing);
            CHECK(a.status.slice.pieces() == 3);
            CHECK(judge.probe_wdl(fen(into_tables), with_reversible(reversible)).status == probe::Status::missing);
        }
    }
}

// DTW only shortens the search for plies under the counting rules (and gives theoretical_dtw):
// a handle without it answers the same results, plies and moves; without rules the plies are
// the DTW, so they are not known without it.
TEST_CASE("adjudication: a handle without DTW answers the same", "[adjudicate][plain-build]") {
    probe::Options o;
    o.directories = {tables()};
    o.metrics = probe::kWdl | probe::kRuleMetrics;
    auto lean = probe::Tablebase::open(o);
    REQUIRE(lean.ok());
    int decided = 0, unknown = 0;
    for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd, CountingRules::none}) {
        const Adjudicator full(tablebase(), rules), without(*lean, rules);
        for (const Material m : {Material{1, 0, 1, 0}, Material{2, 0, 1, 0}, Material{1, 1, 1, 0}}) {
            for (const Position& p : sample(m, Color::white, 300, 7)) {
                for (const Counters& k : {Counters{}, Counters{40, 20, 6}}) {
                    const auto a = full.adjudicate(p, k), b = without.adjudicate(p, k);
                    INFO(to_fen<R>(p) << " " << tablebase().explain(a.status) << " / " << lean->explain(b.status));
                    REQUIRE(a.ok());
                    REQUIRE(b.ok());
                    CHECK(b.theoretical_dtw == -1);
                    CHECK(a.theoretical_dtw >= 0);
                    CHECK(b.theoretical == a.theoretical);
                    CHECK(b.result == a.result);
                    CHECK(b.rule == a.rule);
                    REQUIRE(b.moves.size() == a.moves.size());
                    if (rules == CountingRules::none && a.result != Wdl::draw && !b.plies_known) {
                        // Without rules the plies are the DTW: unknown without it (but for a
                        // win by taking the last piece, one ply).
                        CHECK(b.plies == -1);
                        ++unknown;
                        continue;
                    }
                    CHECK(b.plies_known == a.plies_known);
                    CHECK(b.plies == a.plies);
                    for (std::size_t i = 0; i < a.moves.size(); ++i) {
                        CHECK(b.moves[i].text == a.moves[i].text);
                        CHECK(b.moves[i].plies == a.moves[i].plies);
                    }
                    decided += a.result != Wdl::draw;
                }
            }
        }
    }
    CHECK(decided > 100);
    CHECK(unknown > 10);
}

TEST_CASE("adjudication: every reversible count outside the classes follows from its successors",
          "[adjudicate][plain-build]") {
    std::uint64_t states = 0;
    const std::vector<Material> materials{{2, 0, 2, 0}, {1, 1, 1, 1}, {2, 0, 1, 1}, {2, 1, 0, 1},
                                          {1, 0, 0, 2}, {1, 1, 0, 1}, {0, 2, 1, 0}, {1, 0, 1, 1}};
    for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
        const Adjudicator library(tablebase(), rules);
        const auto value = [&](const State& x) {
            const probe::Result r = library.probe_wdl(x.p, counters_of(x));
            REQUIRE(r.ok());
            return r.wdl;
        };
        for (const Material& m : materials) {
            if (!test::fixture_tables(VariantId::international).empty() || m.pieces() <= 3) {
                for (Color side : {Color::white, Color::black}) {
                    for (const Position& p : sample(m, side, 1500, 5)) {
                        for (int r = 0; r <= 50; ++r) {
                            const State x{p, r, std::nullopt, std::nullopt};
                            INFO(to_string(rules) << " " << to_fen<R>(p) << " r=" << r);
                            REQUIRE(value(x) == from_successors(x, rules, value));
                            ++states;
                        }
                    }
                }
            }
        }
    }
    CHECK(states > 50000);
}

// Small enough for the sanitizer builds (CI runs it under ASan+UBSan; the tests above need the
// 4-piece set): its own 3-piece tables, the K+M v K limits, and the one-ply check over the
// 3-piece classes.
TEST_CASE("3-piece adjudication with its own tables", "[adjudicate][small]") {
    const test::GeneratedTables t(VariantId::international, 3);
    const probe::Tablebase tb = open_with_rules(t.dir());
    const Adjudicator fmjd(tb, CountingRules::fmjd), ffjd(tb, CountingRules::ffjd);
    const auto km = fmjd.adjudicate(fen("W:WK2,6:BK50"), Counters{0, std::nullopt, 1});
    REQUIRE(km.ok());
    CHECK(km.result == Wdl::win);
    CHECK(km.plies == 9);
    CHECK(fmjd.adjudicate(fen("W:WK2,6:BK50"), Counters{0, std::nullopt, 2}).result == Wdl::draw);
    CHECK(ffjd.adjudicate(fen("W:WK2,6:BK50"), Counters{}).rule == DecidingRule::two_kings);
    std::uint64_t states = 0;
    for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
        const Adjudicator& library = rules == CountingRules::fmjd ? fmjd : ffjd;
        const auto value = [&](const State& x) {
            const probe::Result r = library.probe_wdl(x.p, counters_of(x));
            REQUIRE(r.ok());
            return r.wdl;
        };
        for (const Material m : {Material{2, 0, 1, 0}, Material{1, 1, 1, 0}})
            for (Color side : {Color::white, Color::black})
                for (const Position& p : sample(m, side, 40, 13))
                    for (const State& x : states_of(p, rules)) {
                        REQUIRE(value(x) == from_successors(x, rules, value));
                        ++states;
                    }
    }
    CHECK(states > 10000);
}
