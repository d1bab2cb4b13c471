#include "dtb/solve/transposition_table.hpp"

#include <algorithm>
#include <bit>

namespace dtb::solve {

TranspositionTable::TranspositionTable(std::size_t memory_bytes) {
    const std::size_t buckets = std::max<std::size_t>(1, memory_bytes / (sizeof(TableEntry) * kBucket));
    const std::size_t pow2 = std::bit_floor(buckets);  // a mask instead of a division per lookup
    entries_.assign(pow2 * kBucket, TableEntry{});
    mask_ = pow2 - 1;
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
    const auto w = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(work, 1, 0xFFFFFFFF));
    TableEntry* victim = nullptr;
    std::uint32_t victim_work = 0;
    for (std::size_t i = b; i < b + kBucket; ++i) {
        TableEntry& e = entries_[i];
        if (live(e) && e.key == key) {
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
    *victim = TableEntry{key, pn, dn, w, age_, distance};
}

void TranspositionTable::clear() {
    if (++age_ == 0) {  // wrapped: the ages of old entries could come back
        std::fill(entries_.begin(), entries_.end(), TableEntry{});
        age_ = 1;
    }
    used_ = 0;
    replaced_ = 0;
}

}  // namespace dtb::solve
