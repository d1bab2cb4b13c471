// The cache of freed huge-page mappings (gen/mapping_cache.hpp): reuse of a long enough mapping,
// and cached mappings moved into a new range before any fresh memory, so that cached and live
// bytes never exceed what a run without the cache would hold live.
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtb/gen/big_array.hpp"
#include "dtb/gen/frontier.hpp"
#include "tests/support/temp_dir.hpp"

using dtb::gen::BigArray;
using dtb::gen::MappingCache;

namespace {
constexpr std::size_t kMB = std::size_t{1} << 20;
}

TEST_CASE("a freed array's mapping is reused by the next array of that size, written over as it was", "[gen]") {
    MappingCache cache;
    cache.release();
    const std::uint64_t hits = cache.hits();
    const void* first = nullptr;
    {
        BigArray<std::uint16_t> a(3 * kMB, 7, cache);  // 6 MB
        first = a.data();
        CHECK(cache.cached_bytes() == 0);
    }
    CHECK(cache.cached_bytes() == 6 * kMB);
    BigArray<std::uint16_t> b(3 * kMB, 9, cache);
    CHECK(static_cast<const void*>(b.data()) == first);
    CHECK(cache.hits() == hits + 1);
    CHECK(cache.cached_bytes() == 0);
    CHECK(b[0] == 9);
    CHECK(b[3 * kMB - 1] == 9);
}

TEST_CASE("a longer cached mapping lends its head; the rest stays cached", "[gen]") {
    MappingCache cache;
    cache.release();
    { BigArray<std::uint8_t> a(18 * kMB, 1, cache); }
    CHECK(cache.cached_bytes() == 18 * kMB);
    {
        BigArray<std::uint8_t> b(16 * kMB, cache);  // not written: the head of a, as a left it
        CHECK(cache.cached_bytes() == 2 * kMB);
        CHECK(b[0] == 1);
        CHECK(b[16 * kMB - 1] == 1);
        BigArray<std::uint8_t> c(2 * kMB, cache);  // the rest of a
        CHECK(cache.cached_bytes() == 0);
        CHECK(c[2 * kMB - 1] == 1);
    }
    CHECK(cache.cached_bytes() == 18 * kMB);
}

TEST_CASE("a miss moves cached mappings into its range, oldest first; only the rest is fresh", "[gen]") {
    MappingCache cache;
    cache.release();
    {
        BigArray<std::uint8_t> a(2 * kMB, 1, cache), b(4 * kMB, 2, cache), c(6 * kMB, 3, cache);
    }  // freed c, b, a: c is the oldest in the cache
    CHECK(cache.cached_bytes() == 12 * kMB);
    const std::uint64_t misses = cache.misses(), moved = cache.moved_bytes(), fresh = cache.fresh_bytes();
    {
        // No single mapping fits: c (6 MB) and the first 2 MB of b move in, pages and all.
        BigArray<std::uint8_t> d(8 * kMB, cache);
        CHECK(cache.misses() == misses + 1);
        CHECK(cache.moved_bytes() == moved + 8 * kMB);
        CHECK(cache.fresh_bytes() == fresh);
        CHECK(cache.cached_bytes() == 4 * kMB);  // the rest of b, and a
        CHECK(d[0] == 3);
        CHECK(d[6 * kMB - 1] == 3);
        CHECK(d[6 * kMB] == 2);
        CHECK(d[8 * kMB - 1] == 2);
        // More than the cache holds: all of it moves in, and only the rest is fresh.
        BigArray<std::uint8_t> e(10 * kMB, cache);
        CHECK(cache.cached_bytes() == 0);
        CHECK(cache.moved_bytes() == moved + 12 * kMB);
        CHECK(cache.fresh_bytes() == fresh + 6 * kMB);
        CHECK(e[0] == 2);  // the rest of b, older than a
        CHECK(e[2 * kMB] == 1);
        e[10 * kMB - 1] = 4;  // the fresh part is usable
        CHECK(e[10 * kMB - 1] == 4);
    }
    CHECK(cache.cached_bytes() == 18 * kMB);
}

TEST_CASE("each cache keeps its own mappings; an array moved or swapped frees into the cache it came from", "[gen]") {
    MappingCache first, second;
    {
        BigArray<std::uint16_t> a(3 * kMB, 1, first);  // 6 MB
        BigArray<std::uint16_t> b(second);
        b = std::move(a);  // b takes a's memory and its cache
        CHECK(b.get_allocator() == dtb::gen::HugePageAllocator<std::uint16_t>(first));
        BigArray<std::uint8_t> c(4 * kMB, 2, second);
        BigArray<std::uint8_t> d(first);
        d.swap(c);  // d holds second's mapping now
        dtb::gen::free_array(d);
        CHECK(second.cached_bytes() == 4 * kMB);
        CHECK(first.cached_bytes() == 0);
        CHECK(d.get_allocator() == dtb::gen::HugePageAllocator<std::uint8_t>(second));
    }
    CHECK(first.cached_bytes() == 6 * kMB);  // b's, from a
    CHECK(second.cached_bytes() == 4 * kMB);
    CHECK(first.hits() == 0);
    BigArray<std::uint16_t> e(3 * kMB, 5, first);  // served by first only
    CHECK(first.hits() == 1);
    CHECK(second.hits() == 0);
}

