// Per-position arrays on transparent huge pages. The retrograde passes touch these arrays at
// random (un-moves, lookups into finished slices); with 4 KB pages nearly every such access also
// misses the TLB, and the page walk costs as much as the cache miss. Arrays of 2 MB or more are
// therefore 2 MB-aligned and marked MADV_HUGEPAGE (the kernel's "madvise" THP mode honours it;
// where THP is off it is a no-op and only the alignment remains).
#pragma once
#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
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
        const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        void* p = std::aligned_alloc(kHugePage, rounded);
        if (!p) throw std::bad_alloc();
        madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves ordinary pages
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) {
        if (n * sizeof(T) < kHugePage)
            ::operator delete(p);
        else
            std::free(p);
    }
    template <class U>
    bool operator==(const HugePageAllocator<U>&) const {
        return true;
    }

private:
    static constexpr std::size_t kHugePage = std::size_t{2} << 20;
};

// One value per position of a slice.
template <class T>
using BigArray = std::vector<T, HugePageAllocator<T>>;

}  // namespace dtb::gen
