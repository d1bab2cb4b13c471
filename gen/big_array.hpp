// Per-position arrays on transparent huge pages. The retrograde passes touch these arrays at
// random (un-moves, lookups into finished slices); with 4 KB pages nearly every such access also
// misses the TLB, and the page walk costs as much as the cache miss. Arrays of 2 MB or more are
// therefore mapped on their own, 2 MB-aligned, and marked MADV_HUGEPAGE (the kernel's "madvise"
// THP mode honours it; where THP is off it is a no-op). Freed, they wait in a cache for the next
// array of their size, and go back to the system when a new mapping needs room
// (gen/mapping_cache.hpp). Neither sized construction nor a reused mapping zeroes (see
// HugePageAllocator::construct): every element must be written before it is read.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "dtb/gen/mapping_cache.hpp"
#include "dtb/gen/parallel.hpp"

namespace dtb::gen {

// Maps its arrays from the MappingCache it is given: there is no default allocator, so every
// BigArray names the cache it maps from (the generator's run owns one, gen/pair_steps.hpp), and
// an array, moved or swapped, keeps its allocator (and its cache) with its memory.
template <class T>
class HugePageAllocator {
  public:
    using value_type = T;
    using propagate_on_container_copy_assignment = std::true_type;
    using propagate_on_container_move_assignment = std::true_type;
    using propagate_on_container_swap = std::true_type;

    HugePageAllocator(MappingCache& cache) noexcept : cache_(&cache) {}  // NOLINT: implicit by design
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>& other) noexcept : cache_(other.cache_) {}

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        void* p = bytes < kHugePage ? ::operator new(bytes) : cache_->take(rounded(bytes));
        if (const int fill = cache_->new_array_fill(); fill >= 0) std::memset(p, fill, bytes);
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePage)
            ::operator delete(p);
        else
            cache_->give(p, rounded(bytes));
    }
    // Value-initialisation (vector(n), resize(n)) is default-initialisation here: a trivial T is
    // left unwritten, so that a caller that overwrites every element (assign_parallel) does not
    // pay for zeroing it first. Constructions with arguments are as usual.
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
    template <class U>
    bool operator==(const HugePageAllocator<U>& other) const {
        return cache_ == other.cache_;
    }

  private:
    template <class U>
    friend class HugePageAllocator;
    static constexpr std::size_t kHugePage = MappingCache::kHugePage;
    static constexpr std::size_t rounded(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }

    MappingCache* cache_;
};

// One value per position of a slice.
template <class T>
using BigArray = std::vector<T, HugePageAllocator<T>>;

// Frees a's memory now (clear() would keep it), leaving a empty with its cache.
template <class T>
void free_array(BigArray<T>& a) {
    BigArray<T>(a.get_allocator()).swap(a);
}

// n copies of value, written by all threads: the first touch of each page (the kernel zeroes
// it, then the value is written) then runs in parallel instead of on the thread that
// allocates, which would leave the other cores idle while a slice's arrays are first touched.
template <class T>
void assign_parallel(BigArray<T>& a, std::size_t n, T value, int threads = 0) {
    free_array(a);
    a.resize(n);  // default-initialised (HugePageAllocator::construct): not written yet
    parallel_for_chunks(
        n,
        [&](std::uint64_t begin, std::uint64_t end) {
            std::fill(a.begin() + static_cast<std::ptrdiff_t>(begin), a.begin() + static_cast<std::ptrdiff_t>(end),
                      value);
        },
        {}, threads);
}

}  // namespace dtb::gen
