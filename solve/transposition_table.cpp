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
        if (entries_[i].work != 0 && entries_[i].key == key) return &entries_[i];
    return nullptr;
}

void TranspositionTable::store(const StateKey& key, std::uint64_t hash, ProofNumber pn, ProofNumber dn,
                               std::uint64_t work) {
    const std::size_t b = bucket_of(hash);
    const auto w = static_cast<std::uint32_t>(std::clamp<std::uint64_t>(work, 1, 0xFFFFFFFF));
    TableEntry* victim = nullptr;
    for (std::size_t i = b; i < b + kBucket; ++i) {
        TableEntry& e = entries_[i];
        if (e.work != 0 && e.key == key) {
            e.pn = pn;
            e.dn = dn;
            e.work = std::max(e.work, w);
            return;
        }
        if (victim == nullptr || e.work < victim->work) victim = &e;
    }
    if (victim->work == 0)
        ++used_;
    else
        ++replaced_;
    *victim = TableEntry{key, pn, dn, w};
}

void TranspositionTable::clear() {
    std::fill(entries_.begin(), entries_.end(), TableEntry{});
    used_ = 0;
    replaced_ = 0;
}

}  // namespace dtb::solve