TEST_CASE("arrays under 2 MB bypass the cache", "[gen]") {
    MappingCache cache;
    cache.release();
    { BigArray<std::uint8_t> a(kMB, 1, cache); }
    CHECK(cache.cached_bytes() == 0);
}

TEST_CASE("while spilling, arrays of 4 MB and more are unnamed files in the folder; smaller ones are not", "[gen]") {
    namespace fs = std::filesystem;
    MappingCache cache;
    cache.release();
    cache.release_files();
    const dtb::test::TempDir temp("spill");
    const fs::path& dir = temp.path;
    const std::uint64_t spilled = cache.spilled_bytes();
    cache.spill_to(dir);
    {
        BigArray<std::uint16_t> a(32 * kMB, 5, cache);    // 64 MB, in a file
        BigArray<std::uint8_t> small(2 * kMB, 1, cache);  // 2 MB: memory as usual
        CHECK(cache.spilled_bytes() == spilled + 64 * kMB);
        for (std::size_t i = 0; i < a.size(); i += 4096) a[i] = static_cast<std::uint16_t>(i);
        CHECK(a[0] == 0);
        CHECK(a[4096] == 4096 % 65536);
        CHECK(a[1] == 5);
        CHECK(a[a.size() - 1] == 5);
        // The file has no name: nothing is left in the folder if the process dies.
        CHECK(fs::is_empty(dir));
    }
    cache.spill_to({});
    // Freed, a file's mapping is kept for the next one, never in the memory cache.
    CHECK(cache.cached_bytes() == 2 * kMB);
    CHECK(cache.kept_file_bytes() == 64 * kMB);
    { BigArray<std::uint16_t> b(32 * kMB, 1, cache); }
    CHECK(cache.spilled_bytes() == spilled + 64 * kMB);  // no longer spilling
    CHECK(cache.kept_file_bytes() == 64 * kMB);
    cache.release();
    cache.release_files();
    CHECK(cache.kept_file_bytes() == 0);
}

namespace {
// A spill folder of this test's own, and a cache spilling into it.
struct SpillFolder {
    dtb::test::TempDir temp;
    std::filesystem::path dir = temp.path;
    MappingCache cache;
    explicit SpillFolder(const std::string& name) : temp(name) { cache.spill_to(dir); }
};
}  // namespace

TEST_CASE("a freed spill file is kept with its pages: the next spilled array takes its head, or it and a new file",
          "[gen]") {
    SpillFolder folder("kept");
    MappingCache& cache = folder.cache;
    const std::uint64_t reused = cache.reused_file_bytes();
    const void* first = nullptr;
    {
        BigArray<std::uint16_t> a(32 * kMB, cache);  // 64 MB
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<std::uint16_t>(i % 65521);
        first = a.data();
    }
    CHECK(cache.kept_file_bytes() == 64 * kMB);
    {
        // Its head, as a left it.
        BigArray<std::uint16_t> b(16 * kMB, cache);
        CHECK(static_cast<const void*>(b.data()) == first);
        CHECK(cache.kept_file_bytes() == 32 * kMB);
        CHECK(cache.reused_file_bytes() == reused + 32 * kMB);
        CHECK(b[12345] == 12345);
        CHECK(b[16 * kMB - 1] == (16 * kMB - 1) % 65521);
        // No kept file is long enough: the rest of a moves in, and a new file follows it.
        BigArray<std::uint16_t> c(24 * kMB, cache);  // 48 MB
        CHECK(cache.kept_file_bytes() == 0);
        CHECK(cache.reused_file_bytes() == reused + 64 * kMB);
        CHECK(c[0] == (16 * kMB) % 65521);
        CHECK(c[16 * kMB - 1] == (32 * kMB - 1) % 65521);
        CHECK(c[16 * kMB] == 0);  // the new file
        CHECK(c[24 * kMB - 1] == 0);
        c[24 * kMB - 1] = 77;
        CHECK(c[24 * kMB - 1] == 77);
        CHECK(std::filesystem::is_empty(folder.dir));  // still unnamed
    }
    CHECK(cache.kept_file_bytes() == 80 * kMB);
    cache.release_files();
    CHECK(cache.kept_file_bytes() == 0);
}

