// BlockCache: decompressed table blocks kept in memory under a byte budget. Shared by every thread
// of one Tablebase.
//
// Eviction is CLOCK (second chance), an approximation of least recently used: a hit marks its
// block referenced; to make room, a hand sweeps the blocks, clearing marks and evicting the first
// block found unmarked. Each shard is an open-addressing hash table (linear probing,
// backward-shift deletion) of pointers to immutable blocks; the hand sweeps its slots.
//
// Thread safety: every member may be called from any number of threads at once.
//  - Hits take no lock and write no shared memory (the reference mark is written only when it
//    was clear): a reader announces the current epoch in its own cache line, follows the slot
//    pointers, reads the value, and withdraws. So threads reading the same blocks share those
//    lines read-only instead of passing a lock between cores.
//  - Inserts, evictions and table growth hold the shard's mutex (shards: a power of two chosen
//    from the budget, each with its own share of it). A reader racing with them may miss a
//    block that is there (then it retries under the mutex) but never sees a wrong one: a block's
//    key is checked and its bytes never change.
//  - Evicted blocks and outgrown slot arrays are freed only when every reader that could still
//    hold them has withdrawn (epoch-based reclamation, see cache.cpp): at once when no lookup is
//    in flight, else at the shard's next eviction. Such blocks no longer count in
//    CacheStats::bytes, so memory may briefly exceed the budget by the blocks evicted under
//    readers. Up to kReaderSlots threads per cache read lock-free; further threads take the
//    shard's mutex for every lookup.
//
// Blocks are stored packed at their table's bits_per_entry (2 bits per WDL entry), so a budget
// holds up to 8 times more WDL entries than the uint16 values TableReader decodes to.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "dtb/format/bit_packing.hpp"

namespace dtb::probe {

// A block's identity: which table (an id the owner assigns) and which block of it.
struct BlockKey {
    std::uint32_t table = 0;
    std::uint64_t block = 0;
    bool operator==(const BlockKey&) const = default;
};

// One block's values, packed as in a table block (format/bit_packing.hpp).
struct PackedBlock {
    std::unique_ptr<std::uint8_t[]> bytes;
    std::size_t size = 0;  // bytes
    int bits = 16;

    static PackedBlock pack(const std::uint16_t* values, std::size_t n, int bits);
    std::uint16_t get(std::size_t j) const { return format::packed_entry(bytes.get(), bits, j); }
};

struct CacheStats {
    std::uint64_t hits = 0, misses = 0, insertions = 0, evictions = 0;
    std::size_t bytes = 0;   // charged bytes held now (payload + bookkeeping)
    std::size_t budget = 0;  // the configured budget
    std::size_t blocks = 0;  // blocks held now
    int shards = 0;
};

class BlockCache {
  public:
    // `budget_bytes` caps what the cache holds (payload plus a fixed bookkeeping charge per
    // block); a block larger than its shard's share is still held alone until the next insert.
    // shards = 0 picks a power of two from the budget (at least 256 KB per shard, at most 64).
    explicit BlockCache(std::size_t budget_bytes, int shards = 0);
    ~BlockCache();
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;

    // The entry `j` of the cached block `key`, or nullopt when the block is not cached (counted as
    // a miss). Marks the block referenced.
    std::optional<std::uint16_t> lookup(const BlockKey& key, std::size_t j);
    // The lock-free half of lookup() for n entries at once: out[i] = entry js[i] of block
    // keys[i] if the block is found without a lock (counted as a hit), else nullopt, not counted:
    // the block is absent, was moved by a writer meanwhile, or this thread has no reader slot;
    // lookup() then settles it (and counts the miss, once per block read). The memory loads of
    // the lookups (slot, block header, packed byte) overlap instead of following one another: a
    // one-ply search reads some 20-50 entries scattered over a table's blocks, each a cache
    // miss. bits[i]: the packed width of block i's table, only to prefetch its byte.
    static constexpr std::size_t kBatch = 64;  // entries per epoch announcement
    void lookup_many(std::size_t n, const BlockKey* keys, const std::size_t* js, const std::uint8_t* bits,
                     std::optional<std::uint16_t>* out);

    // Stores a block (unless another thread stored the same key first, in which case the
    // existing copy is kept) and returns its entry j, evicting blocks of the shard (CLOCK order)
    // until the shard is within its share of the budget.
    std::uint16_t insert(const BlockKey& key, PackedBlock block, std::size_t j);

    // Whether the block is cached, without marking it (for tests and diagnostics).
    bool contains(const BlockKey& key) const;

    CacheStats stats() const;
    // What one cached block of `payload_bytes` is charged against the budget.
    static std::size_t charge(std::size_t payload_bytes);

    static constexpr int kReaderSlots = 128;
    struct Readers;  // epochs of the threads reading (internal)

  private:
    struct Shard;
    Shard& shard_of(const BlockKey& key) const;
    std::optional<std::uint16_t> locked_lookup(Shard& s, std::uint64_t key, std::size_t j);

    std::shared_ptr<Readers> readers_;  // shared with each reading thread's registration (weak)
    std::unique_ptr<Shard[]> shards_;
    int num_shards_ = 1;
    int shard_shift_ = 64;
    std::size_t budget_ = 0;
};

}  // namespace dtb::probe
