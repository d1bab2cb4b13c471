// BlockCache: sharded CLOCK cache over open-addressing hash tables (see cache.hpp).
#include "probe/cache.hpp"

#include <algorithm>
#include <bit>
#include <mutex>
#include <vector>

namespace dtb::probe {

namespace {

// Fixed charge per cached block: its slot (twice, for the load factor) and allocator overhead.
constexpr std::size_t kBookkeepingBytes = 64;
constexpr std::size_t kMinShardBytes = 256 * 1024;
constexpr int kMaxShards = 64;
constexpr std::uint64_t kEmptyKey = ~std::uint64_t{0};

// Table ids fit 24 bits and block numbers 40 (2^40 blocks of at least 64 entries each is far
// beyond any slice an index can hold).
std::uint64_t pack_key(const BlockKey& k) {
    return (static_cast<std::uint64_t>(k.table) << 40) | k.block;
}

std::uint64_t mix(std::uint64_t h) {
    h ^= h >> 31;
    h *= 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
    return h;
}

}  // namespace

PackedBlock PackedBlock::pack(const std::uint16_t* values, std::size_t n, int bits) {
    PackedBlock b;
    b.bits = bits;
    b.size = (n * static_cast<std::size_t>(bits) + 7) / 8;
    b.bytes = std::make_unique<std::uint8_t[]>(b.size);  // zeroed
    std::uint8_t* out = b.bytes.get();
    if (bits == 16) {
        for (std::size_t j = 0; j < n; ++j) {
            out[2 * j] = static_cast<std::uint8_t>(values[j]);
            out[2 * j + 1] = static_cast<std::uint8_t>(values[j] >> 8);
        }
        return b;
    }
    const unsigned mask = (1u << bits) - 1;
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t bit = j * static_cast<std::size_t>(bits);
        out[bit >> 3] |= static_cast<std::uint8_t>((values[j] & mask) << (bit & 7));
    }
    return b;
}

struct BlockCache::Shard {
    struct Slot {
        std::uint64_t key = kEmptyKey;
        std::uint8_t* bytes = nullptr;  // owned (new[]), nullptr when empty
        std::uint32_t size = 0;
        std::uint8_t bits = 0;
        bool referenced = false;
    };

    mutable std::mutex mutex;
    std::vector<Slot> slots = std::vector<Slot>(16);  // capacity a power of two, at most half full
    std::size_t count = 0;
    std::size_t hand = 0;
    std::size_t bytes = 0;
    std::size_t budget = 0;
    std::uint64_t hits = 0, misses = 0, insertions = 0, evictions = 0;

    ~Shard() {
        for (Slot& s : slots) delete[] s.bytes;
    }
    std::size_t mask() const { return slots.size() - 1; }
    // The slot holding key, or the empty slot where it would go.
    std::size_t find(std::uint64_t key, std::uint64_t hash) const {
        std::size_t i = hash & mask();
        while (slots[i].key != kEmptyKey && slots[i].key != key) i = (i + 1) & mask();
        return i;
    }
    void grow() {
        std::vector<Slot> old(slots.size() * 2);
        old.swap(slots);
        hand = 0;
        for (Slot& s : old)
            if (s.key != kEmptyKey) slots[find(s.key, mix(s.key))] = s;
    }
    // Removes slot i, shifting back later slots of the same probe run (no tombstones).
    void erase_at(std::size_t i) {
        Slot& victim = slots[i];
        delete[] victim.bytes;
        bytes -= BlockCache::charge(victim.size);
        --count;
        ++evictions;
        for (std::size_t j = (i + 1) & mask();; j = (j + 1) & mask()) {
            if (slots[j].key == kEmptyKey) break;
            const std::size_t home = mix(slots[j].key) & mask();
            // Slot j may move to i unless its home lies cyclically in (i, j].
            const bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
            if (stays) continue;
            slots[i] = slots[j];
            i = j;
        }
        slots[i] = Slot{};
    }
    // CLOCK: sweeps from the hand, giving referenced blocks a second chance, until the shard is
    // within budget; never evicts `keep`.
    void shrink(std::uint64_t keep) {
        while (bytes > budget && count > 1) {
            Slot& s = slots[hand];
            if (s.key == kEmptyKey || s.key == keep) {
                hand = (hand + 1) & mask();
            } else if (s.referenced) {
                s.referenced = false;
                hand = (hand + 1) & mask();
            } else {
                erase_at(hand);  // the hand now sees whatever shifted into this slot
            }
        }
    }
};