TEST_CASE("pages of a kept spill file that the kernel evicted come back as zeroes, not read back", "[gen]") {
    SpillFolder folder("evicted");
    MappingCache& cache = folder.cache;
    const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    constexpr std::size_t kBytes = 16 * kMB;
    std::vector<unsigned char> resident(kBytes / page);
    {
        BigArray<std::uint8_t> a(kBytes, 7, cache);
        // Written back, then evicted (the second half).
        REQUIRE(::msync(a.data(), kBytes, MS_SYNC) == 0);
        if (::madvise(a.data() + kBytes / 2, kBytes / 2, MADV_PAGEOUT) != 0) {
            WARN("no MADV_PAGEOUT here: not checked");
            return;
        }
        REQUIRE(::mincore(a.data(), kBytes, resident.data()) == 0);
    }
    std::size_t evicted = 0;
    for (unsigned char r : resident) evicted += (r & 1) ? 0 : 1;
    if (evicted == 0) {
        WARN("the kernel kept every page: not checked");
        return;
    }
    {  // zeroing is a saving the file system may not offer (then pages are read back)
        const int fd = ::open(folder.dir.c_str(), O_TMPFILE | O_RDWR, 0600);
        REQUIRE(fd >= 0);
        const bool zero_range = ::fallocate(fd, FALLOC_FL_ZERO_RANGE, 0, 1 << 16) == 0;
        ::close(fd);
        if (!zero_range) {
            WARN("no FALLOC_FL_ZERO_RANGE in " + folder.dir.string() + ": not checked");
            return;
        }
    }
    BigArray<std::uint8_t> b(kBytes, cache);
    std::size_t zeroes = 0, sevens = 0, other = 0;
    for (std::size_t p = 0; p < resident.size(); ++p) {
        const std::uint8_t v = b[p * page];
        zeroes += v == 0;
        sevens += v == 7;
        other += v != 0 && v != 7;
    }
    CHECK(other == 0);
    // Every page evicted before the reuse is zero; a page still held keeps what it had (one
    // evicted between the two looks may be either).
    CHECK(zeroes >= evicted);
    CHECK(sevens >= 1);
}

TEST_CASE("an array that cannot get its spill file is a clear error, not a crash", "[gen]") {
    MappingCache cache;
    cache.release();
    cache.spill_to("/nonexistent/dtb-spill-folder");
    std::string message;
    try {
        BigArray<std::uint16_t> a(4 * kMB, 1, cache);
    } catch (const std::runtime_error& e) {
        message = e.what();
    }
    cache.spill_to({});
    CHECK(message.find("cannot spill 8 MB to a file in /nonexistent/dtb-spill-folder") != std::string::npos);
    BigArray<std::uint16_t> b(4 * kMB, 1, cache);  // memory again
    CHECK(b[4 * kMB - 1] == 1);
}

TEST_CASE("under a memory bound, what would pass it is mapped from files, frontier blocks included", "[gen]") {
    namespace fs = std::filesystem;
    MappingCache cache;
    cache.release();
    const dtb::test::TempDir temp("bound");
    const fs::path& dir = temp.path;
    const std::uint64_t base = cache.anonymous_bytes();
    const std::uint64_t overflow = cache.overflow_bytes();
    cache.bound_memory(base + 16 * kMB, dir);
    {
        BigArray<std::uint16_t> a(4 * kMB, 3, cache);  // 8 MB: within the bound, memory
        CHECK(cache.anonymous_bytes() == base + 8 * kMB);
        CHECK(cache.overflow_bytes() == overflow);
        BigArray<std::uint16_t> b(6 * kMB, 4, cache);  // 12 MB more would pass it: a file
        CHECK(cache.anonymous_bytes() == base + 8 * kMB);
        CHECK(cache.overflow_bytes() == overflow + 12 * kMB);
        b[b.size() - 1] = 9;
        CHECK(b[0] == 4);
        CHECK(b[b.size() - 1] == 9);
        CHECK(fs::is_empty(dir));  // unnamed
        // Frontier lists (2 MB blocks): four fit in memory, the rest go to files, all readable.
        dtb::gen::ItemList items(cache);
        const std::size_t n = 10 * (std::size_t{1} << 18);  // ten blocks of 2 MB and the small ones
        for (std::size_t i = 0; i < n; ++i) items.push_back(i);
        CHECK(cache.anonymous_bytes() <= base + 16 * kMB);
        CHECK(cache.overflow_bytes() > overflow + 12 * kMB);
        std::size_t k = 0;
        bool in_order = true;
        items.for_each([&](dtb::gen::Item it) { in_order = in_order && it == k++; });
        CHECK(in_order);
        CHECK(k == n);
    }
    // Freed, the big file mappings are kept (until release_files), the frontier blocks' go with
    // their files, and the memory ones are cached and reused.
    CHECK(cache.anonymous_bytes() <= base + 16 * kMB);
    {
        BigArray<std::uint16_t> c(4 * kMB, 1, cache);
        CHECK(cache.anonymous_bytes() <= base + 16 * kMB);
    }
    cache.bound_memory(0, {});
    cache.release();
    CHECK(cache.anonymous_bytes() == base);      // everything freed went to the cache, now released
    CHECK(cache.kept_file_bytes() == 12 * kMB);  // b's file
    cache.release_files();
}
