// BlockCache: sharded LRU (see cache.hpp). Each shard is a hash map from key to node plus an
// intrusive doubly linked list in recency order (head = most recent), under one mutex.
#include "probe/cache.hpp"

#include <algorithm>
#include <bit>
#include <mutex>
#include <unordered_map>

namespace dtb::probe {

namespace {

// Fixed charge per cached block for the node, the hash map entry and the vector header.
constexpr std::size_t kBookkeepingBytes = 128;
constexpr std::size_t kMinShardBytes = 256 * 1024;
constexpr int kMaxShards = 64;

std::uint64_t mix(const BlockKey& k) {
    std::uint64_t h = (static_cast<std::uint64_t>(k.table) << 40) ^ k.block;
    h ^= h >> 31;
    h *= 0x9E3779B97F4A7C15ULL;
    h ^= h >> 29;
    return h;
}

struct KeyHash {
    std::size_t operator()(const BlockKey& k) const { return static_cast<std::size_t>(mix(k)); }
};

}  // namespace

PackedBlock PackedBlock::pack(const std::uint16_t* values, std::size_t n, int bits) {
    PackedBlock b;
    b.bits = bits;
    b.bytes.assign((n * static_cast<std::size_t>(bits) + 7) / 8, 0);
    if (bits == 16) {
        for (std::size_t j = 0; j < n; ++j) {
            b.bytes[2 * j] = static_cast<std::uint8_t>(values[j]);
            b.bytes[2 * j + 1] = static_cast<std::uint8_t>(values[j] >> 8);
        }
        return b;
    }
    const unsigned mask = (1u << bits) - 1;
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t bit = j * static_cast<std::size_t>(bits);
        b.bytes[bit >> 3] |= static_cast<std::uint8_t>((values[j] & mask) << (bit & 7));
    }
    return b;
}

struct BlockCache::Shard {
    struct Node {
        BlockKey key;
        PackedBlock block;
        std::size_t charge = 0;
        Node* prev = nullptr;  // towards the most recent
        Node* next = nullptr;  // towards the least recent
    };

    mutable std::mutex mutex;
    std::unordered_map<BlockKey, Node*, KeyHash> map;
    Node* head = nullptr;
    Node* tail = nullptr;
    std::size_t bytes = 0;
    std::size_t budget = 0;
    std::uint64_t hits = 0, misses = 0, insertions = 0, evictions = 0;

    ~Shard() {
        for (Node* n = head; n != nullptr;) {
            Node* next = n->next;
            delete n;
            n = next;
        }
    }
    void unlink(Node* n) {
        (n->prev ? n->prev->next : head) = n->next;
        (n->next ? n->next->prev : tail) = n->prev;
        n->prev = n->next = nullptr;
    }
    void push_front(Node* n) {
        n->next = head;
        n->prev = nullptr;
        if (head) head->prev = n;
        head = n;
        if (!tail) tail = n;
    }
    void touch(Node* n) {
        if (n == head) return;
        unlink(n);
        push_front(n);
    }
    // Evicts from the tail until within budget, never the node `keep`.
    void shrink(const Node* keep) {
        while (bytes > budget && tail != nullptr && tail != keep) {
            Node* victim = tail;
            unlink(victim);
            map.erase(victim->key);
            bytes -= victim->charge;
            ++evictions;
            delete victim;
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
    // The top bits of the mixed key pick the shard; the map hashes all of them again.
    const std::uint64_t h = mix(key);
    return shards_[num_shards_ == 1 ? 0 : static_cast<std::size_t>(h >> shard_shift_)];
}

std::size_t BlockCache::charge(std::size_t payload_bytes) { return payload_bytes + kBookkeepingBytes; }

std::optional<std::uint16_t> BlockCache::lookup(const BlockKey& key, std::size_t j) {
    Shard& s = shard_of(key);
    std::lock_guard lock(s.mutex);
    const auto it = s.map.find(key);
    if (it == s.map.end()) {
        ++s.misses;
        return std::nullopt;
    }
    ++s.hits;
    s.touch(it->second);
    return it->second->block.get(j);
}

std::uint16_t BlockCache::insert(const BlockKey& key, PackedBlock block, std::size_t j) {
    Shard& s = shard_of(key);
    // Allocate outside the lock; only linking happens under it.
    auto node = std::make_unique<Shard::Node>();
    node->key = key;
    node->charge = charge(block.bytes.size());
    node->block = std::move(block);
    std::lock_guard lock(s.mutex);
    const auto [it, inserted] = s.map.try_emplace(key, node.get());
    if (!inserted) {
        s.touch(it->second);
        return it->second->block.get(j);
    }
    Shard::Node* n = node.release();
    s.push_front(n);
    s.bytes += n->charge;
    ++s.insertions;
    s.shrink(n);
    return n->block.get(j);
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
        c.blocks += s.map.size();
    }
    return c;
}

}  // namespace dtb::probe