BlockCache::BlockCache(std::size_t budget_bytes, int shards) : budget_(budget_bytes) {
    if (shards <= 0) {
        const std::size_t by_budget = std::max<std::size_t>(1, budget_bytes / kMinShardBytes);
        shards = static_cast<int>(std::min<std::size_t>(kMaxShards, std::bit_floor(by_budget)));
    }
    num_shards_ = static_cast<int>(std::bit_floor(static_cast<unsigned>(std::max(1, shards))));
    shard_shift_ = 64 - std::countr_zero(static_cast<unsigned>(num_shards_));
    shards_ = std::make_unique<Shard[]>(static_cast<std::size_t>(num_shards_));
    for (int s = 0; s < num_shards_; ++s) shards_[s].budget = budget_bytes / num_shards_;
}

BlockCache::~BlockCache() = default;

BlockCache::Shard& BlockCache::shard_of(const BlockKey& key) const {
    // The top bits of the mixed key pick the shard, the low bits the slot inside it.
    return shards_[num_shards_ == 1 ? 0
                                    : static_cast<std::size_t>(mix(pack_key(key)) >> shard_shift_)];
}

std::size_t BlockCache::charge(std::size_t payload_bytes) {
    return payload_bytes + kBookkeepingBytes;
}

std::optional<std::uint16_t> BlockCache::lookup(const BlockKey& key, std::size_t j) {
    const std::uint64_t k = pack_key(key), h = mix(k);
    Shard& s = shard_of(key);
    std::lock_guard lock(s.mutex);
    Shard::Slot& slot = s.slots[s.find(k, h)];
    if (slot.key == kEmptyKey) {
        ++s.misses;
        return std::nullopt;
    }
    ++s.hits;
    slot.referenced = true;
    return packed_entry(slot.bytes, slot.bits, j);
}

std::uint16_t BlockCache::insert(const BlockKey& key, PackedBlock block, std::size_t j) {
    const std::uint64_t k = pack_key(key), h = mix(k);
    Shard& s = shard_of(key);
    std::lock_guard lock(s.mutex);
    std::size_t i = s.find(k, h);
    if (s.slots[i].key != kEmptyKey) {  // another thread was first
        s.slots[i].referenced = true;
        return packed_entry(s.slots[i].bytes, s.slots[i].bits, j);
    }
    if (2 * (s.count + 1) > s.slots.size()) {
        s.grow();
        i = s.find(k, h);
    }
    const std::uint16_t value = block.get(j);
    s.slots[i] = Shard::Slot{k, block.bytes.release(), static_cast<std::uint32_t>(block.size),
                             static_cast<std::uint8_t>(block.bits), true};
    ++s.count;
    s.bytes += charge(block.size);
    ++s.insertions;
    s.shrink(k);
    return value;
}

bool BlockCache::contains(const BlockKey& key) const {
    const std::uint64_t k = pack_key(key);
    const Shard& s = shard_of(key);
    std::lock_guard lock(s.mutex);
    return s.slots[s.find(k, mix(k))].key != kEmptyKey;
}

CacheStats BlockCache::stats() const {
    CacheStats c;
    c.budget = budget_;
    c.shards = num_shards_;
    for (int i = 0; i < num_shards_; ++i) {
        const Shard& s = shards_[i];
        std::lock_guard lock(s.mutex);
        c.hits += s.hits;
        c.misses += s.misses;
        c.insertions += s.insertions;
        c.evictions += s.evictions;
        c.bytes += s.bytes;
        c.blocks += s.count;
    }
    return c;
}

}  // namespace dtb::probe
