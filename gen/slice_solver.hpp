// Retrograde analysis of one material slice together with its colour-reversed mirror.
//
// Every position is stored with White to move. Slice X with Black to move is slice mirror(X)
// with White to move, so the solver holds two arrays, side 0 = X and side 1 = mirror(X), and a
// plain move from side s leads to side 1-s. When X is its own mirror (KvK, MMvMM) both sides are
// one array.
//
// Passes (each a parallel loop over an index range):
//   1. seed_from_exits     forward: for each position, the best value among the moves that
//                          leave the slice (captures, promotions; looked up in finished tables)
//                          and the number of moves that stay inside it. Plain king moves are
//                          only counted, never built (gen/forward.hpp).
//   2. iterate_dtw         by ply d = 1, 2, ...: wins at d from losses at d-1 (un-moves), from
//                          exits at d; losses when the last in-slice successor turns out won.
//   3. seed_dtc            forward again, now that every WDL is known: conversions (captures
//                          and man moves) are worth 1; only king moves stay unconverted.
//   4. iterate_dtc         by ply along king moves only.
// solve_by_levels() runs the same passes one advancement level of men at a time (man moves are
// then exits into the level above, solved before).
// A valuation with a reference (the counting rules, whose values are the game's DTC codes or weaker)
// replaces passes 1-2 by a repair: only the positions whose exits differ from the reference's,
// and those whose value may depend on them, are seeded and iterated.
// Predecessors with a capture are never touched: all their moves leave the slice, so pass 1
// (and pass 3) already made their values final, and every update below only changes open ones.
// Passes 2 and 4 work on frontier lists (gen/frontier.hpp) bucketed by ply, so each level costs
// only its own positions. Each level's win step (a move into a loss at the level below wins)
// is pushed from the losses' un-moves or pulled by the undecided positions' moves, whichever is
// estimated to cost less: late in a lopsided slice a few undecided positions remain while
// millions of losses would each visit dozens of predecessors already won. Invariant of pass 2
// after level d: every position whose DTW is <= d is final, and every loss whose DTW is > d has
// been found as soon as its last successor was known.
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "dtb/gen/big_array.hpp"
#include "dtb/gen/forward.hpp"
#include "dtb/gen/frontier.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/movegen.hpp"

namespace dtb::gen {

// The finished slices that moves leaving the slice being solved lead to, in two steps:
// locate(p) is the address of the word of a White-to-move position p of any other material
// (gen/finished_tables.hpp), value_in(word) its value code. Two steps so that the seed pass can
// locate the exits of a batch of positions, prefetch their words, and read them once they have
// arrived: at 6 pieces a word is a cache miss into a table of hundreds of MB.
struct ExternalTables {
    std::function<const std::uint16_t*(const Position&)> locate;
    ValueCode (*value_in)(std::uint16_t word) = nullptr;
    ValueCode value(const Position& p) const { return value_in(*locate(p)); }
};
// What a seed pass learns from a position's captures and promotions, which lead to other slices
// and so are the same for every valuation that reads the same finished tables.
struct PreparedSeed {
    bool drawn = false;                        // known to be a draw (the rest does not matter)
    bool capture = false;                      // the side to move must capture: every move leaves
    std::uint8_t king_steps = 0;               // plain king moves (0 when it must capture)
    ValueCode best_elsewhere = kValueUnknown;  // best value among its captures and promotions
};
// What moves are worth under a set of rules other than the plain game (the counting rules).
struct MoveValuation {
    // false: only king moves stay inside (the 25-move rule's king phases); man moves are exits.
    bool man_moves_inside = true;
    // The value, for the side that moves, of a move that does not stay inside. next is the
    // position after the move, colour-reversed (White to move, with at least one white piece).
    std::function<ValueCode(const Position& next, const Move& m)> exit;
    // Optional, only with man_moves_inside = false: the seed of position `index` of side `side`
    // computed beforehand (gen/rule_tables.hpp does it for both rule sets in one pass). The seed
    // pass then generates only plain man moves, and values those that do not promote by exit().
    std::function<PreparedSeed(int side, std::uint64_t index)> prepared;
    // Optional: the values of a men configuration known beforehand (kings_per_config() of them,
    // from its first index on), or nullptr when it must be solved. A known configuration is
    // copied, not solved. Only king moves may stay inside (man_moves_inside = false): a
    // configuration is then closed, and nothing inside the slice leads into one from outside
    // except man moves, which read its (final) values.
    std::function<const ValueCode*(int side, std::uint64_t men_config)> known;
    // Optional, only with man_moves_inside = false and prepared seeds: values that this valuation's
    // equal or are stronger than (a valuation's win is the reference's win, slower, or a draw; its
    // loss the reference's loss, slower, or a draw: the counting rules against the game's DTC,
    // gen/rule_tables.hpp). The solver then re-solves only the positions whose exits differ from
    // the reference's and those whose value may depend on them (SliceSolver::repair), and takes
    // the reference's value everywhere else.
    struct Reference {
        std::vector<const ValueCode*> values;  // per side, of the whole side, by index
        // Whether a position's captures and promotions are worth what they are in the reference.
        std::function<bool(int side, std::uint64_t index)> exits_like;
        // Whether a plain man move into a position whose value is `solved` here, and `reference`
        // in the reference, is worth the same under both.
        std::function<bool(ValueCode solved, ValueCode reference)> same_exit;
        // false (tests only): repair however far the closure grows, never solving in full.
        bool fall_back = true;
    };
    std::optional<Reference> reference;
};
// Told, for a position (side, index) of the theoretical seed pass: the words (ExternalTables) of
// the positions its moves that leave the slice lead to (every capture, or the promotions), in the
// order of the moves, a null pointer for a move that takes the opponent's last piece; whether it
// must capture; its plain king moves. The words have been read by then (in cache).
using SeedObserver = std::function<void(int side, std::uint64_t index, std::span<const std::uint16_t* const> exit_words,
                                        bool capture, int king_steps)>;
// (pass name, done, total) for progress lines.
using PassProgress = std::function<void(const std::string& pass, std::uint64_t done, std::uint64_t total)>;

// Better for the player to move: quick wins, then draws, then slow losses.
constexpr int preference(ValueCode v) {
    if (v == kValueUnknown) return -1000000;
    if (is_win(v)) return 1000000 - distance_of(v);
    if (is_draw(v)) return 0;
    return -100000 + distance_of(v);
}
constexpr ValueCode better(ValueCode a, ValueCode b) {
    return preference(a) >= preference(b) ? a : b;
}

template <class R>
class SliceSolver {
  public:
    struct Side {
        SliceIndex<R> index;
        // WDL + DTW (value code); while undecided, open_code(n): n in-slice successors are not
        // yet known to be won.
        BigArray<ValueCode> value;
        BigArray<ValueCode> exit;  // best value among moves leaving the slice (pass 1)
        // Pass 3-4; while undecided, kDtcUnknown (a win) or dtc_open_code(n) (a loss with n king
        // moves whose DTC is not yet known).
        BigArray<std::uint16_t> dtc;
        BigArray<std::uint8_t> capture;  // 1 where the side to move must capture (pass 1)
    };

    // threads: of every parallel loop (0: all cores).
    SliceSolver(Material m, ExternalTables external, PassProgress progress = {}, int threads = 0)
        : external_(std::move(external)), progress_(std::move(progress)), threads_(threads) {
        sides_.push_back(Side{SliceIndex<R>(m), {}, {}, {}, {}});
        if (m.mirrored() != m) sides_.push_back(Side{SliceIndex<R>(m.mirrored()), {}, {}, {}, {}});
    }
    // The same recursion under other rules of the game (the counting rules, gen/rule_tables.hpp):
    // which moves stay inside and what the others are worth is the valuation's.
    SliceSolver(Material m, MoveValuation valuation, PassProgress progress = {}, int threads = 0)
        : SliceSolver(m, ExternalTables{}, std::move(progress), threads) {
        valuation_ = std::move(valuation);
    }

