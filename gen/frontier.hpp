// Frontier lists: positions (side, index) bucketed by the ply at which the solver must process
// them. Threads append to private lists that are handed over, block by block, after each
// parallel loop, so the order inside a bucket varies with the thread count but the solver's
// results do not.
//
// A list is a chain of blocks that never move: appending never copies what is already there, and
// merging a thread's list into a bucket moves block pointers, not items (a plain vector per
// bucket spends its time in copies and in page faults on freshly grown buffers). Blocks grow
// from 64 items to 256K items (2 MB: one huge page, see gen/big_array.hpp); the first is small
// because a bucket receives one partly filled block per thread and parallel loop, and losses
// spread over many later levels.
#pragma once
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dtb/gen/big_array.hpp"

namespace dtb::gen {

// One position: side in the top bit, a flag of the pass's own in the next (the DTC pass marks
// lost positions with it, so that their values need not be read again), index below.
using Item = std::uint64_t;
inline constexpr Item kItemFlag = Item{1} << 62;
inline constexpr Item make_item(int side, std::uint64_t index) {
    return (static_cast<Item>(side) << 63) | index;
}
inline constexpr int item_side(Item it) {
    return static_cast<int>(it >> 63);
}
inline constexpr bool item_flagged(Item it) {
    return (it & kItemFlag) != 0;
}
inline constexpr std::uint64_t item_index(Item it) {
    return it & (kItemFlag - 1);
}

class ItemList {
  public:
    using Block = BigArray<Item>;
    static constexpr std::size_t kFirstBlock = std::size_t{1} << 6, kLargestBlock = std::size_t{1} << 18;

    explicit ItemList(MappingCache& cache) : cache_(&cache) {}

    void push_back(Item it) {
        if (blocks_.empty() || blocks_.back().size() == blocks_.back().capacity()) add_block();
        blocks_.back().push_back(it);  // within capacity: never reallocates
        ++size_;
    }
    // Moves every block of other to the end of this list; other is left empty.
    void splice(ItemList& other) {
        for (Block& b : other.blocks_) blocks_.push_back(std::move(b));
        size_ += other.size_;
        other.blocks_.clear();
        other.size_ = 0;
    }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const std::vector<Block>& blocks() const { return blocks_; }
    template <class F>
    void for_each(F&& f) const {
        for (const Block& b : blocks_)
            for (Item it : b) f(it);
    }

  private:
    void add_block() {
        const std::size_t capacity =
            blocks_.empty() ? kFirstBlock : std::min(kLargestBlock, blocks_.back().capacity() * 2);
        blocks_.emplace_back(HugePageAllocator<Item>(*cache_));
        blocks_.back().reserve(capacity);
    }
    MappingCache* cache_;
    std::vector<Block> blocks_;
    std::size_t size_ = 0;
};

class LevelBuckets {
  public:
    explicit LevelBuckets(MappingCache& cache) : empty_(cache) {}
    ItemList& at(std::size_t level) {
        while (level >= buckets_.size()) buckets_.push_back(empty_);
        return buckets_[level];
    }
    // Read access that never grows the list (an empty bucket for levels not yet created).
    const ItemList& peek(std::size_t level) const { return level < buckets_.size() ? buckets_[level] : empty_; }
    std::size_t levels() const { return buckets_.size(); }
    void release(std::size_t level) {
        if (level < buckets_.size()) buckets_[level] = empty_;
    }
    void clear() { buckets_.clear(); }

  private:
    ItemList empty_;  // never filled: copied for a new level, returned for a level not created
    std::vector<ItemList> buckets_;
};

// Per-thread frontier lists, merged into LevelBuckets after a parallel loop (level by level,
// thread after thread), for parallel loops of at most `threads` threads (team_size).
class PendingAppends {
  public:
    PendingAppends(MappingCache& cache, int threads)
        : cache_(&cache), per_thread_(static_cast<std::size_t>(team_size(threads)), LevelBuckets(cache)) {}
    void add(std::size_t level, Item it) {
        per_thread_[static_cast<std::size_t>(omp_get_thread_num())].at(level).push_back(it);
    }
    // Every thread's list of `level` as one list (the other levels are dropped).
    ItemList take(std::size_t level) {
        ItemList all(*cache_);
        for (LevelBuckets& buf : per_thread_) {
            all.splice(buf.at(level));
            buf.clear();
        }
        return all;
    }
    void flush_into(LevelBuckets& b) {
        for (LevelBuckets& buf : per_thread_) {
            for (std::size_t level = 0; level < buf.levels(); ++level)
                if (!buf.peek(level).empty()) b.at(level).splice(buf.at(level));
            buf.clear();
        }
    }

  private:
    MappingCache* cache_;
    std::vector<LevelBuckets> per_thread_;
};

}  // namespace dtb::gen
