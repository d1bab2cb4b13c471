// The memory a pair's solve needs, against what the run may use: whether the pair is solved
// whole, by advancement levels with its arrays spilled to files (docs/GENERATOR.md, "Memory"),
// or refused up front instead of swapping for hours or being killed half-way.
#pragma once
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "dtb/gen/dependencies.hpp"
#include "dtb/gen/entry_subset.hpp"
#include "dtb/gen/mapping_cache.hpp"
#include "dtb/gen/rule_blocks.hpp"
#include "dtb/gen/side_reader.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "dtb/index/binomial.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/expected.hpp"

namespace dtb::gen {

// Physical memory in MB (0 if unknown).
inline std::uint64_t physical_memory_mb() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) >> 20 : 0;
}

// What a run may use: --memory, else the machine's physical memory (0 if unknown: no bound).
struct MemoryBudget {
    std::uint64_t requested_mb = 0;  // --memory; 0: the machine's
    std::uint64_t bound_mb() const { return requested_mb ? requested_mb : physical_memory_mb(); }
    // The memory the work may map (MappingCache::bound_memory; the pair estimates compare with
    // it too): the bound less a margin for what the cache does not map (small allocations, the
    // page cache of the tables read and written, the system). An eighth, at most 3 GB: a 6-piece
    // pair solved whole with a margin of 1.5 GB was killed above the cache's bound.
    std::uint64_t work_limit() const {
        const std::uint64_t bound = bound_mb() << 20;
        return bound - std::min<std::uint64_t>(std::uint64_t{3} << 30, bound / 8);
    }
};

// Entries of a pair (a slice and its mirror): what memory and disk hold.
template <class R>
std::uint64_t entries_of_pair(const Material& m) {
    return SliceIndex<R>(m).size() + (m.mirrored() == m ? 0 : SliceIndex<R>(m.mirrored()).size());
}
// The positions they stand for (more than the entries with a mirror index: Turkish).
template <class R>
std::uint64_t positions_of_pair(const Material& m) {
    return SliceIndex<R>(m).num_positions() + (m.mirrored() == m ? 0 : SliceIndex<R>(m.mirrored()).num_positions());
}
// Bytes per entry of a pair's arrays at the peak of its solve: the game's solve (value, exit,
// DTC, capture: 7 bytes); with counting rules, the phase seeds (2) and, while the rule tables are
// solved, the game's value and capture flag (3) with a rule solve (5) and the game's DTC codes it
// starts from (2, in place of DTC's array).
template <class R>
inline constexpr std::uint64_t kArrayBytesPerEntry = R::kCountingRules ? 12 : 7;
// What a whole (not by levels) solve of m holds with `held` bytes of finished slices: its arrays
// and 4 bytes per entry besides for its frontier lists, largest in the DTC pass and the repairs
// of the rule tables, and what the mapping cache does not map.
template <class R>
std::uint64_t whole_solve_bytes_of(std::uint64_t entries, std::uint64_t held) {
    return entries * (kArrayBytesPerEntry<R> + 4) + held;
}
// What a whole solve cannot do without: its arrays and the finished slices it reads (its frontier
// lists go to files when they would pass the limit). A pair that cannot be solved by levels is
// solved whole whenever this fits (plan_pair_memory), tight or not.
template <class R>
std::uint64_t whole_solve_floor_bytes_of(std::uint64_t entries, std::uint64_t held) {
    return entries * kArrayBytesPerEntry<R> + held;
}
template <class R>
std::uint64_t whole_solve_bytes(const Material& m, std::uint64_t held) {
    return whole_solve_bytes_of<R>(entries_of_pair<R>(m), held);
}

