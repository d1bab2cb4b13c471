// One pair's run as a script of named steps (read inputs, plan memory, solve the game, write
// distances, solve the rule tables, write WDL, report) over one PairRun, and the finished slices
// held between pairs. The single-process driver (gen/generate.cpp) and a distributed run's
// workers (gen/pair_worker.hpp) both run pairs through it.
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/gen/dependencies.hpp"
#include "dtb/gen/finished_rule_tables.hpp"
#include "dtb/gen/finished_tables.hpp"
#include "dtb/gen/generate.hpp"
#include "dtb/gen/mapping_cache.hpp"
#include "dtb/gen/pair_memory.hpp"
#include "dtb/gen/pair_report.hpp"
#include "dtb/gen/pair_rule_tables.hpp"
#include "dtb/gen/phase_seeds.hpp"
#include "dtb/gen/rule_blocks.hpp"
#include "dtb/gen/side_tables.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "dtb/gen/table_writer.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/derived_wdl.hpp"
#include "dtb/probe/open_table.hpp"

namespace dtb::gen {

// One pair's way through its steps: what each step leaves for the next.
template <class R>
struct PairRun {
    explicit PairRun(const Material& pair) : m(pair) {}
    Material m;
    PairClock clock;
    PairMemoryPlan plan;
    std::optional<SpillScope> spill_scope;  // spilled: big arrays are files until the pair ends
    CacheCounters cache_before;
    std::optional<PhaseSeeds<R>> phase_seeds;  // with counting rules, gathered by the game's seed pass
    bool rules_by_blocks = false;              // the rule tables solved by the game's blocks too
    std::optional<SliceSolver<R>> game;
    // Solved by blocks and written side by side: each side's WDL, prepared while its values are
    // gathered for the distances, written last.
    std::vector<typename TableWriter<R>::SideWdl> wdl_sides;
    RuleTablesOutcome rules;
    std::uint64_t bytes = 0;              // written
    std::uint64_t block_store_bytes = 0;  // solved by blocks: the finished levels, compressed
    std::uint64_t largest_block = 0;      // solved by blocks: entries of its largest level
    std::uint64_t live_at_start = 0;      // bytes the mapping cache had handed out (the inputs) at the start
    std::uint64_t solve_peak = 0;         // solved by blocks: peak bytes of its arrays and frontier lists
};

// Whether every file of slice m is in dir, whole and of the right slice (checksums verified).
template <class R>
bool complete_on_disk(const std::filesystem::path& dir, const Material& m) {
    const std::uint64_t entries = SliceIndex<R>(m).size();
    for (auto metric : slice_metrics_of<R>(m)) {
        auto r = format::open_table_of<R>(dir / format::file_name(m.name(), metric), m, metric, entries);
        if (!r || !r->verify_checksums().ok()) return false;
        if (r->info().derived() && !derived_wdl_problem(dir, m).empty()) return false;
    }
    return true;
}

// The pairs of a run, each named by its first slice in generation order (all_materials), or
// only those of `wanted` when it is not empty.
template <class R>
std::vector<Material> pairs_in_order(int max_pieces, const std::set<Material>& wanted = {}) {
    std::vector<Material> order;
    std::set<Material> done;
    for (const Material& m : all_materials<R>(max_pieces)) {
        if (done.count(m)) continue;
        done.insert(m);
        done.insert(m.mirrored());
        if (wanted.empty() || wanted.count(m)) order.push_back(m);
    }
    return order;
}

// The pairs' steps over one output folder, with the finished slices they read held in memory.
// read_later(x): whether a later pair of this process reads slice x, so that its values stay in
// memory once solved.
template <class R>
class PairSteps {
  public:
    PairSteps(const GenerateOptions& o, const GenerateEvents& e, std::function<bool(const Material&)> read_later)
        : o_(o),
          e_(e),
          read_later_(std::move(read_later)),
          budget_{o.memory_mb},
          memory_bound_(cache_, budget_.work_limit(), o.out_dir),
          writer_({o.out_dir, o.zstd_level, o.wdl, o.wdl_balanced_min_bytes, o.threads}),
          finished_(o.out_dir, cache_, o.threads),
          finished_rules_(o.out_dir, cache_, o.threads) {
        cache_.fill_new_arrays(o.new_array_fill);
        finished_.set_largest_pieces(o.max_pieces);
    }

    // A pair, step by step; its files are DTC and DTW, the rule tables, and WDL last: a slice
    // counts as present only when all its files are. A spilled array that cannot get its file
    // (gen/mapping_cache.hpp) is an error of kind system, as for any write that fails.
    Expected<PairOutcome> solve_and_write(const Material& m) {
        try {
            return run_steps(m);
        } catch (const std::runtime_error& e) {
            return Error{"slice " + m.name() + ": " + e.what(), ErrorKind::system};
        }
    }

