// Finished slices, held in memory while later slices are solved: those solved in this run as they
// come out of the solver, others read back through probe's format module. One 16-bit word per
// position:
//   bits 0-11   its value code (WDL + DTW). DTC is not needed: every move that leaves a slice is
//               a conversion, so DTC of other slices never enters the computation.
//   bits 12-15  with counting rules (international), its rule values with fresh counters (Wdl,
//               fmjd in bits 12-13, ffjd in 14-15): what a capture or man move into the position
//               is worth to a rule table's phase (gen/phase_seeds.hpp, gen/rule_tables.hpp). The
//               full thresholds are needed only for material in a counting class
//               (gen/finished_rule_tables.hpp).
// So one rank answers every lookup of a capture, in one cache line. A run's largest slices, which
// only promotions reach, hold only the words of positions promotions lead to (Slice::held).
// Capture positions are stored as "don't care" in WDL and DTW files, and in the rule tables of
// material in no counting class; loading resolves them from their captures (into smaller slices,
// loaded first).
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/gen/big_array.hpp"
#include "dtb/gen/block_arrays.hpp"
#include "dtb/gen/entry_subset.hpp"
#include "dtb/gen/finished_rule_tables.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/positions.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "dtb/gen/solver_state.hpp"
#include "dtb/gen/table_values.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/counting_rules.hpp"
#include "dtb/probe/derived_wdl.hpp"
#include "dtb/probe/open_table.hpp"
#include "dtb/probe/rule_captures.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/expected.hpp"

namespace dtb::gen {

template <class R>
class FinishedTables {
  public:
    // cache: the one the slices' arrays map from; threads: of every parallel loop (0: all cores).
    FinishedTables(std::filesystem::path dir, MappingCache& cache, int threads = 0)
        : dir_(std::move(dir)), cache_(&cache), threads_(threads) {}
    // Progress of the passes of load (what, done, total): resolving a 6-piece input's capture
    // positions takes minutes.
    using Progress = std::function<void(const std::string& what, std::uint64_t done, std::uint64_t total)>;
    void set_progress(Progress progress) { progress_ = std::move(progress); }
    MappingCache& cache() const { return *cache_; }

    // The largest value code a word holds (DTW 2046 plies; 6-piece slices stay below 300).
    static constexpr ValueCode kMaxCode = 0x0FFF;

    // Which positions of a slice its readers look up. A capture leads anywhere in a smaller
    // slice; a promotion only to positions where the side that promoted (not to move: Black in
    // the White-to-move frame) has a king on its promotion row. A slice with as many pieces as
    // the largest of a run is reached only by promotions (the run's captures leave it for
    // smaller ones), so its capture positions need resolving only there: for a 6-piece input
    // that is the greater part of its loading time.
    // A slice reached only by promotion is held sparse: only the words of positions with such a
    // king (held), a tenth to a half of them.
    enum class Reached { anywhere, by_promotion };
    static bool reached_by_promotion(const Position& p) {
        return (p.kings_of(Color::black) & RulesOf<R>::promotion_row(Color::black)) != 0;
    }
    // The run's largest slices (`pieces` pieces) are reached only by promotion: its captures lead
    // to smaller ones. 0 (the default): every slice is reached anywhere.
    void set_largest_pieces(int pieces) { largest_pieces_ = pieces; }
    Reached reached_in_run(const Material& m) const {
        return m.pieces() == largest_pieces_ ? Reached::by_promotion : Reached::anywhere;
    }

    struct Slice {
        SliceIndex<R> index;
        BigArray<std::uint16_t> word;
        Reached resolved = Reached::anywhere;  // where its capture positions hold their values
        std::optional<EntrySubset> held{};     // by promotion: the entries word holds, in order
        // Where entry i's word is (i held).
        std::uint64_t place(std::uint64_t i) const {
            assert(!held || held->contains(i));
            return held ? held->rank(i) : i;
        }
    };

