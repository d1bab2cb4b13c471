// Freed huge-page mappings kept for the next allocations.
//
// Why: a solve allocates and frees the same sizes over and over (both sides of a pair, the
// arrays of each rule set, the writers' buffers, 2 MB frontier blocks by the thousand), and a
// fresh mapping costs its first touch: the kernel zeroes every page, and on a VM that returns
// freed memory to its host (free page reporting) the host must back it again. On this 2-core VM
// a fresh 4 GB mapping was touched at 0.59 GB/s against 16 GB/s for memory touched before, and
// page zeroing was 5.4% of the CPU time of the international 5-piece run.
//
// How: a request takes the head of the shortest cached mapping that is long enough (the rest
// stays cached); failing that, it reserves a fresh range and moves cached mappings into it
// (mremap moves their pages, already backed and not zeroed again; 2 MB-aligned huge pages move
// as whole page-table entries), oldest first, until it is full. Only what the cache cannot cover
// is fresh memory, so cached and live bytes together grow only when the cache is empty: to no
// more than the live bytes of a run without the cache.
// Reused memory is not zeroed; HugePageAllocator never promised zeroes (see gen/big_array.hpp).
//
// Spilling (spill_to): while a directory is set, every request of at least kSpillMinimum bytes
// is instead a shared mapping of a fresh file there, unlinked at once (nothing is left behind
// if the process dies), so that the kernel can write its pages back and drop them when memory
// is short. The generator sets it for a pair whose arrays do not fit in memory, which it then
// solves one advancement level at a time (SliceSolver::solve_by_levels): each pass touches a
// level's pages, not the whole pair's (docs/GENERATOR.md, "Memory").
//
// A bound (bound_memory): the anonymous memory the cache maps, live and cached, stays under a
// limit; a request that cannot be met from the cached mappings without passing it is a file's
// mapping, as when spilling, whatever its size. The driver sizes a pair's arrays to fit, but
// not its frontier lists, whose size is known only while it is solved (a kings-heavy 6-piece
// pair solved whole was killed for want of memory at the start of its DTC pass): past the
// bound they go to files, which the kernel writes back and drops under pressure,
// instead of the process being killed.
#pragma once
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <filesystem>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <string>

namespace dtb::gen {

class MappingCache {
public:
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;

    static MappingCache& instance() {
        static MappingCache cache;
        return cache;
    }

    // Requests from this size on are spilled: per-position arrays, not the 2 MB blocks of the
    // frontier lists, which are written and read in order and freed as they go.
    static constexpr std::size_t kSpillMinimum = std::size_t{4} << 20;

    // A 2 MB-aligned mapping of length bytes (a multiple of kHugePage), marked MADV_HUGEPAGE; or,
    // while spilling, a file's shared mapping (page-aligned).
    void* take(std::size_t length) {
        std::lock_guard lock(mutex_);
        if (!spill_dir_.empty() && length >= kSpillMinimum) {
            void* base = take_file(length, spill_dir_);
            spilled_bytes_ += length;
            return base;
        }
        auto best = cached_.end();
        for (auto it = cached_.begin(); it != cached_.end(); ++it)
            if (it->length >= length && (best == cached_.end() || it->length < best->length)) best = it;
        if (best != cached_.end()) {
            const Mapping m = *best;
            cached_.erase(best);
            ++hits_;
            if (m.length > length) cached_.push_back({static_cast<char*>(m.base) + length, m.length - length});
            cached_bytes_ -= length;
            return m.base;
        }
        ++misses_;
        // What this request adds to the anonymous memory at best (every cached mapping moved in).
        const std::size_t growth = length - std::min(length, cached_bytes_);
        if (limit_ && !overflow_dir_.empty() && anonymous_bytes_ + growth > limit_) {
            void* base = take_file(length, overflow_dir_);
            overflow_bytes_ += length;
            return base;
        }
        char* const base = static_cast<char*>(map_fresh(length));
        std::size_t filled = 0;
        while (filled < length && !cached_.empty()) {
            const Mapping m = cached_.front();
            const std::size_t part = std::min(m.length, length - filled);
            if (mremap(m.base, part, part, MREMAP_MAYMOVE | MREMAP_FIXED, base + filled) == MAP_FAILED)
                break;  // (the map count limit, say): the rest is fresh memory
            cached_.pop_front();
            if (part < m.length) cached_.push_front({static_cast<char*>(m.base) + part, m.length - part});
            cached_bytes_ -= part;
            filled += part;
        }
        moved_bytes_ += filled;
        fresh_bytes_ += length - filled;
        anonymous_bytes_ += length - filled;
        if (filled) madvise(base, length, MADV_HUGEPAGE);  // over the moved parts too (advice only)
        return base;
    }

    void give(void* base, std::size_t length) {
        std::lock_guard lock(mutex_);
        if (spilled_.erase(base)) {  // its file goes with its mapping
            munmap(base, length);
            return;
        }
        cached_.push_back({base, length});
        cached_bytes_ += length;
    }

