// Per-position arrays on transparent huge pages. The retrograde passes touch these arrays at
// random (un-moves, lookups into finished slices); with 4 KB pages nearly every such access also
// misses the TLB, and the page walk costs as much as the cache miss. Arrays of 2 MB or more are
// therefore mapped on their own, 2 MB-aligned, and marked MADV_HUGEPAGE (the kernel's "madvise"
// THP mode honours it; where THP is off it is a no-op). Being mappings of their own, they go back
// to the system when freed, whatever malloc's thresholds.
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace dtb::gen {

template <class T>
class HugePageAllocator {
public:
    using value_type = T;
    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) {}

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePage) return static_cast<T*>(::operator new(bytes));
        const std::size_t length = rounded(bytes);
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
        return reinterpret_cast<T*>(aligned);
    }
    void deallocate(T* p, std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePage)
            ::operator delete(p);
        else
            munmap(p, rounded(bytes));
    }
    template <class U>
    bool operator==(const HugePageAllocator<U>&) const {
        return true;
    }

private:
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;
    static constexpr std::size_t rounded(std::size_t bytes) { return (bytes + kHugePage - 1) / kHugePage * kHugePage; }
};

// One value per position of a slice.
template <class T>
using BigArray = std::vector<T, HugePageAllocator<T>>;

}  // namespace dtb::gen