    // Memory holds only the finished slices that a later pair still reads.
    void forget(const Material& x) {
        finished_.forget(x);
        finished_rules_.forget(x);
    }

    // Only the finished slices of keep stay in memory (a worker before its next pair).
    void keep_only(const std::set<Material>& keep) { finished_.forget_all_but(keep); }

    const MemoryBudget& budget() const { return budget_; }

  private:
    Expected<PairOutcome> run_steps(const Material& m) {
        PairRun<R> run(m);
        run.clock.start = now();
        if (auto r = read_inputs(run); !r) return Error{r.error(), r.error_kind()};
        run.clock.inputs_read = now();
        if (auto r = plan_memory(run); !r) return Error{r.error(), r.error_kind()};
        solve_game(run);
        run.clock.game_solved = now();
        if (auto r = write_distances(run); !r) return Error{r.error(), r.error_kind()};
        run.clock.distances_written = now();
        if constexpr (R::kCountingRules)
            if (auto r = solve_rule_tables(run); !r) return Error{r.error(), r.error_kind()};
        run.game->release_dtc();
        run.clock.rule_tables_done = now();
        if (auto r = write_wdl(run); !r) return Error{r.error(), r.error_kind()};
        run.clock.wdl_written = now();
        return report(run);
    }

    // Step: the finished slices the pair's captures and promotions lead to, in memory.
    Expected<bool> read_inputs(PairRun<R>& run) {
        const Material& m = run.m;
        const std::set<Material> inputs = inputs_of_pair(m);
        finished_.set_progress(
            [this, name = m.name()](const std::string& what, std::uint64_t done, std::uint64_t total) {
                if (e_.progress) e_.progress(name, "reading " + what, done, total);
            });
        release_idle_slices(m, inputs);
        for (const Material& x : inputs) {
            // Inputs with as many pieces as the run's largest are reached only by promotions.
            auto r = finished_.load(x, finished_.reached_in_run(x));
            if (!r) return Error{"slice " + m.name() + " needs " + x.name() + ": " + r.error(), ErrorKind::tables};
            if constexpr (R::kCountingRules) {
                auto rr = finished_rules_.load(x);
                if (!rr)
                    return Error{"slice " + m.name() + " needs " + x.name() + ": " + rr.error(), ErrorKind::tables};
            }
        }
        return true;
    }

    // Step: solved whole or by levels with its arrays spilled (gen/pair_memory.hpp), or refused.
    Expected<bool> plan_memory(PairRun<R>& run) {
        const Material& m = run.m;
        const std::uint64_t held = finished_.bytes_in_memory() + finished_rules_.bytes_in_memory();
        auto plan = plan_pair_memory<R>(
            m, budget_, held, o_.spill, o_.blocks, o_.threads, [this](const std::string& s) { log(s); }, kept_bytes(m),
            o_.max_block_positions);
        if (!plan) return Error{plan.error(), plan.error_kind()};
        run.plan = *plan;
        if (auto r = check_disk_space(o_.out_dir, m, entries_of_pair<R>(m), run.plan, cache_); !r) return r;
        run.cache_before = CacheCounters::of(cache_);
        cache_.reset_peak();
        run.live_at_start = cache_.live_bytes();
        if (run.plan.blocks)
            log(m.name() + ": solved by blocks (" + std::to_string(run.plan.largest_level) +
                " entries in its largest level" +
                (run.plan.max_block_entries
                     ? ", split into groups of phases of at most " + std::to_string(run.plan.max_block_entries) +
                           " (largest " + std::to_string(run.plan.largest_block) + ")"
                     : std::string()) +
                "; " + std::to_string(run.plan.whole_bytes >> 20) + " MB in memory would be needed whole)");
        if (run.plan.spill) {
            run.spill_scope.emplace(cache_, o_.out_dir);
            log(m.name() + ": " + std::to_string(run.plan.whole_bytes >> 20) + " MB in memory would be needed" +
                (run.plan.tight || !budget_.bound_mb() ? "" : " (it would fit: spilled as --spill asks)") +
                "; solved by levels, " + std::to_string(run.plan.array_bytes >> 20) + " MB of arrays in files in " +
                o_.out_dir.string());
        }
        return true;
    }

