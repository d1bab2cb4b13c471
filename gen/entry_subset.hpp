// EntrySubset: some entries of a slice's index, one bit each, with the count of those before
// every 512 entries, so that an array holding only those entries finds an entry's place (rank)
// in a few operations. A finished slice that later slices reach only by promotion is held this
// way (gen/finished_tables.hpp): a tenth to a half of its entries, and 1.125 bits per entry.
#pragma once
#include <bit>
#include <cassert>
#include <cstdint>
#include <vector>

#include "dtb/gen/parallel.hpp"
#include "dtb/index/slice_index.hpp"

namespace dtb::gen {

class EntrySubset {
  public:
    EntrySubset() = default;

    // The entries of `index` whose position satisfies in(position); parallel over the index.
    template <class R, class In>
    static EntrySubset of(const SliceIndex<R>& index, In&& in, int threads = 0) {
        EntrySubset s;
        s.size_ = index.size();
        s.bits_.assign((s.size_ + 63) / 64, 0);
        // Chunks start at multiples of 64 entries: each thread writes whole words of its own.
        static_assert(kParallelChunk % 64 == 0);
        parallel_for_chunks(
            s.size_,
            [&](std::uint64_t begin, std::uint64_t end) {
                Position p = index.unrank(begin);
                for (std::uint64_t i = begin; i < end; ++i) {
                    if (i > begin) index.step(p, i);
                    if (in(p)) s.bits_[i / 64] |= std::uint64_t{1} << (i % 64);
                }
            },
            {}, threads);
        s.before_.resize(s.bits_.size() / kWordsPerBlock + 1);
        std::uint64_t count = 0;
        for (std::size_t w = 0; w < s.bits_.size(); ++w) {
            if (w % kWordsPerBlock == 0) s.before_[w / kWordsPerBlock] = count;
            count += static_cast<std::uint64_t>(std::popcount(s.bits_[w]));
        }
        s.count_ = count;
        return s;
    }

    std::uint64_t size() const { return size_; }    // entries of the index
    std::uint64_t count() const { return count_; }  // entries in the subset
    bool contains(std::uint64_t i) const { return (bits_[i / 64] >> (i % 64)) & 1; }
    // The entries of the subset before entry i: i's place in an array of the subset's entries.
    std::uint64_t rank(std::uint64_t i) const {
        assert(i < size_);
        const std::size_t w = i / 64;
        std::uint64_t r = before_[w / kWordsPerBlock];
        for (std::size_t k = w - w % kWordsPerBlock; k < w; ++k)
            r += static_cast<std::uint64_t>(std::popcount(bits_[k]));
        const std::uint64_t below = (std::uint64_t{1} << (i % 64)) - 1;
        return r + static_cast<std::uint64_t>(std::popcount(bits_[w] & below));
    }
    std::size_t bytes() const { return bits_.size() * sizeof(std::uint64_t) + before_.size() * sizeof(std::uint64_t); }
    // What a subset of an index of `size` entries takes (bytes() of it).
    static std::uint64_t bytes_for(std::uint64_t size) {
        const std::uint64_t words = (size + 63) / 64;
        return (words + words / kWordsPerBlock + 1) * sizeof(std::uint64_t);
    }

  private:
    static constexpr std::size_t kWordsPerBlock = 8;  // 512 entries per count
    std::uint64_t size_ = 0, count_ = 0;
    std::vector<std::uint64_t> bits_, before_;
};

}  // namespace dtb::gen
