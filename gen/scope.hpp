// Scopes: the sets of positions a solver's pass runs over (index ranges of either side), the
// advancement levels a pair is solved by, and the parallel loops of a pass over a scope or over a
// frontier list (gen/frontier.hpp), each with its progress line and its timer. The loops are
// scheduled by gen/parallel.hpp.
#pragma once
#include <algorithm>
#include <cassert>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "dtb/gen/frontier.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/pass_timer.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/position.hpp"

namespace dtb::gen {

// (pass name, done, total) for progress lines.
using PassProgress = std::function<void(const std::string& pass, std::uint64_t done, std::uint64_t total)>;

// A set of positions: index ranges [begin, end) of either side.
struct Range {
    int side;
    std::uint64_t begin, end;
};
using Scope = std::vector<Range>;

// Adds the positions of men configuration mc of side s (kpc of them) to scope, as an
// extension of its last range when they follow on.
inline void add_config(Scope& scope, int s, std::uint64_t mc, std::uint64_t kpc) {
    if (!scope.empty() && scope.back().side == s && scope.back().end == mc * kpc)
        scope.back().end += kpc;
    else
        scope.push_back(Range{s, mc * kpc, (mc + 1) * kpc});
}

// The men configurations of the sides indexed by indices (side s = indices[s]) grouped by
// advancement, most advanced first. A man move raises advancement by one; colour reversal keeps
// it, so a level is closed under king moves from either side.
// Each level's list is reserved once, for as many ranges as it has configurations (add_config
// merges some; capacity never touched costs no page): grown by push_back, the levels of a
// slice without kings (one range per position) would be copied on every doubling into freshly
// faulted pages.
template <class R>
std::vector<Scope> advancement_levels(const std::vector<const SliceIndex<R>*>& indices, int threads) {
    std::vector<std::vector<std::uint8_t>> advancement(indices.size());
    std::vector<std::size_t> configs;  // per level
    for (std::size_t s = 0; s < indices.size(); ++s) {
        const SliceIndex<R>& index = *indices[s];
        std::vector<std::uint8_t>& a = advancement[s];
        a.resize(index.num_men_configs());
        parallel_for(
            a.size(),
            [&](std::uint64_t mc) {
                const int advancement_of_config = index.advancement(mc);
                assert(advancement_of_config < 256);  // 9 rows per man, at most 8 pieces
                a[mc] = static_cast<std::uint8_t>(advancement_of_config);
            },
            {}, threads);
        for (const std::uint8_t level : a) {
            if (configs.size() <= level) configs.resize(level + std::size_t{1}, 0);
            ++configs[level];
        }
    }
    std::vector<Scope> levels(configs.size());
    for (std::size_t l = 0; l < levels.size(); ++l) levels[l].reserve(configs[l]);
    for (std::size_t s = 0; s < indices.size(); ++s) {
        const std::uint64_t kpc = indices[s]->kings_per_config();
        const std::vector<std::uint8_t>& a = advancement[s];
        for (std::uint64_t mc = 0; mc < a.size(); ++mc) add_config(levels[a[mc]], static_cast<int>(s), mc, kpc);
    }
    std::reverse(levels.begin(), levels.end());
    return levels;
}

// The loops of a solver's passes: each runs on `threads` threads (0: all cores), reports
// (pass + level label, done, total) to progress, and adds its time to its kind of pass.
class PassLoops {
  public:
    // cache: the one the frontier lists map from.
    PassLoops(PassProgress progress, int threads, MappingCache& cache)
        : progress_(std::move(progress)), threads_(threads), cache_(&cache) {}
    int threads() const { return threads_; }
    MappingCache& cache() const { return *cache_; }
    // " (level k/n)" while solving by levels, appended to the pass names of progress lines.
    void set_level_label(std::string label) { level_label_ = std::move(label); }
    const PassSeconds& seconds() const { return seconds_; }

