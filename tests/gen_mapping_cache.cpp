// The cache of freed huge-page mappings (gen/mapping_cache.hpp): reuse by size, and eviction
// before a fresh mapping, so that cached and live bytes never exceed what a run without the cache
// would hold live.
#include <catch2/catch.hpp>

#include <cstdint>

#include "gen/big_array.hpp"

using dtb::gen::BigArray;
using dtb::gen::MappingCache;

namespace {
constexpr std::size_t kMB = std::size_t{1} << 20;
}

TEST_CASE("a freed array's mapping is reused by the next array of that size, written over as it was", "[gen]") {
    MappingCache& cache = MappingCache::instance();
    cache.release();
    const std::uint64_t hits = cache.hits();
    const void* first = nullptr;
    {
        BigArray<std::uint16_t> a(3 * kMB, 7);  // 6 MB
        first = a.data();
        CHECK(cache.cached_bytes() == 0);
    }
    CHECK(cache.cached_bytes() == 6 * kMB);
    BigArray<std::uint16_t> b(3 * kMB, 9);
    CHECK(static_cast<const void*>(b.data()) == first);
    CHECK(cache.hits() == hits + 1);
    CHECK(cache.cached_bytes() == 0);
    CHECK(b[0] == 9);
    CHECK(b[3 * kMB - 1] == 9);
}

TEST_CASE("a mapping at most an eighth longer is trimmed and reused; a much longer one is not", "[gen]") {
    MappingCache& cache = MappingCache::instance();
    cache.release();
    { BigArray<std::uint8_t> a(18 * kMB, 1); }
    CHECK(cache.cached_bytes() == 18 * kMB);
    {
        BigArray<std::uint8_t> b(16 * kMB, 2);  // 18 - 16 <= 16 / 8: reused, its tail unmapped
        CHECK(cache.cached_bytes() == 0);
    }
    CHECK(cache.cached_bytes() == 16 * kMB);
    // 4 MB would leave 12 MB of a 16 MB mapping unused: a fresh mapping instead, after evicting
    // at least 4 MB of cache (here the whole 16 MB mapping, the oldest).
    BigArray<std::uint8_t> c(4 * kMB, 3);
    CHECK(cache.cached_bytes() == 0);
    CHECK(c[4 * kMB - 1] == 3);
}

TEST_CASE("a miss evicts the oldest cached mappings until its own length is freed, no more", "[gen]") {
    MappingCache& cache = MappingCache::instance();
    cache.release();
    {
        BigArray<std::uint8_t> a(2 * kMB, 1), b(4 * kMB, 1), c(6 * kMB, 1);
    }  // freed c, b, a: a is the newest in the cache
    CHECK(cache.cached_bytes() == 12 * kMB);
    const std::uint64_t misses = cache.misses();
    BigArray<std::uint8_t> d(8 * kMB, 1);  // no fit: evicts c (6 MB) and b (4 MB), keeps a
    CHECK(cache.misses() == misses + 1);
    CHECK(cache.cached_bytes() == 2 * kMB);
    BigArray<std::uint8_t> e(2 * kMB, 1);  // a, reused
    CHECK(cache.cached_bytes() == 0);
}

TEST_CASE("arrays under 2 MB bypass the cache", "[gen]") {
    MappingCache& cache = MappingCache::instance();
    cache.release();
    { BigArray<std::uint8_t> a(kMB, 1); }
    CHECK(cache.cached_bytes() == 0);
}
