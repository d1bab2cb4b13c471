#include "dtb/solve/transposition_table.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

namespace dtb::solve {

static_assert(sizeof(TableEntry) == 64);

namespace {
constexpr std::size_t kBucketBytes = TranspositionTable::kBucket * sizeof(TableEntry) + sizeof(std::uint64_t);
}

TranspositionTable::TranspositionTable(std::size_t memory_bytes) {
    buckets_ = std::max<std::size_t>(1, memory_bytes / kBucketBytes);
    bytes_ = buckets_ * kBucketBytes;
    // Huge pages where the kernel offers them: the lookups are random over the whole table, and
    // with small pages nearly each one also misses the TLB.
    void* m = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    ::madvise(m, bytes_, MADV_HUGEPAGE);
#endif
    // Every entry empty (zero), written once now rather than page by page during the search (a
    // huge page's first write there costs a copy of the zero page in the middle of a node).
    std::memset(m, 0, bytes_);
    entries_ = static_cast<TableEntry*>(m);
    tags_ = reinterpret_cast<std::uint64_t*>(entries_ + buckets_ * kBucket);
}

TranspositionTable::~TranspositionTable() {
    release();
}

TranspositionTable::TranspositionTable(TranspositionTable&& o) noexcept
    : entries_(std::exchange(o.entries_, nullptr)),
      tags_(std::exchange(o.tags_, nullptr)),
      buckets_(std::exchange(o.buckets_, 0)),
      bytes_(std::exchange(o.bytes_, 0)),
      age_(o.age_),
      used_(o.used_),
      replaced_(o.replaced_) {}

TranspositionTable& TranspositionTable::operator=(TranspositionTable&& o) noexcept {
    if (this != &o) {
        release();
        entries_ = std::exchange(o.entries_, nullptr);
        tags_ = std::exchange(o.tags_, nullptr);
        buckets_ = std::exchange(o.buckets_, 0);
        bytes_ = std::exchange(o.bytes_, 0);
        age_ = o.age_;
        used_ = o.used_;
        replaced_ = o.replaced_;
    }
    return *this;
}

void TranspositionTable::release() {
    if (entries_ != nullptr) ::munmap(entries_, bytes_);
    entries_ = nullptr;
    tags_ = nullptr;
}

const TableEntry* TranspositionTable::find(const StateKey& key, std::uint64_t hash) const {
    const std::size_t b = bucket_of(hash);
    const std::uint64_t tags = tags_[b];
    const std::uint16_t t = tag_of(hash);
    for (std::size_t i = 0; i < kBucket; ++i) {
        if (static_cast<std::uint16_t>(tags >> (16 * i)) != t) continue;
        const TableEntry& e = entries_[b * kBucket + i];
        if (live(e) && e.key == key) return &e;
    }
    return nullptr;
}

void TranspositionTable::store(const StateKey& key, std::uint64_t hash, ProofNumber pn, ProofNumber dn,
                               std::uint32_t distance, std::uint64_t work) {
    const std::size_t b = bucket_of(hash);
    const std::uint16_t t = tag_of(hash);
    TableEntry* bucket = entries_ + b * kBucket;
    std::size_t victim = kBucket;
    std::uint32_t victim_work = 0;
    for (std::size_t i = 0; i < kBucket; ++i) {
        const std::uint16_t tag = static_cast<std::uint16_t>(tags_[b] >> (16 * i));
        TableEntry& e = bucket[i];
        const bool is_live = tag != 0 && live(e);  // an entry never written is not read
        if (is_live && tag == t && e.key == key) {
            const auto w = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(work + e.work, 1, 0xFFFFFFFF));
            e.pn = pn;
            e.dn = dn;
            e.distance = distance;
            e.work = std::max(e.work, w);
            return;
        }
        const std::uint32_t e_work = is_live ? e.work : 0;
        if (victim == kBucket || e_work < victim_work) {
            victim = i;
            victim_work = e_work;
        }
    }
    if (victim_work == 0)
        ++used_;
    else
        ++replaced_;
    const auto w = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(work, 1, 0xFFFFFFFF));
    bucket[victim] = TableEntry{key, pn, dn, w, age_, distance};
    const unsigned shift = 16 * static_cast<unsigned>(victim);
    tags_[b] = (tags_[b] & ~(std::uint64_t{0xFFFF} << shift)) | (std::uint64_t{t} << shift);
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
