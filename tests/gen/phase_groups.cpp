// Levels split into groups of phases (gen/phase_groups.hpp): the blocks partition the pair, each
// is closed under the moves that stay inside (king moves, a Turkish man's sideways steps), and a
// plain man move from any block reaches a block of the level just above it, solved earlier.
#include "dtb/gen/phase_groups.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "dtb/gen/retro.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/variant.hpp"

using namespace dtb;

namespace {

struct SplitFacts {
    std::size_t levels = 0, blocks = 0;
    std::uint64_t inside_moves = 0, man_moves = 0;
};

// Splits the levels of m's pair with max_entries and checks every position's plain moves.
template <class R>
SplitFacts check_split(const Material& m, std::uint64_t max_entries) {
    using G = typename R::Geometry;
    INFO(R::kName << " " << m.name() << " max " << max_entries);
    const SliceIndex<R> index(m), mirror_index(m.mirrored());
    std::vector<const SliceIndex<R>*> indices{&index};
    if (m.mirrored() != m) indices.push_back(&mirror_index);
    const std::vector<gen::Scope> levels = gen::advancement_levels<R>(indices, 1);
    const gen::LevelBlocks split = gen::split_levels<R>(levels, indices, max_entries, 1);
    REQUIRE(split.blocks.size() == split.level_of.size());
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    std::vector<std::vector<std::uint32_t>> block_of;
    for (const auto* x : indices) block_of.emplace_back(x->size(), kNone);
    std::uint64_t twice = 0, over = 0;
    for (std::size_t b = 0; b < split.blocks.size(); ++b) {
        if (b > 0) REQUIRE(split.level_of[b] >= split.level_of[b - 1]);
        std::uint64_t entries = 0;
        for (const gen::Range& r : split.blocks[b]) {
            entries += r.end - r.begin;
            for (std::uint64_t i = r.begin; i < r.end; ++i) {
                std::uint32_t& at = block_of[static_cast<std::size_t>(r.side)][i];
                twice += at != kNone;
                at = static_cast<std::uint32_t>(b);
            }
        }
        // A block over the limit is one phase: at most a configuration and its reversal, or
        // (Turkish) a row group and its reversal.
        if (entries > max_entries && !SliceIndex<R>::kRowGroups) over += entries > 2 * index.kings_per_config();
    }
    CHECK(twice == 0);
    CHECK(over == 0);
    std::uint64_t missing = 0, left_block = 0, wrong_level = 0;
    SplitFacts facts;
    facts.levels = levels.size();
    facts.blocks = split.blocks.size();
    MoveList moves;
    for (std::size_t s = 0; s < indices.size(); ++s) {
        for (std::uint64_t i = 0; i < indices[s]->size(); ++i) {
            const std::uint32_t b = block_of[s][i];
            if (b == kNone) {
                ++missing;
                continue;
            }
            const Position p = indices[s]->unrank(i);
            if (!is_indexable<R>(p)) continue;
            const Position rp = reversed<G>(p);
            generate_moves<R>(p, moves, CaptureMode::unique);
            for (const Move& mv : moves) {
                if (mv.is_capture() || mv.promotes) continue;
                const Position next = gen::reversed_after<G>(rp, mv);
                const std::size_t ns = indices.size() == 1 ? 0 : 1 - s;
                const std::uint32_t nb = block_of[ns][indices[ns]->rank(next)];
                if (mv.by_king || G::rank(mv.from) == G::rank(mv.to)) {
                    ++facts.inside_moves;
                    left_block += nb != b;
                } else {
                    ++facts.man_moves;
                    wrong_level += nb == kNone || split.level_of[nb] + 1 != split.level_of[b];
                }
            }
        }
    }
    CHECK(missing == 0);
    CHECK(left_block == 0);
    CHECK(wrong_level == 0);
    return facts;
}

template <class R>
void check_all(int pieces, std::uint64_t max_entries) {
    SplitFacts all;
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.mirrored() < m || m.men() == 0) continue;
        const SplitFacts f = check_split<R>(m, max_entries);
        all.blocks += f.blocks - f.levels;
        all.inside_moves += f.inside_moves;
        all.man_moves += f.man_moves;
    }
    CHECK(all.blocks > 0);  // some level was split
    CHECK(all.inside_moves > 0);
    CHECK(all.man_moves > 0);
}

}  // namespace

TEST_CASE("groups of phases: closed under king moves, man moves to the level above (international)",
          "[gen][phase-groups]") {
    check_all<International>(3, 1);
    check_split<International>(Material::parse("KMvKM").value(), 1);
    check_split<International>(Material::parse("KMMvK").value(), 5000);
}

TEST_CASE("groups of phases: closed under king moves and sideways steps (turkish)", "[gen][phase-groups]") {
    check_all<Turkish>(3, 1);
    check_split<Turkish>(Material::parse("KMvKM").value(), 1);
    check_split<Turkish>(Material::parse("MMvKK").value(), 3000);
}

TEST_CASE("a limit no level passes keeps every level one block", "[gen][phase-groups]") {
    const Material m = Material::parse("KMvKM").value();
    const SliceIndex<International> index(m);
    std::vector<const SliceIndex<International>*> indices{&index, &index};
    const SliceIndex<International> mirror(m.mirrored());
    indices[1] = &mirror;
    const auto levels = gen::advancement_levels<International>(indices, 1);
    for (std::uint64_t max : {std::uint64_t{0}, index.size() * 2}) {
        const gen::LevelBlocks split = gen::split_levels<International>(levels, indices, max, 1);
        REQUIRE(split.blocks.size() == levels.size());
        for (std::size_t l = 0; l < levels.size(); ++l) CHECK(split.level_of[l] == l);
    }
}
