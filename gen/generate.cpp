#include "gen/generate.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>

#include "gen/dont_care.hpp"
#include "gen/finished_tables.hpp"
#include "gen/mapping_cache.hpp"
#include "gen/rule_tables.hpp"
#include "gen/slice_solver.hpp"
#include "index/scheme_version.hpp"
#include "index/slice_index.hpp"
#include "probe/derived_wdl.hpp"
#include "format/format.hpp"
#include "probe/open_table.hpp"
#include "gen/dependencies.hpp"
#include "gen/folder_lock.hpp"

namespace dtb::gen {

namespace {

// A solve's main kinds of pass (SliceSolver::pass_seconds), in slice-line order; "other" follows.
constexpr const char* kSolveKinds[] = {"seed", "dtw", "dtc seed", "dtc"};

// How WDL tables are written (the distance and rule tables keep format::WriteOptions' defaults).
constexpr std::uint32_t kWdlBlockEntries = 1u << 18;
constexpr int kWdlZstdLevel = 15;

// Physical memory in MB (0 if unknown).
std::uint64_t physical_memory_mb() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) >> 20 : 0;
}

// A duration as H:MM:SS.
std::string clock_time(double seconds) {
    const auto s = static_cast<long long>(std::llround(std::max(seconds, 0.0)));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

// Where a run stands after each pair it generates, with how long the rest would take at the
// rate of the pairs generated so far: a 6-piece run takes hours, and its progress line shows only
// the current pass. The rate is a rough guide: 6-piece pairs run at 1.7 (KMvKKMM) to 6.5 M
// positions/s (KKKvKKK; BENCHMARKS.md).
struct RunProgress {
    std::uint64_t positions_done = 0;  // positions of the pairs generated
    double seconds = 0;                // their slice lines' wall time (the checks of present pairs left out)
    std::uint64_t positions_left = 0;  // positions of the pairs not reached yet, present or not
    std::string line(std::size_t pairs_reached, std::size_t pairs, int present, int generated) const {
        const double rate = seconds > 0 ? positions_done / seconds : 0;
        std::string out = "run: " + std::to_string(pairs_reached) + " of " + std::to_string(pairs) + " pairs done (" +
                          std::to_string(present) + " present, " + std::to_string(generated) + " generated); " +
                          std::to_string(positions_done) + " positions generated in " + clock_time(seconds);
        char rate_text[48];
        std::snprintf(rate_text, sizeof rate_text, " (%.2f M/s); ", rate / 1e6);
        out += rate_text;
        if (pairs_reached == pairs) return out + "nothing left";
        const double share = 100.0 * positions_left / std::max<double>(positions_left + positions_done, 1);
        char left[160];
        std::snprintf(left, sizeof left, "%zu %s left (%llu positions, %.1f%%), about %s at that rate",
                      pairs - pairs_reached, pairs - pairs_reached == 1 ? "pair" : "pairs",
                      static_cast<unsigned long long>(positions_left), share,
                      rate > 0 ? clock_time(positions_left / rate).c_str() : "?");
        return out + left;
    }
};

template <class R>
class Driver {
public:
    Driver(const GenerateOptions& o, const GenerateEvents& e)
        : o_(o), e_(e), finished_(o.out_dir), finished_rules_(o.out_dir) {}

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
                return Error{"--only: " + m->name() + " has " + std::to_string(m->pieces()) + " pieces, more than --pieces " +
                                 std::to_string(o_.max_pieces),
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
        if (o_.threads > 0) omp_set_num_threads(o_.threads);
        // The work memory stays under its limit: what would pass it is mapped from files in the
        // output folder (gen/mapping_cache.hpp), so that a pair whose frontier lists outgrow the
        // estimate of solve_and_write runs slower instead of being killed.
        struct MemoryBound {
            MemoryBound(std::uint64_t limit, const std::filesystem::path& dir) { MappingCache::instance().bound_memory(limit, dir); }
            ~MemoryBound() { MappingCache::instance().bound_memory(0, {}); }
            MemoryBound(const MemoryBound&) = delete;
            MemoryBound& operator=(const MemoryBound&) = delete;
        } memory_bound(work_memory_limit(), o_.out_dir);
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
            for (const Material& x : inputs_of(order[k])) last_use_[x] = k;
        RunProgress run_progress;
        for (const Material& m : order) run_progress.positions_left += positions_of_pair(m);
        for (std::size_t k = 0; k < order.size(); ++k) {
            const Material& m = order[k];
            const std::uint64_t pair_positions = positions_of_pair(m);
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
                run_progress.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t_pair).count();
                run_progress.positions_done += pair_positions;
                log(run_progress.line(k + 1, order.size(), summary_.slices_skipped, summary_.slices_generated));
            }
            // Memory holds only the finished slices that a later slice still reads.
            for (const Material& x : inputs_of(m)) {
                if (last_use_.at(x) != k) continue;
                finished_.forget(x);
                finished_rules_.forget(x);
            }
        }
        summary_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return summary_;
    }

    // --memory, else the machine's physical memory (0 if unknown: no bound).
    std::uint64_t memory_bound_mb() const { return o_.memory_mb ? o_.memory_mb : physical_memory_mb(); }
    // The memory the work may map (MappingCache::bound_memory; the driver's estimates compare
    // with it too): --memory or the machine's memory, less a margin for what the cache does not
    // map (small allocations, the page cache of the tables read and written, the system).
    std::uint64_t work_memory_limit() const {
        const std::uint64_t bound = memory_bound_mb() << 20;
        // An eighth, at most 3 GB: KKMvKKK, solved whole with a margin of 1.5 GB, was killed at
        // 1.2 GB above the cache's bound (small blocks of frontier lists, tables then read through
        // std::vector, the allocator's own heap).
        return bound - std::min<std::uint64_t>(std::uint64_t{3} << 30, bound / 8);
    }

