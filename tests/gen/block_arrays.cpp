// The pieces of solving by blocks: the fixed divisor of a configuration's index, the block store's
// round trip, block arrays placed into a pair's arrays, and a side gathered back in index order,
// whole or part by part.
#include "dtb/gen/block_arrays.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtb/gen/block_store.hpp"
#include "dtb/gen/pair_array.hpp"
#include "dtb/gen/side_reader.hpp"
#include "tests/support/temp_dir.hpp"

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

TEST_CASE("the block store gives back what it kept, in memory or in a file", "[gen][blocks]") {
    const test::TempDir dir("block_store");
    gen::BlockStore store;
    const bool in_file = GENERATE(false, true);
    if (in_file) store.keep_in(dir.path);
    CHECK(store.on_disk() == in_file);
    // An unnamed file: nothing to see in the folder, even while it holds the chunks.
    CHECK(std::filesystem::is_empty(dir.path));
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
    std::vector<std::uint16_t> ten(10);
    store.read<std::uint16_t>(1, 4, std::span<std::uint16_t>(ten), 2);
    CHECK(ten == std::vector<std::uint16_t>(10, 1));
    // Another kind beside it, then the first erased: the second reads back unharmed.
    store.put<std::uint16_t>(2, 0, a, 2);
    store.erase(1, 4);
    CHECK(store.entries(1, 4) == 0);
    std::vector<std::uint16_t> again(n);
    store.read<std::uint16_t>(2, 0, std::span<std::uint16_t>(again), 2);
    CHECK(again == a);
    store.clear();
    CHECK(store.bytes() == 0);
    CHECK(std::filesystem::is_empty(dir.path));
}

TEST_CASE("a block store refuses a folder it cannot make its file in, with the folder named", "[gen][blocks]") {
    const test::TempDir dir("block_store_missing");
    const std::filesystem::path missing = dir.path / "not-there";
    gen::BlockStore store;
    try {
        store.keep_in(missing);
        FAIL("keep_in made a file in a folder that does not exist");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()).find(missing.string()) != std::string::npos);
    }
    CHECK_FALSE(store.on_disk());
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

TEST_CASE("a side reads back part by part, any part, as gathered whole", "[gen][blocks]") {
    gen::MappingCache cache;
    // Configurations of 70,000 entries over three levels, some of one side only, so that chunks
    // hold both sides, one side, or the other's only.
    const std::uint64_t kpc = 70000, configs = 40;
    std::vector<gen::Scope> levels(3);
    std::mt19937_64 rng(3);
    for (int s = 0; s < 2; ++s)
        for (std::uint64_t mc = 0; mc < configs; ++mc) gen::add_config(levels[rng() % 3], s, mc, kpc);
    const gen::BlockLayout layout(levels);
    gen::PairArray<std::uint16_t> side0(cache), side1(cache);
    gen::BlockStore store;
    gen::BlockArray<std::uint16_t> blocks(layout, {&side0, &side1}, {configs, configs}, kpc, cache);
    const auto expected = [](int s, std::uint64_t i) {
        return static_cast<std::uint16_t>((i * 13 + static_cast<std::uint64_t>(s) * 5) % 65519);
    };
    for (std::size_t b = 0; b < levels.size(); ++b) {
        blocks.open(b, std::uint16_t{0}, 2);
        for (const gen::Range& r : levels[b])
            for (std::uint64_t i = r.begin; i < r.end; ++i) (r.side == 0 ? side0 : side1)[i] = expected(r.side, i);
        blocks.store(b, store, 0, 2);
    }
    blocks.release();
    const std::uint64_t n = configs * kpc;
    for (int s = 0; s < 2; ++s) {
        const gen::SideReader reader(layout, store, s, n, 2);
        for (std::uint64_t part : {std::uint64_t{1} << 20, std::uint64_t{999'983}, n}) {
            std::vector<std::uint16_t> out(n, 0xFFFF);
            for (std::uint64_t first = 0; first < n; first += part)
                reader.read<std::uint16_t>(0, first,
                                           std::span<std::uint16_t>(out.data() + first, std::min(part, n - first)));
            std::uint64_t wrong = 0;
            for (std::uint64_t i = 0; i < n; ++i) wrong += out[i] != expected(s, i);
            CHECK(wrong == 0);
        }
        // A short part anywhere, crossing configurations and chunks.
        for (int trial = 0; trial < 20; ++trial) {
            const std::uint64_t first = rng() % n, len = std::min<std::uint64_t>(n - first, 1 + rng() % 3'000'000);
            std::vector<std::uint16_t> out(len);
            reader.read<std::uint16_t>(0, first, std::span<std::uint16_t>(out));
            std::uint64_t wrong = 0;
            for (std::uint64_t i = 0; i < len; ++i) wrong += out[i] != expected(s, first + i);
            CHECK(wrong == 0);
        }
    }
}
