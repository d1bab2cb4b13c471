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
            const Scope& scope = layout.blocks[b];
            const std::vector<std::uint64_t>& starts = layout.starts[b];
            const std::uint64_t chunks = (layout.sizes[b] + BlockStore::kChunkEntries - 1) / BlockStore::kChunkEntries;
            std::size_t k = 0;
            for (std::uint64_t c = 0; c < chunks; ++c) {
                const std::uint64_t first = c * BlockStore::kChunkEntries;
                const std::uint64_t last = std::min(first + BlockStore::kChunkEntries, layout.sizes[b]);
                while (k + 1 < scope.size() && starts[k + 1] <= first) ++k;
                ChunkSpan span{c, k, 0, 0};
                for (std::size_t j = k; j < scope.size() && starts[j] < last; ++j) {
                    if (scope[j].side != side) continue;
                    const std::uint64_t from = std::max(first, starts[j]);
                    const std::uint64_t to = std::min(last, starts[j] + (scope[j].end - scope[j].begin));
                    const std::uint64_t lo = scope[j].begin + (from - starts[j]), hi = lo + (to - from);
                    if (span.lo == span.hi) span.lo = lo;
                    assert(lo >= span.hi);
                    span.hi = hi;
                }
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
                const std::uint64_t chunk_first = span->chunk * BlockStore::kChunkEntries;
                const std::uint64_t chunk_last = chunk_first + chunk.size();
                const Scope& scope = layout_->blocks[b];
                const std::vector<std::uint64_t>& starts = layout_->starts[b];
                for (std::size_t k = span->first_range; k < scope.size() && starts[k] < chunk_last; ++k) {
                    const Range& r = scope[k];
                    if (r.side != side_) continue;
                    // The range's entries in this chunk, as indices of the side, clipped to the part.
                    const std::uint64_t from = std::max(chunk_first, starts[k]);
                    const std::uint64_t to = std::min(chunk_last, starts[k] + (r.end - r.begin));
                    const std::uint64_t lo = std::max(first, r.begin + (from - starts[k]));
                    const std::uint64_t hi = std::min(last, r.begin + (to - starts[k]));
                    if (lo >= hi) continue;
                    const T* src = chunk.data() + (from - chunk_first) + (lo - (r.begin + (from - starts[k])));
                    std::copy(src, src + (hi - lo), out.begin() + static_cast<std::ptrdiff_t>(lo - first));
                }
            },
            threads_);
    }

  private:
    // The side's entries a chunk of a block holds lie in [lo, hi); its ranges start at first_range.
    struct ChunkSpan {
        std::uint64_t chunk;
        std::size_t first_range;
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