    void solve() {
        seed_from_exits(full_scope());
        iterate_dtw(full_scope());
        // Only the DTW iteration reads the exits: DTC's array takes their memory (the same size,
        // so the mapping cache hands it over), which lowers the peak of a pair solved whole (its
        // DTC pass, with the largest frontier lists) by 2 bytes per position.
        release_work_arrays();
        assign_dtc();
        seed_dtc(full_scope());
        iterate_dtc(full_scope());
        release_work_arrays();
    }
    // The same values and DTC, solved one advancement level at a time, most advanced first
    // (international only: a Turkish man may step sideways and stay in its level). A plain man
    // move leaves its level for the next one, already final, so within a level it is an exit
    // worth its successor's value one ply on, and only king moves stay inside: every pass then
    // touches one level at a time (and its successor level, read only), which is what lets a
    // pair larger than memory be solved with its arrays spilled to disk (docs/GENERATOR.md). DTC's
    // iteration needs nothing across levels (a man move converts, whatever it reaches); its seeds
    // read the final values of the level above.
    void solve_by_levels() {
        static_assert(!SliceIndex<R>::kRowGroups, "man moves must leave their level (no sideways moves)");
        assert(!valuation_.exit);
        struct Restore {  // man moves count inside again afterwards, even on an exception
            bool& inside;
            ~Restore() { inside = true; }
        } restore{valuation_.man_moves_inside};
        valuation_.man_moves_inside = false;
        assign_dtc();
        const std::vector<Scope> levels = advancement_levels();
        for (std::size_t l = 0; l < levels.size(); ++l) {
            level_label_ =
                levels.size() > 1 ? " (level " + std::to_string(l + 1) + "/" + std::to_string(levels.size()) + ")" : "";
            seed_from_exits(levels[l]);
            iterate_dtw(levels[l]);
            seed_dtc(levels[l]);
            iterate_dtc(levels[l]);
        }
        level_label_.clear();
        release_work_arrays();
    }
    // Passes 1 and 2 only: values without DTC (what a valuation's tables need). When man moves are
    // exits, every men configuration is a king phase of its own whose exits lead to configurations
    // with more advanced men: the phases are solved by decreasing advancement, so that a valuation
    // whose exit reads this solver's own values (value_of) finds them final.
    void solve_values() {
        allocate_arrays();
        if (valuation_.reference)
            for (const Side& sd : sides_) config_like_.emplace_back(sd.index.num_men_configs(), -1);
        auto solve_scope = [&](const Scope& scope) {
            const Scope rest = copy_known(scope);
            if (valuation_.reference) {
                repair(rest);
            } else {
                seed_from_exits(rest);
                iterate_dtw(rest);
            }
        };
        if (valuation_.man_moves_inside || sides_[0].index.material().men() == 0) {
            solve_scope(full_scope());
        } else {
            const std::vector<Scope> levels = advancement_levels();
            for (std::size_t l = 0; l < levels.size(); ++l) {
                level_above_ = l > 0 ? &levels[l - 1] : nullptr;
                solve_scope(levels[l]);
            }
            level_above_ = nullptr;
        }
        release_work_arrays();
    }
    // Positions re-solved by repair (MoveValuation::reference), both sides; the others took the
    // reference's value, except in the scopes solved in full because their closure grew too large.
    std::uint64_t repaired_positions() const { return repaired_; }
    std::uint64_t scopes_solved_in_full() const { return fell_back_; }
    // How the win steps of passes 2 and 4 find their wins: from the losses' un-moves (pushed),
    // from the undecided positions' moves (pulled), or each level whichever is estimated to cost
    // less (by_cost, the default). The results are the same; tests compare them.
    enum class WinSteps { by_cost, pushed, pulled };
    void set_win_steps(WinSteps w) { win_steps_ = w; }
    // Levels of passes 2 and 4 whose win step was pulled.
    std::uint64_t levels_pulled() const { return levels_pulled_; }
    // Seconds spent in each kind of pass ("seed", "dtw", "dtc seed", "dtc", ...), in the order
    // they first ran.
    const std::vector<std::pair<std::string, double>>& pass_seconds() const { return pass_seconds_; }

    // Shows every position of the seed pass to observer, so that another computation can share
    // its move generation (gen/phase_seeds.hpp). Not with a valuation's prepared seeds.
    void observe_seeds(SeedObserver observer) { observer_ = std::move(observer); }

    int num_sides() const { return static_cast<int>(sides_.size()); }
    const Side& side(int s) const { return sides_[s]; }
    // Hands over the values of side s (the solver keeps none).
    BigArray<ValueCode> release_values(int s) { return std::move(sides_[s].value); }
    void release_dtc() {
        for (Side& sd : sides_) BigArray<std::uint16_t>().swap(sd.dtc);
    }
    // Hands over the DTC of side s (the solver keeps none).
    BigArray<std::uint16_t> release_dtc(int s) { return std::move(sides_[s].dtc); }
    // Value (WDL + DTW) of a position of this slice or its mirror, White to move.
    ValueCode value_of(const Position& p) const {
        const int s = side_of(Material::of(p));
        return sides_[s].value[sides_[s].index.rank(p)];
    }
    std::uint16_t dtc_of(const Position& p) const {
        const int s = side_of(Material::of(p));
        return sides_[s].dtc[sides_[s].index.rank(p)];
    }
    int side_of(const Material& m) const { return m == sides_[0].index.material() ? 0 : 1; }
    // Positions (both sides) of the largest level solve_by_levels would solve for the pair of m:
    // what it holds at a time (the generator's memory check for spilling).
    static std::uint64_t largest_level(const Material& m, int threads = 0) {
        const SliceIndex<R> index(m), mirror_index(m.mirrored());
        std::vector<const SliceIndex<R>*> indices{&index};
        if (m.mirrored() != m) indices.push_back(&mirror_index);
        std::uint64_t largest = 0;
        for (const Scope& level : advancement_levels(indices, threads)) {
            std::uint64_t n = 0;
            for (const Range& r : level) n += r.end - r.begin;
            largest = std::max(largest, n);
        }
        return largest;
    }

  private:
    // An undecided position keeps its count of open successors in its value word: the loss step
    // of pass 2 then touches one array per predecessor instead of two (value, then a counter),
    // and the counter array is gone. Value codes stay far below kOpenBase (DTW < 2^14 plies);
    // kValueUnknown is open_code(255), more moves than any position has.
    static constexpr ValueCode kOpenBase = 0xFF00;
    static constexpr bool is_open(ValueCode v) { return v >= kOpenBase; }
    static constexpr ValueCode open_code(int n) { return static_cast<ValueCode>(kOpenBase + n); }
    // The same for DTC (pass 4), for lost positions: their king moves not yet valued.
    static constexpr std::uint16_t kDtcOpenBase = 0xFE00;
    static constexpr bool is_dtc_open(std::uint16_t c) { return c >= kDtcOpenBase && c < kDtcOpenBase + 0x100; }
    static constexpr std::uint16_t dtc_open_code(int n) { return static_cast<std::uint16_t>(kDtcOpenBase + n); }
    static_assert(kValueUnknown == kOpenBase + 255);

    // Adds the time of a pass to its kind: the pass name without its level number ("dtw 12" is
    // "dtw").
    class Timer {
      public:
        Timer(SliceSolver& solver, const std::string& pass)
            : solver_(solver),
              kind_(pass.substr(0, pass.find_last_not_of("0123456789 ") + 1)),
              start_(std::chrono::steady_clock::now()) {}
        ~Timer() {
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
            auto& all = solver_.pass_seconds_;
            auto it = std::find_if(all.begin(), all.end(), [&](const auto& e) { return e.first == kind_; });
            if (it == all.end())
                all.emplace_back(kind_, s);
            else
                it->second += s;
        }
        Timer(const Timer&) = delete;
        Timer& operator=(const Timer&) = delete;

      private:
        SliceSolver& solver_;
        std::string kind_;
        std::chrono::steady_clock::time_point start_;
    };

