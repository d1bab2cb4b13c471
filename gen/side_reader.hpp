// One side of a pair solved by blocks, read back from a block store part by part in index order:
// what the table writers stream from, so that no side is gathered whole (gen/block_arrays.hpp,
// gather_side, holds one). A block keeps its ranges one after another, each side's in index
// order (advancement_levels, gen/scope.hpp), so the entries of a side that a chunk of a block
// holds lie between two indices that grow from chunk to chunk: a part reads only the chunks
// whose span meets it.
#pragma once
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <span>
#include <vector>

#include "dtb/gen/block_arrays.hpp"
#include "dtb/gen/block_store.hpp"
#include "dtb/gen/parallel.hpp"

namespace dtb::gen {

// Entries of a table the writers stream at a time (a whole number of blocks of every metric).
inline constexpr std::uint64_t kTablePartEntries = std::uint64_t{1} << 25;

class SideReader {
  public:
    // side: of the pair; entries: the side's (the blocks cover every one of them). Every array
    // the store keeps by this layout is chunked alike (BlockStore::kChunkEntries entries), so one
    // reader serves each kind.
    SideReader(const BlockLayout& layout, const BlockStore& store, int side, std::uint64_t entries, int threads)
        : layout_(&layout), store_(&store), side_(side), entries_(entries), threads_(threads) {
        spans_.resize(layout.num_blocks());
        for (std::size_t b = 0; b < layout.num_blocks(); ++b) {
            const std::uint64_t chunks = (layout.sizes[b] + BlockStore::kChunkEntries - 1) / BlockStore::kChunkEntries;
            for (std::uint64_t c = 0; c < chunks; ++c) {
                const std::uint64_t first = c * BlockStore::kChunkEntries;
                ChunkSpan span{c, 0, 0};
                for_each_run_in_storage(layout, b, first, std::min(first + BlockStore::kChunkEntries, layout.sizes[b]),
                                        side, [&](std::uint64_t index, std::uint64_t, std::uint64_t length) {
                                            if (span.lo == span.hi) span.lo = index;
                                            assert(index >= span.hi);
                                            span.hi = index + length;
                                        });
                if (span.lo == span.hi) continue;
                assert(spans_[b].empty() || spans_[b].back().hi <= span.lo);
                spans_[b].push_back(span);
            }
        }
    }
    std::uint64_t size() const { return entries_; }

    // Entries [first, first + out.size()) of the side's array `kind` (of type T), into out.
    template <class T>
    void read(int kind, std::uint64_t first, std::span<T> out) const {
        assert(first + out.size() <= entries_);
        const std::uint64_t last = first + out.size();
        struct Task {
            std::size_t block;
            const ChunkSpan* span;
        };
        std::vector<Task> tasks;
        for (std::size_t b = 0; b < spans_.size(); ++b) {
            const std::vector<ChunkSpan>& s = spans_[b];
            auto it = std::upper_bound(s.begin(), s.end(), first,
                                       [](std::uint64_t at, const ChunkSpan& c) { return at < c.hi; });
            for (; it != s.end() && it->lo < last; ++it) tasks.push_back({b, &*it});
        }
        parallel_for_tasks(
            tasks.size(),
            [&](std::uint64_t t) {
                thread_local std::vector<T> chunk;
                const auto [b, span] = tasks[t];
                store_->read_chunk(kind, b, span->chunk, chunk);
                for_each_run_in_storage(
                    *layout_, b, span->chunk * BlockStore::kChunkEntries,
                    span->chunk * BlockStore::kChunkEntries + chunk.size(), side_,
                    [&](std::uint64_t index, std::uint64_t offset, std::uint64_t length) {
                        // The run clipped to the part.
                        const std::uint64_t lo = std::max(first, index), hi = std::min(last, index + length);
                        if (lo >= hi) return;
                        const T* src = chunk.data() + offset + (lo - index);
                        std::copy(src, src + (hi - lo), out.begin() + static_cast<std::ptrdiff_t>(lo - first));
                    });
            },
            threads_);
    }

  private:
    // The side's entries a chunk of a block holds lie in [lo, hi).
    struct ChunkSpan {
        std::uint64_t chunk;
        std::uint64_t lo, hi;
    };
    const BlockLayout* layout_;
    const BlockStore* store_;
    int side_;
    std::uint64_t entries_;
    int threads_;
    std::vector<std::vector<ChunkSpan>> spans_;  // per block, by chunk, those holding side entries
};

}  // namespace dtb::gen