// What a finished slice x of `entries` entries takes while later pairs read it (FinishedTables):
// a word of 2 bytes per entry; for one of the run's largest slices (largest_pieces pieces), which
// only promotions reach, the words of the entries with a black king on Black's promotion row
// (counted as if no man stood there: an upper bound) and the subset's bits (EntrySubset).
template <class R>
std::uint64_t held_bytes_of(const Material& x, std::uint64_t entries, int largest_pieces) {
    if (x.pieces() != largest_pieces) return entries * sizeof(std::uint16_t);
    if (x.bk == 0) return 0;  // no promotion reaches it: no pair reads or keeps it
    using G = typename R::Geometry;
    const int row = std::popcount(RulesOf<R>::promotion_row(Color::black));
    const int free = std::popcount(G::kPlayable) - x.men() - x.wk;  // squares for the black kings
    const std::uint64_t all = binomial::choose(free, x.bk), none = binomial::choose(free - row, x.bk);
    const double reached = all ? 1.0 - static_cast<double>(none) / static_cast<double>(all) : 0.0;
    // (+1: the product's rounding down)
    return static_cast<std::uint64_t>(static_cast<double>(entries) * reached * sizeof(std::uint16_t)) + 1 +
           EntrySubset::bytes_for(entries);
}
// The finished slices a pair reads, in memory while it is solved (held_bytes_of).
template <class R>
std::uint64_t input_bytes(const Material& m, int largest_pieces) {
    std::uint64_t bytes = 0;
    for (const Material& x : inputs_of_pair(m)) bytes += held_bytes_of<R>(x, SliceIndex<R>(x).size(), largest_pieces);
    return bytes;
}
// What the values of pair m take once kept for the later pairs that read it (held_bytes_of).
template <class R>
std::uint64_t kept_bytes_of(const Material& m, int largest_pieces) {
    std::uint64_t bytes = held_bytes_of<R>(m, SliceIndex<R>(m).size(), largest_pieces);
    if (m.mirrored() != m) bytes += held_bytes_of<R>(m.mirrored(), SliceIndex<R>(m.mirrored()).size(), largest_pieces);
    return bytes;
}
// Whether solving m by levels can bring its memory down: a pair with men whose
// levels touch mostly their own pages (see plan_pair_memory), or any pair with men when spilling
// is asked for. kings_per_config: the pair's (SliceIndex), given so that dtb plan needs no index.
template <class R>
bool by_levels_possible_of(const Material& m, std::uint64_t kings_per_config, bool spill_requested) {
    return m.men() > 0 && (spill_requested || kings_per_config >= 512);
}
// What a solve of m by levels holds at a time with `held` bytes of finished slices: its largest
// level's positions and the level above that its man moves read, and their frontier lists.
// largest_level: the entries of the pair's largest level (SliceSolver::largest_level).
template <class R>
std::uint64_t level_solve_bytes_of(std::uint64_t largest_level, std::uint64_t held) {
    return held + largest_level * (2 * kArrayBytesPerEntry<R> + 8);
}
template <class R>
std::uint64_t level_solve_bytes(const Material& m, std::uint64_t held, int threads) {
    return level_solve_bytes_of<R>(SliceSolver<R>::largest_level(m, threads), held);
}

