// A pair solved by blocks: its per-position arrays (gen/pair_array.hpp) have storage only for the
// blocks being solved or read, each block its own array, and a finished block goes to the block
// store (gen/block_store.hpp), compressed, until the writers gather a side back in index order.
//
// A block is an advancement level (gen/scope.hpp), or a group of its phases (gen/phase_groups.hpp):
// men configurations of both sides, closed under the moves that stay inside (king moves, and a
// Turkish man's sideways steps); a plain man move leads to the level above, solved before. Its
// storage holds its ranges (runs of whole men configurations) one after another.
#pragma once
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <utility>
#include <vector>

#include "dtb/gen/big_array.hpp"
#include "dtb/gen/block_store.hpp"
#include "dtb/gen/pair_array.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/phase_groups.hpp"
#include "dtb/gen/scope.hpp"

namespace dtb::gen {

// The blocks of a pair, the level of each, and where each range of each block starts in the
// block's storage.
struct BlockLayout {
    // Each level one block.
    explicit BlockLayout(std::vector<Scope> levels) : BlockLayout(LevelBlocks{std::move(levels), {}}) {}
    explicit BlockLayout(LevelBlocks split) : blocks(std::move(split.blocks)), level_of(std::move(split.level_of)) {
        if (level_of.empty())
            for (std::size_t b = 0; b < blocks.size(); ++b) level_of.push_back(b);
        assert(level_of.size() == blocks.size());
        for (const Scope& b : blocks) {
            std::vector<std::uint64_t> s;
            std::uint64_t at = 0;
            for (const Range& r : b) {
                s.push_back(at);
                at += r.end - r.begin;
            }
            starts.push_back(std::move(s));
            sizes.push_back(at);
        }
    }
    std::size_t num_blocks() const { return blocks.size(); }
    std::uint64_t largest() const { return sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end()); }
    // Whether block b is the last of its level.
    bool ends_level(std::size_t b) const { return b + 1 == blocks.size() || level_of[b + 1] != level_of[b]; }
    std::size_t num_levels() const { return level_of.empty() ? 0 : level_of.back() + 1; }
    // The blocks [first, last) of block b's level.
    std::pair<std::size_t, std::size_t> blocks_of_level(std::size_t b) const {
        std::size_t first = b, last = b + 1;
        while (first > 0 && level_of[first - 1] == level_of[b]) --first;
        while (last < blocks.size() && level_of[last] == level_of[b]) ++last;
        return {first, last};
    }
    // The blocks [first, last) of the level before block b's (the level above, whose values its man
    // moves read): empty for the first level.
    std::pair<std::size_t, std::size_t> blocks_of_level_above(std::size_t b) const {
        const std::size_t first = blocks_of_level(b).first;
        std::size_t above = first;
        while (above > 0 && level_of[above - 1] + 1 == level_of[b]) --above;
        return {above, first};
    }
    // The positions of blocks [first, last), as one scope.
    Scope scope_of(std::size_t first, std::size_t last) const {
        Scope out;
        for (std::size_t b = first; b < last; ++b) out.insert(out.end(), blocks[b].begin(), blocks[b].end());
        return out;
    }

    std::vector<Scope> blocks;
    std::vector<std::size_t> level_of;               // per block, its advancement level (0 the most advanced)
    std::vector<std::vector<std::uint64_t>> starts;  // per block, per range
    std::vector<std::uint64_t> sizes;                // entries per block
};

// What a caller of a solve by blocks is told at each level's steps (each optional; the
// solve's comment says when each comes).
struct BlockHooks {
    std::function<void(const BlockLayout&)> laid_out;
    std::function<void(std::size_t level)> opened;
    std::function<void(std::size_t level, std::span<const std::uint16_t> values)> valued;
    std::function<void(std::size_t level)> done;
};

