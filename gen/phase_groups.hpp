// Blocks smaller than a level: an advancement level split into groups of phases.
//
// A phase is what the moves that stay inside a level join: a men configuration (a Turkish row
// group, whose men also step sideways) and the colour-reversed configurations of the other side,
// which its king moves reach. Every other move leaves the phase for the level above, final
// before the level is solved, or for another slice: the phases of a level are independent, so a
// level may be solved a group of phases at a time, each needing only the level above.
#pragma once
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dtb/gen/men_configs.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/scope.hpp"
#include "dtb/index/slice_index.hpp"

namespace dtb::gen {

// A solve's blocks, in solving order, and the level of each (levels in solving order, a level's
// blocks consecutive).
struct LevelBlocks {
    std::vector<Scope> blocks;
    std::vector<std::size_t> level_of;
};

namespace phase_groups_detail {

// Union-find over a level's configurations.
class Phases {
  public:
    explicit Phases(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), std::uint32_t{0}); }
    std::uint32_t root(std::uint32_t x) {
        while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
        return x;
    }
    void join(std::uint32_t a, std::uint32_t b) {
        a = root(a);
        b = root(b);
        if (a != b) parent_[std::max(a, b)] = std::min(a, b);
    }

  private:
    std::vector<std::uint32_t> parent_;
};

// Splits one level into groups of whole phases of at most max_entries entries each (a phase
// larger than that is a group of its own), appended to out in the order of their first
// configurations, each group's ranges by side and index.
template <class R>
void split_level(const Scope& level, const std::vector<const SliceIndex<R>*>& indices, std::uint64_t max_entries,
                 int threads, std::vector<Scope>& out) {
    // The level's configurations, by side and index (as advancement_levels adds them).
    std::vector<std::pair<int, std::uint64_t>> configs;
    for (const Range& r : level) {
        const std::uint64_t kpc = indices[static_cast<std::size_t>(r.side)]->kings_per_config();
        for (std::uint64_t mc = r.begin / kpc; mc < r.end / kpc; ++mc) configs.emplace_back(r.side, mc);
    }
    const auto id_of = [&](int side, std::uint64_t mc) {
        const auto at = std::lower_bound(configs.begin(), configs.end(), std::make_pair(side, mc));
        return static_cast<std::uint32_t>(at - configs.begin());
    };
    // Each configuration's colour reversal, found from one of its positions.
    std::vector<std::uint32_t> reversal(configs.size());
    parallel_for(
        configs.size(),
        [&](std::uint64_t k) {
            const auto [side, mc] = configs[k];
            const int other = indices.size() == 1 ? 0 : 1 - side;
            reversal[k] = id_of(other, reversed_config(*indices[static_cast<std::size_t>(side)], mc,
                                                       *indices[static_cast<std::size_t>(other)]));
        },
        {}, threads);
    Phases phases(configs.size());
    for (std::size_t k = 0; k < configs.size(); ++k) phases.join(static_cast<std::uint32_t>(k), reversal[k]);
    if constexpr (SliceIndex<R>::kRowGroups) {
        std::unordered_map<std::uint64_t, std::uint32_t> first_of_group[2];
        for (std::size_t k = 0; k < configs.size(); ++k) {
            const auto [side, mc] = configs[k];
            const std::uint64_t group = indices[static_cast<std::size_t>(side)]->group_of_men_config(mc);
            const auto [at, added] = first_of_group[side].try_emplace(group, static_cast<std::uint32_t>(k));
            if (!added) phases.join(at->second, static_cast<std::uint32_t>(k));
        }
    }
    // Phase sizes, by root (a root is its phase's first configuration).
    std::vector<std::uint64_t> phase_entries(configs.size(), 0);
    for (std::size_t k = 0; k < configs.size(); ++k)
        phase_entries[phases.root(static_cast<std::uint32_t>(k))] +=
            indices[static_cast<std::size_t>(configs[k].first)]->kings_per_config();
    // Groups filled greedily with phases in the order of their first configurations.
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    std::vector<std::uint32_t> group_of_root(configs.size(), kNone);
    std::uint32_t groups = 0;
    std::uint64_t filled = 0;
    for (std::size_t k = 0; k < configs.size(); ++k) {
        if (phases.root(static_cast<std::uint32_t>(k)) != k) continue;
        if (groups == 0 || (filled > 0 && filled + phase_entries[k] > max_entries)) {
            ++groups;
            filled = 0;
        }
        group_of_root[k] = groups - 1;
        filled += phase_entries[k];
    }
    const std::size_t first = out.size();
    out.resize(first + groups);
    for (std::size_t k = 0; k < configs.size(); ++k) {
        const auto [side, mc] = configs[k];
        add_config(out[first + group_of_root[phases.root(static_cast<std::uint32_t>(k))]], side, mc,
                   indices[static_cast<std::size_t>(side)]->kings_per_config());
    }
}

}  // namespace phase_groups_detail

// The blocks of a solve by blocks: each level (advancement_levels, most advanced first) of at
// most max_entries entries as one block (0: every level whole), a larger one split into groups
// of phases of at most max_entries entries (or one phase, where a phase is larger).
template <class R>
LevelBlocks split_levels(const std::vector<Scope>& levels, const std::vector<const SliceIndex<R>*>& indices,
                         std::uint64_t max_entries, int threads) {
    LevelBlocks out;
    for (std::size_t l = 0; l < levels.size(); ++l) {
        std::uint64_t entries = 0;
        for (const Range& r : levels[l]) entries += r.end - r.begin;
        const std::size_t before = out.blocks.size();
        if (max_entries == 0 || entries <= max_entries)
            out.blocks.push_back(levels[l]);
        else
            phase_groups_detail::split_level<R>(levels[l], indices, max_entries, threads, out.blocks);
        if (out.blocks.size() == before) out.blocks.emplace_back();  // an empty level stays a block
        out.level_of.resize(out.blocks.size(), l);
    }
    return out;
}

}  // namespace dtb::gen