    // Unmaps every cached mapping (tests; a caller about to need memory outside the cache).
    void release() {
        std::lock_guard lock(mutex_);
        for (const Mapping& m : cached_) munmap(m.base, m.length);
        cached_.clear();
        anonymous_bytes_ -= cached_bytes_;
        cached_bytes_ = 0;
    }

    // Keeps the anonymous memory mapped (live and cached) under limit bytes from now on: what
    // would pass it is mapped from files in dir (see above). limit 0 or an empty dir: no bound.
    void bound_memory(std::uint64_t limit, const std::filesystem::path& dir) {
        std::lock_guard lock(mutex_);
        limit_ = limit;
        overflow_dir_ = dir;
    }
    // Anonymous bytes mapped now (live and cached), and bytes mapped from files because of the
    // bound since the start.
    std::uint64_t anonymous_bytes() const {
        std::lock_guard lock(mutex_);
        return anonymous_bytes_;
    }
    std::uint64_t overflow_bytes() const {
        std::lock_guard lock(mutex_);
        return overflow_bytes_;
    }

    // Spills the requests that follow into files in dir (an empty path: no more). Mappings taken
    // before keep what they are.
    void spill_to(const std::filesystem::path& dir) {
        std::lock_guard lock(mutex_);
        spill_dir_ = dir;
    }
    // Bytes mapped from files since the start.
    std::uint64_t spilled_bytes() const {
        std::lock_guard lock(mutex_);
        return spilled_bytes_;
    }

    std::size_t cached_bytes() const {
        std::lock_guard lock(mutex_);
        return cached_bytes_;
    }
    std::uint64_t hits() const {
        std::lock_guard lock(mutex_);
        return hits_;
    }
    std::uint64_t misses() const {
        std::lock_guard lock(mutex_);
        return misses_;
    }
    // Bytes of misses moved from cached mappings, and mapped fresh.
    std::uint64_t moved_bytes() const {
        std::lock_guard lock(mutex_);
        return moved_bytes_;
    }
    std::uint64_t fresh_bytes() const {
        std::lock_guard lock(mutex_);
        return fresh_bytes_;
    }

private:
    struct Mapping {
        void* base;
        std::size_t length;
    };

    static void* map_fresh(std::size_t length) {
        // Map one huge page more than needed, then unmap the slack on either side of the
        // 2 MB-aligned part.
        void* m = mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED) throw std::bad_alloc();
        const auto base = reinterpret_cast<std::uintptr_t>(m);
        const std::uintptr_t aligned = (base + kHugePage - 1) / kHugePage * kHugePage;
        if (aligned > base) munmap(m, aligned - base);
        if (aligned + length < base + length + kHugePage)
            munmap(reinterpret_cast<void*>(aligned + length), base + kHugePage - aligned);
        madvise(reinterpret_cast<void*>(aligned), length, MADV_HUGEPAGE);  // advice only
        return reinterpret_cast<void*>(aligned);
    }

    // A file's mapping, known as one to give() (which unmaps it and so drops its file).
    void* take_file(std::size_t length, const std::filesystem::path& dir) {
        void* base = map_file(length, dir);
        try {
            spilled_.insert(base);
        } catch (...) {
            munmap(base, length);
            throw;
        }
        return base;
    }

    static void* map_file(std::size_t length, const std::filesystem::path& dir) {
        // An unnamed file (O_TMPFILE); where the file system lacks it, a named one unlinked at once.
        int fd = open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        if (fd < 0) {
            std::string name = (dir / "dtb-spill-XXXXXX").string();
            fd = mkostemp(name.data(), O_CLOEXEC);
            if (fd >= 0) unlink(name.c_str());
        }
        const auto fail = [&](int error) {
            throw std::runtime_error("cannot spill " + std::to_string(length >> 20) + " MB to a file in " +
                                     dir.string() + ": " + std::strerror(error));
        };
        if (fd < 0) fail(errno);
        // Blocks reserved now: on file systems that write in place (ext4, xfs) a page written
        // later can then not find the disk full, which would be a SIGBUS. (Copy-on-write file
        // systems such as btrfs may still need new blocks: spill to one of the others.)
        if (const int error = posix_fallocate(fd, 0, static_cast<off_t>(length)); error != 0) {
            close(fd);
            fail(error);
        }
        void* m = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        const int map_error = errno;
        close(fd);  // the mapping keeps the file
        if (m == MAP_FAILED) fail(map_error);
        return m;
    }

    mutable std::mutex mutex_;
    std::filesystem::path spill_dir_;
    std::set<void*> spilled_;  // live file mappings (spilled or past the bound)
    std::uint64_t spilled_bytes_ = 0;
    std::uint64_t limit_ = 0;  // bound_memory
    std::filesystem::path overflow_dir_;
    std::uint64_t anonymous_bytes_ = 0, overflow_bytes_ = 0;
    std::deque<Mapping> cached_;  // oldest first
    std::size_t cached_bytes_ = 0;
    std::uint64_t hits_ = 0, misses_ = 0, moved_bytes_ = 0, fresh_bytes_ = 0;
};

}  // namespace dtb::gen