private:
    // What killed runs left: temporary table files (format::is_temporary_name). Only a run
    // that holds the folder's lock may remove them; no other writes there.
    format::Status remove_temporary_files() const {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(o_.out_dir, ec)) {
            if (!format::is_temporary_name(entry.path().filename().string())) continue;
            std::error_code rm;
            std::filesystem::remove(entry.path(), rm);
            if (rm) return format::Status(Error{"cannot remove " + entry.path().string() + ": " + rm.message(), ErrorKind::system});
        }
        if (ec) return format::Status(Error{"cannot list " + o_.out_dir.string() + ": " + ec.message(), ErrorKind::system});
        return {};
    }
    static std::set<Material> inputs_of(const Material& m) { return inputs_of_pair(m); }
    bool read_later(const Material& m) const { return last_use_.count(m) != 0; }
    // Entries of a pair (a slice and its mirror): what memory and disk hold.
    static std::uint64_t entries_of_pair(const Material& m) {
        return SliceIndex<R>(m).size() + (m.mirrored() == m ? 0 : SliceIndex<R>(m.mirrored()).size());
    }
    // The positions they stand for (more than the entries with a mirror index: Turkish).
    static std::uint64_t positions_of_pair(const Material& m) {
        return SliceIndex<R>(m).num_positions() + (m.mirrored() == m ? 0 : SliceIndex<R>(m.mirrored()).num_positions());
    }
    // Bytes per entry of a pair's arrays at the peak of its solve (see solve_and_write).
    static constexpr std::uint64_t kArrayBytesPerEntry = R::kCountingRules ? 12 : 7;
    // What a whole (not by levels) solve of m holds with `held` bytes of finished slices: its
    // arrays and 4 bytes per entry besides (frontier lists; see solve_and_write).
    static std::uint64_t whole_solve_bytes(const Material& m, std::uint64_t held) {
        return entries_of_pair(m) * (kArrayBytesPerEntry + 4) + held;
    }

    // Finished slices stay in memory from the pair that solves or reads them to the last pair
    // that reads them (run), so that no pair reads a table twice. Those held for later pairs
    // but not read by m are idle while m is solved: when m is tight in memory (it would be
    // solved by levels, or be refused, with them held) or spilled by --spill, they are released
    // before m's inputs are loaded, and read again from their files by the pair that needs them.
    // Held, they took the memory a pair solved by levels needs for its arrays' pages: the 6-piece
    // run held 17 GB of them at MMvKKKM + KKKMvMM, which was refused for want of memory
    // (BENCHMARKS.md, "Session 25").
    void release_idle_slices(const Material& m, const std::set<Material>& inputs) {
        const std::uint64_t bound_mb = memory_bound_mb();
        if (!bound_mb && !o_.spill) return;
        const std::uint64_t idle = finished_.bytes_outside(inputs);
        if (idle == 0) return;
        std::uint64_t input_bytes = finished_rules_.bytes_in_memory();
        for (const Material& x : inputs) input_bytes += SliceIndex<R>(x).size() * sizeof(std::uint16_t);
        if (!o_.spill && whole_solve_bytes(m, input_bytes) + idle <= work_memory_limit()) return;
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
    static RuleSet rule_set_of(format::Metric metric) {
        return metric == format::Metric::fmjd ? RuleSet::fmjd : RuleSet::ffjd;
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

    Expected<bool> solve_and_write(const Material& m) {
        const auto t0 = std::chrono::steady_clock::now();
        const std::set<Material> inputs = inputs_of(m);
        finished_.set_progress([this, name = m.name()](const std::string& what, std::uint64_t done, std::uint64_t total) {
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
                if (!rr) return Error{"slice " + m.name() + " needs " + x.name() + ": " + rr.error(), ErrorKind::tables};
            }
        }
        const auto t_inputs = std::chrono::steady_clock::now();
        // Entries of the pair (what memory and disk hold) and the positions they stand for (more
        // with a mirror index: Turkish).
        const std::uint64_t positions = entries_of_pair(m);
        const std::uint64_t real_positions = positions_of_pair(m);
        // Per position of the slice at the peak: the theoretical solve (value, exit, DTC,
        // capture: 7 bytes); with counting rules, the phase seeds (2) and, while the rule tables
        // are solved, the theoretical value and capture flag (3) with a rule solve (5) and the
        // game's DTC codes it starts from (2, in place of DTC's array).
        const std::uint64_t per_position = kArrayBytesPerEntry;
        const std::uint64_t held = finished_.bytes_in_memory() + finished_rules_.bytes_in_memory();
        const std::uint64_t need = positions * per_position + held;
        // A whole solve holds more than its arrays: its frontier lists, largest in the DTC pass
        // and the repairs of the rule tables, and what the mapping cache does not map. Measured
        // on KKMvKKK + KKKvKKM (1.72 G positions, 20.6 GB of arrays), the process reached 24.4 GB
        // and was killed on this 24 GB machine; so a pair that can be solved by levels (below)
        // is, unless its arrays fit with 4 more bytes per position to spare.
        const std::uint64_t need_whole = whole_solve_bytes(m, held);
        // Without --memory the bound is the machine's memory (less a margin: work_memory_limit):
        // a slice whose arrays cannot fit is refused up front instead of swapping for hours or
        // being killed half-way. A pair with men that is tight (international) is solved by
        // levels with its arrays in files instead (spilled), when a level at a time fits: its own
        // positions, the level above that its man moves read, and the frontier lists (about 8
        // bytes per position). A level's positions are its men configurations, each a run of
        // kings_per_config entries: only when such a run takes a good part of a page (512
        // entries, a quarter of a page of a 2-byte array) does a level touch mostly its own pages
        // rather than nearly all of them, so only then does spilling help (every large 6-piece pair, MMvKKMM with the fewest, 1,035; not
        // pairs with fewer than two kings, which fit anyway).
        const std::uint64_t bound_mb = memory_bound_mb();
        const std::uint64_t bound = work_memory_limit();
        const bool too_big = bound_mb && need > bound;
        const bool tight = bound_mb && need_whole > bound;
        bool spill = false;
        std::uint64_t level_need = 0;  // by levels, when considered: the largest level and the inputs
        if constexpr (!SliceIndex<R>::kRowGroups) {
            if (m.men() > 0 && (o_.spill || (tight && SliceIndex<R>(m).kings_per_config() >= 512))) {
                level_need = held + SliceSolver<R>::largest_level(m) * (2 * per_position + 8);
                spill = !bound_mb || level_need <= bound;
                if (!spill && o_.spill && !too_big) log(m.name() + ": its largest level would not fit; solved whole, not spilled");
                if (!spill && !o_.spill && !too_big) log(m.name() + ": tight in memory and its largest level would not fit; solved whole");
            }
        }
        if (!spill && too_big)
            return Error{"slice " + m.name() + " needs about " + std::to_string(need >> 20) + " MB" +
                         (level_need ? " (" + std::to_string(level_need >> 20) + " MB solved by levels)" : "") +
                         ", more than the " + std::to_string(bound >> 20) + " MB the generator may use (" +
                         (o_.memory_mb ? "--memory " + std::to_string(o_.memory_mb)
                                       : "this machine's " + std::to_string(bound_mb) + " MB; --memory MB overrides") +
                         ", less a margin for what is not counted)",
                         o_.memory_mb ? ErrorKind::bad_input : ErrorKind::system};
        const auto space = std::filesystem::space(o_.out_dir);
        // Spilled, the files hold the work arrays, and, for a pair that later slices read, the
        // values kept for them (2 bytes per position) and the writers' buffers.
        const std::uint64_t spilled_bytes = spill ? positions * (per_position + 4) : 0;
        // Spill files are kept from pair to pair with their pages (gen/mapping_cache.hpp), for
        // the pairs solved by levels: one that is not would only have their dirty pages written
        // back under it, and their disk blocks count for its tables' files.
        if (!spill) MappingCache::instance().release_files();
        // The kept files' disk blocks are this pair's arrays' again, up to their size; not its tables'.
        const std::uint64_t kept_for_arrays = std::min<std::uint64_t>(MappingCache::instance().kept_file_bytes(), spilled_bytes);
        if (space.available + kept_for_arrays < positions * 2 + spilled_bytes + (1 << 20))
            return Error{"not enough free disk space in " + o_.out_dir.string() + " for slice " + m.name() +
                         (spill ? " (its arrays spilled to disk)" : ""), ErrorKind::system};
        // Big arrays from here to the end of the pair are files in the output folder, unlinked
        // at once (gen/mapping_cache.hpp); the cached anonymous mappings go back to the system.
        struct SpillScope {
            explicit SpillScope(const std::filesystem::path& dir) {
                MappingCache::instance().release();
                MappingCache::instance().spill_to(dir);
            }
            ~SpillScope() { MappingCache::instance().spill_to({}); }
            SpillScope(const SpillScope&) = delete;
            SpillScope& operator=(const SpillScope&) = delete;
        };
        std::optional<SpillScope> spill_scope;
        const std::uint64_t spilled_before = MappingCache::instance().spilled_bytes();
        const std::uint64_t overflow_before = MappingCache::instance().overflow_bytes();
        const std::uint64_t reused_files_before = MappingCache::instance().reused_file_bytes();
        if (spill) {
            spill_scope.emplace(o_.out_dir);
            log(m.name() + ": " + std::to_string(need_whole >> 20) + " MB in memory would be needed" +
                (tight || !bound_mb ? "" : " (it would fit: spilled as --spill asks)") + "; solved by levels, " +
                std::to_string((positions * per_position) >> 20) + " MB of arrays in files in " + o_.out_dir.string());
        }

        const std::string name = m.name();
        auto progress = [&](const std::string& pass, std::uint64_t done, std::uint64_t total) {
            if (e_.progress) e_.progress(name, pass, done, total);
        };
        std::uint64_t bytes = 0;
        // With counting rules, the theoretical seed pass also gathers the rule phases' seeds.
        PhaseSeeds<R> phase_seeds(m);
        SliceSolver<R> solver(m, finished_.external(), progress);
        if (R::kCountingRules && phase_seeds.needed())
            solver.observe_seeds([&](int side, std::uint64_t i, std::span<const std::uint16_t* const> exit_words,
                                     bool capture, int king_steps) {
                phase_seeds.record(side, i, exit_words, capture, king_steps);
            });
        if constexpr (!SliceIndex<R>::kRowGroups) {
            if (spill)
                solver.solve_by_levels();
            else
                solver.solve();
        } else {
            solver.solve();
        }
        const auto t_theory = std::chrono::steady_clock::now();
        // Files in the order of metrics_of: DTC and DTW now, WDL last.
        for (int s = 0; s < solver.num_sides(); ++s) {
            const auto& sd = solver.side(s);
            if (R::kCountingRules && phase_seeds.needed()) phase_seeds.record_draws(s, sd.value);
            auto w = write_distances(sd.index.material(), sd.value, sd.dtc, sd.capture);
            if (!w) return Error{w.error(), w.error_kind()};
            bytes += *w;
            // This slice now feeds the later ones that read it.
            if (read_later(sd.index.material())) {
                auto a = finished_.adopt(sd.index.material(), sd.value);
                if (!a) return Error{a.error(), a.error_kind()};
            }
        }
        const auto t_distances = std::chrono::steady_clock::now();
        std::uint64_t copied[2] = {0, 0}, repaired[2] = {0, 0}, in_full[2] = {0, 0};
        double rules_written_seconds = 0;  // of the rule tables' time, in the sink (made residual, compressed, written)
        if constexpr (R::kCountingRules) {
            RuleTableSolver<R> rules(m, finished_, finished_rules_, phase_seeds, progress);
            if (phase_seeds.needed()) {
                std::vector<std::span<const ValueCode>> values;
                std::vector<BigArray<std::uint16_t>> dtc;
                for (int s = 0; s < solver.num_sides(); ++s) {
                    values.emplace_back(solver.side(s).value.data(), solver.side(s).value.size());
                    dtc.push_back(solver.release_dtc(s));
                }
                rules.use_game(std::move(values), std::move(dtc));
            }
            solver.release_dtc();  // (when no rule set solves phases, DTC is not needed)
            auto written = rules.solve([&](const Material& x, format::Metric metric, BigArray<ValueCode> values) -> format::Status {
                const auto t_sink = std::chrono::steady_clock::now();
                struct AddTime {
                    double& total;
                    std::chrono::steady_clock::time_point start;
                    ~AddTime() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
                } add_time{rules_written_seconds, t_sink};
                if (read_later(x) && metric != format::Metric::ffjd16) finished_.add_fresh(x, rule_set_of(metric), values);
                // Outside the counting classes a capture position's rule value is its captures'
                // (probe/rule_captures.hpp): don't care, filled as WDL is (KMvKKM.fmjd: 7.6 MB
                // -> 1.3 MB; BENCHMARKS.md, "Session 9").
                bool residual = false;
                if (rule_captures_dont_care(x)) {
                    const auto flags = capture_flags_of(solver, x);
                    if (flags.size() != values.size()) return format::Status(Error{"no capture flags for " + x.name()});
                    // Stored as exceptions to the conversion code of the slice's DTW and DTC
                    // (docs/FORMAT.md): the game's DTC gave most of these thresholds.
                    const std::span<const ValueCode> codes = rules.conversion_codes(x);
                    const std::span<const ValueCode> game(solver.side(solver.side_of(x)).value);
                    if (metric != format::Metric::ffjd16 && codes.size() == values.size() && game.size() == values.size()) {
                        parallel_for(values.size(), [&](std::uint64_t i) {
                            // The entries of the DTW and DTC files at a quiet position (write_distances).
                            values[i] = flags[i] ? std::uint16_t{0}
                                                 : format::residual_entry(values[i], static_cast<std::uint16_t>(distance_of(game[i])),
                                                                          static_cast<std::uint16_t>(distance_of(codes[i])));
                        });
                        residual = true;
                    } else {
                        fill_dont_care(values, flags, kValueDraw);
                    }
                }
                auto w = write_table(x, metric, values, residual);
                if (!w) return format::Status(Error{w.error(), w.error_kind()});
                bytes += *w;
                if (read_later(x) && has_class_thresholds(x)) finished_rules_.adopt(x, metric, std::move(values));
                return {};
            });
            if (!written) return Error{written.error(), written.error_kind()};
            for (RuleSet r : {RuleSet::fmjd, RuleSet::ffjd}) {
                copied[r == RuleSet::fmjd ? 0 : 1] = rules.copied_from_game(r);
                repaired[r == RuleSet::fmjd ? 0 : 1] = rules.repaired(r);
                in_full[r == RuleSet::fmjd ? 0 : 1] = rules.scopes_solved_in_full(r);
            }
            phase_seeds.release();
        }
        solver.release_dtc();
        const auto t_rules = std::chrono::steady_clock::now();
        // WDL last: a slice counts as present only when all its files are.
        {
            auto w = write_wdl(solver);
            if (!w) return Error{w.error(), w.error_kind()};
            bytes += *w;
        }
        const auto t_end = std::chrono::steady_clock::now();
        const auto seconds = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
        const double secs = seconds(t0, t_end);
        ++summary_.slices_generated;
        summary_.positions += real_positions;
        summary_.entries += positions;
        summary_.bytes_written += bytes;
        // Where the time went: reading the inputs not already in memory, the game-theoretic solve
        // (WDL, DTW, DTC), writing DTC and DTW, the rule tables (solved and written; variants with
        // counting rules), WDL.
        const auto share = [&](std::uint64_t n) { return 100.0 * static_cast<double>(n) / static_cast<double>(positions); };
        // How each rule set's phases came from the game's DTC: copied whole, repaired, or (a
        // level whose repair would have grown too large) solved in full.
        const auto from_dtc = [&](int k) {
            if constexpr (R::kCountingRules)
                if (count_class(m, k == 0 ? RuleSet::fmjd : RuleSet::ffjd) != CountClass::none)
                    return std::string("a counting class, solved in full");
            char part[96];
            std::snprintf(part, sizeof part, "from DTC: %.0f%% copied, %.1f%% repaired", share(copied[k]), share(repaired[k]));
            std::string out = part;
            if (in_full[k]) out += ", " + std::to_string(in_full[k]) + (in_full[k] == 1 ? " level" : " levels") + " solved in full";
            return out;
        };
        PartSeconds parts{{"inputs read", seconds(t0, t_inputs)}, {"solve", seconds(t_inputs, t_theory)}};
        for (const auto& kind : solve_kinds(solver.pass_seconds(), seconds(t_inputs, t_theory))) parts.push_back(kind);
        parts.emplace_back("distances written", seconds(t_theory, t_distances));
        std::string rules_detail;
        if constexpr (R::kCountingRules) {
            parts.emplace_back("rule tables", seconds(t_distances, t_rules));
            parts.emplace_back("rule tables written", rules_written_seconds);
            rules_detail = "; fmjd " + from_dtc(0) + "; ffjd " + from_dtc(1);
        }
        parts.emplace_back("WDL written", seconds(t_rules, t_end));
        summary_.add_parts(parts);
        char head[256];
        std::snprintf(head, sizeof head, "%s: %llu positions%s in %.2f s (%.2f M/s; ", name.c_str(),
                      static_cast<unsigned long long>(real_positions),
                      real_positions != positions ? (" (" + std::to_string(positions) + " entries)").c_str() : "", secs,
                      real_positions / std::max(secs, 1e-9) / 1e6);
        const std::string line = head + describe_parts(parts, rules_detail) + "), " + std::to_string(bytes) + " bytes";
        std::string summary = line;
        // What went to files (every array of 4 MB or more mapped from one, counted once each).
        if (spill) {
            summary += ", " + std::to_string((MappingCache::instance().spilled_bytes() - spilled_before) >> 20) + " MB of arrays spilled";
            // Of which in files kept from arrays freed before, pages and all (gen/mapping_cache.hpp).
            summary += " (" + std::to_string((MappingCache::instance().reused_file_bytes() - reused_files_before) >> 20) +
                       " MB in kept files)";
        }
        if (const std::uint64_t overflow = MappingCache::instance().overflow_bytes() - overflow_before)
            summary += ", " + std::to_string(overflow >> 20) + " MB mapped from files past the memory bound";
        log(summary);
        return true;
    }

    // The main kinds of pass of a solve (SliceSolver::pass_seconds) and "other", the rest
    // summed with the serial work between passes.
    static PartSeconds solve_kinds(const std::vector<std::pair<std::string, double>>& passes, double total) {
        PartSeconds out;
        double shown = 0;
        for (const char* kind : kSolveKinds) {
            for (const auto& [name, secs] : passes) {
                if (name != kind) continue;
                out.emplace_back(kind, secs);
                shown += secs;
            }
        }
        out.emplace_back("other", std::max(total - shown, 0.0));
        return out;
    }

    // The solver's capture flags of one side of the slice (m or its mirror).
    static std::span<const std::uint8_t> capture_flags_of(const SliceSolver<R>& solver, const Material& m) {
        for (int s = 0; s < solver.num_sides(); ++s)
            if (solver.side(s).index.material() == m) return {solver.side(s).capture.data(), solver.side(s).capture.size()};
        return {};
    }

    // Capture positions are stored as "don't care" (gen/dont_care.hpp); readers resolve them.
    // The solver's seed pass flagged them.
    Expected<std::uint64_t> write_distances(const Material& m, std::span<const ValueCode> value,
                                            std::span<const std::uint16_t> dtc, std::span<const std::uint8_t> captures) {
        BigArray<std::uint16_t> out(dtc.size());  // written in parallel below
        parallel_for(out.size(), [&](std::uint64_t i) { out[i] = dtc[i]; });
        fill_dont_care(out, captures);
        auto w = write_table(m, format::Metric::dtc, out);
        if (!w) return Error{w.error(), w.error_kind()};
        parallel_for(out.size(), [&](std::uint64_t i) { out[i] = static_cast<std::uint16_t>(distance_of(value[i])); });
        fill_dont_care(out, captures);
        auto w2 = write_table(m, format::Metric::dtw, out);
        if (!w2) return Error{w2.error(), w2.error_kind()};
        return *w + *w2;
    }
    // The WDL tables of the slice's sides, compressed first so that the side that would cost more
    // on disk can be the one derived (when allowed). Deterministic: the compressed sizes do not
    // depend on the number of threads.
    Expected<std::uint64_t> write_wdl(const SliceSolver<R>& solver) {
        std::vector<format::PreparedTable> prepared;
        for (int s = 0; s < solver.num_sides(); ++s) {
            const auto& sd = solver.side(s);
            BigArray<std::uint16_t> wdl(sd.value.size());  // written in parallel below
            parallel_for(wdl.size(), [&](std::uint64_t i) { wdl[i] = static_cast<std::uint16_t>(wdl_of(sd.value[i])); });
            fill_dont_care(wdl, sd.capture, static_cast<std::uint16_t>(Wdl::draw));
            auto p = format::prepare_table(table_info(sd.index.material(), format::Metric::wdl), wdl,
                                           write_options(format::Metric::wdl));
            if (!p) return Error{"writing " + sd.index.material().name() + ": " + p.error(), p.error_kind()};
            prepared.push_back(std::move(*p));
        }
        int derived = -1;
        if (o_.wdl != WdlStorage::both_sides && solver.num_sides() == 2)
            derived = side_to_derive(o_.wdl, {prepared[0].file_bytes(), prepared[1].file_bytes()},
                                     {wdl_derivable(solver.side(0).index.material()),
                                      wdl_derivable(solver.side(1).index.material())},
                                     o_.wdl_balanced_min_bytes);
        // The stored side first: however the run stops, at most one side of the pair is derived.
        std::uint64_t bytes = 0;
        std::vector<int> order;
        for (int s = 0; s < solver.num_sides(); ++s)
            if (s != derived) order.push_back(s);
        if (derived >= 0) order.push_back(derived);
        for (int s : order) {
            const Material m = solver.side(s).index.material();
            const auto path = o_.out_dir / format::file_name(m.name(), format::Metric::wdl);
            auto w = s == derived ? format::write_derived_table(path, table_info(m, format::Metric::wdl),
                                                                solver.side(s).value.size(),
                                                                write_options(format::Metric::wdl))
                                  : format::write_prepared(path, prepared[s]);
            if (!w) return Error{"writing " + m.name() + ": " + w.error(), w.error_kind()};
            bytes += w->bytes;
        }
        return bytes;
    }
    // Whether m's WDL may be derived: every slice its quiet moves reach stores its WDL, and no
    // derived table on disk rests on m's. The mirror is the other side of the same pair (stored,
    // since at most one side is derived); a promotion slice was finished before m, so its WDL
    // file tells; the slice that promotes into m comes later, but a resumed or repaired folder
    // may hold it already.
    bool wdl_derivable(const Material& m) const {
        if (!may_derive_wdl(m)) return false;
        const auto wdl_info = [&](const Material& x) {
            return format::read_table_info(o_.out_dir / format::file_name(x.name(), format::Metric::wdl));
        };
        for (const Material& x : quiet_successor_materials(m)) {
            if (x == m.mirrored()) continue;
            auto info = wdl_info(x);
            if (!info || info->derived()) return false;
        }
        for (const Material& y : quiet_predecessor_materials(m)) {
            if (y == m.mirrored()) continue;
            if (auto info = wdl_info(y); info && info->derived()) return false;
        }
        return true;
    }

    static format::TableInfo table_info(const Material& m, format::Metric metric) {
        format::TableInfo info{};
        info.variant = R::kId;
        info.rules_fingerprint = rules_fingerprint<R>();
        info.wk = m.wk;
        info.wm = m.wm;
        info.bk = m.bk;
        info.bm = m.bm;
        info.metric = metric;
        info.index_scheme = index_scheme_version<R>();
        return info;
    }
    format::WriteOptions write_options(format::Metric metric) const {
        format::WriteOptions wo;
        if (metric == format::Metric::wdl) {
            // WDL is what engines load and what must stay small: larger blocks at a higher level
            // make it 22% smaller than the defaults (international 2-5 pieces: 27.4 MB instead
            // of 35.1 MB, 26.3 MB with runs between different values filled as draws; BENCHMARKS.md, "Generator"), for
            // about 73 us per block decoded on a probe's cache miss instead of 12.5.
            wo.block_entries = kWdlBlockEntries;
            wo.zstd_level = kWdlZstdLevel;
        }
        if (o_.zstd_level) wo.zstd_level = o_.zstd_level;
        return wo;
    }

    // residual: data are rule thresholds stored as exceptions to the slice's DTW and DTC, written
    // before with the same block size (write_options).
    Expected<std::uint64_t> write_table(const Material& m, format::Metric metric, std::span<const std::uint16_t> data,
                                        bool residual = false) {
        format::TableInfo info = table_info(m, metric);
        info.residual = residual;
        auto r = format::write_table(o_.out_dir / format::file_name(m.name(), metric), info, data, write_options(metric));
        if (!r) return Error{"writing " + m.name() + ": " + r.error(), r.error_kind()};
        return r->bytes;
    }

    const GenerateOptions& o_;
    const GenerateEvents& e_;
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
        if (const double* secs = secs_of(kind)) solve_inner += (solve_inner.empty() ? "" : ", ") + kind + " " + fixed(*secs);
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
