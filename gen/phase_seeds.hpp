// Seeds of the rule tables' phase solves (gen/rule_tables.hpp: material in no counting class,
// only king moves inside), gathered while the theoretical solve's seed pass generates the moves.
//
// A phase seed needs, per position, whether it must capture, its number of plain king moves, and
// the best value of its captures and promotions. Those lead to other slices, whose rule tables are
// final before this slice is solved, so the values are known at the theoretical seed pass: this
// class is its observer (SliceSolver::observe_seeds), and values them for every rule set that
// solves phases at once. Each value is a fresh-counter exit (win in 1, draw or loss in 1), so per
// position 16 bits hold it all: king moves (bits 0-7), must capture (bit 8), 2 bits per rule set
// (fmjd bits 9-10, ffjd bits 11-12), per rule set whether every exit has the same value with fresh
// counters as in the game itself (fmjd bit 13, ffjd bit 14: RuleTableSolver then may copy a king
// phase from the game's DTC), and whether the theoretical value is a draw (bit 15): the counting
// rules only add draws, so such a position is a draw under every rule set, and the phase solves
// skip it. Plain man moves stay with the phase solve: their values are in this very slice.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "dtb/gen/big_array.hpp"
#include "dtb/gen/block_arrays.hpp"
#include "dtb/gen/block_store.hpp"
#include "dtb/gen/finished_rule_tables.hpp"
#include "dtb/gen/finished_tables.hpp"
#include "dtb/gen/pair_array.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/counting_rules.hpp"
#include "dtb/probe/value.hpp"