    // Step: the game's values, DTW and DTC (gen/slice_solver.hpp). With counting rules its seed
    // pass also gathers the rule phases' seeds.
    void solve_game(PairRun<R>& run) {
        run.rules_by_blocks = R::kCountingRules && run.plan.blocks && rule_tables_by_blocks_of<R>(run.m);
        PhaseSeeds<R>& phase_seeds = run.phase_seeds.emplace(
            run.m, cache_, o_.threads,
            run.rules_by_blocks ? PhaseSeeds<R>::Holding::by_blocks : PhaseSeeds<R>::Holding::whole);
        SliceSolver<R>& solver =
            run.game.emplace(run.m, cache_, finished_.external(), pass_progress(run.m), o_.threads);
        if (R::kCountingRules && phase_seeds.needed())
            solver.observe_seeds(
                [&phase_seeds](int side, std::uint64_t i, std::span<const std::uint16_t* const> exit_words,
                               bool capture,
                               int king_steps) { phase_seeds.record(side, i, exit_words, capture, king_steps); });
        if (run.plan.blocks) {
            BlockHooks hooks;
            if (run.rules_by_blocks) {
                // The phase seeds are held by the game's blocks, and kept compressed as its levels are.
                hooks.laid_out = [&phase_seeds](const BlockLayout& layout) { phase_seeds.hold_by_blocks(layout); };
                hooks.opened = [&phase_seeds](std::size_t l) { phase_seeds.open_level(l); };
                hooks.valued = [&phase_seeds](std::size_t l, std::span<const ValueCode> values) {
                    phase_seeds.finish_level(l, values);
                };
            }
            solver.solve_by_blocks(hooks, run.plan.max_block_entries);
            run.solve_peak = cache_.peak_live_bytes() - std::min(cache_.peak_live_bytes(), run.live_at_start);
            cache_.reset_peak();
            run.largest_block = solver.largest_block();
            run.block_store_bytes = solver.block_store_bytes() + phase_seeds.stored_bytes();
            // Rule tables that cannot be solved by blocks (a counting class) read whole arrays.
            if (R::kCountingRules && !run.rules_by_blocks) solver.gather_whole();
            return;
        }
        if (run.plan.spill) {
            solver.solve_by_levels();
            return;
        }
        solver.solve();
    }

    // Step: DTC and DTW of both sides; the pair's values then feed the later pairs that read it.
    Expected<bool> write_distances(PairRun<R>& run) {
        if (run.game->solved_by_blocks()) return write_from_blocks(run);
        const SliceSolver<R>& solver = *run.game;
        for (int s = 0; s < solver.num_sides(); ++s) {
            const auto& sd = solver.side(s);
            if (R::kCountingRules && run.phase_seeds->needed()) run.phase_seeds->record_draws(s, sd.value);
            auto w = writer_.write_distances(sd.index.material(), sd.value, sd.dtc, sd.capture, cache_);
            if (!w) return Error{w.error(), w.error_kind()};
            run.bytes += *w;
            if (read_later_(sd.index.material())) {
                auto a = finished_.adopt(sd.index.material(), sd.value);
                if (!a) return Error{a.error(), a.error_kind()};
            }
        }
        return true;
    }

    // Step for a pair still held by blocks: each side's tables streamed from the block store in
    // index order (gen/side_tables.hpp): DTC, DTW, then its WDL prepared, and its values kept for
    // the later pairs that read it.
    Expected<bool> write_from_blocks(PairRun<R>& run) {
        SliceSolver<R>& solver = *run.game;
        for (int s = 0; s < solver.num_sides(); ++s) {
            const Material side = solver.side(s).index.material();
            const std::uint64_t entries = solver.side(s).index.size();
            SideTables<R> tables(*solver.blocks(), s, side, entries, writer_, cache_, o_.threads);
            auto dtc = tables.write_dtc();
            if (!dtc) return Error{dtc.error(), dtc.error_kind()};
            auto dtw = tables.write_dtw();
            if (!dtw) return Error{dtw.error(), dtw.error_kind()};
            run.bytes += *dtc + *dtw;
            auto p = tables.prepare_wdl();
            if (!p) return Error{p.error(), p.error_kind()};
            run.wdl_sides.push_back({side, entries, std::move(*p)});
            // With rule tables by blocks, adopted once those are done (gen/pair_rule_tables.hpp).
            if (read_later_(side) && !run.rules_by_blocks) {
                auto a = finished_.adopt_from_blocks(side, *solver.blocks(), s);
                if (!a) return Error{a.error(), a.error_kind()};
            }
        }
        // The rule tables by blocks read the game's store; they release it.
        if (!run.rules_by_blocks) solver.release_blocks();
        return true;
    }

    // Step: the rule tables (gen/pair_rule_tables.hpp).
    Expected<bool> solve_rule_tables(PairRun<R>& run) {
        auto r = gen::solve_rule_tables<R>(RuleTablesInputs<R>{run.m, cache_, *run.game, *run.phase_seeds, finished_,
                                                               finished_rules_, writer_, read_later_,
                                                               pass_progress(run.m), o_.threads});
        if (!r) return Error{r.error(), r.error_kind()};
        run.rules = *r;
        run.bytes += r->bytes;
        run.phase_seeds->release();
        run.game->release_blocks();
        return true;
    }

