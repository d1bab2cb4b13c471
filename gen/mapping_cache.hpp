// Freed huge-page mappings kept for the next allocations.
//
// Why: a solve allocates and frees the same sizes over and over (both sides of a pair, the
// arrays of each rule set, the writers' buffers, 2 MB frontier blocks by the thousand), and a
// fresh mapping costs its first touch: the kernel zeroes every page, and on a VM that returns
// freed memory to its host (free page reporting) the host must back it again.
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
// Spill files are kept too (give), with the pages the kernel still holds of them: the next file
// mapping takes a kept file's head, or has kept files moved into its range (mremap, as above),
// and only the rest is a new file. Why: a page that the kernel has not held since a VM's host
// took it back costs its first touch, and a pair solved by levels fills gigabytes of page cache
// for its files at its start and again whenever it frees an array and maps the next. A kept
// file's pages that the kernel has evicted meanwhile would be read back from disk on the next
// touch, a read of data no one needs: before a kept file is handed out, its ranges not in memory
// (mincore) are zeroed in the file (FALLOC_FL_ZERO_RANGE: unwritten extents, read as zeroes
// without a disk read, blocks still reserved). Kept files hold their disk blocks until
// release_files(): the driver calls it before a pair not solved by levels and at the end of a
// run, and counts them as free space only up to a pair's own spilled arrays.
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
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace dtb::gen {

class MappingCache {
  public:
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;

    // One per generator run (gen/pair_steps.hpp), verifier or test; every BigArray is handed the
    // cache it maps from (gen/big_array.hpp) and must be freed before the cache goes.
    MappingCache() = default;
    ~MappingCache() {
        release();
        release_files();
    }
    MappingCache(const MappingCache&) = delete;
    MappingCache& operator=(const MappingCache&) = delete;

    // Requests from this size on are spilled: per-position arrays, not the 2 MB blocks of the
    // frontier lists, which are written and read in order and freed as they go.
    static constexpr std::size_t kSpillMinimum = std::size_t{4} << 20;

    // A 2 MB-aligned mapping of length bytes (a multiple of kHugePage), marked MADV_HUGEPAGE; or,
    // while spilling, a file's shared mapping (page-aligned).
    void* take(std::size_t length) {
        std::lock_guard lock(mutex_);
        live_bytes_ += length;
        peak_live_bytes_ = std::max(peak_live_bytes_, live_bytes_);
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
        give_locked(base, length);
    }

    // Unmaps the kept spill files, which frees their disk blocks and pages (the end of a run;
    // before a pair that is not spilled; tests).
    void release_files() {
        std::lock_guard lock(mutex_);
        for (const KeptFile& k : kept_files_) munmap(k.base, k.segment.length);
        kept_files_.clear();
        kept_file_bytes_ = 0;
    }
    // Bytes of spill files kept for reuse (their disk blocks are taken), and bytes of file
    // mappings served from them since the start.
    std::uint64_t kept_file_bytes() const {
        std::lock_guard lock(mutex_);
        return kept_file_bytes_;
    }
    std::uint64_t reused_file_bytes() const {
        std::lock_guard lock(mutex_);
        return reused_file_bytes_;
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
    // Where the run's work files go (bound_memory's dir; empty: none, work stays in memory).
    std::filesystem::path work_dir() const {
        std::lock_guard lock(mutex_);
        return overflow_dir_;
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

    // Bytes of the mappings handed out and not given back (arrays and frontier blocks, in memory or
    // in files), and their peak since reset_peak().
    std::uint64_t live_bytes() const {
        std::lock_guard lock(mutex_);
        return live_bytes_;
    }
    std::uint64_t peak_live_bytes() const {
        std::lock_guard lock(mutex_);
        return peak_live_bytes_;
    }
    void reset_peak() {
        std::lock_guard lock(mutex_);
        peak_live_bytes_ = live_bytes_;
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

    // Tests only (tests/gen/unwritten.cpp): a byte every new array is filled with when it is
    // allocated, or -1 (the default) for none. Arrays are not written when they are allocated
    // (gen/big_array.hpp), so a pass that read an element before any pass wrote it would read
    // whatever the memory held: tables generated with different fills would then differ.
    void fill_new_arrays(int byte) { new_array_fill_.store(byte, std::memory_order_relaxed); }
    int new_array_fill() const { return new_array_fill_.load(std::memory_order_relaxed); }

  private:
    // give(), under the lock (take_file gives back a mapping it could not hand out).
    void give_locked(void* base, std::size_t length) {
        live_bytes_ -= length;
        if (spilled_.erase(base)) {  // a small file mapping: its file goes with it
            munmap(base, length);
            return;
        }
        if (const auto live = live_files_.find(base); live != live_files_.end()) {  // kept, pages and all
            keep(static_cast<char*>(base), live->second);
            live_files_.erase(live);
            return;
        }
        cached_.push_back({base, length});
        cached_bytes_ += length;
    }

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

    // An open spill file; closed when no mapping of it is live or kept any more.
    struct SpillFile {
        int fd;
        std::filesystem::path dir;
        SpillFile(int f, std::filesystem::path d) : fd(f), dir(std::move(d)) {}
        ~SpillFile() { close(fd); }
        SpillFile(const SpillFile&) = delete;
        SpillFile& operator=(const SpillFile&) = delete;
    };
    // A run of a spill file as it is mapped: a file mapping is one or more of them, end to end.
    struct FileSegment {
        std::shared_ptr<const SpillFile> file;
        off_t offset;
        std::size_t length;
    };
    struct KeptFile {
        char* base;
        FileSegment segment;
    };

    // A file's mapping, known as one to give(). From kSpillMinimum on, kept files are used first
    // (see the top of this file) and the mapping is kept when freed; smaller ones (a frontier
    // block past the bound: thousands, each would hold a descriptor) are files of their own that
    // go with their mappings.
    void* take_file(std::size_t length, const std::filesystem::path& dir) {
        if (length < kSpillMinimum) {
            const int fd = new_file(length, dir);
            void* base = nullptr;
            try {
                base = map_fd(fd, length, nullptr, dir);
            } catch (...) {
                close(fd);
                throw;
            }
            close(fd);  // the mapping keeps the file
            try {
                spilled_.insert(base);
            } catch (...) {
                munmap(base, length);
                throw;
            }
            return base;
        }
        // What can throw (allocations) comes before the first change to the bookkeeping: the
        // new mapping's entry in live_files_ and room for its segments. A kept piece split in two
        // keeps its rest in its own place.
        std::map<void*, std::vector<FileSegment>> slot;
        slot.emplace(nullptr, std::vector<FileSegment>{});
        auto entry = slot.extract(slot.begin());
        std::vector<FileSegment>& segments = entry.mapped();  // the kept ones first, then the new file if any
        segments.reserve(kept_files_.size() + 1);
        auto best = kept_files_.end();
        for (auto it = kept_files_.begin(); it != kept_files_.end(); ++it)
            if (it->segment.file->dir == dir && it->segment.length >= length &&
                (best == kept_files_.end() || it->segment.length < best->segment.length))
                best = it;
        std::size_t reused = 0;
        char* base = nullptr;
        if (best != kept_files_.end()) {  // the head of one kept file
            const KeptFile k = *best;
            if (k.segment.length > length)
                cut_head(*best, length);
            else
                kept_files_.erase(best);
            kept_file_bytes_ -= length;
            base = k.base;
            segments.push_back({k.segment.file, k.segment.offset, length});
            reused = length;
        } else {  // kept files moved into a new range, oldest first; a new file for the rest
            void* range = mmap(nullptr, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
            if (range == MAP_FAILED) throw std::bad_alloc();
            base = static_cast<char*>(range);
            std::size_t filled = 0;
            for (auto it = kept_files_.begin(); filled < length && it != kept_files_.end();) {
                if (it->segment.file->dir != dir) {
                    ++it;
                    continue;
                }
                const KeptFile k = *it;
                const std::size_t part = std::min(k.segment.length, length - filled);
                if (mremap(k.base, part, part, MREMAP_MAYMOVE | MREMAP_FIXED, base + filled) == MAP_FAILED) break;
                if (part < k.segment.length)
                    cut_head(*it, part);
                else
                    it = kept_files_.erase(it);
                kept_file_bytes_ -= part;
                segments.push_back({k.segment.file, k.segment.offset, part});
                filled += part;
            }
            reused = filled;
            if (filled < length) {
                const std::size_t rest = length - filled;
                try {
                    const int fd = new_file(rest, dir);
                    std::shared_ptr<const SpillFile> file;
                    try {
                        file = std::make_shared<const SpillFile>(fd, dir);  // from here on, it closes fd
                    } catch (...) {
                        close(fd);
                        throw;
                    }
                    map_fd(file->fd, rest, base + filled, dir);
                    segments.push_back({std::move(file), 0, rest});
                } catch (...) {  // the moved files stay kept, where they now are
                    keep(base, segments);
                    munmap(base + filled, length - filled);
                    throw;
                }
            }
        }
        reused_file_bytes_ += reused;
        entry.key() = base;
        live_files_.insert(std::move(entry));  // a node made beforehand: no allocation
        // Reused parts: what the kernel evicted meanwhile reads as zeroes, without a disk read.
        char* at = base;
        for (const FileSegment& segment : live_files_.at(base)) {
            if (at >= base + reused) break;
            if (!zero_evicted(at, segment)) {  // its blocks are no longer all reserved: give it back
                const std::size_t bytes = segment.length;
                give_locked(base, length);
                throw std::runtime_error("cannot spill " + std::to_string(length >> 20) + " MB to a file in " +
                                         dir.string() + ": no space to reserve " + std::to_string(bytes >> 20) +
                                         " MB of a kept file again");
            }
            at += segment.length;
        }
        return base;
    }

    // The segments of a file mapping at base, end to end, kept as pieces of their own.
    void keep(char* base, const std::vector<FileSegment>& segments) {
        for (const FileSegment& segment : segments) {
            kept_files_.push_back({base, segment});
            kept_file_bytes_ += segment.length;
            base += segment.length;
        }
    }
    // What is left of a kept piece once its first `bytes` are taken.
    static void cut_head(KeptFile& k, std::size_t bytes) {
        k.base += bytes;
        k.segment.offset += static_cast<off_t>(bytes);
        k.segment.length -= bytes;
    }

    // Zeroes, in the file, the pages of a kept segment that are not in memory (see the top).
    // Only a saving: where it cannot be done, such pages are read back as they were written back,
    // which costs a read and nothing else (reused memory is never promised zeroes). False when the
    // segment's blocks could not be reserved again afterwards (a file system whose zeroing frees
    // blocks, on a full disk): a page written there later would be a SIGBUS.
    static bool zero_evicted(char* at, const FileSegment& segment) {
        const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
        const std::size_t pages = segment.length / page;
        std::vector<unsigned char> resident;
        try {
            resident.resize(pages);
        } catch (const std::bad_alloc&) {
            return true;
        }
        if (mincore(at, segment.length, resident.data()) != 0) return true;
        bool zeroed = false;
        for (std::size_t p = 0; p < pages;) {
            if (resident[p] & 1) {
                ++p;
                continue;
            }
            const std::size_t first = p;
            while (p < pages && !(resident[p] & 1)) ++p;
            if (fallocate(segment.file->fd, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE,
                          segment.offset + static_cast<off_t>(first * page),
                          static_cast<off_t>((p - first) * page)) != 0)
                break;
            zeroed = true;
        }
        // Where zeroing released blocks (xfs may), they are reserved again; ext4 keeps them.
        return !zeroed || posix_fallocate(segment.file->fd, segment.offset, static_cast<off_t>(segment.length)) == 0;
    }

    // A new unnamed file of length bytes in dir, its blocks reserved.
    static int new_file(std::size_t length, const std::filesystem::path& dir) {
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
        return fd;
    }
    // fd's first length bytes mapped shared, at `at` when given (MAP_FIXED, over a reserved range).
    static void* map_fd(int fd, std::size_t length, void* at, const std::filesystem::path& dir) {
        void* m = mmap(at, length, PROT_READ | PROT_WRITE, MAP_SHARED | (at ? MAP_FIXED : 0), fd, 0);
        if (m == MAP_FAILED) {
            const int error = errno;
            throw std::runtime_error("cannot map a spill file of " + std::to_string(length >> 20) + " MB in " +
                                     dir.string() + ": " + std::strerror(error));
        }
        return m;
    }

    mutable std::mutex mutex_;
    std::filesystem::path spill_dir_;
    std::set<void*> spilled_;  // live small file mappings (under kSpillMinimum), each its own file
    std::map<void*, std::vector<FileSegment>> live_files_;  // live file mappings from kSpillMinimum on
    std::deque<KeptFile> kept_files_;                       // freed ones, oldest first
    std::uint64_t kept_file_bytes_ = 0, reused_file_bytes_ = 0;
    std::uint64_t spilled_bytes_ = 0;
    std::uint64_t limit_ = 0;  // bound_memory
    std::filesystem::path overflow_dir_;
    std::uint64_t anonymous_bytes_ = 0, overflow_bytes_ = 0;
    std::uint64_t live_bytes_ = 0, peak_live_bytes_ = 0;
    std::deque<Mapping> cached_;  // oldest first
    std::size_t cached_bytes_ = 0;
    std::uint64_t hits_ = 0, misses_ = 0, moved_bytes_ = 0, fresh_bytes_ = 0;
    std::atomic<int> new_array_fill_{-1};
};

}  // namespace dtb::gen
