// The pieces of solving by blocks: the fixed divisor of a configuration's index, the block store's
// round trip, block arrays placed into a pair's arrays, and a side gathered back in index order.
#include "dtb/gen/block_arrays.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <vector>

#include "dtb/gen/block_store.hpp"
#include "dtb/gen/pair_array.hpp"

using namespace dtb;

TEST_CASE("FixedDivisor divides exactly", "[gen][blocks]") {
    std::mt19937_64 rng(7);
    for (std::uint64_t d : {1ull, 2ull, 3ull, 7ull, 47ull, 1892ull, 48645ull, 19068840ull, 3006520440ull,
                            (1ull << 31) - 1, (1ull << 40) + 3}) {
        INFO(d);
        const gen::FixedDivisor div(d);
        std::uint64_t wrong = 0;
        auto check = [&](std::uint64_t i) {
            const auto [q, r] = div.divide(i);
            wrong += q != i / d || r != i % d;
        };
        for (std::uint64_t i = 0; i < 100000; ++i) check(i);
        for (std::uint64_t k = 1; k < 2000; ++k)  // around multiples of d, where rounding bites
            for (std::uint64_t m : {k * d - 1, k * d, k * d + 1})
                if (m < (1ull << 52)) check(m);
        for (int k = 0; k < 200000; ++k) check(rng() & ((1ull << 52) - 1));
        CHECK(wrong == 0);
    }
}

TEST_CASE("the block store gives back what it kept", "[gen][blocks]") {
    gen::BlockStore store;
    std::mt19937_64 rng(3);
    const std::uint64_t n = 2 * gen::BlockStore::kChunkEntries + 12345;
    std::vector<std::uint16_t> a(n);
    for (auto& x : a) x = static_cast<std::uint16_t>(rng() % 7 == 0 ? rng() : 5);
    store.put<std::uint16_t>(1, 4, a, 2);
    CHECK(store.entries(1, 4) == n);
    CHECK(store.chunks(1, 4) == 3);
    CHECK(store.entries(0, 4) == 0);
    CHECK(store.bytes() > 0);
    CHECK(store.bytes() < n);  // compressed
    std::vector<std::uint16_t> back, chunk;
    for (std::uint64_t c = 0; c < store.chunks(1, 4); ++c) {
        store.read_chunk(1, 4, c, chunk);
        back.insert(back.end(), chunk.begin(), chunk.end());
    }
    CHECK(back == a);
    const std::uint64_t before = store.bytes();
    store.put<std::uint16_t>(1, 4, std::vector<std::uint16_t>(10, 1), 1);  // replaces
    CHECK(store.bytes() < before);
    CHECK(store.entries(1, 4) == 10);
}

TEST_CASE("block arrays address a pair by index, and a side gathers back in index order", "[gen][blocks]") {
    gen::MappingCache cache;
    // Two sides of 6 configurations of 5 entries; three blocks mixing configurations of both sides.
    const std::uint64_t kpc = 5, configs = 6;
    std::vector<gen::Scope> levels(3);
    gen::add_config(levels[0], 0, 5, kpc);
    gen::add_config(levels[0], 1, 0, kpc);
    gen::add_config(levels[1], 0, 1, kpc);
    gen::add_config(levels[1], 0, 2, kpc);  // merged with the one before
    gen::add_config(levels[1], 1, 3, kpc);
    gen::add_config(levels[1], 1, 5, kpc);
    gen::add_config(levels[2], 0, 0, kpc);
    gen::add_config(levels[2], 0, 3, kpc);
    gen::add_config(levels[2], 0, 4, kpc);
    gen::add_config(levels[2], 1, 1, kpc);
    gen::add_config(levels[2], 1, 2, kpc);
    gen::add_config(levels[2], 1, 4, kpc);
    CHECK(levels[1].size() == 3);
    const gen::BlockLayout layout(levels);
    CHECK(layout.sizes == std::vector<std::uint64_t>{10, 20, 30});
    CHECK(layout.largest() == 30);
    gen::PairArray<std::uint16_t> side0(cache), side1(cache);
    gen::BlockStore store;
    {
        gen::BlockArray<std::uint16_t> blocks(layout, {&side0, &side1}, {configs, configs}, kpc, cache);
        CHECK(side0.by_configs());
        for (std::size_t b = 0; b < 3; ++b) {
            blocks.open(b, std::uint16_t{0}, 2);
            for (const gen::Range& r : levels[b])
                for (std::uint64_t i = r.begin; i < r.end; ++i)
                    (r.side == 0 ? side0 : side1)[i] = static_cast<std::uint16_t>(1000 * r.side + i);
            // The block's storage holds its ranges one after another.
            const auto storage = blocks.storage(b);
            CHECK(storage[0] == 1000 * levels[b][0].side + levels[b][0].begin);
            CHECK(storage.back() == 1000 * levels[b].back().side + levels[b].back().end - 1);
            blocks.store(b, store, 0, 2);
            CHECK(!blocks.is_open(b));
        }
        blocks.release();
    }
    CHECK(!side0.by_configs());
    for (int s = 0; s < 2; ++s) {
        gen::BigArray<std::uint16_t> out(cache);
        out.resize(configs * kpc);
        gen::gather_side<std::uint16_t>(layout, store, 0, s, out, 2);
        std::uint64_t wrong = 0;
        for (std::uint64_t i = 0; i < out.size(); ++i) wrong += out[i] != 1000 * s + i;
        CHECK(wrong == 0);
    }
}

TEST_CASE("a side gathers back across the block store's chunks", "[gen][blocks]") {
    gen::MappingCache cache;
    // One configuration per entry run of 300,000: blocks larger than a chunk, ranges across chunks.
    const std::uint64_t kpc = 300000, configs = 8;
    std::vector<gen::Scope> levels(2);
    for (std::uint64_t mc = 0; mc < configs; ++mc)
        for (int s = 0; s < 2; ++s) gen::add_config(levels[(mc * 3 + static_cast<std::uint64_t>(s)) % 2], s, mc, kpc);
    const gen::BlockLayout layout(levels);
    gen::PairArray<std::uint16_t> side0(cache), side1(cache);
    gen::BlockStore store;
    gen::BlockArray<std::uint16_t> blocks(layout, {&side0, &side1}, {configs, configs}, kpc, cache);
    for (std::size_t b = 0; b < 2; ++b) {
        blocks.open(b, std::uint16_t{0}, 2);
        for (const gen::Range& r : levels[b])
            for (std::uint64_t i = r.begin; i < r.end; ++i)
                (r.side == 0 ? side0 : side1)[i] =
                    static_cast<std::uint16_t>((i * 7 + static_cast<std::uint64_t>(r.side)) % 65521);
        blocks.store(b, store, 2, 2);
    }
    CHECK(store.chunks(2, 0) > 1);
    blocks.release();
    for (int s = 0; s < 2; ++s) {
        gen::BigArray<std::uint16_t> out(cache);
        out.resize(configs * kpc);
        gen::gather_side<std::uint16_t>(layout, store, 2, s, out, 2);
        std::uint64_t wrong = 0;
        for (std::uint64_t i = 0; i < out.size(); ++i)
            wrong += out[i] != (i * 7 + static_cast<std::uint64_t>(s)) % 65521;
        CHECK(wrong == 0);
    }
}
