// The driver: every pair up to N pieces in dependency order, each run as a script of named steps
// (read inputs, plan memory, solve the game, write distances, solve the rule tables, write WDL,
// report) over one PairRun.
#include "gen/generate.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>

#include "format/format.hpp"
#include "gen/dependencies.hpp"
#include "gen/finished_rule_tables.hpp"
#include "gen/finished_tables.hpp"
#include "gen/folder_lock.hpp"
#include "gen/mapping_cache.hpp"
#include "gen/pair_memory.hpp"
#include "gen/pair_report.hpp"
#include "gen/pair_rule_tables.hpp"
#include "gen/phase_seeds.hpp"
#include "gen/run_progress.hpp"
#include "gen/slice_solver.hpp"
#include "gen/table_writer.hpp"
#include "index/slice_index.hpp"
#include "probe/derived_wdl.hpp"
#include "probe/open_table.hpp"

namespace dtb::gen {

namespace {

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
    std::optional<SliceSolver<R>> game;
    RuleTablesOutcome rules;
    std::uint64_t bytes = 0;  // written
};

template <class R>
class Driver {
  public:
    Driver(const GenerateOptions& o, const GenerateEvents& e)
        : o_(o),
          e_(e),
          budget_{o.memory_mb},
          writer_({o.out_dir, o.zstd_level, o.wdl, o.wdl_balanced_min_bytes, o.threads}),
          finished_(o.out_dir, o.threads),
          finished_rules_(o.out_dir, o.threads) {}

    Expected<GenerateSummary> run() {
        const auto t0 = std::chrono::steady_clock::now();
        // The request is checked whole before anything is created.
        if (o_.max_pieces < 2 || o_.max_pieces > kMaxPieces)
            return Error{"pieces must be 2 to " + std::to_string(kMaxPieces) + ", not " + std::to_string(o_.max_pieces),
                         ErrorKind::bad_input};
        if (o_.threads < 0 || o_.threads > kMaxThreads)
            return Error{"threads must be 0 (all cores) to " + std::to_string(kMaxThreads) + ", not " +
                             std::to_string(o_.threads),
                         ErrorKind::bad_input};
        std::set<Material> wanted;
        for (const std::string& name : o_.only) {
            auto m = Material::parse(name);
            if (!m) return Error{"--only: '" + name + "' is not a slice name (like KKMvK)", ErrorKind::bad_input};
            if (m->pieces() > o_.max_pieces)
                return Error{"--only: " + m->name() + " has " + std::to_string(m->pieces()) +
                                 " pieces, more than --pieces " + std::to_string(o_.max_pieces),
                             ErrorKind::bad_input};
            if (!material_fits<R>(*m))
                return Error{"--only: " + m->name() + " is not a slice of " + std::string(R::kName) + " draughts",
                             ErrorKind::bad_input};
            wanted.insert(*m);
            wanted.insert(m->mirrored());
        }
        std::error_code ec;
        if (std::filesystem::exists(o_.out_dir, ec) && !std::filesystem::is_directory(o_.out_dir, ec))
            return Error{o_.out_dir.string() + " is not a folder", ErrorKind::bad_input};
        std::filesystem::create_directories(o_.out_dir, ec);
        if (ec) return Error{"cannot create " + o_.out_dir.string() + ": " + ec.message(), ErrorKind::system};
        auto lock = FolderLock::take(o_.out_dir, o_.wait_for_lock, e_.log);
        if (!lock) return Error{lock.error(), lock.error_kind()};
        if (format::Status s = remove_temporary_files(); !s) return s.as_error();
        // The work memory stays under its limit: what would pass it is mapped from files in the
        // output folder (gen/mapping_cache.hpp), so that a pair whose frontier lists outgrow the
        // estimate of plan_pair_memory runs slower instead of being killed.
        struct MemoryBound {
            MemoryBound(MappingCache& cache, std::uint64_t limit, const std::filesystem::path& dir) : cache(cache) {
                cache.bound_memory(limit, dir);
            }
            ~MemoryBound() { cache.bound_memory(0, {}); }
            MemoryBound(const MemoryBound&) = delete;
            MemoryBound& operator=(const MemoryBound&) = delete;
            MappingCache& cache;
        } memory_bound(cache_, budget_.work_limit(), o_.out_dir);
        // The slices to solve (each with its mirror), and the last of them that reads each input.
        std::vector<Material> order;
        std::set<Material> done;
        for (const Material& m : all_materials<R>(o_.max_pieces)) {
            if (done.count(m)) continue;
            done.insert(m);
            done.insert(m.mirrored());
            if (wanted.empty() || wanted.count(m)) order.push_back(m);
        }
        for (std::size_t k = 0; k < order.size(); ++k)
            for (const Material& x : inputs_of_pair(order[k])) last_use_[x] = k;
        RunProgress run_progress;
        for (const Material& m : order) run_progress.positions_left += positions_of_pair<R>(m);
        for (std::size_t k = 0; k < order.size(); ++k) {
            const Material& m = order[k];
            const std::uint64_t pair_positions = positions_of_pair<R>(m);
            run_progress.positions_left -= pair_positions;
            if (complete_on_disk(m) && complete_on_disk(m.mirrored())) {
                ++summary_.slices_skipped;
                log(m.name() + ": present and valid, skipped");
            } else {
                const auto t_pair = std::chrono::steady_clock::now();
                // A spilled array that cannot get its file (gen/mapping_cache.hpp) throws; the
                // caller gets an error, as for any write that fails.
                Expected<bool> r = Error{""};
                try {
                    r = solve_and_write(m);
                } catch (const std::runtime_error& e) {
                    r = Error{"slice " + m.name() + ": " + e.what(), ErrorKind::system};
                }
                if (!r) return Error{r.error(), r.error_kind()};
                run_progress.seconds +=
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t_pair).count();
                run_progress.positions_done += pair_positions;
                log(run_progress.line(k + 1, order.size(), summary_.slices_skipped, summary_.slices_generated));
            }
            // Memory holds only the finished slices that a later slice still reads.
            for (const Material& x : inputs_of_pair(m)) {
                if (last_use_.at(x) != k) continue;
                finished_.forget(x);
                finished_rules_.forget(x);
            }
        }
        summary_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return summary_;
    }

