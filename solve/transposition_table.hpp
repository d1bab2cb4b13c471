// The proof search's transposition table: a fixed number of entries (the memory budget), in
// buckets of four, each entry the whole state (no key collisions: a stored value is always the
// value of its own state). A new state replaces the entry of its bucket whose subtree took the
// least work to search, the one cheapest to search again. A full table loses work, never
// correctness: a lost entry is searched again.
//
// Each bucket also has a word of four 16-bit tags (bits of its entries' hashes) apart from the
// entries: a lookup reads the tags' cache line, then only the entries whose tag matches (a state
// not in the table costs one line, not four). A tag only filters; the whole key decides.
#pragma once
#include <cstddef>
#include <cstdint>

#include "dtb/solve/proof_numbers.hpp"
#include "dtb/solve/state_key.hpp"

namespace dtb::solve {

// One cache line: a lookup reads no line it does not need.
struct alignas(64) TableEntry {
    StateKey key;
    ProofNumber pn = 0;
    ProofNumber dn = 0;
    std::uint32_t work = 0;      // nodes searched below this state, 0 for an empty entry
    std::uint32_t age = 0;       // the table's age when stored: older entries count as empty
    std::uint32_t distance = 0;  // proven or disproven: NodeValue::distance
};

class TranspositionTable {
  public:
    static constexpr std::size_t kBucket = 4;

    // memory_bytes: the budget (entries and tags); at least one bucket. Throws std::bad_alloc
    // when refused.
    explicit TranspositionTable(std::size_t memory_bytes);
    ~TranspositionTable();
    TranspositionTable(TranspositionTable&& o) noexcept;
    TranspositionTable& operator=(TranspositionTable&& o) noexcept;
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    // Lookups in two steps ahead of find, so that the cache misses of many lookups (a node's
    // children) overlap: prefetch asks for the bucket's tags; prefetch_entries, once they are
    // there, for the entries they point to.
    void prefetch(std::uint64_t hash) const { __builtin_prefetch(&tags_[bucket_of(hash)]); }
    void prefetch_entries(std::uint64_t hash) const {
        const std::size_t b = bucket_of(hash);
        const std::uint64_t tags = tags_[b];
        const std::uint16_t t = tag_of(hash);
        for (std::size_t i = 0; i < kBucket; ++i)
            if (static_cast<std::uint16_t>(tags >> (16 * i)) == t) __builtin_prefetch(&entries_[b * kBucket + i]);
    }
    const TableEntry* find(const StateKey& key, std::uint64_t hash) const;
    // Stores a state's numbers; its work is `work` plus what the entry of the same state held.
    void store(const StateKey& key, std::uint64_t hash, ProofNumber pn, ProofNumber dn, std::uint32_t distance,
               std::uint64_t work);
    void clear();  // every entry out, in constant time (entries of an older age are empty)

    std::size_t capacity() const { return buckets_ * kBucket; }
    std::size_t used() const { return used_; }
    std::uint64_t replaced() const { return replaced_; }

  private:
    // The high bits of the hash choose the bucket (a multiply, not a division: any number of
    // buckets), the low ones the tag; never 0, the tag of an entry never written.
    __extension__ typedef unsigned __int128 Wide;  // GCC's and Clang's; __extension__: no pedantic warning
    std::size_t bucket_of(std::uint64_t hash) const {
        return static_cast<std::size_t>((static_cast<Wide>(hash) * buckets_) >> 64);
    }
    static std::uint16_t tag_of(std::uint64_t hash) { return static_cast<std::uint16_t>(hash | 1); }
    bool live(const TableEntry& e) const { return e.work != 0 && e.age == age_; }
    void release();
    TableEntry* entries_ = nullptr;  // mapped, as are the tags after them; work 0: empty
    std::uint64_t* tags_ = nullptr;  // per bucket, entry i's tag in bits 16i..16i+15
    std::size_t buckets_ = 0;
    std::size_t bytes_ = 0;
    std::uint32_t age_ = 1;
    std::size_t used_ = 0;
    std::uint64_t replaced_ = 0;
};

}  // namespace dtb::solve
