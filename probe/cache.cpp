// BlockCache: sharded CLOCK cache with lock-free hits (see cache.hpp).
//
// Epoch-based reclamation. `global_epoch` only grows. A reader stores the epoch it read into its
// own slot (seq_cst), checks that the epoch has not moved meanwhile (else it retries with the new
// one), reads, and stores 0. A writer unlinks a node (or slot array) under the shard mutex, then
// retires it with E = global_epoch.fetch_add(1): only readers that announced an epoch <= E can
// have seen it, because a reader announcing a later epoch read global_epoch after the unlink.
// The item is freed once no reader slot holds an epoch in [1, E]. Every access a reader makes
// to a node happens before its withdrawal (a release store the writer's scan acquires), so the
// free happens after the last read.
#include "dtb/probe/cache.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

namespace dtb::probe {

namespace {

// Fixed charge per cached block: its node header, its slot (twice, for the load factor) and
// allocator overhead.
constexpr std::size_t kBookkeepingBytes = 64;
constexpr std::size_t kMinShardBytes = 256 * 1024;
constexpr int kMaxShards = 64;

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

// A cached block: immutable after publication except for its reference mark. Header and bytes
// are one allocation, so a hit touches the slot and then this node only.
struct Node {
    std::uint64_t key;
    std::uint32_t size;  // bytes of packed values
    std::uint8_t bits;
    std::atomic<bool> referenced{true};

    std::uint8_t* data() { return reinterpret_cast<std::uint8_t*>(this + 1); }
    const std::uint8_t* data() const { return reinterpret_cast<const std::uint8_t*>(this + 1); }

    static Node* make(std::uint64_t key, const PackedBlock& b) {
        void* memory = ::operator new(sizeof(Node) + b.size);
        Node* n = new (memory) Node{key, static_cast<std::uint32_t>(b.size), static_cast<std::uint8_t>(b.bits)};
        std::memcpy(n->data(), b.bytes.get(), b.size);
        return n;
    }
    static void destroy(Node* n) {
        n->~Node();
        ::operator delete(n);
    }
};
static_assert(sizeof(Node) % alignof(Node) == 0);

struct SlotArray {
    std::size_t mask;
    std::unique_ptr<std::atomic<Node*>[]> slots;
    explicit SlotArray(std::size_t capacity) : mask(capacity - 1), slots(new std::atomic<Node*>[capacity]) {
        for (std::size_t i = 0; i < capacity; ++i) slots[i].store(nullptr, std::memory_order_relaxed);
    }
};

}  // namespace

struct alignas(64) CacheReaderSlot {
    std::atomic<std::uint64_t> epoch{0};  // 0: not reading
    std::atomic<bool> taken{false};
    std::atomic<std::uint64_t> hits{0};  // written by the owning thread only
};

struct BlockCache::Readers {
    std::atomic<std::uint64_t> global_epoch{1};
    std::atomic<int> used{0};  // slots [0, used) may have been taken
    CacheReaderSlot slots[kReaderSlots];

    // The smallest epoch a reader announces now, or UINT64_MAX when none is reading.
    std::uint64_t min_active() const {
        std::uint64_t m = ~std::uint64_t{0};
        // seq_cst: ordered after the writer's fetch_add on global_epoch, these loads see every
        // announcement made before it (and every slot claimed before it).
        const int n = used.load(std::memory_order_seq_cst);
        for (int i = 0; i < n; ++i) {
            const std::uint64_t e = slots[i].epoch.load(std::memory_order_seq_cst);
            if (e != 0) m = std::min(m, e);
        }
        return m;
    }
};

namespace {

// This thread's reader slot in each cache it has read from. Slots are given back when the thread
// ends (if the cache still exists: the weak pointer tells). An entry is matched by its weak
// pointer's control block, which lives while the entry does, so a cache built where a destroyed
// one was is never taken for it.
struct ThreadCacheReaderSlots {
    struct Entry {
        std::weak_ptr<BlockCache::Readers> readers;
        CacheReaderSlot* slot;  // nullptr: every slot was taken, this thread reads under the mutex
    };
    std::vector<Entry> entries;

    ~ThreadCacheReaderSlots() {
        for (Entry& e : entries)
            if (auto alive = e.readers.lock(); alive && e.slot) e.slot->taken.store(false, std::memory_order_release);
    }

    CacheReaderSlot* find(const std::shared_ptr<BlockCache::Readers>& readers) {
        for (const Entry& e : entries)
            if (!e.readers.owner_before(readers) && !readers.owner_before(e.readers)) return e.slot;
        return claim(readers);
    }