  private:
    // A pair, step by step; its files are DTC and DTW, the rule tables, and WDL last: a slice
    // counts as present only when all its files are.
    Expected<bool> solve_and_write(const Material& m) {
        PairRun<R> run(m);
        run.clock.start = now();
        if (auto r = read_inputs(run); !r) return r;
        run.clock.inputs_read = now();
        if (auto r = plan_memory(run); !r) return r;
        solve_game(run);
        run.clock.game_solved = now();
        if (auto r = write_distances(run); !r) return r;
        run.clock.distances_written = now();
        if constexpr (R::kCountingRules)
            if (auto r = solve_rule_tables(run); !r) return r;
        run.game->release_dtc();
        run.clock.rule_tables_done = now();
        if (auto r = write_wdl(run); !r) return r;
        run.clock.wdl_written = now();
        report(run);
        return true;
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
            auto r = finished_.load(x, x.pieces() == o_.max_pieces ? FinishedTables<R>::Reached::by_promotion
                                                                   : FinishedTables<R>::Reached::anywhere);
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
        auto plan =
            plan_pair_memory<R>(m, budget_, held, o_.spill, o_.threads, [this](const std::string& s) { log(s); });
        if (!plan) return Error{plan.error(), plan.error_kind()};
        run.plan = *plan;
        if (auto r = check_disk_space(o_.out_dir, m, entries_of_pair<R>(m), run.plan, cache_); !r) return r;
        run.cache_before = CacheCounters::of(cache_);
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
        PhaseSeeds<R>& phase_seeds = run.phase_seeds.emplace(run.m, o_.threads);
        SliceSolver<R>& solver = run.game.emplace(run.m, finished_.external(), pass_progress(run.m), o_.threads);
        if (R::kCountingRules && phase_seeds.needed())
            solver.observe_seeds(
                [&phase_seeds](int side, std::uint64_t i, std::span<const std::uint16_t* const> exit_words,
                               bool capture,
                               int king_steps) { phase_seeds.record(side, i, exit_words, capture, king_steps); });
        if constexpr (!SliceIndex<R>::kRowGroups) {
            if (run.plan.spill) {
                solver.solve_by_levels();
                return;
            }
        }
        solver.solve();
    }

