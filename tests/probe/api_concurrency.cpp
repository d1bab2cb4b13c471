// Many threads probing one handle with a cache far smaller than the tables (so blocks are
// evicted and re-read all the time) get exactly what a single thread gets. Built with
// -DDTB_TSAN=ON this test is the ThreadSanitizer check of the probe library:
//   build-tsan/tests/probe_tests "[concurrency]"
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <latch>
#include <random>
#include <thread>

#include "tests/support/probe_api_support.hpp"

using namespace dtb;
using namespace dtb::probe;

namespace {

struct Sample {
    Position position;
    Result expected;
};

template <class R>
std::vector<Sample> random_samples(const Tablebase& reference, int pieces, std::size_t n, std::uint64_t seed) {
    const auto materials = all_materials<R>(pieces);
    std::vector<SliceIndex<R>> indices;
    for (const Material& m : materials) indices.emplace_back(m);
    std::mt19937_64 rng(seed);
    std::vector<Sample> out;
    while (out.size() < n) {
        const auto& index = indices[rng() % indices.size()];
        Position p = index.unrank(rng() % index.size());
        if (rng() & 1) p = reversed<typename R::Geometry>(p);  // Black to move
        const Result r = reference.probe(p, kAllMetrics);
        REQUIRE(r.ok());
        out.push_back({p, r});
    }
    return out;
}

bool same(const Result& a, const Result& b) {
    return a.status == b.status && a.wdl == b.wdl && a.dtw == b.dtw && a.dtc == b.dtc;
}

// Runs `threads` threads for `seconds`, each probing random samples with random metrics; returns
// the number of probes, and counts disagreements with the single-threaded reference.
std::uint64_t hammer(const Tablebase& tb, const std::vector<Sample>& samples, int threads, double seconds,
                     std::atomic<std::uint64_t>& wrong) {
    std::atomic<std::uint64_t> probes{0};
    std::atomic<bool> stop{false};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            std::mt19937_64 rng(1000 + static_cast<std::uint64_t>(t));
            std::uint64_t n = 0;
            while (!stop.load(std::memory_order_relaxed)) {
                for (int k = 0; k < 64; ++k, ++n) {
                    const Sample& s = samples[rng() % samples.size()];
                    const unsigned metrics = static_cast<unsigned>(rng() % 8);
                    const Access access = rng() % 4 == 0 ? Access::cache_only : Access::load;
                    const Result r = tb.probe(s.position, metrics, access);
                    if (r.status == Status::not_cached && access == Access::cache_only) continue;
                    Result want = s.expected;
                    if (!(metrics & kDtw)) want.dtw = -1;
                    if (!(metrics & kDtc)) want.dtc = -1;
                    if (!same(r, want)) wrong.fetch_add(1);
                }
            }
            probes.fetch_add(n);
        });
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
    stop = true;
    for (auto& th : pool) th.join();
    return probes.load();
}

}  // namespace

TEST_CASE("8 threads with a small cache agree with a single thread", "[probe][concurrency][plain-build]") {
    test::ScratchDir dir("threads");
    test::write_synthetic_tables<International>(dir.path / "i", 3, 512);
    test::write_synthetic_tables<Turkish>(dir.path / "t", 3, 512);
    for (const auto& [sub, variant] : {std::pair{"i", VariantId::international}, std::pair{"t", VariantId::turkish}}) {
        INFO(sub);
        auto reference = Tablebase::open(test::options_for(dir.path / sub, variant, 64 << 20));
        REQUIRE(reference.ok());
        const auto samples = variant == VariantId::international
                                 ? random_samples<International>(*reference, 3, 20000, 7)
                                 : random_samples<Turkish>(*reference, 3, 20000, 7);
        // 128 KB in 4 shards: a few dozen blocks against thousands in the tables, nearly every
        // probe a miss. 1 MB in 16 shards: about half hits (read without a lock) while blocks
        // are evicted and freed under the readers.
        for (const auto& [budget, shards] : {std::pair{128 << 10, 4}, std::pair{1 << 20, 16}}) {
            INFO("budget " << budget << ", " << shards << " shards");
            Options o = test::options_for(dir.path / sub, variant, static_cast<std::size_t>(budget));
            o.cache_shards = shards;
            auto shared = Tablebase::open(o);
            REQUIRE(shared.ok());
            std::atomic<std::uint64_t> wrong{0};
            const std::uint64_t probes = hammer(*shared, samples, 8, 0.75, wrong);
            const CacheStats stats = shared->cache_stats();
            INFO(probes << " probes, " << stats.hits << " hits, " << stats.misses << " misses, " << stats.evictions
                        << " evictions");
            CHECK(wrong.load() == 0);
            CHECK(probes > 1000);
            CHECK(stats.hits > 0);
            CHECK(stats.evictions > 100);
            CHECK(stats.bytes <= stats.budget + static_cast<std::size_t>(shards) * BlockCache::charge(1024));
        }
    }
}