// Solved by blocks (SliceSolver::solve_by_blocks): a block's own arrays and frontier lists (9
// bytes per entry: exits, capture flags, DTC, the lists), its level's values and those of the
// level above (2 bytes per entry of each), 13 bytes per entry of the largest level when a level is
// one block (12.4 measured on a Turkish 5-piece pair, BENCHMARKS.md "By blocks"); a level split
// into groups of phases (gen/phase_groups.hpp) keeps 4 bytes per entry of the level and 9 per
// entry of the group being solved. The block store keeps the finished blocks compressed in a file
// (gen/block_store.hpp), and the tables are streamed from it part by part (gen/side_tables.hpp: 5
// bytes per entry of a part while a side is scanned). When a later pair reads this one, its values
// are kept for it (kept: kept_bytes_of), adopted from the store run by run once the tables are
// written; with rule tables, each level's fresh rule values besides (2 bytes per entry of the
// level). The rule tables by blocks (counting rules) hold, per entry of the level, the values and
// conversion codes of the level and of the level above (8 bytes), and per entry of the block its
// arrays, phase seeds and the game's values (9 more): 17 bytes per entry of a level solved whole.
// Each array held by blocks finds a men configuration through a pointer (gen/pair_array.hpp): 4
// arrays of the game, 10 with the rule tables', 8 bytes per configuration each, a few percent of a
// byte per entry unless a configuration has few king placements (one king: about 45).
template <class R>
inline constexpr std::uint64_t kArraysHeldByBlocks = R::kCountingRules ? 10 : 4;
template <class R>
inline constexpr std::uint64_t kBlockBytesPerLevelEntry = R::kCountingRules ? 8 : 4;
inline constexpr std::uint64_t kBlockBytesPerBlockEntry = 9;
template <class R>
std::uint64_t block_solve_bytes_of(std::uint64_t largest_level, std::uint64_t largest_block, std::uint64_t entries,
                                   std::uint64_t kings_per_config, std::uint64_t held, std::uint64_t kept) {
    const std::uint64_t streamed = std::min(entries, kTablePartEntries) * 5;
    const std::uint64_t pointers = entries / std::max<std::uint64_t>(kings_per_config, 1) * 8 * kArraysHeldByBlocks<R>;
    const std::uint64_t solve = largest_level * kBlockBytesPerLevelEntry<R> + largest_block * kBlockBytesPerBlockEntry;
    if constexpr (R::kCountingRules) {
        return held + pointers + std::max({solve, streamed, kept ? kept + largest_level * 2 : 0});
    } else {
        return held + pointers + std::max(solve, kept + streamed);
    }
}
// A level solved whole as one block.
template <class R>
std::uint64_t block_solve_bytes_of(std::uint64_t largest_level, std::uint64_t entries, std::uint64_t kings_per_config,
                                   std::uint64_t held, std::uint64_t kept) {
    return block_solve_bytes_of<R>(largest_level, largest_level, entries, kings_per_config, held, kept);
}
// The largest block whose solve fits `bound` bytes beside a largest level of largest_level entries
// (0: none does).
template <class R>
std::uint64_t largest_block_within(std::uint64_t bound, std::uint64_t largest_level, std::uint64_t entries,
                                   std::uint64_t kings_per_config, std::uint64_t held, std::uint64_t kept) {
    const std::uint64_t fixed = block_solve_bytes_of<R>(largest_level, 0, entries, kings_per_config, held, kept);
    if (fixed >= bound) return 0;
    return (bound - fixed) / kBlockBytesPerBlockEntry;
}
// Whether m may be solved by blocks: it has men, and (asked for every pair with men) its men
// configurations hold enough king placements that the tables of one pointer per configuration
// and array (gen/pair_array.hpp) stay small beside the arrays: a pair with a king or more.
inline constexpr std::uint64_t kMinKingsPerConfigByBlocks = 32;
inline bool by_blocks_possible_of(const Material& m, std::uint64_t kings_per_config, bool blocks_requested) {
    return m.men() > 0 && (blocks_requested || kings_per_config >= kMinKingsPerConfigByBlocks);
}

// The memory a distributed run's schedule fits a pair to (PairNeeds' whole_bytes and
// level_bytes, 0 when it cannot be solved by levels), as plan_pair_memory will decide on the rank
// that solves it: a pair that can go by levels is solved whole only when its frontier lists fit
// too; one that cannot is solved whole whenever its arrays and inputs fit, its frontier lists in
// files. largest_level(): the entries of its largest level, asked for only when it is needed.
// By blocks, a level is counted split into groups of kScheduledBlockEntries (or of one phase, a
// men configuration and its reversal, where that is larger): the least a rank needs, since a rank
// given more splits its levels less.
inline constexpr std::uint64_t kScheduledBlockEntries = std::uint64_t{1} << 27;
struct ScheduledMemory {
    std::uint64_t whole_bytes = 0, level_bytes = 0;
    bool by_blocks = false;  // level_bytes is the pair solved by blocks (cheaper than by levels)
};
template <class R, class LargestLevel>
ScheduledMemory scheduled_memory(const Material& m, std::uint64_t entries, std::uint64_t kings_per_config,
                                 std::uint64_t held, std::uint64_t kept, bool spill_requested, bool blocks_requested,
                                 LargestLevel&& largest_level) {
    // As plan_pair_memory decides: by blocks on request, or, when its rule tables can follow
    // the blocks, in place of spilling (or of a refusal).
    const bool blocks = by_blocks_possible_of(m, kings_per_config, blocks_requested) &&
                        (blocks_requested || (rule_tables_by_blocks_of<R>(m) && !spill_requested));
    std::uint64_t block_bytes = 0;
    if (blocks) {
        const std::uint64_t level = largest_level();
        const std::uint64_t block = std::min(level, std::max(kScheduledBlockEntries, 2 * kings_per_config));
        block_bytes = block_solve_bytes_of<R>(level, block, entries, kings_per_config, held, kept);
    }
    if (!by_levels_possible_of<R>(m, kings_per_config, spill_requested))
        return {whole_solve_floor_bytes_of<R>(entries, held), block_bytes, blocks};
    // By blocks when that fits, else by levels: whichever needs less.
    const std::uint64_t level_bytes = level_solve_bytes_of<R>(largest_level(), held);
    const bool by_blocks = blocks && block_bytes <= level_bytes;
    return {whole_solve_bytes_of<R>(entries, held), by_blocks ? block_bytes : level_bytes, by_blocks};
}