    // Runs visit(chunk, range, index) over every position of the scope, in parallel chunks; chunk
    // is a ChunkState made afresh for each chunk: what a pass carries from one index to the next.
    // finish(chunk) runs at the end of each chunk.
    template <class ChunkState, class Visit>
    void over_scope(const std::string& pass, const Scope& scope, Visit&& visit) {
        over_scope<ChunkState>(pass, scope, std::forward<Visit>(visit), [](ChunkState&) {});
    }
    template <class ChunkState, class Visit, class Finish>
    void over_scope(const std::string& pass, const Scope& scope, Visit&& visit, Finish&& finish) {
        over_parts(
            pass, scope, [](const Range& r) { return r.end - r.begin; },
            [&](const std::vector<std::uint64_t>& starts, std::size_t at, std::uint64_t begin, std::uint64_t end) {
                ChunkState chunk{};
                for (std::uint64_t k = begin; k < end; ++k) {
                    while (k - starts[at] >= scope[at].end - scope[at].begin) ++at;
                    visit(chunk, scope[at], scope[at].begin + (k - starts[at]));
                }
                finish(chunk);
            });
    }
    // Runs body(side, index) over every position of the scope.
    template <class Body>
    void for_scope(const std::string& pass, const Scope& scope, Body&& body) {
        struct Nothing {};
        over_scope<Nothing>(pass, scope, [&](Nothing&, const Range& r, std::uint64_t i) { body(r.side, i); });
    }
    // The same with the position: body(side, index, position), the position stepped from the
    // previous index (SliceIndex::step) rather than unranked, except at the start of a chunk or
    // a range. index_of(side) is the side's SliceIndex.
    template <class IndexOf, class Body>
    void for_scope_positions(const std::string& pass, const Scope& scope, IndexOf&& index_of, Body&& body) {
        struct Nothing {};
        for_scope_positions<Nothing>(
            pass, scope, index_of, [&](Nothing&, int s, std::uint64_t i, const Position& p) { body(s, i, p); },
            [](Nothing&) {});
    }
    // The same with a state of the body's per chunk: body(state, side, index, position), then
    // finish(state) at the end of the chunk.
    template <class State, class IndexOf, class Body, class Finish>
    void for_scope_positions(const std::string& pass, const Scope& scope, IndexOf&& index_of, Body&& body,
                             Finish&& finish) {
        struct Stepped {
            Position p;
            bool started = false;
            State state{};
        };
        over_scope<Stepped>(
            pass, scope,
            [&](Stepped& chunk, const Range& r, std::uint64_t i) {
                const auto& index = index_of(r.side);
                if (!chunk.started || i == r.begin)
                    chunk.p = index.unrank(i);
                else
                    index.step(chunk.p, i);
                chunk.started = true;
                body(chunk.state, r.side, i, static_cast<const Position&>(chunk.p));
            },
            [&](Stepped& chunk) { finish(chunk.state); });
    }

    // Runs chunk(item_at, begin, end) over the items in parallel chunks; item_at(k) is the k-th
    // item, for k rising from begin to end - 1.
    template <class Chunk>
    void for_item_chunks(const std::string& pass, const ItemList& items, Chunk&& chunk) {
        const std::vector<ItemList::Block>& blocks = items.blocks();
        over_parts(
            pass, blocks, [](const ItemList::Block& b) { return std::uint64_t{b.size()}; },
            [&](const std::vector<std::uint64_t>& starts, std::size_t at, std::uint64_t begin, std::uint64_t end) {
                auto item_at = [&](std::uint64_t k) {
                    while (k - starts[at] >= blocks[at].size()) ++at;
                    return blocks[at][k - starts[at]];
                };
                chunk(item_at, begin, end);
            });
    }

    // The positions of a scope for which wanted(side, index) holds, in index order within each
    // chunk.
    template <class Wanted>
    ItemList positions_where(const std::string& pass, const Scope& scope, Wanted&& wanted) {
        PendingAppends found(*cache_, threads_);
        for_scope(pass, scope, [&](int s, std::uint64_t i) {
            if (wanted(s, i)) found.add(0, make_item(s, i));
        });
        return found.take(0);
    }

  private:
    // Runs chunk(starts, at, begin, end) in parallel chunks over the concatenation of parts (of
    // size_of(part) each): starts holds the offset of each part in it, at is the part holding
    // begin, and the chunk goes on from there through the following parts.
    template <class Parts, class SizeOf, class Chunk>
    void over_parts(const std::string& pass, const Parts& parts, SizeOf&& size_of, Chunk&& chunk) {
        std::vector<std::uint64_t> starts;  // offset of each part in the concatenation
        std::uint64_t all = 0;
        for (const auto& part : parts) {
            starts.push_back(all);
            all += size_of(part);
        }
        ChunkProgress report;
        if (progress_) report = [&](std::uint64_t done, std::uint64_t) { progress_(pass + level_label_, done, all); };
        const PassTimer timer(seconds_, pass);
        parallel_for_chunks(
            all,
            [&](std::uint64_t begin, std::uint64_t end) {
                const auto at =
                    static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), begin) - starts.begin()) -
                    1;
                chunk(starts, at, begin, end);
            },
            report, threads_);
    }

    PassProgress progress_;
    int threads_ = 0;  // of every parallel loop (0: all cores)
    MappingCache* cache_;
    std::string level_label_;
    PassSeconds seconds_;
};

}  // namespace dtb::gen