TEST_CASE("the block cache: one thread across many caches, more threads than reader slots", "[probe][concurrency]") {
    const auto block = [](std::uint16_t v) {
        std::vector<std::uint16_t> values(256, v);
        return PackedBlock::pack(values.data(), values.size(), 8);
    };
    // Caches built and destroyed one after another, often at the same address: the thread's
    // reader slot of a destroyed cache is never taken for the new one's.
    for (std::uint16_t c = 0; c < 300; ++c) {
        BlockCache cache(1 << 20, 1);
        cache.insert({1, 0}, block(c % 200), 0);
        REQUIRE(cache.lookup({1, 0}, 7) == std::optional<std::uint16_t>(c % 200));
    }
    // More threads reading at once than the cache has reader slots: the others read under the
    // shard mutexes, and every lookup is a hit with the right value.
    BlockCache cache(1 << 20, 4);
    for (std::uint16_t b = 0; b < 64; ++b) cache.insert({2, b}, block(b), 0);
    const int threads = BlockCache::kReaderSlots + 8;
    std::latch registered(threads);
    std::atomic<int> wrong{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            const auto check = [&](int b) {
                const auto want = std::optional<std::uint16_t>(static_cast<std::uint16_t>(b));
                if (cache.lookup({2, static_cast<std::uint64_t>(b)}, 3) != want) wrong.fetch_add(1);
            };
            check(t % 64);
            registered.arrive_and_wait();  // every thread holds a reader slot, or found none
            for (int k = 0; k < 200; ++k) check((t + k) % 64);
        });
    }
    for (auto& th : pool) th.join();
    CHECK(wrong.load() == 0);
    CHECK(cache.stats().hits == static_cast<std::uint64_t>(threads) * 201);
}

TEST_CASE("the block cache: lookup_many finds what lookup finds, also while blocks are evicted and freed",
          "[probe][concurrency]") {
    // Block b of table t holds value(t, b, j) at entry j; tables 1 and 2 pack 2 and 8 bits.
    const auto value = [](std::uint32_t t, std::uint64_t b, std::size_t j) {
        return static_cast<std::uint16_t>(t == 1 ? (b + j) % 3 : (b * 7 + j) % 256);
    };
    const auto block = [&](std::uint32_t t, std::uint64_t b) {
        std::vector<std::uint16_t> values(512);
        for (std::size_t j = 0; j < values.size(); ++j) values[j] = value(t, b, j);
        return PackedBlock::pack(values.data(), values.size(), t == 1 ? 2 : 8);
    };
    struct Query {
        std::vector<BlockKey> keys;
        std::vector<std::size_t> js;
        std::vector<std::uint8_t> bits;
    };
    const auto random_query = [](std::mt19937_64& rng, std::size_t n, std::uint64_t blocks) {
        Query q;
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t t = 1 + static_cast<std::uint32_t>(rng() % 2);
            q.keys.push_back({t, rng() % blocks});
            q.js.push_back(rng() % 512);
            q.bits.push_back(t == 1 ? 2 : 8);
        }
        return q;
    };

    SECTION("one thread: present and absent blocks, batches of 0 to kBatch + 1") {
        BlockCache cache(64 << 20, 4);
        for (std::uint64_t b = 0; b < 100; b += 2)
            for (std::uint32_t t : {1u, 2u}) cache.insert({t, b}, block(t, b), 0);
        std::mt19937_64 rng(5);
        for (std::size_t n :
             {std::size_t{0}, std::size_t{1}, std::size_t{17}, BlockCache::kBatch, BlockCache::kBatch + 1}) {
            INFO(n << " entries");
            const Query q = random_query(rng, n, 100);
            std::vector<std::optional<std::uint16_t>> got(n, std::uint16_t{999});
            const std::uint64_t hits_before = cache.stats().hits;
            cache.lookup_many(n, q.keys.data(), q.js.data(), q.bits.data(), got.data());
            std::uint64_t present = 0;
            for (std::size_t i = 0; i < n; ++i) {
                INFO("table " << q.keys[i].table << " block " << q.keys[i].block << " entry " << q.js[i]);
                const bool cached = q.keys[i].block % 2 == 0;
                present += cached;
                CHECK(got[i] ==
                      (cached ? std::optional(value(q.keys[i].table, q.keys[i].block, q.js[i])) : std::nullopt));
                CHECK(got[i] == cache.lookup(q.keys[i], q.js[i]));
            }
            CHECK(cache.stats().hits - hits_before == 2 * present);  // the batch's hits, then lookup's
        }
    }

    SECTION("readers batch while a writer inserts into a cache of a few blocks") {
        // Room for about 12 of the 64 blocks: the writer's inserts evict and free blocks while
        // readers hold them; every answer is nullopt or the block's value.
        BlockCache cache(12 * BlockCache::charge(512), 2);
        std::atomic<bool> stop{false};
        std::atomic<std::uint64_t> wrong{0}, answered{0};
        std::thread writer([&] {
            std::mt19937_64 rng(1);
            while (!stop.load(std::memory_order_relaxed)) {
                const std::uint32_t t = 1 + static_cast<std::uint32_t>(rng() % 2);
                const std::uint64_t b = rng() % 64;
                cache.insert({t, b}, block(t, b), 0);
            }
        });
        std::vector<std::thread> readers;
        for (int r = 0; r < 3; ++r) {
            readers.emplace_back([&, r] {
                std::mt19937_64 rng(100 + r);
                std::vector<std::optional<std::uint16_t>> got(BlockCache::kBatch);
                for (int round = 0; round < 3000; ++round) {
                    const Query q = random_query(rng, BlockCache::kBatch, 64);
                    cache.lookup_many(q.keys.size(), q.keys.data(), q.js.data(), q.bits.data(), got.data());
                    for (std::size_t i = 0; i < q.keys.size(); ++i) {
                        if (!got[i]) continue;
                        answered.fetch_add(1, std::memory_order_relaxed);
                        if (*got[i] != value(q.keys[i].table, q.keys[i].block, q.js[i]))
                            wrong.fetch_add(1, std::memory_order_relaxed);
                    }
                }
            });
        }
        for (auto& th : readers) th.join();
        stop.store(true);
        writer.join();
        CHECK(wrong.load() == 0);
        CHECK(answered.load() > 1000);
        CHECK(cache.stats().evictions > 100);
    }
}
