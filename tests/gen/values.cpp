// The generator's values against independent facts: published longest wins, known counts, and a
// forward re-derivation of every stored value of every slice up to 4 pieces (both variants).
#include <unistd.h>

#include <catch2/catch.hpp>

#include "tests/support/gen_support.hpp"

using namespace dtb;

namespace {

struct LongestWin {
    const char* fen;
    int dtw;
};

// Longest wins in plies, winner to move (the generator issue's acceptance list).
constexpr LongestWin kInternationalLongestWins[] = {
    {"W:WK10:BK5", 3},          {"W:WK1,K7:BK50", 7},     {"W:WK2,6:BK50", 9},       {"W:WK6,K22,K27:BK49", 15},
    {"W:WK40,K45,50:BK11", 31}, {"W:W6,K49,50:BK16", 29}, {"W:WK6,K22:BK17,K50", 9}, {"W:W33:B2", 17},
    {"W:W33,46:B4,5", 39},      {"W:W6:B2,3,4", 43},
};

}  // namespace

TEST_CASE("international longest wins are reproduced and are the maxima of their slices", "[gen][plain-build]") {
    const auto& dir = test::generated_tables<International>(4);
    verify::FullTables<International> tables(dir);
    for (const auto& lw : kInternationalLongestWins) {
        INFO(lw.fen);
        const auto v = test::lookup(tables, lw.fen);
        CHECK(v.wdl == Wdl::win);
        CHECK(v.dtw == lw.dtw);
        const Position p = *parse_fen<International>(lw.fen);
        const auto* slice = *tables.load(Material::of(p));
        int longest = 0;
        for (std::uint64_t i = 0; i < slice->index.size(); ++i)
            if (slice->wdl[i] == static_cast<int>(Wdl::win)) longest = std::max<int>(longest, slice->dtw[i]);
        CHECK(longest == lw.dtw);
    }
}

TEST_CASE("international kings-only counts", "[gen][plain-build]") {
    const auto& dir = test::generated_tables<International>(4);
    verify::FullTables<International> tables(dir);
    auto count = [&](Material m) {
        const auto* s = *tables.load(m);
        std::array<std::uint64_t, 3> c{};
        for (auto w : s->wdl) ++c[w];
        return c;
    };
    const auto kk = count(Material{1, 0, 1, 0});
    CHECK(kk[2] + kk[1] + kk[0] == 2450);
    CHECK(kk[2] == 424);
    CHECK(kk[1] == 2024);
    CHECK(kk[0] == 2);
    const auto kkk = count(Material{2, 0, 1, 0});
    CHECK(kkk[2] + kkk[1] + kkk[0] == 58800);
    CHECK(kkk[2] == 19398);
    CHECK(kkk[1] == 39402);
    CHECK(kkk[0] == 0);
}

template <class R>
void verify_all(int pieces) {
    const auto& dir = test::generated_tables<R>(pieces);
    verify::FullTables<R> tables(dir);
    std::uint64_t checked = 0;
    std::atomic<std::uint64_t> mismatches{0};
    for (const Material& m : all_materials<R>(pieces)) {
        INFO(m.name());
        auto r = verify::verify_slice_full<R>(
            tables, m,
            [](const verify::Mismatch& x) {
                UNSCOPED_INFO(x.slice << " " << x.fen << " stored " << to_string(x.stored.wdl) << "/" << x.stored.dtw
                                      << "/" << x.stored.dtc << " derived " << to_string(x.derived.wdl) << "/"
                                      << x.derived.dtw << "/" << x.derived.dtc);
            },
            mismatches);
        if (!r) FAIL(r.error());
        checked += *r;
    }
    CHECK(mismatches.load() == 0);
    CHECK(checked > 0);
}

TEST_CASE("every stored value follows from its successors (international, up to 4 pieces)", "[gen][plain-build]") {
    verify_all<International>(4);
}

TEST_CASE("every stored value follows from its successors (turkish, up to 4 pieces)", "[gen][plain-build]") {
    verify_all<Turkish>(4);
}
