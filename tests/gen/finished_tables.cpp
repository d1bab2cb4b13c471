// Finished slices as later pairs read them: a slice reached only by promotion (the run's largest)
// held sparse answers every position a promotion reaches exactly as the slice held whole.
#include "dtb/gen/finished_tables.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "dtb/gen/entry_subset.hpp"
#include "dtb/gen/pair_memory.hpp"
#include "tests/support/gen_support.hpp"

using namespace dtb;

TEST_CASE("EntrySubset: contains what the predicate takes, rank counts those before", "[gen][finished]") {
    const SliceIndex<International> index(*Material::parse("KMvKK"));
    const auto in = [](const Position& p) { return (p.kings_of(Color::black) & 0x3FF) != 0 || (p.kings & 1); };
    const gen::EntrySubset subset = gen::EntrySubset::of(index, in, 2);
    REQUIRE(subset.size() == index.size());
    std::uint64_t before = 0;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const bool want = in(index.unrank(i));
        if (want != subset.contains(i) || subset.rank(i) != before) {
            FAIL("entry " << i << ": contains " << subset.contains(i) << " rank " << subset.rank(i) << ", want " << want
                          << " " << before);
        }
        before += want;
    }
    CHECK(subset.count() == before);
    CHECK(before > 0);
    CHECK(before < index.size());
}

namespace {

// Every slice of `pieces` pieces with a black king: loaded sparse (as the run's largest) and
// whole, and adopted sparse from the whole slice's values with fresh values added by runs; every
// position with a black king on Black's promotion row has the same word in all three.
template <class R>
void check_sparse(int pieces) {
    const auto& dir = test::generated_tables<R>(pieces);
    gen::MappingCache cache;
    gen::FinishedTables<R> whole(dir, cache), sparse(dir, cache), adopted(dir, cache), by_runs(dir, cache);
    sparse.set_largest_pieces(pieces);
    adopted.set_largest_pieces(pieces);
    by_runs.set_largest_pieces(pieces);
    std::mt19937_64 rng(7);
    int slices = 0;
    for (const Material& m : all_materials<R>(pieces)) {
        if (m.pieces() != pieces || m.bk == 0) continue;
        INFO(m.name());
        REQUIRE(whole.load(m).ok());
        REQUIRE(sparse.load(m, sparse.reached_in_run(m)).ok());
        const SliceIndex<R> index(m);
        std::vector<ValueCode> values(index.size());
        std::vector<ValueCode> fresh[2];
        for (auto& f : fresh) f.resize(index.size());
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const std::uint16_t w = whole.word(index.unrank(i));
            values[i] = gen::FinishedTables<R>::value_in(w);
            if constexpr (R::kCountingRules) {
                // A rule code whose fresh value is the word's (fresh_value keeps the WDL).
                for (int r = 0; r < 2; ++r) {
                    const Wdl f = gen::FinishedTables<R>::fresh_in(r ? CountingRules::ffjd : CountingRules::fmjd, w);
                    fresh[r][i] = f == Wdl::win ? win_in(1) : f == Wdl::loss ? loss_in(0) : kValueDraw;
                }
            }
        }
        REQUIRE(adopted.adopt(m, values).ok());
        // Runs of random lengths, as the blocks of a pair solved by blocks give them, in reverse.
        std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;
        for (std::uint64_t first = 0; first < index.size();) {
            const std::uint64_t n = std::min<std::uint64_t>(index.size() - first, 1 + rng() % 700);
            runs.emplace_back(first, n);
            first += n;
        }
        by_runs.adopt_by_runs(m);
        for (auto it = runs.rbegin(); it != runs.rend(); ++it)
            REQUIRE(by_runs.adopt_run(m, it->first, std::span<const ValueCode>(values).subspan(it->first, it->second)));
        if constexpr (R::kCountingRules) {
            for (int r = 0; r < 2; ++r) {
                for (const auto& [first, n] : runs) {
                    const auto codes = std::span<const ValueCode>(fresh[r]).subspan(first, n);
                    adopted.add_fresh_run(m, r ? CountingRules::ffjd : CountingRules::fmjd, first, codes);
                    by_runs.add_fresh_run(m, r ? CountingRules::ffjd : CountingRules::fmjd, first, codes);
                }
            }
        }
        std::uint64_t reached = 0, differ = 0, differ_adopted = 0, differ_runs = 0;
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position p = index.unrank(i);
            if (!gen::FinishedTables<R>::reached_by_promotion(p)) continue;
            ++reached;
            differ += sparse.word(p) != whole.word(p);
            differ_adopted += adopted.word(p) != whole.word(p);
            differ_runs += by_runs.word(p) != whole.word(p);
        }
        CHECK(reached > 0);
        CHECK(differ == 0);
        CHECK(differ_adopted == 0);
        CHECK(differ_runs == 0);
        // The model's bound (held_bytes_of) holds the words and bits actually held.
        const std::uint64_t held = gen::held_bytes_of<R>(m, index.size(), pieces);
        CHECK(adopted.bytes_in_memory() <= held);  // it holds m alone
        whole.forget(m);
        sparse.forget(m);
        adopted.forget(m);
        by_runs.forget(m);
        ++slices;
    }
    CHECK(slices > 0);
}

}  // namespace

TEST_CASE("finished slices reached only by promotion: held sparse, the same words (international, 3 pieces)",
          "[gen][finished]") {
    check_sparse<International>(3);
}

TEST_CASE("finished slices reached only by promotion: held sparse, the same words (turkish, 3 pieces)",
          "[gen][finished]") {
    check_sparse<Turkish>(3);
}

TEST_CASE("finished slices reached only by promotion: held sparse, the same words (both variants, 4 pieces)",
          "[gen][finished][plain-build]") {
    check_sparse<International>(4);
    check_sparse<Turkish>(4);
}