    // Step: WDL, last.
    Expected<bool> write_wdl(PairRun<R>& run) {
        auto w = run.wdl_sides.empty() ? writer_.write_wdl(*run.game) : writer_.write_wdl(std::move(run.wdl_sides));
        if (!w) return Error{w.error(), w.error_kind()};
        run.bytes += *w;
        return true;
    }

    // Step: the pair's slice line, and its share of the run's summary.
    PairOutcome report(const PairRun<R>& run) {
        PairFacts facts{run.m,          entries_of_pair<R>(run.m), positions_of_pair<R>(run.m), run.bytes,
                        run.plan.spill, run.cache_before,          CacheCounters::of(cache_)};
        if (run.plan.blocks) {
            facts.by_blocks = true;
            facts.largest_block = run.largest_block;
            facts.solve_peak_bytes = run.solve_peak;
            facts.write_peak_bytes = cache_.peak_live_bytes() - std::min(cache_.peak_live_bytes(), run.live_at_start);
            facts.block_store_bytes = run.block_store_bytes;
        }
        PairOutcome out;
        out.parts = pair_parts<R>(run.clock, run.game->pass_seconds(), run.rules);
        out.positions = facts.positions;
        out.entries = facts.entries;
        out.bytes = run.bytes;
        out.line = slice_line<R>(facts, run.clock, out.parts, run.rules);
        return out;
    }

    static std::chrono::steady_clock::time_point now() { return std::chrono::steady_clock::now(); }
    PassProgress pass_progress(const Material& m) const {
        return [this, name = m.name()](const std::string& pass, std::uint64_t done, std::uint64_t total) {
            if (e_.progress) e_.progress(name, pass, done, total);
        };
    }

    // Finished slices stay in memory from the pair that solves or reads them to the last pair
    // that reads them, so that no pair reads a table twice. Those held for later pairs but not
    // read by m are idle while m is solved: when m is tight in memory (it would be solved by
    // levels, or be refused, with them held) or spilled by --spill, they are released before m's
    // inputs are loaded, and read again from their files by the pair that needs them: held, they
    // take the memory a pair solved by levels needs for its arrays' pages.
    void release_idle_slices(const Material& m, const std::set<Material>& inputs) {
        if (!budget_.bound_mb() && !o_.spill) return;
        const std::uint64_t idle = finished_.bytes_outside(inputs);
        if (idle == 0) return;
        std::uint64_t input_bytes = finished_rules_.bytes_in_memory();
        for (const Material& x : inputs) input_bytes += held_bytes_of<R>(x, SliceIndex<R>(x).size(), o_.max_pieces);
        if (!o_.spill && whole_solve_bytes<R>(m, input_bytes) + idle <= budget_.work_limit()) return;
        finished_.forget_all_but(inputs);
        log(m.name() + ": " + std::to_string(idle >> 20) +
            " MB of finished slices that only later pairs read released (read again when needed)");
    }

    // What the values of pair m take once kept for the later pairs that read them.
    std::uint64_t kept_bytes(const Material& m) const {
        const auto kept = [&](const Material& side) -> std::uint64_t {
            return read_later_(side) ? held_bytes_of<R>(side, SliceIndex<R>(side).size(), o_.max_pieces) : 0;
        };
        return kept(m) + (m.mirrored() == m ? 0 : kept(m.mirrored()));
    }

    void log(const std::string& s) const {
        if (e_.log) e_.log(s);
    }

    // The work memory stays under its limit while the steps live: what would pass it is mapped
    // from files in the output folder (gen/mapping_cache.hpp), so that a pair whose frontier
    // lists outgrow the estimate of plan_pair_memory runs slower instead of being killed.
    struct MemoryBound {
        MemoryBound(MappingCache& cache, std::uint64_t limit, const std::filesystem::path& dir) : cache(cache) {
            cache.bound_memory(limit, dir);
        }
        ~MemoryBound() { cache.bound_memory(0, {}); }
        MemoryBound(const MemoryBound&) = delete;
        MemoryBound& operator=(const MemoryBound&) = delete;
        MappingCache& cache;
    };

    const GenerateOptions& o_;
    const GenerateEvents& e_;
    std::function<bool(const Material&)> read_later_;
    // The memory of every array of the steps; declared before the objects that hold arrays, so
    // that it outlives them. Its destructor unmaps the kept spill files: they take disk space in
    // the output folder, not beyond the run.
    MappingCache cache_;
    MemoryBudget budget_;
    MemoryBound memory_bound_;
    TableWriter<R> writer_;
    FinishedTables<R> finished_;
    FinishedRuleTables<R> finished_rules_;
};

}  // namespace dtb::gen