struct PairMemoryPlan {
    bool spill = false;               // solved by levels with its big arrays in files
    bool blocks = false;              // solved by blocks (SliceSolver::solve_by_blocks), nothing in files
    std::uint64_t largest_level = 0;  // by blocks: the entries of its largest level
    std::uint64_t largest_block = 0;  // by blocks: the entries of its largest block
    // By blocks: the levels larger than this split into groups of phases (0: none).
    std::uint64_t max_block_entries = 0;
    bool tight = false;               // a whole solve would pass the work limit
    std::uint64_t whole_bytes = 0;    // what a whole solve would hold (whole_solve_bytes)
    std::uint64_t array_bytes = 0;    // the pair's arrays alone
    std::uint64_t spilled_bytes = 0;  // spilled: the files' bytes (arrays, values kept, buffers)
};

// Decides how pair m is solved, `held` bytes of finished slices being in memory; spill_requested:
// --spill; threads: --threads. A pair with men that is tight is solved by levels when a level at a
// time fits: its own positions, the level above that its man moves read, and the frontier lists
// (about 8 bytes per position). A level is its men configurations, each a run of
// kings_per_config entries: only when such a run takes a good part of a page (512 entries, a
// quarter of a page of a 2-byte array) does a level touch mostly its own pages, so only then does
// spilling help (pairs with fewer than two kings fit anyway).
// kept: what this pair's values take once kept for the later pairs that read it (0: none does).
// blocks_requested: --blocks, every pair with men solved by blocks. Without it, a pair that
// would be spilled is solved by blocks instead, in memory, when they fit and its rule tables (if
// any) can follow the blocks (gen/rule_blocks.hpp); a level that would not fit whole is split into
// groups of phases that do. max_block_entries: --block-positions, every pair with men solved by
// blocks, its levels larger than that split (0: as the memory bound needs).
template <class R>
Expected<PairMemoryPlan> plan_pair_memory(const Material& m, const MemoryBudget& budget, std::uint64_t held,
                                          bool spill_requested, bool blocks_requested, int threads,
                                          const std::function<void(const std::string&)>& log, std::uint64_t kept,
                                          std::uint64_t max_block_entries = 0) {
    const std::uint64_t entries = entries_of_pair<R>(m);
    PairMemoryPlan plan;
    plan.array_bytes = entries * kArrayBytesPerEntry<R>;
    plan.whole_bytes = whole_solve_bytes<R>(m, held);
    const std::uint64_t need = plan.array_bytes + held;
    const std::uint64_t bound_mb = budget.bound_mb();
    const std::uint64_t bound = budget.work_limit();
    const bool too_big = bound_mb && need > bound;
    plan.tight = bound_mb && plan.whole_bytes > bound;
    std::uint64_t level_need = 0;  // by levels, when considered: the largest level and the inputs
    const SliceIndex<R> index(m);
    if (m.men() > 0 && (spill_requested || (plan.tight && index.kings_per_config() >= 512))) {
        level_need = level_solve_bytes<R>(m, held, threads);
        plan.spill = !bound_mb || level_need <= bound;
        if (!plan.spill && spill_requested && !too_big)
            log(m.name() + ": its largest level would not fit; solved whole, not spilled");
        if (!plan.spill && !spill_requested && !too_big)
            log(m.name() + ": tight in memory and its largest level would not fit; solved whole");
    }
    if (by_blocks_possible_of(m, index.kings_per_config(), blocks_requested || max_block_entries) &&
        (blocks_requested || max_block_entries ||
         (rule_tables_by_blocks_of<R>(m) && !spill_requested && (plan.spill || too_big)))) {
        const std::uint64_t kpc = index.kings_per_config();
        const std::uint64_t largest_level = SliceSolver<R>::largest_level(m, threads);
        // Levels split into groups of phases on request, or where a whole level would not fit.
        std::uint64_t cap = max_block_entries;
        if (!cap && bound_mb && block_solve_bytes_of<R>(largest_level, entries, kpc, held, kept) > bound)
            cap = largest_block_within<R>(bound, largest_level, entries, kpc, held, kept);
        const std::uint64_t largest_block =
            cap ? std::min(largest_level, SliceSolver<R>::largest_block(m, cap, threads)) : largest_level;
        const std::uint64_t block_need =
            block_solve_bytes_of<R>(largest_level, largest_block, entries, kpc, held, kept);
        if (blocks_requested || max_block_entries || !bound_mb || block_need <= bound) {
            plan.blocks = true;
            plan.largest_level = largest_level;
            plan.largest_block = largest_block;
            plan.max_block_entries = largest_block < largest_level ? cap : 0;
            plan.spill = false;
            return plan;
        }
        level_need = std::max(level_need, block_need);
    }
    if (!plan.spill && too_big)
        return Error{
            "slice " + m.name() + " needs about " + std::to_string(need >> 20) + " MB" +
                (level_need ? " (" + std::to_string(level_need >> 20) + " MB solved by levels)" : "") +
                ", more than the " + std::to_string(bound >> 20) + " MB the generator may use (" +
                (budget.requested_mb ? "--memory " + std::to_string(budget.requested_mb)
                                     : "this machine's " + std::to_string(bound_mb) + " MB; --memory MB overrides") +
                ", less a margin for what is not counted)",
            budget.requested_mb ? ErrorKind::bad_input : ErrorKind::system};
    // Spilled, the files hold the work arrays, and, for a pair that later slices read, the values
    // kept for them (2 bytes per position) and the writers' buffers.
    if (plan.spill) plan.spilled_bytes = entries * (kArrayBytesPerEntry<R> + 4);
    return plan;
}