    CacheReaderSlot* claim(const std::shared_ptr<BlockCache::Readers>& readers) {
        // Forget the caches destroyed since (a thread that outlives many handles keeps none).
        std::erase_if(entries, [](const Entry& e) { return e.readers.expired(); });
        CacheReaderSlot* slot = nullptr;
        for (int i = 0; i < BlockCache::kReaderSlots && !slot; ++i) {
            CacheReaderSlot& s = readers->slots[i];
            bool free = false;
            if (!s.taken.load(std::memory_order_relaxed) &&
                s.taken.compare_exchange_strong(free, true, std::memory_order_acq_rel)) {
                int used = readers->used.load(std::memory_order_relaxed);
                while (used < i + 1 && !readers->used.compare_exchange_weak(used, i + 1, std::memory_order_seq_cst)) {
                }
                slot = &s;
            }
        }
        entries.push_back({readers, slot});
        return slot;
    }
};

ThreadCacheReaderSlots& thread_reader_slots() {
    thread_local ThreadCacheReaderSlots slots;
    return slots;
}

}  // namespace

PackedBlock PackedBlock::pack(const std::uint16_t* values, std::size_t n, int bits) {
    PackedBlock b;
    b.bits = bits;
    b.size = format::packed_bytes(n, bits);
    b.bytes = std::make_unique_for_overwrite<std::uint8_t[]>(b.size);  // every byte is written
    format::pack(values, n, bits, b.bytes.get());
    return b;
}

// One cache line (or more) per shard, so that threads working in different shards never write
// to the same line.
struct alignas(64) BlockCache::Shard {
    struct Retired {
        Node* node;        // or
        SlotArray* array;  // (one of the two)
        std::uint64_t epoch;
    };

    std::mutex mutex;
    Readers* readers = nullptr;
    std::atomic<SlotArray*> table{nullptr};  // capacity a power of two, at most half full
    // Under the mutex:
    std::size_t count = 0, hand = 0, bytes = 0, budget = 0;
    std::uint64_t hits = 0, misses = 0, insertions = 0, evictions = 0;
    std::vector<Retired> retired;

    Shard() : table(new SlotArray(16)) {}
    ~Shard() {
        SlotArray* t = table.load(std::memory_order_relaxed);
        for (std::size_t i = 0; i <= t->mask; ++i)
            if (Node* n = t->slots[i].load(std::memory_order_relaxed)) Node::destroy(n);
        delete t;
        for (const Retired& r : retired) {
            if (r.node) Node::destroy(r.node);
            delete r.array;
        }
    }

    SlotArray& slots() { return *table.load(std::memory_order_relaxed); }  // under the mutex
    // The slot holding key, or the empty slot where it would go (under the mutex).
    std::size_t find(std::uint64_t key, std::uint64_t hash) {
        SlotArray& t = slots();
        std::size_t i = hash & t.mask;
        for (Node* n; (n = t.slots[i].load(std::memory_order_relaxed)) != nullptr && n->key != key;)
            i = (i + 1) & t.mask;
        return i;
    }

    void retire(Node* node, SlotArray* array) {
        retired.push_back({node, array, readers->global_epoch.fetch_add(1, std::memory_order_seq_cst)});
        // At once: the scan reads only the slots of threads that ever read (a few loads), and an
        // eviction has just paid a decompression; so evicted memory leaves with its budget.
        reclaim();
    }
    void reclaim() {
        const std::uint64_t oldest_reader = readers->min_active();
        std::size_t kept = 0;
        for (const Retired& r : retired) {
            if (r.epoch < oldest_reader) {
                if (r.node) Node::destroy(r.node);
                delete r.array;
            } else {
                retired[kept++] = r;
            }
        }
        retired.resize(kept);
    }

    void grow() {
        SlotArray& old = slots();
        auto* bigger = new SlotArray((old.mask + 1) * 2);
        for (std::size_t i = 0; i <= old.mask; ++i) {
            Node* n = old.slots[i].load(std::memory_order_relaxed);
            if (!n) continue;
            std::size_t j = mix(n->key) & bigger->mask;
            while (bigger->slots[j].load(std::memory_order_relaxed)) j = (j + 1) & bigger->mask;
            bigger->slots[j].store(n, std::memory_order_relaxed);
        }
        table.store(bigger, std::memory_order_release);
        hand = 0;
        retire(nullptr, &old);
    }

    // Removes slot i, shifting back later slots of the same probe run (no tombstones). A reader
    // walking the run meanwhile may miss a block (it then asks under the mutex), never find a
    // wrong one.
    void erase_at(std::size_t i) {
        SlotArray& t = slots();
        Node* victim = t.slots[i].load(std::memory_order_relaxed);
        bytes -= BlockCache::charge(victim->size);
        --count;
        ++evictions;
        for (std::size_t j = (i + 1) & t.mask;; j = (j + 1) & t.mask) {
            Node* n = t.slots[j].load(std::memory_order_relaxed);
            if (!n) break;
            const std::size_t home = mix(n->key) & t.mask;
            // Slot j may move to i unless its home lies cyclically in (i, j].
            const bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
            if (stays) continue;
            t.slots[i].store(n, std::memory_order_release);
            i = j;
        }
        t.slots[i].store(nullptr, std::memory_order_release);
        retire(victim, nullptr);
    }

