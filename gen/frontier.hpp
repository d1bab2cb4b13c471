// Frontier lists: positions (side, index) bucketed by the ply at which the solver must process
// them. Threads append to private buffers that are merged after each parallel loop, so the
// order inside a bucket varies with the thread count but the solver's results do not.
#pragma once
#include <omp.h>

#include <cstdint>
#include <vector>

namespace dtb::gen {

// One position: side in the top bit, index below.
using Item = std::uint64_t;
inline constexpr Item make_item(int side, std::uint64_t index) {
    return (static_cast<Item>(side) << 63) | index;
}
inline constexpr int item_side(Item it) { return static_cast<int>(it >> 63); }
inline constexpr std::uint64_t item_index(Item it) { return it & ~(Item{1} << 63); }

class LevelBuckets {
public:
    std::vector<Item>& at(std::size_t level) {
        if (level >= buckets_.size()) buckets_.resize(level + 1);
        return buckets_[level];
    }
    // Read access that never grows the list (an empty bucket for levels not yet created).
    const std::vector<Item>& peek(std::size_t level) const {
        static const std::vector<Item> kEmpty;
        return level < buckets_.size() ? buckets_[level] : kEmpty;
    }
    std::size_t levels() const { return buckets_.size(); }
    void release(std::size_t level) {
        if (level < buckets_.size()) std::vector<Item>().swap(buckets_[level]);
    }
    void clear() { buckets_.clear(); }

private:
    std::vector<std::vector<Item>> buckets_;
};

// Per-thread frontier lists, merged into LevelBuckets after a parallel loop (level by level,
// thread after thread).
class PendingAppends {
public:
    PendingAppends() : per_thread_(static_cast<std::size_t>(omp_get_max_threads())) {}
    void add(std::size_t level, Item it) {
        per_thread_[static_cast<std::size_t>(omp_get_thread_num())].at(level).push_back(it);
    }
    void flush_into(LevelBuckets& b) {
        for (LevelBuckets& buf : per_thread_) {
            for (std::size_t level = 0; level < buf.levels(); ++level) {
                const std::vector<Item>& from = buf.peek(level);
                if (from.empty()) continue;
                std::vector<Item>& to = b.at(level);
                to.insert(to.end(), from.begin(), from.end());
                buf.release(level);
            }
            buf.clear();
        }
    }

private:
    std::vector<LevelBuckets> per_thread_;
};

}  // namespace dtb::gen
