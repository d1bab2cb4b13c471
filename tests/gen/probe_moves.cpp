// Known values, move lists, best moves and principal variations on generated tables.
#include <catch2/catch.hpp>
#include <random>

#include "dtb/index/slice_index.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "tests/support/gen_probe_support.hpp"

using namespace dtb;
using probe::MoveValue;
using probe::Result;

namespace {

struct Known {
    const char* fen;
    Wdl wdl;
    int dtw;
};

// Longest wins of their slices (see tests/gen/values.cpp), and their colour-reversed forms.
constexpr Known kKnown[] = {
    {"W:WK2,6:BK50", Wdl::win, 9},        {"W:W33:B2", Wdl::win, 17},
    {"W:WK6,K22,K27:BK49", Wdl::win, 15}, {"B:WK1:B45,K49", Wdl::win, 9},  // W:WK2,6:BK50 turned round
    {"B:W49:B18", Wdl::win, 17},                                           // W:W33:B2 turned round
};

// Checks what moves() says about p against probes of the positions the moves lead to, and the
// position's own value against its moves (docs/RULES.md 3). Returns p's value.
Result check_moves(const probe::Tablebase& tb, const Position& p) {
    std::vector<MoveValue> moves;
    const Result own = tb.moves(p, moves);
    REQUIRE(own.ok());
    MoveList legal;
    generate_moves<International>(p, legal);
    REQUIRE(moves.size() == legal.size());
    for (std::size_t k = 0; k < moves.size(); ++k) {
        const MoveValue& m = moves[k];
        if (k > 0) CHECK_FALSE(probe::better_move(m, moves[k - 1]));
        const Result after = tb.probe(make_move(p, m.move), probe::kAllMetrics);
        REQUIRE(after.ok());
        CHECK(m.wdl == flip(after.wdl));
        if (m.wdl == Wdl::draw) {
            CHECK(m.dtw == 0);
            CHECK(m.dtc == 0);
        } else {
            CHECK(m.dtw == after.dtw + 1);
            const bool conversion = m.move.is_capture() || !m.move.by_king;
            CHECK(m.dtc == (conversion ? 1 : after.dtc + 1));
        }
    }
    if (moves.empty()) {
        CHECK(own.wdl == Wdl::loss);
        CHECK(own.dtw == 0);
        CHECK(own.dtc == 0);
        return own;
    }
    // The best move carries the position's WDL and DTW; DTC is the best over moves that keep
    // the value (smallest for a win, largest for a loss).
    CHECK(moves.front().wdl == own.wdl);
    CHECK(moves.front().dtw == own.dtw);
    if (own.wdl == Wdl::win) {
        int dtc = 1 << 30;
        for (const MoveValue& m : moves)
            if (m.wdl == Wdl::win) dtc = std::min(dtc, m.dtc);
        CHECK(own.dtc == dtc);
    } else if (own.wdl == Wdl::loss) {
        int dtc = 0;
        for (const MoveValue& m : moves) dtc = std::max(dtc, m.dtc);
        CHECK(own.dtc == dtc);
    }
    return own;
}

}  // namespace

TEST_CASE("known values, move lists and principal variations (international)", "[probe]") {
    const probe::Tablebase tb = test::open_tables(test::international_tables(), VariantId::international);
    for (const Known& k : kKnown) {
        INFO(k.fen);
        const Position p = *parse_fen<International>(k.fen);
        const Result r = tb.probe(p, probe::kAllMetrics);
        REQUIRE(r.ok());
        CHECK(r.wdl == k.wdl);
        CHECK(r.dtw == k.dtw);
        check_moves(tb, p);
        const probe::Analysis a = tb.analyse(p);
        REQUIRE(a.result.ok());
        CHECK(a.result.dtw == k.dtw);
        // The PV is DTW plies long, each move the best of its position, and ends the game.
        REQUIRE(static_cast<int>(a.pv.size()) == k.dtw);
        Position cur = p;
        for (std::size_t ply = 0; ply < a.pv.size(); ++ply) {
            std::optional<MoveValue> best;
            REQUIRE(tb.best_move(cur, best).ok());
            REQUIRE(best.has_value());
            CHECK(best->text == a.pv[ply].text);
            CHECK(best->dtw == k.dtw - static_cast<int>(ply));
            cur = make_move(cur, a.pv[ply].move);
        }
        MoveList after;
        generate_moves<International>(cur, after);
        CHECK(after.empty());
    }
    // With the 4-piece set (the ctest fixture): docs/RULES.md's example, Black lost in exactly 32.
    if (std::filesystem::exists(test::international_tables() / "KKMvK.wdl")) {
        const Result r = tb.probe_dtw(*parse_fen<International>("B:WK40,K45,50:BK7"));
        REQUIRE(r.ok());
        CHECK(r.wdl == Wdl::loss);
        CHECK(r.dtw == 32);
    }
}

TEST_CASE("a draw has an empty PV, a position without moves is lost in 0", "[probe]") {
    const probe::Tablebase tb = test::open_tables(test::international_tables(), VariantId::international);
    const probe::Analysis draw = tb.analyse(*parse_fen<International>("W:WK1:BK50"));
    REQUIRE(draw.result.ok());
    CHECK(draw.result.wdl == Wdl::draw);
    CHECK(draw.result.dtw == 0);
    CHECK(draw.pv.empty());
    CHECK_FALSE(draw.moves.empty());
    // White's man on 46 is blocked: 41 is taken, and the capture over it would land on 37, taken
    // too.
    const Position blocked = *parse_fen<International>("W:W46:B41,37");
    MoveList legal;
    generate_moves<International>(blocked, legal);
    REQUIRE(legal.empty());
    const probe::Analysis lost = tb.analyse(blocked);
    REQUIRE(lost.result.ok());
    CHECK(lost.result.wdl == Wdl::loss);
    CHECK(lost.result.dtw == 0);
    CHECK(lost.result.dtc == 0);
    CHECK(lost.moves.empty());
    CHECK(lost.pv.empty());
}

TEST_CASE("the best move needs DTW: by WDL alone every winning move ties", "[probe]") {
    probe::Options o;
    o.directories = {test::international_tables()};
    o.metrics = probe::kWdl;
    auto wdl_only = probe::Tablebase::open(o);
    REQUIRE(wdl_only.ok());
    const Position p = *parse_fen<International>("W:WK2,6:BK50");
    std::optional<MoveValue> best;
    const Result r = wdl_only->best_move(p, best);
    CHECK(r.status == probe::Status::missing);
    CHECK_FALSE(best.has_value());
    // With DTW (and without DTC) the best move is the quickest win.
    o.metrics = probe::kWdl | probe::kDtw;
    auto with_dtw = probe::Tablebase::open(o);
    REQUIRE(with_dtw.ok());
    REQUIRE(with_dtw->best_move(p, best).ok());
    REQUIRE(best.has_value());
    CHECK(best->text == "2-11");
    CHECK(best->dtw == 9);
}

TEST_CASE("move lists agree with the positions they lead to, on random positions", "[probe]") {
    const probe::Tablebase tb = test::open_tables(test::international_tables(), VariantId::international);
    std::mt19937_64 rng(42);
    const auto materials = all_materials<International>(3);
    int decided = 0;
    for (int n = 0; n < 300; ++n) {
        const SliceIndex<International> index(materials[rng() % materials.size()]);
        Position p = index.unrank(rng() % index.size());
        if (rng() & 1) p = reversed<International::Geometry>(p);
        INFO(to_fen<International>(p));
        decided += check_moves(tb, p).wdl != Wdl::draw;
    }
    CHECK(decided > 0);
}