// One kind of per-position array of both sides of a pair, held by blocks.
template <class T>
class BlockArray {
  public:
    // sides: the pair's arrays of this kind (one per side), held by configurations from now on.
    BlockArray(const BlockLayout& layout, std::vector<PairArray<T>*> sides, std::vector<std::uint64_t> configs,
               std::uint64_t kings_per_config, MappingCache& cache)
        : layout_(&layout), sides_(std::move(sides)), kpc_(kings_per_config), cache_(&cache) {
        for (std::size_t s = 0; s < sides_.size(); ++s) sides_[s]->hold_by_configs(configs[s], kpc_);
    }
    // Gives block b storage, every entry fill (written by all threads), and points its
    // configurations at it.
    void open(std::size_t b, T fill, int threads) {
        BigArray<T>& storage = live_.try_emplace(b, *cache_).first->second;
        assign_parallel(storage, layout_->sizes[b], fill, threads);
        place(b, storage.data());
    }
    // Gives block b storage whose entries the caller writes, and points its configurations at it.
    std::span<T> open_unfilled(std::size_t b) {
        BigArray<T>& storage = live_.try_emplace(b, *cache_).first->second;
        storage.resize(layout_->sizes[b]);
        place(b, storage.data());
        return {storage.data(), storage.size()};
    }
    // Opens block b with the entries the store keeps of it (array `kind`).
    void load(std::size_t b, const BlockStore& store, int kind, int threads) {
        store.read<T>(kind, b, open_unfilled(b), threads);
    }
    std::span<T> storage(std::size_t b) {
        BigArray<T>& a = live_.at(b);
        return {a.data(), a.size()};
    }
    std::span<const T> storage(std::size_t b) const {
        const BigArray<T>& a = live_.at(b);
        return {a.data(), a.size()};
    }
    bool is_open(std::size_t b) const { return live_.count(b) != 0; }
    // Frees block b's storage; its configurations have none.
    void close(std::size_t b) {
        place(b, nullptr);
        live_.erase(b);
    }
    // Keeps block b in the store, compressed, and closes it.
    void store(std::size_t b, BlockStore& store, int kind, int threads) {
        store.put<T>(kind, b, storage(b), threads);
        close(b);
    }
    // The arrays whole again (and empty), every block closed.
    void release() {
        live_.clear();
        for (PairArray<T>* a : sides_) a->hold_whole();
    }

  private:
    void place(std::size_t b, T* storage) {
        const Scope& scope = layout_->blocks[b];
        for (std::size_t k = 0; k < scope.size(); ++k) {
            const Range& r = scope[k];
            T* run = storage ? storage + layout_->starts[b][k] : nullptr;
            for (std::uint64_t mc = r.begin / kpc_; mc < r.end / kpc_; ++mc, run = run ? run + kpc_ : nullptr)
                sides_[static_cast<std::size_t>(r.side)]->place(mc, run);
        }
    }

    const BlockLayout* layout_;
    std::vector<PairArray<T>*> sides_;
    std::uint64_t kpc_;
    MappingCache* cache_;
    std::map<std::size_t, BigArray<T>> live_;
};

// The runs of side `side` that storage entries [first, last) of block b hold:
// run(index, offset, length) for each, its entries being the side's [index, index + length) and
// the storage's [first + offset, ...).
template <class Run>
void for_each_run_in_storage(const BlockLayout& layout, std::size_t b, std::uint64_t first, std::uint64_t last,
                             int side, Run&& run) {
    const Scope& scope = layout.blocks[b];
    const std::vector<std::uint64_t>& starts = layout.starts[b];
    // The ranges overlapping [first, last): from the last one starting at or before first.
    auto k = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), first) - starts.begin()) - 1;
    for (; k < scope.size() && starts[k] < last; ++k) {
        const Range& r = scope[k];
        if (r.side != side) continue;
        const std::uint64_t from = std::max(first, starts[k]);
        const std::uint64_t to = std::min(last, starts[k] + (r.end - r.begin));
        run(r.begin + (from - starts[k]), from - first, to - from);
    }
}

// Side s of array `kind` read back from the block store run by run: run(first, values) for the
// side's entries [first, first + values.size()), on many threads at once (the runs are disjoint
// and, together, cover the side).
template <class T, class Run>
void for_each_side_run(const BlockLayout& layout, const BlockStore& store, int kind, int side, Run&& run, int threads) {
    struct Task {
        std::size_t block;
        std::uint64_t chunk;
    };
    std::vector<Task> tasks;
    for (std::size_t b = 0; b < layout.num_blocks(); ++b) {
        assert(store.entries(kind, b) == layout.sizes[b]);
        for (std::uint64_t c = 0; c < store.chunks(kind, b); ++c) tasks.push_back({b, c});
    }
    parallel_for_tasks(
        tasks.size(),
        [&](std::uint64_t t) {
            thread_local std::vector<T> chunk;
            const auto [b, c] = tasks[t];
            store.read_chunk(kind, b, c, chunk);
            const std::uint64_t first = c * BlockStore::kChunkEntries;
            for_each_run_in_storage(layout, b, first, first + chunk.size(), side,
                                    [&](std::uint64_t index, std::uint64_t offset, std::uint64_t length) {
                                        run(index, std::span<const T>(chunk.data() + offset, length));
                                    });
        },
        threads);
}

// Side s of array `kind` in index order, gathered from the block store into out (sized to the
// side: entries of every configuration of side s, which the blocks cover).
template <class T>
void gather_side(const BlockLayout& layout, const BlockStore& store, int kind, int side, BigArray<T>& out,
                 int threads) {
    for_each_side_run<T>(
        layout, store, kind, side,
        [&](std::uint64_t first, std::span<const T> values) {
            std::copy(values.begin(), values.end(), out.begin() + static_cast<std::ptrdiff_t>(first));
        },
        threads);
}

}  // namespace dtb::gen
