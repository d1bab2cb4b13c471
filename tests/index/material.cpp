// Material slices: names, parsing, counting, and the generation order of all_materials.
#include "dtb/index/material.hpp"

#include <catch2/catch.hpp>
#include <map>

#include "dtb/rules/variant.hpp"

using namespace dtb;

TEST_CASE("Material names and parsing", "[index][material]") {
    CHECK(Material{2, 1, 1, 0}.name() == "KKMvK");
    CHECK(Material{0, 1, 0, 3}.name() == "MvMMM");
    CHECK(Material::parse("KKMvK") == Material{2, 1, 1, 0});
    CHECK(Material::parse("MvMMM") == Material{0, 1, 0, 3});
    CHECK(Material::parse("KvK") == Material{1, 0, 1, 0});
    for (const char* bad : {"", "v", "Kv", "vK", "KMKvK", "kvk", "KvKx", "KvvK", "K vK", "KvK ", "MKvK", "KK"})
        CHECK_FALSE(Material::parse(bad).has_value());
    for (const Material& m : all_materials<International>(7)) {
        const auto back = Material::parse(m.name());
        REQUIRE(back.has_value());
        CHECK(*back == m);
        CHECK(m.mirrored().mirrored() == m);
        CHECK(m.mirrored().name() ==
              m.name().substr(m.name().find('v') + 1) + "v" + m.name().substr(0, m.name().find('v')));
    }
    CHECK(Material{2, 1, 1, 3}.pieces() == 7);
    CHECK(Material{2, 1, 1, 3}.men() == 4);
}

TEST_CASE("Material::of counts the pieces of a position", "[index][material]") {
    Position p;
    p.pieces[0] = bit(0) | bit(1) | bit(2);
    p.pieces[1] = bit(10) | bit(20);
    p.kings = bit(1) | bit(20);
    CHECK(Material::of(p) == Material{1, 2, 1, 1});
}

namespace {

// Every material a move can lead to from m: a promotion of either side, or a capture of one or
// more of the opponent's pieces, possibly ending with the capturing man's promotion.
std::vector<Material> successors(const Material& m) {
    std::vector<Material> out;
    for (int side = 0; side < 2; ++side) {
        const Material s = side == 0 ? m : m.mirrored();  // the mover is "white" in s
        auto add = [&](Material t) { out.push_back(side == 0 ? t : t.mirrored()); };
        if (s.wm > 0) add({s.wk + 1, s.wm - 1, s.bk, s.bm});
        for (int kk = 0; kk <= s.bk; ++kk)
            for (int km = 0; km <= s.bm; ++km) {
                if (kk + km == 0) continue;
                add({s.wk, s.wm, s.bk - kk, s.bm - km});
                if (s.wm > 0) add({s.wk + 1, s.wm - 1, s.bk - kk, s.bm - km});
            }
    }
    return out;
}

template <class R>
void check_order(int max_pieces) {
    const auto list = all_materials<R>(max_pieces);
    std::map<Material, std::size_t> where;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Material& m = list[i];
        INFO(m.name());
        CHECK(where.emplace(m, i).second);  // no material twice
        CHECK(m.wk + m.wm >= 1);
        CHECK(m.bk + m.bm >= 1);
        CHECK(m.pieces() <= max_pieces);
        if (i > 0) {
            CHECK(list[i - 1].pieces() <= m.pieces());
            if (list[i - 1].pieces() == m.pieces()) CHECK(list[i - 1].men() <= m.men());
        }
    }
    // All of them: sum over piece counts n and splits a + (n - a) of (a + 1)(n - a + 1).
    std::size_t expected = 0;
    for (int n = 2; n <= max_pieces; ++n)
        for (int a = 1; a < n; ++a) expected += static_cast<std::size_t>((a + 1) * (n - a + 1));
    CHECK(list.size() == expected);
    for (std::size_t i = 0; i < list.size(); ++i)
        for (const Material& t : successors(list[i])) {
            if (t.wk + t.wm == 0 || t.bk + t.bm == 0) continue;  // the game is over
            INFO(list[i].name() << " -> " << t.name());
            REQUIRE(where.count(t) == 1);
            CHECK(where[t] < i);
        }
}

}  // namespace

TEST_CASE("all_materials is in generation order", "[index][material]") {
    check_order<International>(6);
    check_order<Turkish>(6);
    const auto list = all_materials<International>(3);
    REQUIRE(list.size() >= 2);
    CHECK(list[0].name() == "KvK");
    CHECK(list[1].men() == 1);
}