namespace dtb::gen {

template <class R>
class PhaseSeeds {
  public:
    // How the seeds are held: whole (one array per side, sized now), or by the blocks of a
    // game solved by blocks (hold_by_blocks).
    enum class Holding { whole, by_blocks };
    // Sizes itself for m and its mirror (the sides of SliceSolver<R>(m, ...), in that order);
    // without counting rules, holds nothing.
    PhaseSeeds(const Material& m, MappingCache& cache, int threads = 0, Holding holding = Holding::whole)
        : m_(m), cache_(&cache), threads_(threads) {
        if constexpr (!R::kCountingRules) return;
        store_.keep_in(cache.work_dir());
        for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd})
            if (count_class(m, rules) == CountClass::none) phased_.push_back(rules);
        if (phased_.empty()) return;
        build_contributions();
        seeds_.emplace_back(cache);
        if (m.mirrored() != m) seeds_.emplace_back(cache);
        if (holding == Holding::by_blocks) return;
        assign_parallel(seeds_[0], SliceIndex<R>(m).size(), std::uint16_t{0}, threads_);
        if (m.mirrored() != m)
            assign_parallel(seeds_[1], SliceIndex<R>(m.mirrored()).size(), std::uint16_t{0}, threads_);
    }
    // Whether any rule set solves phases (else nothing needs observing).
    bool needed() const { return !phased_.empty(); }

    // By blocks: the game's layout (SliceSolver::solve_by_blocks, BlockHooks::laid_out). A level's
    // seeds are gathered while it is open (open_level), marked and kept compressed when its values
    // are final (finish_level), and read back by the phase solves (load_level, close_level).
    void hold_by_blocks(const BlockLayout& layout) {
        if (phased_.empty()) return;
        layout_ = std::make_unique<BlockLayout>(layout);
        std::vector<PairArray<std::uint16_t>*> sides;
        std::vector<std::uint64_t> configs;
        for (std::size_t s = 0; s < seeds_.size(); ++s) {
            sides.push_back(&seeds_[s]);
            configs.push_back(SliceIndex<R>(s == 0 ? m_ : m_.mirrored()).num_men_configs());
        }
        blocks_.emplace(*layout_, std::move(sides), std::move(configs), SliceIndex<R>(m_).kings_per_config(), *cache_);
    }
    bool by_blocks() const { return blocks_.has_value(); }
    void open_level(std::size_t l) {
        if (blocks_) blocks_->open(l, std::uint16_t{0}, threads_);
    }
    // Level l's values are final (values: in block order): its draws marked, its seeds kept.
    void finish_level(std::size_t l, std::span<const ValueCode> values) {
        if (!blocks_) return;
        const std::span<std::uint16_t> seeds = blocks_->storage(l);
        parallel_for(
            values.size(),
            [&](std::uint64_t k) {
                if (is_draw(values[k])) seeds[k] = static_cast<std::uint16_t>(seeds[k] | kDrawnBit);
            },
            {}, threads_);
        blocks_->store(l, store_, 0, threads_);
    }
    void load_level(std::size_t l) { blocks_->load(l, store_, 0, threads_); }
    void close_level(std::size_t l) { blocks_->close(l); }
    // A loaded level's seeds, in block order.
    std::span<const std::uint16_t> level(std::size_t l) { return blocks_->storage(l); }
    // Compressed bytes of the levels kept.
    std::uint64_t stored_bytes() const { return store_.bytes(); }

    // The observer (SeedObserver, gen/exit_values.hpp): exit_words are the words (FinishedTables) of
    // the positions its moves that leave the slice lead to (all captures, or the promotions), null
    // where the move takes the last piece; king_steps its plain king moves.
    void record(int side, std::uint64_t index, std::span<const std::uint16_t* const> exit_words, bool capture,
                int king_steps) {
        unsigned rank[2] = {0, 0};  // best fresh exit so far per phased rule set (rank_of; 0: none yet)
        unsigned unlike = 0;        // bit k: some exit differs from the game under phased_[k]
        for (const std::uint16_t* at : exit_words) {
            if (!at) {  // the game ends, under every rule set alike
                rank[0] = rank[1] = kRankWin;
                continue;
            }
            const unsigned c = contribution_[*at];
            rank[0] = std::max(rank[0], c & 3);
            rank[1] = std::max(rank[1], (c >> 2) & 3);
            unlike |= c >> 4;
        }
        unsigned word = capture ? kCaptureBit : static_cast<unsigned>(king_steps);
        for (std::size_t k = 0; k < phased_.size(); ++k) {
            word |= kPackOfRank[rank[k]] << shift(phased_[k]);
            if (!(unlike >> k & 1)) word |= like_game_bit(phased_[k]);
        }
        seeds_[static_cast<std::size_t>(side)][index] = static_cast<std::uint16_t>(word);
    }

    // After the theoretical solve: its values of side `side`, to mark the draws.
    void record_draws(int side, std::span<const ValueCode> values) {
        BigArray<std::uint16_t>& seeds = seeds_[static_cast<std::size_t>(side)].flat();
        parallel_for(
            values.size(),
            [&](std::uint64_t i) {
                if (is_draw(values[i])) seeds[i] = static_cast<std::uint16_t>(seeds[i] | kDrawnBit);
            },
            {}, threads_);
    }

    // The seed of a position for a rule set's phase solve (MoveValuation::prepared).
    PreparedSeed seed(CountingRules rules, int side, std::uint64_t index) const {
        const unsigned word = seeds_[static_cast<std::size_t>(side)][index];
        return PreparedSeed{(word & kDrawnBit) != 0, (word & kCaptureBit) != 0, static_cast<std::uint8_t>(word & 0xFF),
                            unpack(word >> shift(rules))};
    }

    // Whether every exit of a position (its captures, or its promotions) is worth the same under
    // the rule set, with fresh counters, as in the game itself.
    bool exits_like_game(CountingRules rules, int side, std::uint64_t index) const {
        return exits_like_game(rules, seed_word(side, index));
    }
    // A position's seed word (exits_like_game reads it).
    std::uint16_t seed_word(int side, std::uint64_t index) const {
        return seeds_[static_cast<std::size_t>(side)][index];
    }
    // The same, of a seed word.
    static bool exits_like_game(CountingRules rules, std::uint16_t seed) { return (seed & like_game_bit(rules)) != 0; }

    void release() {
        blocks_.reset();
        store_.clear();
        layout_.reset();
        std::vector<PairArray<std::uint16_t>>().swap(seeds_);
    }

  private:
    static constexpr unsigned kCaptureBit = 1u << 8;
    static constexpr unsigned kDrawnBit = 1u << 15;
    static constexpr unsigned like_game_bit(CountingRules rules) {
        return rules == CountingRules::fmjd ? 1u << 13 : 1u << 14;
    }
    static constexpr unsigned shift(CountingRules rules) { return rules == CountingRules::fmjd ? 9 : 11; }
    // An exit's value for the mover as a rank that grows with preference (better()): 0 no exit,
    // then loss in 1, draw, win in 1; and the 2-bit code stored in a seed (read back by unpack)
    // for each rank.
    static constexpr unsigned kRankWin = 3;
    static constexpr unsigned kPackOfRank[4] = {0, 3, 2, 1};
    static unsigned rank_of(ValueCode v) { return is_win(v) ? 3 : is_draw(v) ? 2 : 1; }

    // What a finished table's word contributes to record() for every word at once, so that the seed
    // pass pays a table read per exit instead of decoding the word per rule set: bits 0-1 and 2-3
    // the rank of the exit under phased_[0] and phased_[1], bits 4-5 whether its value there
    // differs from the game's.
    void build_contributions() {
        contribution_.assign(std::size_t{1} << 16, 0);
        for (unsigned word = 0; word < contribution_.size(); ++word) {
            const auto w = static_cast<std::uint16_t>(word);
            const Wdl game = wdl_of(FinishedTables<R>::value_in(w));
            unsigned c = 0;
            for (std::size_t k = 0; k < phased_.size(); ++k) {
                const Wdl fresh = FinishedTables<R>::fresh_in(phased_[k], w);
                c |= rank_of(value_of_fresh_exit(fresh)) << (2 * k);
                if (fresh != game) c |= 1u << (4 + k);
            }
            contribution_[word] = static_cast<std::uint8_t>(c);
        }
    }
    static ValueCode unpack(unsigned bits) {
        constexpr ValueCode kCodes[] = {kValueUnknown, win_in(1), kValueDraw, loss_in(1)};
        return kCodes[bits & 3];
    }

    Material m_;
    MappingCache* cache_;
    int threads_ = 0;  // of every parallel loop (0: all cores)
    std::vector<CountingRules> phased_;
    std::vector<PairArray<std::uint16_t>> seeds_;  // per side
    std::unique_ptr<BlockLayout> layout_;          // by blocks: the game's
    std::optional<BlockArray<std::uint16_t>> blocks_;
    BlockStore store_;
    std::vector<std::uint8_t> contribution_;  // per finished table word (build_contributions)
};

}  // namespace dtb::gen