    // CLOCK: sweeps from the hand, giving referenced blocks a second chance, until the shard is
    // within budget; never evicts `keep`.
    // Lock-free readers may set marks again behind the hand; after two full turns without an
    // eviction the marks are ignored, so the sweep ends however hot the shard is.
    void shrink(std::uint64_t keep) {
        std::size_t steps = 0;
        while (bytes > budget && count > 1) {
            SlotArray& t = slots();
            Node* n = t.slots[hand].load(std::memory_order_relaxed);
            if (!n || n->key == keep) {
                hand = (hand + 1) & t.mask;
                ++steps;
            } else if (steps <= 2 * (t.mask + 1) && n->referenced.load(std::memory_order_relaxed)) {
                n->referenced.store(false, std::memory_order_relaxed);
                hand = (hand + 1) & t.mask;
                ++steps;
            } else {
                erase_at(hand);  // the hand now sees whatever shifted into this slot
                steps = 0;
            }
        }
    }
};

BlockCache::BlockCache(std::size_t budget_bytes, int shards)
    : readers_(std::make_shared<Readers>()), budget_(budget_bytes) {
    if (shards <= 0) {
        const std::size_t by_budget = std::max<std::size_t>(1, budget_bytes / kMinShardBytes);
        shards = static_cast<int>(std::min<std::size_t>(kMaxShards, std::bit_floor(by_budget)));
    }
    num_shards_ = static_cast<int>(std::bit_floor(static_cast<unsigned>(std::max(1, shards))));
    shard_shift_ = 64 - std::countr_zero(static_cast<unsigned>(num_shards_));
    shards_ = std::make_unique<Shard[]>(static_cast<std::size_t>(num_shards_));
    for (int s = 0; s < num_shards_; ++s) {
        shards_[s].budget = budget_bytes / num_shards_;
        shards_[s].readers = readers_.get();
    }
}

BlockCache::~BlockCache() = default;

BlockCache::Shard& BlockCache::shard_of(const BlockKey& key) const {
    // The top bits of the mixed key pick the shard, the low bits the slot inside it.
    return shards_[num_shards_ == 1 ? 0 : static_cast<std::size_t>(mix(pack_key(key)) >> shard_shift_)];
}

std::size_t BlockCache::charge(std::size_t payload_bytes) {
    return payload_bytes + kBookkeepingBytes;
}

namespace {
// A reader's announcement of an epoch that was current after it was made (see the top of the
// file): until it stores 0 again, nothing it reaches is freed.
void announce(BlockCache::Readers& readers, CacheReaderSlot& me) {
    std::uint64_t epoch = readers.global_epoch.load(std::memory_order_seq_cst);
    for (;;) {
        me.epoch.store(epoch, std::memory_order_seq_cst);
        const std::uint64_t now = readers.global_epoch.load(std::memory_order_seq_cst);
        if (now == epoch) break;
        epoch = now;
    }
}
}  // namespace

namespace {
// Entry j of the block `key` in slot array t, probing from its home slot, or nullopt; marks the
// block referenced. For readers inside an announced epoch (lookup, lookup_many).
std::optional<std::uint16_t> lock_free_entry(const SlotArray* t, std::size_t home, std::uint64_t key, std::size_t j) {
    std::size_t i = home;
    for (std::size_t probes = 0; probes <= t->mask; ++probes, i = (i + 1) & t->mask) {
        Node* n = t->slots[i].load(std::memory_order_acquire);
        if (!n) break;
        if (n->key != key) continue;
        if (!n->referenced.load(std::memory_order_relaxed)) n->referenced.store(true, std::memory_order_relaxed);
        return format::packed_entry(n->data(), n->bits, j);
    }
    return std::nullopt;
}
}  // namespace

std::optional<std::uint16_t> BlockCache::locked_lookup(Shard& s, std::uint64_t k, std::size_t j) {
    std::lock_guard lock(s.mutex);
    Node* n = s.slots().slots[s.find(k, mix(k))].load(std::memory_order_relaxed);
    if (!n) {
        ++s.misses;
        return std::nullopt;
    }
    ++s.hits;
    n->referenced.store(true, std::memory_order_relaxed);
    return format::packed_entry(n->data(), n->bits, j);
}

std::optional<std::uint16_t> BlockCache::lookup(const BlockKey& key, std::size_t j) {
    const std::uint64_t k = pack_key(key), h = mix(k);
    Shard& s = shard_of(key);
    CacheReaderSlot* me = thread_reader_slots().find(readers_);
    if (!me) return locked_lookup(s, k, j);
    announce(*readers_, *me);
    const SlotArray* t = s.table.load(std::memory_order_acquire);
    const std::optional<std::uint16_t> value = lock_free_entry(t, h & t->mask, k, j);
    me->epoch.store(0, std::memory_order_release);
    if (!value) return locked_lookup(s, k, j);  // absent, or moved by a writer meanwhile
    me->hits.store(me->hits.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    return value;
}

void BlockCache::lookup_many(std::size_t n, const BlockKey* keys, const std::size_t* js, const std::uint8_t* bits,
                             std::optional<std::uint16_t>* out) {
    CacheReaderSlot* me = thread_reader_slots().find(readers_);
    if (!me) {  // no reader slot: every lookup of this thread takes a mutex; lookup() will
        std::fill(out, out + n, std::nullopt);
        return;
    }
    std::uint64_t packed[kBatch];
    const SlotArray* arrays[kBatch];
    std::size_t homes[kBatch];
    for (std::size_t start = 0; start < n; start += kBatch) {
        const std::size_t m = std::min(kBatch, n - start);
        const BlockKey* key = keys + start;
        const std::size_t* j = js + start;
        std::optional<std::uint16_t>* value = out + start;
        // One announcement for the whole batch (as in lookup): every node and slot array reached
        // below stays allocated until the withdrawal.
        announce(*readers_, *me);
        // Three rounds, each prefetching what the next one reads: the home slots; the nodes they
        // point to and the byte each entry would be in; then the lookups themselves, lookup()'s
        // probing (a prefetch of a node that turns out to hold another key, or is being unlinked,
        // is only wasted).
        for (std::size_t i = 0; i < m; ++i) {
            packed[i] = pack_key(key[i]);
            arrays[i] = shard_of(key[i]).table.load(std::memory_order_acquire);
            homes[i] = mix(packed[i]) & arrays[i]->mask;
            __builtin_prefetch(&arrays[i]->slots[homes[i]]);
        }
        for (std::size_t i = 0; i < m; ++i) {
            if (const Node* node = arrays[i]->slots[homes[i]].load(std::memory_order_acquire)) {
                __builtin_prefetch(node);
                // As an integer: the node may be another block's, shorter than the offset.
                __builtin_prefetch(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(node->data()) +
                                                                 j[i] * bits[start + i] / 8));
            }
        }
        std::uint64_t hits = 0;
        for (std::size_t i = 0; i < m; ++i) {
            value[i] = lock_free_entry(arrays[i], homes[i], packed[i], j[i]);
            hits += value[i].has_value();
        }
        me->epoch.store(0, std::memory_order_release);
        me->hits.store(me->hits.load(std::memory_order_relaxed) + hits, std::memory_order_relaxed);
    }
}

std::uint16_t BlockCache::insert(const BlockKey& key, PackedBlock block, std::size_t j) {
    const std::uint64_t k = pack_key(key), h = mix(k);
    Shard& s = shard_of(key);
    Node* node = Node::make(k, block);  // allocate and copy outside the lock
    const std::uint16_t value = block.get(j);
    std::lock_guard lock(s.mutex);
    std::size_t i = s.find(k, h);
    if (Node* existing = s.slots().slots[i].load(std::memory_order_relaxed)) {
        existing->referenced.store(true, std::memory_order_relaxed);  // another thread was first
        Node::destroy(node);
        return value;
    }
    if (2 * (s.count + 1) > s.slots().mask + 1) {
        s.grow();
        i = s.find(k, h);
    }
    s.slots().slots[i].store(node, std::memory_order_release);
    ++s.count;
    s.bytes += charge(node->size);
    ++s.insertions;
    s.shrink(k);
    return value;
}

bool BlockCache::contains(const BlockKey& key) const {
    const std::uint64_t k = pack_key(key);
    Shard& s = shard_of(key);
    std::lock_guard lock(s.mutex);
    return s.slots().slots[s.find(k, mix(k))].load(std::memory_order_relaxed) != nullptr;
}

CacheStats BlockCache::stats() const {
    CacheStats c;
    c.budget = budget_;
    c.shards = num_shards_;
    for (int i = 0; i < num_shards_; ++i) {
        Shard& s = shards_[i];
        std::lock_guard lock(s.mutex);
        c.hits += s.hits;
        c.misses += s.misses;
        c.insertions += s.insertions;
        c.evictions += s.evictions;
        c.bytes += s.bytes;
        c.blocks += s.count;
    }
    for (int i = 0; i < kReaderSlots; ++i) c.hits += readers_->slots[i].hits.load(std::memory_order_relaxed);
    return c;
}

}  // namespace dtb::probe