    // Step: DTC and DTW of both sides; the pair's values then feed the later pairs that read it.
    Expected<bool> write_distances(PairRun<R>& run) {
        const SliceSolver<R>& solver = *run.game;
        for (int s = 0; s < solver.num_sides(); ++s) {
            const auto& sd = solver.side(s);
            if (R::kCountingRules && run.phase_seeds->needed()) run.phase_seeds->record_draws(s, sd.value);
            auto w = writer_.write_distances(sd.index.material(), sd.value, sd.dtc, sd.capture);
            if (!w) return Error{w.error(), w.error_kind()};
            run.bytes += *w;
            if (read_later(sd.index.material())) {
                auto a = finished_.adopt(sd.index.material(), sd.value);
                if (!a) return Error{a.error(), a.error_kind()};
            }
        }
        return true;
    }

    // Step: the rule tables (gen/pair_rule_tables.hpp).
    Expected<bool> solve_rule_tables(PairRun<R>& run) {
        auto r = gen::solve_rule_tables<R>(
            RuleTablesInputs<R>{run.m, *run.game, *run.phase_seeds, finished_, finished_rules_, writer_,
                                [this](const Material& x) { return read_later(x); }, pass_progress(run.m), o_.threads});
        if (!r) return Error{r.error(), r.error_kind()};
        run.rules = *r;
        run.bytes += r->bytes;
        run.phase_seeds->release();
        return true;
    }

    // Step: WDL, last.
    Expected<bool> write_wdl(PairRun<R>& run) {
        auto w = writer_.write_wdl(*run.game);
        if (!w) return Error{w.error(), w.error_kind()};
        run.bytes += *w;
        return true;
    }

    // Step: the pair's slice line, and its share of the run's summary.
    void report(const PairRun<R>& run) {
        const PairFacts facts{run.m,          entries_of_pair<R>(run.m), positions_of_pair<R>(run.m), run.bytes,
                              run.plan.spill, run.cache_before,          CacheCounters::of(cache_)};
        const PartSeconds parts = pair_parts<R>(run.clock, run.game->pass_seconds(), run.rules);
        ++summary_.slices_generated;
        summary_.positions += facts.positions;
        summary_.entries += facts.entries;
        summary_.bytes_written += run.bytes;
        summary_.add_parts(parts);
        log(slice_line<R>(facts, run.clock, parts, run.rules));
    }

    static std::chrono::steady_clock::time_point now() { return std::chrono::steady_clock::now(); }
    PassProgress pass_progress(const Material& m) const {
        return [this, name = m.name()](const std::string& pass, std::uint64_t done, std::uint64_t total) {
            if (e_.progress) e_.progress(name, pass, done, total);
        };
    }