    // Loads a slice's WDL and DTW tables (once), and the smaller slices its captures lead to.
    // Not thread-safe: call before the parallel passes.
    Expected<const Slice*> load(const Material& m, Reached reached = Reached::anywhere) {
        auto& slot = slots_[code(m)];
        if (slot && (slot->resolved == Reached::anywhere || reached == Reached::by_promotion))
            return static_cast<const Slice*>(slot.get());
        slot.reset();  // (resolved for promotions only, wanted everywhere: read again)
        for (const Material& x : capture_materials(m)) {
            auto r = load(x);
            if (!r) return Error{r.error()};
        }
        const std::string name = m.name();
        auto wdl = read_wdl(m);
        if (!wdl) return Error{wdl.error()};
        auto dtw = read_values(m, format::Metric::dtw);
        if (!dtw) return Error{dtw.error()};
        auto slice = std::make_unique<Slice>(Slice{SliceIndex<R>(m), BigArray<std::uint16_t>(*cache_)});
        if ((!wdl->empty() && wdl->size() != slice->index.size()) || dtw->size() != slice->index.size())
            return Error{"table " + name + " has the wrong number of entries"};
        slice->word.resize(dtw->size());
        if (wdl->empty()) {  // a derived WDL table: WDL from DTW's parity
            parallel_for(
                slice->index.size(),
                [&](std::uint64_t i) {
                    const std::uint16_t d = (*dtw)[i];
                    slice->word[i] = make_value(wdl_from_dtw<R>(d, [&] { return slice->index.unrank(i); }), d);
                },
                {}, threads_);
        } else {
            parallel_for(
                slice->index.size(),
                [&](std::uint64_t i) { slice->word[i] = make_value(static_cast<Wdl>((*wdl)[i]), (*dtw)[i]); }, {},
                threads_);
        }
        free_array(wdl.value());  // before the rule codes are read and the words held sparse
        free_array(dtw.value());
        std::atomic<bool> too_long{false};
        parallel_for(
            slice->word.size(),
            [&](std::uint64_t i) {
                if (slice->word[i] > kMaxCode) too_long.store(true, std::memory_order_relaxed);
            },
            {}, threads_);
        if (too_long) return Error{"table " + name + " has a distance too long for the generator"};
        if constexpr (R::kCountingRules) {
            for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
                auto codes = read_values(m, rule_metric(rules));
                if (!codes) return Error{codes.error()};
                if (codes->size() != slice->index.size())
                    return Error{"table " + name + " has the wrong number of entries"};
                add_fresh(*slice, rules, *codes, threads_);
            }
        }
        slice->resolved = reached;
        if (reached == Reached::by_promotion) hold_promotion_targets(*slice, slice->word);
        resolve_captures(*slice);
        slot = std::move(slice);
        return static_cast<const Slice*>(slot.get());
    }
    // Adds a slice solved in this run without reading it back (its rule values come with
    // add_fresh), held as the run's readers reach it. Refuses codes above kMaxCode.
    Expected<bool> adopt(const Material& m, std::span<const ValueCode> values) {
        const Reached reached = reached_in_run(m);
        if (too_long(values)) return Error{"slice " + m.name() + " has a distance too long for the generator"};
        auto slice = std::make_unique<Slice>(Slice{SliceIndex<R>(m), BigArray<std::uint16_t>(*cache_)});
        slice->resolved = reached;
        if (reached == Reached::by_promotion) {
            hold_promotion_targets(*slice, values);
        } else {
            slice->word.resize(values.size());
            parallel_for_chunks(
                values.size(),
                [&](std::uint64_t begin, std::uint64_t end) {
                    std::copy(values.begin() + begin, values.begin() + end, slice->word.begin() + begin);
                },
                {}, threads_);
        }
        slots_[code(m)] = std::move(slice);
        return true;
    }
    // Starts a slice solved in this run whose values then come run by run (adopt_run), held as the
    // run's readers reach it: no array of the whole slice is needed beside it.
    void adopt_by_runs(const Material& m) {
        auto slice = std::make_unique<Slice>(Slice{SliceIndex<R>(m), BigArray<std::uint16_t>(*cache_)});
        slice->resolved = reached_in_run(m);
        if (slice->resolved == Reached::by_promotion)
            slice->held = EntrySubset::of(slice->index, &reached_by_promotion, threads_);
        slice->word.resize(slice->held ? slice->held->count() : slice->index.size());
        slots_[code(m)] = std::move(slice);
    }
    // Entries [first, first + values.size()) of a slice started by adopt_by_runs take their values,
    // on the calling thread (callers adding a slice by runs run many at once). False: a code above
    // kMaxCode (none is stored).
    bool adopt_run(const Material& m, std::uint64_t first, std::span<const ValueCode> values) {
        if (std::any_of(values.begin(), values.end(), [](ValueCode v) { return v > kMaxCode; })) return false;
        Slice& s = *slots_[code(m)];
        for_each_held(s, first, values.size(), [&](std::uint64_t w, std::uint64_t k) { s.word[w] = values[k]; });
        return true;
    }
    // Side `side` of a pair solved by blocks adopted straight from its block store (adopt_by_runs),
    // no array of the side gathered. Refuses codes above kMaxCode.
    Expected<bool> adopt_from_blocks(const Material& m, const SolverBlocks<R>& blocks, int side) {
        adopt_by_runs(m);
        std::atomic<bool> refused{false};
        for_each_side_run<ValueCode>(
            blocks.layout, blocks.store, SolverBlocks<R>::kValue, side,
            [&](std::uint64_t first, std::span<const ValueCode> values) {
                if (!adopt_run(m, first, values)) refused.store(true, std::memory_order_relaxed);
            },
            threads_);
        if (refused) return Error{"slice " + m.name() + " has a distance too long for the generator"};
        return true;
    }
    // Records a rule table of an adopted slice: the rule values with fresh counters.
    void add_fresh(const Material& m, CountingRules rules, std::span<const ValueCode> codes) {
        add_fresh(*slots_[code(m)], rules, codes, threads_);
    }
    // The same for entries [first, first + codes.size()) of m, on the calling thread (callers
    // adding a slice by runs run many at once).
    void add_fresh_run(const Material& m, CountingRules rules, std::uint64_t first, std::span<const ValueCode> codes) {
        add_fresh_range(*slots_[code(m)], rules, first, codes);
    }
    void forget(const Material& m) { slots_[code(m)].reset(); }
    // Bytes of the loaded slices that are not in keep, and forgetting them: a pair tight in
    // memory releases the finished slices only later pairs read (load reads them again then).
    std::size_t bytes_outside(const std::set<Material>& keep) const {
        std::size_t n = 0;
        for (const auto& s : slots_)
            if (s && !keep.count(s->index.material())) n += bytes_of(*s);
        return n;
    }
    void forget_all_but(const std::set<Material>& keep) {
        for (auto& s : slots_)
            if (s && !keep.count(s->index.material())) s.reset();
    }

