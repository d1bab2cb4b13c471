// Passes over every position of a slice in index order. Within a chunk each position is stepped
// from the previous one (SliceIndex::step: a few bit operations) instead of unranked, which in
// passes that do little per position (a capture test, a table word) was their largest cost.
#pragma once
#include <cstdint>

#include "dtb/gen/parallel.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/position.hpp"

namespace dtb::gen {

// Calls body(i, position of index i) for every i in [0, index.size()), in parallel chunks.
template <class R, class Body>
void parallel_for_positions(const SliceIndex<R>& index, Body&& body, const ChunkProgress& progress = {},
                            int threads = 0) {
    parallel_for_chunks(
        index.size(),
        [&](std::uint64_t begin, std::uint64_t end) {
            Position p = index.unrank(begin);
            for (std::uint64_t i = begin; i < end; ++i) {
                if (i > begin) index.step(p, i);
                body(i, static_cast<const Position&>(p));
            }
        },
        progress, threads);
}

}  // namespace dtb::gen