    // What killed runs left: temporary table files (format::is_temporary_name). Only a run
    // that holds the folder's lock may remove them; no other writes there.
    format::Status remove_temporary_files() const {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(o_.out_dir, ec)) {
            if (!format::is_temporary_name(entry.path().filename().string())) continue;
            std::error_code rm;
            std::filesystem::remove(entry.path(), rm);
            if (rm)
                return format::Status(
                    Error{"cannot remove " + entry.path().string() + ": " + rm.message(), ErrorKind::system});
        }
        if (ec)
            return format::Status(Error{"cannot list " + o_.out_dir.string() + ": " + ec.message(), ErrorKind::system});
        return {};
    }
    bool read_later(const Material& m) const { return last_use_.count(m) != 0; }

    // Finished slices stay in memory from the pair that solves or reads them to the last pair
    // that reads them (run), so that no pair reads a table twice. Those held for later pairs
    // but not read by m are idle while m is solved: when m is tight in memory (it would be
    // solved by levels, or be refused, with them held) or spilled by --spill, they are released
    // before m's inputs are loaded, and read again from their files by the pair that needs them:
    // held, they take the memory a pair solved by levels needs for its arrays' pages.
    void release_idle_slices(const Material& m, const std::set<Material>& inputs) {
        if (!budget_.bound_mb() && !o_.spill) return;
        const std::uint64_t idle = finished_.bytes_outside(inputs);
        if (idle == 0) return;
        std::uint64_t input_bytes = finished_rules_.bytes_in_memory();
        for (const Material& x : inputs) input_bytes += SliceIndex<R>(x).size() * sizeof(std::uint16_t);
        if (!o_.spill && whole_solve_bytes<R>(m, input_bytes) + idle <= budget_.work_limit()) return;
        finished_.forget_all_but(inputs);
        log(m.name() + ": " + std::to_string(idle >> 20) +
            " MB of finished slices that only later pairs read released (read again when needed)");
    }

    void log(const std::string& s) {
        if (e_.log) e_.log(s);
    }

    // The files of a slice: DTC, DTW, the rule tables (variants with counting rules), and WDL
    // last, the order they are written in.
    static std::vector<format::Metric> metrics_of(const Material& m) {
        std::vector<format::Metric> out{format::Metric::dtc, format::Metric::dtw};
        if constexpr (R::kCountingRules)
            for (auto metric : rule_metrics_of(m)) out.push_back(metric);
        out.push_back(format::Metric::wdl);
        return out;
    }

    bool complete_on_disk(const Material& m) const {
        const std::uint64_t entries = SliceIndex<R>(m).size();
        for (auto metric : metrics_of(m)) {
            auto r = format::open_table_of<R>(o_.out_dir / format::file_name(m.name(), metric), m, metric, entries);
            if (!r || !r->verify_checksums().ok()) return false;
            if (r->info().derived() && !derived_wdl_problem(o_.out_dir, m).empty()) return false;
        }
        return true;
    }

    const GenerateOptions& o_;
    const GenerateEvents& e_;
    MappingCache& cache_ = MappingCache::instance();
    MemoryBudget budget_;
    TableWriter<R> writer_;
    FinishedTables<R> finished_;
    FinishedRuleTables<R> finished_rules_;
    std::map<Material, std::size_t> last_use_;  // input -> the last slice (in run order) reading it
    GenerateSummary summary_;
};

}  // namespace

std::string describe_parts(const PartSeconds& parts, const std::string& rules_detail) {
    const auto secs_of = [&](const std::string& name) -> const double* {
        for (const auto& [part, secs] : parts)
            if (part == name) return &secs;
        return nullptr;
    };
    const auto fixed = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", v);
        return std::string(buf);
    };
    std::string out;
    const auto add = [&](const std::string& name, const std::string& inner) {
        const double* secs = secs_of(name);
        if (!secs) return;
        out += (out.empty() ? "" : ", ") + name + " " + fixed(*secs) + " s" + (inner.empty() ? "" : " (" + inner + ")");
    };
    std::string solve_inner;
    const auto add_kind = [&](const std::string& kind) {
        if (const double* secs = secs_of(kind))
            solve_inner += (solve_inner.empty() ? "" : ", ") + kind + " " + fixed(*secs);
    };
    for (const char* kind : kSolveKinds) add_kind(kind);
    add_kind("other");
    const double* rules_written = secs_of("rule tables written");
    add("inputs read", "");
    add("solve", solve_inner);
    add("distances written", "");
    add("rule tables", (rules_written ? "written " + fixed(*rules_written) + " s" : "") + rules_detail);
    add("WDL written", "");
    return out;
}

Expected<GenerateSummary> generate(const GenerateOptions& options, const GenerateEvents& events) {
    return with_variant(options.variant, [&](auto v) -> Expected<GenerateSummary> {
        Expected<GenerateSummary> summary = Driver<decltype(v)>(options, events).run();
        // The spill files kept from pair to pair take disk space in the output folder: not
        // beyond the run (the driver, gone now, may have held arrays mapped from them).
        MappingCache::instance().release_files();
        return summary;
    });
}

}  // namespace dtb::gen
