// The proof search's transposition table: a fixed number of entries (the memory budget), in
// buckets of four, each entry the whole state (no key collisions: a stored value is always the
// value of its own state). A new state replaces the entry of its bucket whose subtree took the
// least work to search, the one cheapest to search again. A full table loses work, never
// correctness: a lost entry is searched again.
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

    // memory_bytes: the budget; at least one bucket. Throws std::bad_alloc when refused.
    explicit TranspositionTable(std::size_t memory_bytes);
    ~TranspositionTable();
    TranspositionTable(TranspositionTable&& o) noexcept;
    TranspositionTable& operator=(TranspositionTable&& o) noexcept;
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    // Asks for the bucket of `hash` ahead of a find or store (the lookups of a node's children
    // overlap their cache misses).
    void prefetch(std::uint64_t hash) const {
        const char* b = reinterpret_cast<const char*>(entries_ + bucket_of(hash));
        for (std::size_t line = 0; line < kBucket; ++line) __builtin_prefetch(b + 64 * line);
    }
    const TableEntry* find(const StateKey& key, std::uint64_t hash) const;
    // Stores a state's numbers; its work is `work` plus what the entry of the same state held.
    void store(const StateKey& key, std::uint64_t hash, ProofNumber pn, ProofNumber dn, std::uint32_t distance,
               std::uint64_t work);
    void clear();  // every entry out, in constant time (entries of an older age are empty)

    std::size_t capacity() const { return capacity_; }
    std::size_t used() const { return used_; }
    std::uint64_t replaced() const { return replaced_; }

  private:
    std::size_t bucket_of(std::uint64_t hash) const { return static_cast<std::size_t>(hash & mask_) * kBucket; }
    bool live(const TableEntry& e) const { return e.work != 0 && e.age == age_; }
    void release();
    TableEntry* entries_ = nullptr;  // mapped; an entry of work 0 is empty
    std::size_t capacity_ = 0;
    std::size_t bytes_ = 0;
    std::uint64_t mask_ = 0;
    std::uint32_t age_ = 1;
    std::size_t used_ = 0;
    std::uint64_t replaced_ = 0;
};

}  // namespace dtb::solve
