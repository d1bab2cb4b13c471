#include "dtb/solve/transposition_table.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <new>
#include <utility>

namespace dtb::solve {

static_assert(sizeof(TableEntry) == 64);

TranspositionTable::TranspositionTable(std::size_t memory_bytes) {
    const std::size_t buckets = std::max<std::size_t>(1, memory_bytes / (sizeof(TableEntry) * kBucket));
    const std::size_t pow2 = std::bit_floor(buckets);  // a mask instead of a division per lookup
    capacity_ = pow2 * kBucket;
    bytes_ = capacity_ * sizeof(TableEntry);
    // Every entry empty (zero). Huge pages where the kernel offers them:
    // the lookups are random over the whole table, and with small pages nearly each one also
    // misses the TLB.
    void* m = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    ::madvise(m, bytes_, MADV_HUGEPAGE);
#endif
    // Written once now rather than page by page during the search (a huge page's first write
    // there costs a copy of the zero page in the middle of a node).
    std::memset(m, 0, bytes_);
    entries_ = static_cast<TableEntry*>(m);
    mask_ = pow2 - 1;
}

TranspositionTable::~TranspositionTable() {
    release();
}

TranspositionTable::TranspositionTable(TranspositionTable&& o) noexcept
    : entries_(std::exchange(o.entries_, nullptr)),
      capacity_(std::exchange(o.capacity_, 0)),
      bytes_(std::exchange(o.bytes_, 0)),
      mask_(o.mask_),
      age_(o.age_),
      used_(o.used_),
      replaced_(o.replaced_) {}

TranspositionTable& TranspositionTable::operator=(TranspositionTable&& o) noexcept {
    if (this != &o) {
        release();
        entries_ = std::exchange(o.entries_, nullptr);
        capacity_ = std::exchange(o.capacity_, 0);
        bytes_ = std::exchange(o.bytes_, 0);
        mask_ = o.mask_;
        age_ = o.age_;
        used_ = o.used_;
        replaced_ = o.replaced_;
    }
    return *this;
}

void TranspositionTable::release() {
    if (entries_ != nullptr) ::munmap(entries_, bytes_);
    entries_ = nullptr;
}

const TableEntry* TranspositionTable::find(const StateKey& key, std::uint64_t hash) const {
    const std::size_t b = bucket_of(hash);
    for (std::size_t i = b; i < b + kBucket; ++i)
        if (live(entries_[i]) && entries_[i].key == key) return &entries_[i];
    return nullptr;
}

void TranspositionTable::store(const StateKey& key, std::uint64_t hash, ProofNumber pn, ProofNumber dn,
                               std::uint32_t distance, std::uint64_t work) {
    const std::size_t b = bucket_of(hash);
    TableEntry* victim = nullptr;
    std::uint32_t victim_work = 0;
    for (std::size_t i = b; i < b + kBucket; ++i) {
        TableEntry& e = entries_[i];
        if (live(e) && e.key == key) {
            const auto w = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(work + e.work, 1, 0xFFFFFFFF));
            e.pn = pn;
            e.dn = dn;
            e.distance = distance;
            e.work = std::max(e.work, w);
            return;
        }
        const std::uint32_t e_work = live(e) ? e.work : 0;
        if (victim == nullptr || e_work < victim_work) {
            victim = &e;
            victim_work = e_work;
        }
    }
    if (victim_work == 0)
        ++used_;
    else
        ++replaced_;
    const auto w = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(work, 1, 0xFFFFFFFF));
    *victim = TableEntry{key, pn, dn, w, age_, distance};
}

void TranspositionTable::clear() {
    if (++age_ == 0) {  // wrapped: the ages of old entries could come back
        std::memset(static_cast<void*>(entries_), 0, bytes_);
        age_ = 1;
    }
    used_ = 0;
    replaced_ = 0;
}

}  // namespace dtb::solve