// Whether the output folder has room for pair m's tables (2 bytes per entry at most) and, when it
// is spilled, its arrays, or solved by blocks, its block store. Spill files are kept from pair to pair with their pages
// (gen/mapping_cache.hpp), for the pairs solved by levels only: one that is not would have their
// dirty pages written back under it, and their disk blocks count for its tables' files.
inline Expected<bool> check_disk_space(const std::filesystem::path& dir, const Material& m, std::uint64_t entries,
                                       const PairMemoryPlan& plan, MappingCache& cache) {
    const auto space = std::filesystem::space(dir);
    if (!plan.spill) cache.release_files();
    // The kept files' disk blocks are this pair's arrays' again, up to their size; not its tables'.
    const std::uint64_t kept_for_arrays = std::min<std::uint64_t>(cache.kept_file_bytes(), plan.spilled_bytes);
    // By blocks, the block store's file besides (about 0.6 bytes per entry; one counted).
    const std::uint64_t store_bytes = plan.blocks ? entries : 0;
    if (space.available + kept_for_arrays < entries * 2 + plan.spilled_bytes + store_bytes + (1 << 20))
        return Error{"not enough free disk space in " + dir.string() + " for slice " + m.name() +
                         (plan.spill ? " (its arrays spilled to disk)" : "") +
                         (plan.blocks ? " (its block store on disk)" : ""),
                     ErrorKind::system};
    return true;
}

// Big arrays, while it lives, are files in dir, unlinked at once (gen/mapping_cache.hpp); the
// cached anonymous mappings go back to the system first.
class SpillScope {
  public:
    SpillScope(MappingCache& cache, const std::filesystem::path& dir) : cache_(cache) {
        cache_.release();
        cache_.spill_to(dir);
    }
    ~SpillScope() { cache_.spill_to({}); }
    SpillScope(const SpillScope&) = delete;
    SpillScope& operator=(const SpillScope&) = delete;

  private:
    MappingCache& cache_;
};

// The mapping cache's counters at a pair's start, for what the pair added to them.
struct CacheCounters {
    std::uint64_t spilled = 0, overflow = 0, reused_files = 0;
    static CacheCounters of(const MappingCache& cache) {
        return {cache.spilled_bytes(), cache.overflow_bytes(), cache.reused_file_bytes()};
    }
};

}  // namespace dtb::gen