    // Value of a White-to-move position whose slice was loaded. Safe from many threads.
    ValueCode value(const Position& p) const { return value_in(word(p)); }
    // Its rule value with fresh counters (with counting rules).
    Wdl fresh(CountingRules rules, const Position& p) const { return fresh_in(rules, word(p)); }
    // The whole word of a position, for a caller that needs several of its fields: one rank.
    std::uint16_t word(const Position& p) const { return *locate(p); }
    // Where that word is (for a caller that prefetches it before reading it).
    const std::uint16_t* locate(const Position& p) const {
        const Slice& s = *slots_[code(Material::of(p))];
        return &s.word[s.place(s.index.rank(p))];
    }
    // The loaded slices as a solver reads them; valid while this object lives.
    ExternalTables external() const {
        return ExternalTables{[this](const Position& p) { return locate(p); }, &FinishedTables::value_in};
    }
    static ValueCode value_in(std::uint16_t word) { return word & kMaxCode; }
    static Wdl fresh_in(CountingRules rules, std::uint16_t word) {
        return static_cast<Wdl>((word >> fresh_shift(rules)) & 3);
    }
    bool loaded(const Material& m) const { return slots_[code(m)] != nullptr; }
    std::size_t bytes_in_memory() const {
        std::size_t n = 0;
        for (const auto& s : slots_)
            if (s) n += bytes_of(*s);
        return n;
    }