    int other(int s) const { return sides_.size() == 1 ? 0 : 1 - s; }
    std::uint64_t total() const {
        std::uint64_t n = 0;
        for (const Side& sd : sides_) n += sd.index.size();
        return n;
    }
    // A set of positions: index ranges [begin, end) of either side.
    struct Range {
        int side;
        std::uint64_t begin, end;
    };
    using Scope = std::vector<Range>;
    // Adds the positions of men configuration mc of side s (kpc of them) to scope, as an
    // extension of its last range when they follow on.
    static void add_config(Scope& scope, int s, std::uint64_t mc, std::uint64_t kpc) {
        if (!scope.empty() && scope.back().side == s && scope.back().end == mc * kpc)
            scope.back().end += kpc;
        else
            scope.push_back(Range{s, mc * kpc, (mc + 1) * kpc});
    }
    Scope full_scope() const {
        Scope all;
        for (int s = 0; s < num_sides(); ++s) all.push_back(Range{s, 0, sides_[s].index.size()});
        return all;
    }
    // The men configurations of both sides grouped by advancement, most advanced first. A man
    // move raises advancement by one; colour reversal keeps it, so a level is closed under king
    // moves from either side.
    std::vector<Scope> advancement_levels() const {
        std::vector<const SliceIndex<R>*> indices;
        for (const Side& sd : sides_) indices.push_back(&sd.index);
        return advancement_levels(indices, threads_);
    }
    // The same for the sides indexed by indices (side s = indices[s]).
    // Each level's list is reserved once, for as many ranges as it has configurations (add_config
    // merges some; capacity never touched costs no page): grown by push_back, the levels of a
    // slice without kings (one range per position) would be copied on every doubling into freshly
    // faulted pages.
    static std::vector<Scope> advancement_levels(const std::vector<const SliceIndex<R>*>& indices, int threads) {
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
    // Runs visit(chunk, range, index) over every position of the scope, in parallel chunks; chunk
    // is a ChunkState made afresh for each chunk: what a pass carries from one index to the next.
    // finish(chunk) runs at the end of each chunk.
    template <class ChunkState, class Visit>
    void over_scope(const std::string& pass, const Scope& scope, Visit&& visit) {
        over_scope<ChunkState>(pass, scope, std::forward<Visit>(visit), [](ChunkState&) {});
    }
    template <class ChunkState, class Visit, class Finish>
    void over_scope(const std::string& pass, const Scope& scope, Visit&& visit, Finish&& finish) {
        std::vector<std::uint64_t> starts;  // offset of each range in the concatenation
        std::uint64_t all = 0;
        for (const Range& r : scope) {
            starts.push_back(all);
            all += r.end - r.begin;
        }
        ChunkProgress report;
        if (progress_) report = [&](std::uint64_t done, std::uint64_t) { progress_(pass + level_label_, done, all); };
        const Timer timer(*this, pass);
        parallel_for_chunks(
            all,
            [&](std::uint64_t begin, std::uint64_t end) {
                // The range holding begin, then on through the following ranges.
                auto at =
                    static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), begin) - starts.begin()) -
                    1;
                ChunkState chunk{};
                for (std::uint64_t k = begin; k < end; ++k) {
                    while (k - starts[at] >= scope[at].end - scope[at].begin) ++at;
                    visit(chunk, scope[at], scope[at].begin + (k - starts[at]));
                }
                finish(chunk);
            },
            report, threads_);
    }
    // Runs body(side, index) over every position of the scope.
    template <class Body>
    void for_scope(const std::string& pass, const Scope& scope, Body&& body) {
        struct Nothing {};
        over_scope<Nothing>(pass, scope, [&](Nothing&, const Range& r, std::uint64_t i) { body(r.side, i); });
    }
    // The same with the position: body(side, index, position), the position stepped from the
    // previous index (SliceIndex::step) rather than unranked, except at the start of a chunk or
    // a range.
    template <class Body>
    void for_scope_positions(const std::string& pass, const Scope& scope, Body&& body) {
        struct Nothing {};
        for_scope_positions<Nothing>(
            pass, scope, [&](Nothing&, int s, std::uint64_t i, const Position& p) { body(s, i, p); }, [](Nothing&) {});
    }
    // The same with a state of the body's per chunk: body(state, side, index, position), then
    // finish(state) at the end of the chunk.
    template <class State, class Body, class Finish>
    void for_scope_positions(const std::string& pass, const Scope& scope, Body&& body, Finish&& finish) {
        struct Stepped {
            Position p;
            bool started = false;
            State state{};
        };
        over_scope<Stepped>(
            pass, scope,
            [&](Stepped& chunk, const Range& r, std::uint64_t i) {
                const SliceIndex<R>& index = sides_[r.side].index;
                if (!chunk.started || i == r.begin)
                    chunk.p = index.unrank(i);
                else
                    index.step(chunk.p, i);
                chunk.started = true;
                body(chunk.state, r.side, i, static_cast<const Position&>(chunk.p));
            },
            [&](Stepped& chunk) { finish(chunk.state); });
    }

    // A move stays in the slice when it neither captures nor promotes (and, in a valuation without
    // man moves inside, when a king makes it).
    bool stays_inside(const Move& m) const {
        return !m.is_capture() && !m.promotes && (m.by_king || valuation_.man_moves_inside);
    }
    UnmoveKinds unmove_kinds() const {
        return valuation_.man_moves_inside ? UnmoveKinds::all : UnmoveKinds::kings_only;
    }

    // The game's value of the position after a move that does not stay inside, for the
    // opponent: a capture or promotion leads to a finished slice; a plain man move (solved by
    // levels) to this pair's next level, final by now. rp is the reversed position before the
    // move (see reversed_after).
    ValueCode game_value_after(const Position& rp, const Move& m) const {
        const Position next = reversed_after<typename R::Geometry>(rp, m);
        if (next.of(Color::white) == 0) return loss_in(0);  // the opponent has no piece left
        if (!m.is_capture() && !m.promotes) return value_of(next);
        return external_.value(next);
    }

    ValueCode exit_value(const Position& rp, const Move& m) const {
        if (!valuation_.exit) return value_one_ply_before(game_value_after(rp, m));
        const Position next = reversed_after<typename R::Geometry>(rp, m);
        if (next.of(Color::white) == 0) return win_in(1);  // the opponent has no piece left
        return valuation_.exit(next, m);
    }

    // Filled up front, in one sequential sweep per array: the passes start from these values
    // (open, no capture, DTC unknown), and the sweep matters for a pair solved by levels, whose
    // spill files then come into the page cache as 2 MB folios mapped whole (MADV_HUGEPAGE on
    // the file mapping) rather than as 4 KB pages touched level by level.
    void allocate_arrays() {
        for (Side& sd : sides_) {
            if (sd.value.size() == sd.index.size()) continue;  // an earlier scope allocated them
            assign_parallel(sd.value, sd.index.size(), kValueUnknown, threads_);
            assign_parallel(sd.exit, sd.index.size(), kValueUnknown, threads_);
            assign_parallel(sd.capture, sd.index.size(), std::uint8_t{0}, threads_);
        }
    }
    // Copies the values of the scope's known men configurations (MoveValuation::known) and returns
    // the rest of the scope, still to be solved.
    Scope copy_known(const Scope& scope) {
        if (!valuation_.known) return scope;
        assert(!valuation_.man_moves_inside);
        Scope rest;
        for (const Range& r : scope) {
            Side& sd = sides_[r.side];
            const std::uint64_t kpc = sd.index.kings_per_config();
            for (std::uint64_t begin = r.begin; begin < r.end; begin += kpc) {
                if (const ValueCode* known = valuation_.known(r.side, begin / kpc))
                    std::copy(known, known + kpc, sd.value.begin() + static_cast<std::ptrdiff_t>(begin));
                else
                    add_config(rest, r.side, begin / kpc, kpc);
            }
        }
        return rest;
    }

    void seed_from_exits(const Scope& scope) {
        allocate_arrays();
        if (valuation_.prepared || valuation_.exit) {
            assert(!observer_);
            for_scope_positions("seed", scope, [&](int s, std::uint64_t i, const Position& p) {
                record_seed(s, i, valuation_.prepared ? prepared_seed(s, i, p) : generated_seed(p));
            });
            return;
        }
        for_scope_positions<SeedBatch>(
            "seed", scope,
            [&](SeedBatch& batch, int s, std::uint64_t i, const Position& p) { batch.add(*this, s, i, p); },
            [&](SeedBatch& batch) { batch.flush(*this); });
    }
    // The theoretical seed pass, a batch of positions at a time: their moves are generated and
    // the words their exits lead to located and prefetched (add), then valued together (flush),
    // so that the cache misses of a batch overlap instead of following one another.
    class SeedBatch {
      public:
        static constexpr int kPositions = 16;
        void add(SliceSolver& solver, int s, std::uint64_t i, const Position& p) {
            Pending& pd = pending_[n_++];
            pd.side = s;
            pd.index = i;
            pd.first_word = static_cast<std::uint32_t>(words_.size());
            pd.first_own = static_cast<std::uint32_t>(own_.size());
            Position rp;  // the position reversed, made only when there is an exit (most have none)
            bool reversed_made = false;
            const auto locate_exit = [&](const Move& m) {
                if (!reversed_made) {
                    rp = reversed<typename R::Geometry>(p);
                    reversed_made = true;
                }
                const Position next = reversed_after<typename R::Geometry>(rp, m);
                if (next.of(Color::white) == 0) {  // the opponent has no piece left
                    words_.push_back(nullptr);
                } else if (m.is_capture() || m.promotes) {
                    const std::uint16_t* w = solver.external_.locate(next);
                    __builtin_prefetch(w);
                    words_.push_back(w);
                } else {  // a plain man move solved by levels: the level above, final by now
                    const Side& sd = solver.sides_[solver.side_of(Material::of(next))];
                    const ValueCode* v = &sd.value[sd.index.rank(next)];
                    __builtin_prefetch(v);
                    own_.push_back(v);
                }
            };
            pd.king_steps = 0;
            pd.inside = 0;
            pd.capture = generate_captures<R>(p, moves_);
            if (pd.capture) {  // captures are compulsory: every move leaves
                for (const Move& m : moves_) locate_exit(m);
                pd.any_move = true;
            } else {
                pd.king_steps = count_king_steps<R>(p);  // plain king moves always stay inside
                pd.inside = pd.king_steps;
                pd.any_move = pd.inside > 0;
                for_each_man_step<R>(p, [&](const Move& m) {
                    pd.any_move = true;
                    if (solver.stays_inside(m))
                        ++pd.inside;
                    else
                        locate_exit(m);
                });
                assert(pd.inside < kNoMove);  // fits open_code and the seed's byte
            }
            pd.end_word = static_cast<std::uint32_t>(words_.size());
            pd.end_own = static_cast<std::uint32_t>(own_.size());
            if (n_ == kPositions) flush(solver);
        }
        void flush(SliceSolver& solver) {
            for (int k = 0; k < n_; ++k) {
                const Pending& pd = pending_[k];
                PreparedSeed seed;
                seed.capture = pd.capture;
                const std::span<const std::uint16_t* const> words(words_.data() + pd.first_word,
                                                                  pd.end_word - pd.first_word);
                for (const std::uint16_t* w : words)
                    seed.best_elsewhere = better(seed.best_elsewhere,
                                                 value_one_ply_before(w ? solver.external_.value_in(*w) : loss_in(0)));
                for (std::uint32_t o = pd.first_own; o < pd.end_own; ++o)
                    seed.best_elsewhere = better(seed.best_elsewhere, value_one_ply_before(*own_[o]));
                if (!pd.capture) seed.king_steps = pd.any_move ? static_cast<std::uint8_t>(pd.inside) : kNoMove;
                if (solver.observer_) solver.observer_(pd.side, pd.index, words, pd.capture, pd.king_steps);
                solver.record_seed(pd.side, pd.index, seed);
            }
            n_ = 0;
            words_.clear();
            own_.clear();
        }

      private:
        struct Pending {
            int side;
            std::uint64_t index;
            bool capture, any_move;
            int king_steps, inside;
            std::uint32_t first_word, end_word, first_own, end_own;
        };
        std::array<Pending, kPositions> pending_;
        int n_ = 0;
        MoveList moves_;
        // The words of the batch's captures and promotions (null: the opponent has no piece
        // left), and the values of its plain man moves solved by levels.
        std::vector<const std::uint16_t*> words_;
        std::vector<const ValueCode*> own_;
    };
    void record_seed(int s, std::uint64_t i, const PreparedSeed& seed) {
        Side& sd = sides_[s];
        sd.capture[i] = seed.capture;
        if (seed.drawn) {
            sd.value[i] = kValueDraw;
            return;
        }
        if (seed.king_steps == kNoMove) {
            sd.value[i] = loss_in(0);
            return;
        }
        sd.exit[i] = seed.best_elsewhere;
        sd.value[i] = seed.king_steps == 0 ? seed.best_elsewhere : open_code(seed.king_steps);
    }
    // In the seeds below, king_steps counts every move that stays inside, and is kNoMove when
    // the side to move has no move at all.
    static constexpr std::uint8_t kNoMove = 0xFF;
    // A valuation's seed without prepared seeds (a counting class: gen/rule_tables.hpp), where an
    // exit's value is the valuation's, one position at a time.
    PreparedSeed generated_seed(const Position& p) const {
        thread_local MoveList captures;
        // The position reversed, which valuing an exit starts from: only made when there is one
        // (most positions have none).
        Position rp;
        bool reversed_made = false;
        const auto exit_value_of = [&](const Move& m) {
            if (!reversed_made) {
                rp = reversed<typename R::Geometry>(p);
                reversed_made = true;
            }
            return exit_value(rp, m);
        };
        PreparedSeed seed;
        if (generate_captures<R>(p, captures)) {  // captures are compulsory: every move leaves
            seed.capture = true;
            for (const Move& m : captures) seed.best_elsewhere = better(seed.best_elsewhere, exit_value_of(m));
            return seed;
        }
        int inside = count_king_steps<R>(p);  // plain king moves always stay inside
        bool moves = inside > 0;
        for_each_man_step<R>(p, [&](const Move& m) {
            moves = true;
            if (stays_inside(m))
                ++inside;
            else
                seed.best_elsewhere = better(seed.best_elsewhere, exit_value_of(m));
        });
        assert(inside < kNoMove);  // fits open_code and the seed's byte
        seed.king_steps = moves ? static_cast<std::uint8_t>(inside) : kNoMove;
        return seed;
    }
    PreparedSeed prepared_seed(int s, std::uint64_t i, const Position& p) const {
        PreparedSeed seed = valuation_.prepared(s, i);
        if (seed.drawn) return seed;
        if (seed.capture || sides_[s].index.material().wm == 0) {
            if (!seed.capture && seed.king_steps == 0) seed.king_steps = kNoMove;
            return seed;
        }
        const Position rp = reversed<typename R::Geometry>(p);
        bool moves = seed.king_steps > 0;
        for_each_man_step<R>(p, [&](const Move& m) {
            moves = true;
            if (!m.promotes) seed.best_elsewhere = better(seed.best_elsewhere, exit_value(rp, m));
        });
        if (!moves) seed.king_steps = kNoMove;
        return seed;
    }

    // Buckets every position whose value is known after the seed pass, and every open one whose
    // best exit is a win, by the level at which pass 2 must look at it. Returns the open positions
    // of each side and their in-slice moves.
    SideTally bucket_seeds(const Scope& scope) {
        Buckets b(threads_);
        for_scope("bucket", scope, [&](int s, std::uint64_t i) { b.add(*this, s, i); });
        b.flush_into(*this);
        return b.open;
    }
    struct Buckets {
        explicit Buckets(int threads) : wins(threads), losses(threads), exit_wins(threads), open(threads) {}
        PendingAppends wins, losses, exit_wins;
        SideTally open;
        void add(const SliceSolver& solver, int s, std::uint64_t i) {
            const Side& sd = solver.sides_[s];
            const ValueCode v = sd.value[i];
            if (is_open(v)) {
                open.add(s, 1, v - kOpenBase);
                if (is_win(sd.exit[i]))
                    exit_wins.add(static_cast<std::size_t>(distance_of(sd.exit[i])), make_item(s, i));
            } else if (is_win(v)) {
                wins.add(static_cast<std::size_t>(distance_of(v)), make_item(s, i));
            } else if (is_loss(v)) {
                losses.add(static_cast<std::size_t>(distance_of(v)), make_item(s, i));
            }
        }
        void flush_into(SliceSolver& solver) {
            wins.flush_into(solver.wins_);
            losses.flush_into(solver.losses_);
            exit_wins.flush_into(solver.exit_wins_);
        }
    };

    // Runs chunk(item_at, begin, end) over the items in parallel chunks; item_at(k) is the k-th
    // item, for k rising from begin to end - 1.
    template <class Chunk>
    void for_item_chunks(const std::string& pass, const ItemList& items, Chunk&& chunk) {
        const std::vector<ItemList::Block>& blocks = items.blocks();
        std::vector<std::uint64_t> starts;  // offset of each block in the concatenation
        std::uint64_t all = 0;
        for (const ItemList::Block& b : blocks) {
            starts.push_back(all);
            all += b.size();
        }
        ChunkProgress report;
        if (progress_)
            report = [&](std::uint64_t done, std::uint64_t total) { progress_(pass + level_label_, done, total); };
        const Timer timer(*this, pass);
        parallel_for_chunks(
            all,
            [&](std::uint64_t begin, std::uint64_t end) {
                auto at =
                    static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), begin) - starts.begin()) -
                    1;
                auto item_at = [&](std::uint64_t k) {
                    while (k - starts[at] >= blocks[at].size()) ++at;
                    return blocks[at][k - starts[at]];
                };
                chunk(item_at, begin, end);
            },
            report, threads_);
    }

    // A bound on the moves of any indexed position (and on its un-moves): a piece has fewer than
    // its four rays could hold on an empty board, and a side at most kMaxPiecesPerSide pieces
    // (material_fits). Arrays of that many ranks fit on the stack.
    static constexpr int kMaxMoves =
        R::kMaxPiecesPerSide * 4 * (std::max(R::Geometry::kWidth, R::Geometry::kHeight) - 1);
    static_assert(R::kKingDirs.size() <= 4 && R::kManStepDirs.size() <= 4, "the bound counts four rays per piece");

    // Calls f(it, j) for the index j (in the other side) of every predecessor of every item it.
    // The predecessors of an item are ranked and their entries prefetched one item ahead of their
    // visit, so that the cache misses of an item's predecessors overlap with each other and with
    // the un-move generation of the next item instead of following one another.
    // With skip_flagged, items that carry kItemFlag are passed over.
    template <class Prefetch, class F>
    void for_each_predecessor_of(const std::string& pass, const ItemList& items, UnmoveKinds kinds, Prefetch&& prefetch,
                                 F&& f, bool skip_flagged = false) {
        for_item_chunks(pass, items, [&](auto& item_at, std::uint64_t begin, std::uint64_t end) {
            std::uint64_t ranked[2][kMaxMoves];
            int count[2] = {0, 0};
            Item previous{};
            typename SliceIndex<R>::MenCache men_cache[2];  // per side
            for (std::uint64_t k = begin; k <= end; ++k) {
                std::uint64_t* now = ranked[k & 1];
                int& n = count[k & 1];
                Item it{};
                n = 0;
                if (k < end && !(skip_flagged && item_flagged(item_at(k)))) {
                    it = item_at(k);
                    const SliceIndex<R>& pred_index = sides_[other(item_side(it))].index;
                    const Position p = sides_[item_side(it)].index.unrank(item_index(it), men_cache[item_side(it)]);
                    for_each_predecessor_rank<R>(p, kinds, pred_index, [&](std::uint64_t j) {
                        assert(n < kMaxMoves);
                        now[n++] = j;
                    });
                    for (int q = 0; q < n; ++q) prefetch(item_side(it), now[q]);
                }
                if (k > begin) {
                    const std::uint64_t* before = ranked[(k & 1) ^ 1];
                    const int m = count[(k & 1) ^ 1];
                    for (int q = 0; q < m; ++q) f(previous, before[q]);
                }
                previous = it;
            }
        });
    }

    void iterate_dtw(const Scope& scope) {
        wins_.clear();
        losses_.clear();
        exit_wins_.clear();
        const SideTally open = bucket_seeds(scope);
        iterate_levels(PullChoice{&scope, open});
        for_scope("draws", scope, [&](int s, std::uint64_t i) {
            if (is_open(sides_[s].value[i])) sides_[s].value[i] = kValueDraw;
        });
    }
    // Pass 2 proper, from the buckets filled by bucket_seeds (or repair). With a PullChoice
    // (the open positions of the scope), each level's win step is pushed or pulled, whichever
    // costs fewer moves (pull_wins); without one, always pushed.
    struct PullChoice {
        const Scope* scope = nullptr;
        SideTally open;  // open positions of each side and their in-slice moves, after the seeds
    };
    void iterate_levels(std::optional<PullChoice> pull_choice = std::nullopt) {
        PendingAppends appends(threads_);
        SideTally decided(threads_);         // open positions decided since the seeds (pull_choice only)
        std::optional<ItemList> open_items;  // the open positions, once a level has pulled
        for (std::size_t d = 1; d <= std::max({wins_.levels(), losses_.levels(), exit_wins_.levels()}); ++d) {
            const ValueCode win_d = win_in(static_cast<int>(d));
            const std::string pass = "dtw " + std::to_string(d);
            // Wins at d through an exit of length d, unless a plain move won sooner.
            exit_wins_.peek(d).for_each([&](Item it) {
                ValueCode& v = sides_[item_side(it)].value[item_index(it)];
                if (is_open(v)) {
                    v = win_d;
                    wins_.at(d).push_back(it);
                    if (pull_choice) decided.add(item_side(it), 1, 0);
                }
            });
            exit_wins_.release(d);
            auto prefetch_value = [&](int s, std::uint64_t j) { __builtin_prefetch(&sides_[other(s)].value[j], 1); };
            // Wins at d by a plain move into a loss at d - 1.
            const bool pull = pull_choice && pull_is_cheaper(*pull_choice, decided, losses_.peek(d - 1));
            if (pull) {
                if (!open_items)
                    open_items = positions_where("dtw open", *pull_choice->scope,
                                                 [&](int s, std::uint64_t i) { return is_open(sides_[s].value[i]); });
                const auto open = [&](int s, std::uint64_t i) {
                    return is_open(std::atomic_ref<ValueCode>(sides_[s].value[i]).load(std::memory_order_relaxed));
                };
                const auto moves_inside = [&](const Position& p, auto&& visit) {
                    for_each_king_step<R>(p, visit);
                    if (valuation_.man_moves_inside)
                        for_each_man_step<R>(p, [&](const Move& m) {
                            if (stays_inside(m)) visit(m);
                        });
                };
                // A loss at d - 1 is final; a loss stored at this level is at least d + 1.
                const auto lost_before = [&](int s, std::uint64_t j) {
                    const ValueCode v = std::atomic_ref<ValueCode>(sides_[s].value[j]).load(std::memory_order_relaxed);
                    return is_loss(v) && static_cast<std::size_t>(distance_of(v)) + 1 == d;
                };
                open_items = pull_wins(pass, *open_items, open, moves_inside, lost_before, [&](Item it) {
                    std::atomic_ref<ValueCode>(sides_[item_side(it)].value[item_index(it)])
                        .store(win_d, std::memory_order_relaxed);
                    appends.add(d, it);
                    decided.add(item_side(it), 1, 0);
                });
            } else {
                for_each_predecessor_of(pass, losses_.peek(d - 1), unmove_kinds(), prefetch_value,
                                        [&](Item it, std::uint64_t j) {
                                            const int pred = other(item_side(it));
                                            std::atomic_ref<ValueCode> pv(sides_[pred].value[j]);
                                            ValueCode expected = pv.load(std::memory_order_relaxed);
                                            if (!is_open(expected)) return;  // spares the locked op
                                            // Fails only when another thread has just made it a win (nothing else
                                            // writes values in this loop).
                                            if (pv.compare_exchange_strong(expected, win_d)) {
                                                appends.add(d, make_item(pred, j));
                                                if (pull_choice) decided.add(pred, 1, 0);
                                            }
                                        });
            }
            appends.flush_into(wins_);
            losses_.release(d - 1);
            // Losses: a position whose last open successor is now known to be won by the opponent.
            for_each_predecessor_of(pass, wins_.peek(d), unmove_kinds(), prefetch_value, [&](Item it, std::uint64_t j) {
                const int pred = other(item_side(it));
                Side& pred_side = sides_[pred];
                std::atomic_ref<ValueCode> pv(pred_side.value[j]);
                if (!is_open(pv.load(std::memory_order_relaxed))) return;
                // Each won successor decrements once, so the one that takes the count to 0 is the
                // last writer: no other thread touches this word afterwards.
                const ValueCode before = pv.fetch_sub(1);
                // One decrement per won successor: a count never goes below 0 (below, it would
                // read as a win).
                assert(before > kOpenBase);
                if (before != open_code(1)) return;
                const ValueCode ex = pred_side.exit[j];
                // An exit is better than every plain move: stays open (at 0) for the exit wins or
                // the draws.
                if (is_win(ex) || is_draw(ex)) return;
                const int dtw = std::max(static_cast<int>(d) + 1, ex == kValueUnknown ? 0 : distance_of(ex));
                pv.store(loss_in(dtw), std::memory_order_relaxed);
                appends.add(static_cast<std::size_t>(dtw), make_item(pred, j));
                if (pull_choice) decided.add(pred, 1, 0);
            });
            appends.flush_into(losses_);
            wins_.release(d);
        }
    }

    // Whether the win step of this level costs fewer moves pulled than pushed. Pushing visits
    // every un-move of the losses at d - 1; pulling, every in-slice move of the positions still
    // open (fewer when one reaches a loss early), each ranked from scratch where an un-move is
    // ranked incrementally. A position's moves are counted as the open positions of its side
    // averaged after the seeds. Late levels of lopsided slices pull: the losses of the lone king
    // would be pushed into the strong side's positions, most already won, while few are still
    // open.
    bool pull_is_cheaper(const PullChoice& choice, const SideTally& decided, const ItemList& losses) {
        if (losses.empty()) return false;
        std::array<std::int64_t, 2> lost{};
        losses.for_each([&](Item it) { ++lost[static_cast<std::size_t>(item_side(it))]; });
        double push = 0, pull = 0;
        for (int s = 0; s < num_sides(); ++s) {
            const std::int64_t open_after_seeds = choice.open.positions(s);
            if (open_after_seeds == 0) continue;
            const double moves_each = static_cast<double>(choice.open.moves(s)) / static_cast<double>(open_after_seeds);
            pull += static_cast<double>(open_after_seeds - decided.positions(s)) * moves_each;
            // Losses of the other side are pushed into this side's positions.
            push += static_cast<double>(lost[static_cast<std::size_t>(other(s))]) * moves_each;
        }
        return choose_pull(pull, push);
    }
    // A pulled move costs about this many pushed un-moves (ranked from scratch, not incrementally).
    static constexpr double kPullCostRatio = 2.0;
    // The choice between estimated costs, as the policy (set_win_steps) allows; counts pulls.
    bool choose_pull(double pull, double push) {
        const bool chosen =
            win_steps_ == WinSteps::pulled || (win_steps_ == WinSteps::by_cost && pull * kPullCostRatio < push);
        levels_pulled_ += chosen;
        return chosen;
    }
    // The positions of a scope for which wanted(side, index) holds, in index order within each
    // chunk.
    template <class Wanted>
    ItemList positions_where(const std::string& pass, const Scope& scope, Wanted&& wanted) {
        PendingAppends found(threads_);
        for_scope(pass, scope, [&](int s, std::uint64_t i) {
            if (wanted(s, i)) found.add(0, make_item(s, i));
        });
        return found.take(0);
    }
    // A win step pulled: every position of `candidates` still undecided (undecided(side, index))
    // one of whose moves (for_each_move(position, visit)) reaches a position j of the other side
    // for which wins_into(j) holds is a win: won(item). Returns the candidates still undecided
    // afterwards, for the next level that pulls. The caller's step writes only the positions it
    // is given, each once, and wins_into must hold only for final entries, so what a thread
    // reads of another's position as it is written never matters.
    template <class Undecided, class Moves, class WinsInto, class Won>
    ItemList pull_wins(const std::string& pass, const ItemList& candidates, Undecided&& undecided,
                       Moves&& for_each_move, WinsInto&& wins_into, Won&& won) {
        using G = typename R::Geometry;
        PendingAppends still_undecided(threads_);
        for_item_chunks(pass, candidates, [&](auto& item_at, std::uint64_t begin, std::uint64_t end) {
            typename SliceIndex<R>::MenCache men_cache[2];
            for (std::uint64_t k = begin; k < end; ++k) {
                const Item it = item_at(k);
                const int s = item_side(it);
                const std::uint64_t i = item_index(it);
                if (!undecided(s, i)) continue;
                const Position p = sides_[s].index.unrank(i, men_cache[s]);
                const Position rp = reversed<G>(p);
                const SliceIndex<R>& next_index = sides_[other(s)].index;
                bool wins = false;
                for_each_move(p, [&](const Move& m) {
                    if (!wins) wins = wins_into(other(s), next_index.rank(reversed_after<G>(rp, m)));
                });
                if (wins)
                    won(it);
                else
                    still_undecided.add(0, it);
            }
        });
        return still_undecided.take(0);
    }

    // Solves a scope from MoveValuation::reference: the values are the reference's except at positions
    // whose exits differ (dirty: a win's exit drawn, or a loss's) and, backwards along king moves, at positions whose
    // value may depend on one that changes: a loss depends on every successor, a win on the
    // successors that are its quickest (its threshold less one). Since values only weaken, a win
    // keeps its value while one of its quickest successors keeps its own, a loss while all
    // do, and a draw stays a draw (by induction on the threshold). The positions that may
    // change are then solved as usual, with king moves into positions that keep their value
    // taken as exits; the un-moves of the iteration skip the others, whose values are final.
    void repair(const Scope& scope) {
        static_assert(!SliceIndex<R>::kRowGroups, "man moves must leave their level (no sideways moves)");
        assert(valuation_.prepared && !valuation_.man_moves_inside);
        const auto& ref = *valuation_.reference;
        // The reference's values, and the dirty positions, marked open (kValueUnknown).
        PendingAppends appends(threads_);
        const std::vector<const ValueCode*>& reference = ref.values;
        for_scope("repair seed", scope, [&](int s, std::uint64_t i) {
            Side& sd = sides_[s];
            const ValueCode c = reference[s][i];
            sd.value[i] = c;
            if (is_draw(c) || c == loss_in(0)) return;  // a draw stays one; loss_in(0) has no move
            sd.capture[i] = valuation_.prepared(s, i).capture;
            if (!ref.exits_like(s, i)) {
                sd.value[i] = kValueUnknown;
                appends.add(0, make_item(s, i));
            }
        });
        mark_man_moves_unlike_reference(scope, appends);
        LevelBuckets rounds;
        appends.flush_into(rounds);
        // Closure along king un-moves, round by round; every position met is kept in `all`.
        // A position re-solved costs several times what it costs in a full solve (its closure,
        // then king moves generated forwards and ranked one by one), so when the closure grows
        // past an eighth of the scope, the scope is solved in full instead, which overwrites every
        // value.
        std::uint64_t scope_size = 0;
        for (const Range& r : scope) scope_size += r.end - r.begin;
        const std::uint64_t limit = scope_size / 8;
        ItemList all;
        for (std::size_t round = 0; !rounds.peek(round).empty(); ++round) {
            if (ref.fall_back && all.size() + rounds.peek(round).size() > limit) {
                ++fell_back_;
                seed_from_exits(scope);
                iterate_dtw(scope);
                return;
            }
            auto prefetch_value = [&](int s, std::uint64_t j) { __builtin_prefetch(&sides_[other(s)].value[j], 1); };
            for_each_predecessor_of(
                "repair closure", rounds.peek(round), UnmoveKinds::kings_only, prefetch_value,
                [&](Item it, std::uint64_t j) {
                    const int pred = other(item_side(it));
                    const ValueCode cp = reference[pred][j];
                    const ValueCode cu = reference[item_side(it)][item_index(it)];
                    if (!is_loss(cp) && !(is_win(cp) && is_loss(cu) && distance_of(cu) + 1 == distance_of(cp))) return;
                    if (sides_[pred].capture[j]) return;  // its captures alone decide it
                    std::atomic_ref<ValueCode> pv(sides_[pred].value[j]);
                    ValueCode expected = cp;
                    if (pv.compare_exchange_strong(expected, kValueUnknown)) appends.add(round + 1, make_item(pred, j));
                });
            appends.flush_into(rounds);
            all.splice(rounds.at(round));
        }
        repaired_ += all.size();
        // Seeds of the positions that may change: their exits and their king moves into
        // positions that keep their value; king moves into open ones are counted. Counts are
        // written in a second pass, so that every position stays recognisably open meanwhile.
        std::vector<std::uint8_t> inside(all.size());
        for_item_chunks("repair exits", all, [&](auto& item_at, std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t k = begin; k < end; ++k) {
                const Item it = item_at(k);
                const int s = item_side(it);
                const std::uint64_t i = item_index(it);
                const Position p = sides_[s].index.unrank(i);
                PreparedSeed seed = prepared_seed(s, i, p);
                if (seed.capture) {
                    sides_[s].exit[i] = seed.best_elsewhere;
                    inside[k] = 0;
                    continue;
                }
                const Position rp = reversed<typename R::Geometry>(p);
                const Side& next_side = sides_[other(s)];
                // Every king move ranked and its entry prefetched first, then read: the misses of
                // one position's moves overlap instead of following one another.
                std::uint64_t next[kMaxMoves];
                int n = 0;
                for_each_king_step<R>(p, [&](const Move& m) {
                    assert(n < kMaxMoves);
                    next[n] = next_side.index.rank(reversed_after<typename R::Geometry>(rp, m));
                    __builtin_prefetch(&next_side.value[next[n]]);
                    ++n;
                });
                int open = 0;
                for (int q = 0; q < n; ++q) {
                    const ValueCode v = next_side.value[next[q]];
                    if (is_open(v))
                        ++open;
                    else
                        seed.best_elsewhere = better(seed.best_elsewhere, value_one_ply_before(v));
                }
                sides_[s].exit[i] = seed.best_elsewhere;
                inside[k] = static_cast<std::uint8_t>(open);
            }
        });
        Buckets b(threads_);
        for_item_chunks("repair bucket", all, [&](auto& item_at, std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t k = begin; k < end; ++k) {
                const Item it = item_at(k);
                Side& sd = sides_[item_side(it)];
                const std::uint64_t i = item_index(it);
                // Every position here has a move (loss_in(0) never changes).
                sd.value[i] = inside[k] == 0 ? sd.exit[i] : open_code(inside[k]);
                b.add(*this, item_side(it), i);
            }
        });
        wins_.clear();
        losses_.clear();
        exit_wins_.clear();
        b.flush_into(*this);
        iterate_levels();
        all.for_each([&](Item it) {
            ValueCode& v = sides_[item_side(it)].value[item_index(it)];
            if (is_open(v)) v = kValueDraw;
        });
    }
    // The positions of the scope (one advancement level, or part of one) that have a plain man
    // move worth something else than in the reference, marked open like the dirty ones of
    // repair(): such a move leads to the level above, final by now, into a position whose value
    // is not worth there what the reference's is (MoveValuation::Reference::same_exit). They are found
    // from those positions, by man un-moves, instead of by every position's man moves: a few
    // percent of the level above differ, and looking each man move up would be two cache misses
    // into the arrays, which by levels are spilled to files. The level above is read in order, and a configuration all
    // worth the same (config_like_reference) is not read at all. A position with a capture is decided by its captures:
    // its man moves do not count (repair set its capture flag before).
    void mark_man_moves_unlike_reference(const Scope& scope, PendingAppends& appends) {
        using G = typename R::Geometry;
        // No level above (the most advanced level, or a scope without man moves): nothing to find.
        if (scope.empty() || !level_above_) return;
        const auto& ref = *valuation_.reference;
        // The configurations of the scope, per side (the rest of its level was copied), marked
        // for the time of this call and cleared at its end: the cost stays that of the scope (a
        // slice without kings has millions of configurations of one position each).
        if (in_scope_.empty())
            for (const Side& sd : sides_) in_scope_.emplace_back(sd.index.num_men_configs(), 0);
        const auto mark_scope = [&](char on) {
            for (const Range& r : scope) {
                const std::uint64_t kpc = sides_[r.side].index.kings_per_config();
                std::fill(
                    in_scope_[static_cast<std::size_t>(r.side)].begin() + static_cast<std::ptrdiff_t>(r.begin / kpc),
                    in_scope_[static_cast<std::size_t>(r.side)].begin() + static_cast<std::ptrdiff_t>(r.end / kpc), on);
            }
        };
        mark_scope(1);
        // The configurations of the level above that are not all alike. (The lists are kept
        // from level to level: made afresh, each level's would come in freshly faulted pages.)
        std::vector<std::pair<int, std::uint64_t>>& above = above_configs_;
        above.clear();
        for (const Range& r : *level_above_) {
            const std::uint64_t kpc = sides_[r.side].index.kings_per_config();
            for (std::uint64_t mc = r.begin / kpc; mc < r.end / kpc; ++mc) above.emplace_back(r.side, mc);
        }
        std::vector<char>& unlike = above_unlike_;
        unlike.resize(above.size());  // every element written below
        parallel_for(
            above.size(), [&](std::uint64_t k) { unlike[k] = !config_like_reference(above[k].first, above[k].second); },
            {}, threads_);
        Scope differing;
        for (std::size_t k = 0; k < above.size(); ++k)
            if (unlike[k])
                add_config(differing, above[k].first, above[k].second, sides_[above[k].first].index.kings_per_config());
        const std::vector<const ValueCode*>& reference = ref.values;
        for_scope("repair man moves", differing, [&](int ns, std::uint64_t j) {
            if (ref.same_exit(sides_[ns].value[j], reference[static_cast<std::size_t>(ns)][j])) return;
            const int s = other(ns);
            Side& sd = sides_[s];
            const std::vector<char>& configs = in_scope_[static_cast<std::size_t>(s)];
            Position base = reversed<G>(sides_[ns].index.unrank(j));
            base.side_to_move = Color::white;
            for_each_unmove<R>(
                base, UnmoveKinds::men_only, [](int) {},
                [&](int from, int to, bool) {
                    const Position q = unmoved(base, from, to, false);
                    const std::uint64_t i = sd.index.rank(q);
                    if (!configs[i / sd.index.kings_per_config()]) return;
                    const ValueCode c = reference[static_cast<std::size_t>(s)][i];
                    if (is_draw(c) || c == loss_in(0) || sd.capture[i]) return;
                    std::atomic_ref<ValueCode> v(sd.value[i]);
                    ValueCode expected = c;
                    if (v.compare_exchange_strong(expected, kValueUnknown)) appends.add(0, make_item(s, i));
                });
        });
        mark_scope(0);
    }

  public:
    // Whether a man move into any position of men configuration mc of side s is worth what it
    // is in the reference (MoveValuation::reference; the configuration's values final). Decided once
    // per configuration (two threads may both decide it: the same answer). Also what a valuation's
    // MoveValuation::known asks of the configurations a phase's man moves reach.
    bool config_like_reference(int s, std::uint64_t mc) {
        std::atomic_ref<signed char> known(config_like_[static_cast<std::size_t>(s)][mc]);
        signed char k = known.load(std::memory_order_relaxed);
        if (k < 0) {
            const auto& ref = *valuation_.reference;
            const std::uint64_t kpc = sides_[s].index.kings_per_config();
            const ValueCode* solved = sides_[s].value.data() + mc * kpc;
            const ValueCode* reference = ref.values[static_cast<std::size_t>(s)] + mc * kpc;
            bool all = true;
            for (std::uint64_t x = 0; x < kpc && all; ++x) all = ref.same_exit(solved[x], reference[x]);
            k = all ? 1 : 0;
            known.store(k, std::memory_order_relaxed);
        }
        return k == 1;
    }

  private:
    // Filled up front for the same reason as allocate_arrays.
    void assign_dtc() {
        for (Side& sd : sides_) assign_parallel(sd.dtc, sd.index.size(), kDtcUnknown, threads_);
    }
    // DTC seeds: won positions with a winning conversion (or game-ending move) are at 1; lost
    // positions wait for all their king moves, every other move being a conversion worth 1.
    void seed_dtc(const Scope& scope) {
        assert(!valuation_.exit);  // the capture shortcut below takes the game's values
        for_scope_positions("dtc seed", scope, [&](int s, std::uint64_t i, const Position& p) {
            Side& sd = sides_[s];
            const ValueCode v = sd.value[i];
            if (is_draw(v) || v == loss_in(0)) {  // loss_in(0): no move (or no piece) left
                sd.dtc[i] = 0;
                return;
            }
            // Decided without generating moves: with a capture every move converts, and a won
            // position's best capture reaches a lost one (pass 1 valued it so); without men, a
            // win converts only if it wins at once.
            if (sd.capture[i]) {
                sd.dtc[i] = 1;
                return;
            }
            if (is_win(v) && sd.index.material().wm == 0 && v != win_in(1)) return;
            assert(!has_capture<R>(p));
            if (is_win(v)) {
                const Position rp = reversed<typename R::Geometry>(p);
                const Side& next_side = sides_[other(s)];
                auto after = [&](const Move& m) {
                    return stays_inside(m)
                               ? next_side.value[next_side.index.rank(reversed_after<typename R::Geometry>(rp, m))]
                               : game_value_after(rp, m);
                };
                // A man move into a lost position converts at once; so does a king move into a
                // position lost at once, which only a win in 1 can have.
                bool converts = false;
                for_each_man_step<R>(p, [&](const Move& m) { converts = converts || is_loss(after(m)); });
                if (!converts && v == win_in(1))
                    for_each_king_step<R>(p, [&](const Move& m) { converts = converts || after(m) == loss_in(0); });
                if (converts) sd.dtc[i] = 1;
                return;  // else waits for a king move into a lost position
            }
            const int king_moves = count_king_steps<R>(p);
            bool converts = false;
            for_each_man_step<R>(p, [&](const Move&) { converts = true; });
            if (king_moves == 0) {
                sd.dtc[i] = converts ? 1 : 0;
                return;
            }
            sd.dtc[i] = dtc_open_code(king_moves);
        });
    }

    void iterate_dtc(const Scope& scope) {
        LevelBuckets level;
        PendingAppends appends(threads_);
        // Items of lost positions carry kItemFlag: the predecessor step needs to know which kind
        // each item is, and reading its value there would be a cache miss per item.
        auto dtc_item = [&](int s, std::uint64_t i, bool lost) { return make_item(s, i) | (lost ? kItemFlag : 0); };
        SideTally waiting(threads_);  // wins still without a DTC: after the seeds, less those found since
        for_scope("dtc 1", scope, [&](int s, std::uint64_t i) {
            const std::uint16_t c = sides_[s].dtc[i];
            if (c == 1) appends.add(1, dtc_item(s, i, is_loss(sides_[s].value[i])));
            if (c == kDtcUnknown) waiting.add(s, 1, 0);
        });
        appends.flush_into(level);
        std::optional<ItemList> waiting_items;  // the wins without a DTC, once a level has pulled
        for (std::size_t c = 1; c < level.levels(); ++c) {
            const auto next = static_cast<std::uint16_t>(c + 1);
            const std::string pass = "dtc " + std::to_string(c);
            // A king move into a loss of DTC c gives a win c + 1; when the last king move of a lost
            // position is known (its reply won at DTC c), the longest is c + 1. The first is
            // pushed from the losses or pulled by the waiting wins, whichever costs fewer moves
            // (as in pass 2).
            const bool pull = pull_dtc_is_cheaper(waiting, level.peek(c));
            auto prefetch_dtc = [&](int s, std::uint64_t j) { __builtin_prefetch(&sides_[other(s)].dtc[j], 1); };
            // A won predecessor waits as kDtcUnknown, a lost one as dtc_open_code(n): the DTC word
            // alone says which, so values are not read for them.
            for_each_predecessor_of(
                pass, level.peek(c), UnmoveKinds::kings_only, prefetch_dtc,
                [&](Item it, std::uint64_t j) {
                    const int pred = other(item_side(it));
                    const bool lost = item_flagged(it);
                    assert(lost == is_loss(sides_[item_side(it)].value[item_index(it)]));
                    std::atomic_ref<std::uint16_t> pd(sides_[pred].dtc[j]);
                    const std::uint16_t c = pd.load(std::memory_order_relaxed);
                    if (lost) {
                        if (c != kDtcUnknown) return;
                        std::uint16_t expected = kDtcUnknown;
                        if (pd.compare_exchange_strong(expected, next)) {
                            appends.add(next, dtc_item(pred, j, false));
                            waiting.add(pred, -1, 0);
                        }
                    } else {
                        if (!is_dtc_open(c)) return;
                        const std::uint16_t before = pd.fetch_sub(1);
                        assert(before > kDtcOpenBase);
                        if (before != dtc_open_code(1)) return;  // the last writer, as in pass 2
                        pd.store(next, std::memory_order_relaxed);
                        appends.add(next, dtc_item(pred, j, true));
                    }
                },
                /*skip_flagged=*/pull);
            if (pull) {
                const auto waits = [&](int s, std::uint64_t i) {
                    return std::atomic_ref<std::uint16_t>(sides_[s].dtc[i]).load(std::memory_order_relaxed) ==
                           kDtcUnknown;
                };
                if (!waiting_items) waiting_items = positions_where("dtc waiting", scope, waits);
                // Runs after the pushes into lost positions, which give DTC c + 1: the losses of
                // DTC c are final.
                const auto lost_at_c = [&](int s, std::uint64_t j) {
                    return std::atomic_ref<std::uint16_t>(sides_[s].dtc[j]).load(std::memory_order_relaxed) == c &&
                           is_loss(sides_[s].value[j]);
                };
                const auto king_moves = [](const Position& p, auto&& visit) { for_each_king_step<R>(p, visit); };
                waiting_items = pull_wins(pass, *waiting_items, waits, king_moves, lost_at_c, [&](Item it) {
                    std::atomic_ref<std::uint16_t>(sides_[item_side(it)].dtc[item_index(it)])
                        .store(next, std::memory_order_relaxed);
                    appends.add(next, it);
                    waiting.add(item_side(it), -1, 0);
                });
            }
            appends.flush_into(level);
            level.release(c);
        }
        // Every lost position's king moves lead to wins, which all get a DTC, so no open count
        // is left; were one left, it would read as unknown, like an undecided win.
        for_scope("dtc end", scope, [&](int s, std::uint64_t i) {
            if (is_dtc_open(sides_[s].dtc[i])) sides_[s].dtc[i] = kDtcUnknown;
        });
    }

    // Whether the win step of DTC level c costs fewer king moves pulled than pushed (as
    // pull_is_cheaper for pass 2): pushing visits the king un-moves of the losses at c, pulling
    // the king moves of the wins still waiting. A side's moves are counted as its kings.
    bool pull_dtc_is_cheaper(const SideTally& waiting, const ItemList& items) {
        std::array<std::int64_t, 2> lost{};
        items.for_each([&](Item it) {
            if (item_flagged(it)) ++lost[static_cast<std::size_t>(item_side(it))];
        });
        double push = 0, pull = 0;
        for (int s = 0; s < num_sides(); ++s) {
            const double kings = sides_[s].index.material().wk;
            pull += static_cast<double>(waiting.positions(s)) * kings;
            push += static_cast<double>(lost[static_cast<std::size_t>(other(s))]) * kings;
        }
        return push > 0 && choose_pull(pull, push);
    }
    void release_work_arrays() {
        for (Side& sd : sides_) {
            BigArray<ValueCode>().swap(sd.exit);
        }
    }

  public:
    static constexpr std::uint16_t kDtcUnknown = 0xFFFF;

  private:
    std::vector<Side> sides_;
    LevelBuckets wins_, losses_, exit_wins_;  // pass 2
    ExternalTables external_;
    SeedObserver observer_;
    MoveValuation valuation_;
    PassProgress progress_;
    int threads_ = 0;          // of every parallel loop (0: all cores)
    std::string level_label_;  // " (level k/n)" while solving by levels, for progress lines
    std::uint64_t repaired_ = 0, fell_back_ = 0;
    WinSteps win_steps_ = WinSteps::by_cost;
    std::uint64_t levels_pulled_ = 0;
    std::vector<std::pair<std::string, double>> pass_seconds_;
    std::vector<std::vector<signed char>> config_like_;  // repair: per side and men configuration, -1 undecided
    // solve_values by levels: the level solved before the current one (the one its man moves
    // reach); and, for mark_man_moves_unlike_reference, the current scope's configurations.
    const Scope* level_above_ = nullptr;
    std::vector<std::vector<char>> in_scope_;
    // mark_man_moves_unlike_reference's configurations of the level above, and which of them are
    // unlike the reference: kept for their capacity.
    std::vector<std::pair<int, std::uint64_t>> above_configs_;
    std::vector<char> above_unlike_;
};

}  // namespace dtb::gen
