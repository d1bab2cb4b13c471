// A per-position array of one side of a pair, addressed by the side's index (SliceIndex), held
// one of two ways:
// - whole: one flat BigArray over every index of the side;
// - by blocks (gen/block_arrays.hpp): only the men configurations of the blocks being solved have
//   storage, each a run of kings_per_config entries inside its block's own array, found through
//   a table of one pointer per men configuration. The passes address both the same way.
#pragma once
#include <cassert>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "dtb/gen/big_array.hpp"

namespace dtb::gen {

// i / d and i % d for a divisor fixed at run time, by one multiplication in double precision and a
// correction: exact for i < 2^52 (the quotient is off by at most one before the correction).
class FixedDivisor {
  public:
    FixedDivisor() = default;
    explicit FixedDivisor(std::uint64_t d) : d_(d), inverse_(1.0 / static_cast<double>(d)) { assert(d > 0); }
    std::uint64_t divisor() const { return d_; }
    // (i / d, i % d)
    std::pair<std::uint64_t, std::uint64_t> divide(std::uint64_t i) const {
        assert(i < (std::uint64_t{1} << 52));
        auto q = static_cast<std::uint64_t>(static_cast<double>(i) * inverse_);
        auto r = static_cast<std::int64_t>(i - q * d_);
        if (r < 0) {
            --q;
            r += static_cast<std::int64_t>(d_);
        } else if (static_cast<std::uint64_t>(r) >= d_) {
            ++q;
            r -= static_cast<std::int64_t>(d_);
        }
        return {q, static_cast<std::uint64_t>(r)};
    }

  private:
    std::uint64_t d_ = 1;
    double inverse_ = 1.0;
};

template <class T>
class PairArray {
  public:
    explicit PairArray(MappingCache& cache) : flat_(cache) {}

    T& operator[](std::uint64_t i) { return by_configs_ ? in_config(i) : flat_[i]; }
    const T& operator[](std::uint64_t i) const { return by_configs_ ? in_config(i) : flat_[i]; }

    // Whole: the flat array (empty while held by blocks).
    BigArray<T>& flat() { return flat_; }
    const BigArray<T>& flat() const { return flat_; }
    std::size_t size() const { return flat_.size(); }
    T* data() { return flat_.data(); }
    const T* data() const { return flat_.data(); }
    auto begin() { return flat_.begin(); }
    auto end() { return flat_.end(); }
    auto get_allocator() const { return flat_.get_allocator(); }
    operator std::span<const T>() const {  // NOLINT: a whole array reads as its span
        assert(!by_configs_);
        return {flat_.data(), flat_.size()};
    }

    // By blocks: no configuration has storage until placed. Frees the flat array.
    void hold_by_configs(std::uint64_t num_configs, std::uint64_t kings_per_config) {
        free_array(flat_);
        by_configs_ = true;
        divisor_ = FixedDivisor(kings_per_config);
        runs_.assign(num_configs, nullptr);
    }
    bool by_configs() const { return by_configs_; }
    // Men configuration mc's entries are the kings_per_config entries from run on (null: none).
    void place(std::uint64_t mc, T* run) { runs_[mc] = run; }
    // The first of men configuration mc's kings_per_config entries, held either way.
    T* run(std::uint64_t mc, std::uint64_t kings_per_config) {
        return by_configs_ ? runs_[mc] : flat_.data() + mc * kings_per_config;
    }
    const T* run(std::uint64_t mc, std::uint64_t kings_per_config) const {
        return by_configs_ ? runs_[mc] : flat_.data() + mc * kings_per_config;
    }
    // Back to whole (and empty).
    void hold_whole() {
        by_configs_ = false;
        std::vector<T*>().swap(runs_);
    }

  private:
    T& in_config(std::uint64_t i) const {
        const auto [mc, k] = divisor_.divide(i);
        assert(mc < runs_.size() && runs_[mc]);
        return runs_[mc][k];
    }

    BigArray<T> flat_;
    bool by_configs_ = false;
    FixedDivisor divisor_;
    std::vector<T*> runs_;
};

template <class T>
void free_array(PairArray<T>& a) {
    free_array(a.flat());
}
template <class T>
void assign_parallel(PairArray<T>& a, std::size_t n, T value, int threads = 0) {
    assert(!a.by_configs());
    assign_parallel(a.flat(), n, value, threads);
}

}  // namespace dtb::gen