    // Materials (White to move) reached by White's captures from m: fewer pieces.
    static std::vector<Material> capture_materials(const Material& m) { return gen::capture_materials(m); }

  private:
    // The words of capture positions, whose WDL and DTW entries are "don't care", and so are
    // their rule entries in material in no counting class (probe/rule_captures.hpp): each from
    // the words of its captures' successors, read once for every field. Runs after the rule bits
    // were added: those of material in a class are stored for every position. A batch of capture
    // positions at a time: their successors' words are located and prefetched, then read
    // together (at 6 pieces each is a cache miss into a table of hundreds of MB).
    void resolve_captures(Slice& s) const {
        using G = typename R::Geometry;
        const bool rules_from_captures = R::kCountingRules && rule_captures_dont_care(s.index.material());
        const bool only_after_promotion = s.resolved == Reached::by_promotion;
        constexpr int kBatch = 16;
        struct Batch {
            std::uint64_t index[kBatch];
            std::uint32_t first[kBatch + 1] = {0};
            int n = 0;
            std::vector<const std::uint16_t*> words;  // null: the capture takes the last piece
            MoveList moves;
        };
        const auto flush = [&](Batch& b) {
            for (int k = 0; k < b.n; ++k) {
                ValueCode best = kValueUnknown;
                Wdl best_fresh[2] = {Wdl::loss, Wdl::loss};  // for the mover, per rule set
                for (std::uint32_t e = b.first[k]; e < b.first[k + 1]; ++e) {
                    const std::uint16_t* w = b.words[e];
                    best = better(best, value_one_ply_before(w ? value_in(*w) : loss_in(0)));
                    if (!rules_from_captures) continue;
                    for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
                        Wdl& b_r = best_fresh[rule_set_slot(rules)];
                        b_r = better_capture(b_r, w ? fresh_in(rules, *w) : Wdl::loss);
                    }
                }
                const std::uint64_t i = b.index[k];  // the word's place
                std::uint16_t word = best;
                if (rules_from_captures) {
                    for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd}) {
                        // As rule_code_from_captures (probe/rule_captures.hpp).
                        const ValueCode code = value_of_fresh_exit(flip(best_fresh[rule_set_slot(rules)]));
                        word = static_cast<std::uint16_t>(
                            word | static_cast<unsigned>(fresh_value(code, CountClass::none)) << fresh_shift(rules));
                    }
                } else {
                    word = static_cast<std::uint16_t>(word | (s.word[i] & ~kMaxCode));
                }
                s.word[i] = word;
            }
            b.n = 0;
            b.words.clear();
        };
        ChunkProgress report;
        if (progress_)
            report = [&](std::uint64_t done, std::uint64_t total) {
                progress_(s.index.material().name() + " captures", done, total);
            };
        parallel_for_chunks(
            s.index.size(),
            [&](std::uint64_t begin, std::uint64_t end) {
                Batch b;
                Position p = s.index.unrank(begin);
                for (std::uint64_t i = begin; i < end; ++i) {
                    if (i > begin) s.index.step(p, i);
                    if (only_after_promotion && !reached_by_promotion(p)) continue;
                    if (!has_capture<R>(p)) continue;
                    generate_moves<R>(p, b.moves);  // captures only: they are compulsory
                    const Position rp = reversed<G>(p);
                    for (const Move& m : b.moves) {
                        const Position next = reversed_after<G>(rp, m);
                        const std::uint16_t* w = next.of(Color::white) == 0 ? nullptr : locate(next);
                        if (w) __builtin_prefetch(w);
                        b.words.push_back(w);
                    }
                    b.index[b.n++] = s.place(i);
                    b.first[b.n] = static_cast<std::uint32_t>(b.words.size());
                    if (b.n == kBatch) flush(b);
                }
                flush(b);
            },
            report, threads_);
    }
    static constexpr int fresh_shift(CountingRules rules) { return rules == CountingRules::fmjd ? 12 : 14; }
    static void add_fresh(Slice& s, CountingRules rules, std::span<const ValueCode> codes, int threads) {
        parallel_for_chunks(
            codes.size(),
            [&](std::uint64_t begin, std::uint64_t end) {
                add_fresh_range(s, rules, begin, codes.subspan(begin, end - begin));
            },
            {}, threads);
    }
    // Entries [first, first + codes.size()) of s take their fresh values under a rule set (those
    // it holds).
    static void add_fresh_range(Slice& s, CountingRules rules, std::uint64_t first, std::span<const ValueCode> codes) {
        const CountClass c = count_class(s.index.material(), rules);
        for_each_held(s, first, codes.size(), [&](std::uint64_t w, std::uint64_t k) {
            s.word[w] = static_cast<std::uint16_t>(s.word[w] | static_cast<unsigned>(fresh_value(codes[k], c))
                                                                   << fresh_shift(rules));
        });
    }
    // f(place, k) for each entry first + k (k < n) that s holds, place being where its word is:
    // every entry of a slice held whole, the subset's of one held sparse.
    template <class F>
    static void for_each_held(const Slice& s, std::uint64_t first, std::uint64_t n, F&& f) {
        if (!s.held) {
            for (std::uint64_t k = 0; k < n; ++k) f(first + k, k);
            return;
        }
        if (n == 0) return;
        std::uint64_t w = s.held->rank(first);
        for (std::uint64_t k = 0; k < n; ++k)
            if (s.held->contains(first + k)) f(w++, k);
    }

    // s holds only the words of positions reached by promotion: `all`, every entry's word, is
    // copied down to those.
    template <class Words>
    void hold_promotion_targets(Slice& s, const Words& all) const {
        s.held = EntrySubset::of(s.index, &reached_by_promotion, threads_);
        BigArray<std::uint16_t> words(s.held->count(), *cache_);
        parallel_for_chunks(
            s.held->size(),
            [&](std::uint64_t begin, std::uint64_t end) {
                for_each_held(s, begin, end - begin,
                              [&](std::uint64_t w, std::uint64_t k) { words[w] = all[begin + k]; });
            },
            {}, threads_);
        s.word = std::move(words);
    }
    static std::size_t bytes_of(const Slice& s) {
        return s.word.size() * sizeof(std::uint16_t) + (s.held ? s.held->bytes() : 0);
    }
    template <class Values>
    bool too_long(const Values& values) const {
        std::atomic<bool> found{false};
        parallel_for_chunks(
            values.size(),
            [&](std::uint64_t begin, std::uint64_t end) {
                for (std::uint64_t i = begin; i < end; ++i)
                    if (values[i] > kMaxCode) found.store(true, std::memory_order_relaxed);
            },
            {}, threads_);
        return found;
    }

    static int code(const Material& m) { return m.slot(); }

    // WDL values, or none (an empty vector) when the table is derived (its header must still
    // describe the slice: a derived table of another size is as wrong as a stored one).
    Expected<BigArray<std::uint16_t>> read_wdl(const Material& m) const {
        const std::string name = m.name();
        auto reader =
            format::open_table_of<R>(dir_ / format::file_name(name, format::Metric::wdl), m, format::Metric::wdl);
        if (!reader) return Error{reader.error()};
        if (reader->info().derived()) {
            if (reader->info().num_entries != SliceIndex<R>(m).size())
                return Error{"table " + name + " has the wrong number of entries"};
            if (auto why = derived_wdl_problem(dir_, m); !why.empty()) return Error{"table " + name + ".wdl: " + why};
            return BigArray<std::uint16_t>(*cache_);
        }
        return read_table_values(*reader, *cache_, threads_);
    }
    Expected<BigArray<std::uint16_t>> read_values(const Material& m, format::Metric metric) const {
        auto reader = format::open_table_of<R>(dir_ / format::file_name(m.name(), metric), m, metric);
        if (!reader) return Error{reader.error()};
        return read_table_values(*reader, *cache_, threads_);
    }

    std::filesystem::path dir_;
    int largest_pieces_ = 0;
    MappingCache* cache_;
    int threads_ = 0;
    Progress progress_;
    std::array<std::unique_ptr<Slice>, 10000> slots_{};
};

}  // namespace dtb::gen
