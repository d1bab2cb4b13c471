// dtb verify over one folder (verify_folder.hpp), compiled once for each variant.
#include "dtb/verify/verify_folder.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>

#include "dtb/gen/dependencies.hpp"
#include "dtb/gen/finished_rule_tables.hpp"
#include "dtb/gen/mapping_cache.hpp"
#include "dtb/index/parse_slice.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/verify/folder_check.hpp"
#include "dtb/verify/verify_rules.hpp"
#include "dtb/verify/verify_slice.hpp"

namespace dtb::verify {

// Named, not anonymous: verify_folder<R> captures these, and a unity batch includes this file.
namespace folder_run {

// The findings of one run, told as they come, mismatches past the cap only counted.
class Findings {
  public:
    Findings(FolderReport& report, const VerifyEvents& events) : report_(report), events_(events) {}
    void add(Finding f) {
        std::lock_guard lock(mutex_);
        add_locked(std::move(f));
    }
    void add_mismatch(Finding f) {
        std::lock_guard lock(mutex_);
        if (report_.problems.size() >= kMaxReportedProblems) return;
        add_locked(std::move(f));
    }

  private:
    void add_locked(Finding f) {
        if (events_.found) events_.found(f);
        report_.problems.push_back(std::move(f));
    }
    FolderReport& report_;
    const VerifyEvents& events_;
    std::mutex mutex_;
};

inline Finding unreadable(std::string slice, std::string file, std::string problem) {
    Finding f;
    f.kind = Finding::Kind::unreadable;
    f.slice = std::move(slice);
    f.file = std::move(file);
    f.problem = std::move(problem);
    return f;
}

// Every rule table of the slices re-derived; returns the entries checked.
template <class R>
std::uint64_t verify_rules_of(const VerifyRequest& request, const std::vector<Material>& slices, Findings& findings,
                              const VerifyEvents& events, std::atomic<std::uint64_t>& mismatches) {
    gen::MappingCache memory;  // of the tables' arrays
    gen::FinishedRuleTables<R> tables(request.dir, memory, request.threads);
    std::uint64_t entries = 0;
    for (const Material& m : slices) {
        // The pair, and every slice its captures and promotions lead to (derive_rule_value reads them).
        std::vector<Material> needed{m, m.mirrored()};
        for (const Material& x : gen::inputs_of_pair(m)) needed.push_back(x);
        bool loaded = true;
        for (const Material& x : needed)
            if (auto r = tables.load(x, gen::FinishedRuleTables<R>::Keep::all); !r) {
                findings.add(unreadable(m.name(), {}, r.error()));
                loaded = false;
                break;
            }
        if (!loaded) continue;
        if (events.progress) events.progress(m.name(), VerifyStage::rule_tables, 0, 0);
        entries += verify_rule_tables<R>(
            tables, m,
            [&](const RuleMismatch& x) {
                Finding f;
                f.kind = Finding::Kind::rule_mismatch;
                f.slice = m.name();
                f.file = (request.dir / x.table).string();
                f.index = x.index;
                f.fen = x.fen;
                f.stored_rule = x.stored;
                f.derived_rule = x.derived;
                findings.add_mismatch(std::move(f));
            },
            mismatches);
    }
    return entries;
}

}  // namespace folder_run

template <class R>
Expected<FolderReport> verify_folder(const VerifyRequest& request, const VerifyEvents& events) {
    const std::filesystem::path& dir = request.dir;
    if (!std::filesystem::is_directory(dir)) return Error{"no table folder " + dir.string(), ErrorKind::tables};
    std::set<Material> wanted;  // --only: the slices named and their mirrors
    std::vector<Material> named;
    for (const std::string& name : request.only) {
        const auto m = parse_slice<R>(name);
        if (!m) return Error{"--only: " + m.error(), m.error_kind()};
        named.push_back(*m);
        wanted.insert(*m);
        wanted.insert(m->mirrored());
    }
    FolderCheck folder = check_folder<R>(dir);
    if (folder.slices.empty())
        return Error{"no tables of " + std::string(R::kName) + " in " + dir.string(), ErrorKind::tables};
    if (!wanted.empty()) {
        for (const Material& m : named)
            for (const Material& x : {m, m.mirrored()})
                if (std::find(folder.slices.begin(), folder.slices.end(), x) == folder.slices.end())
                    return Error{"--only: no tables of " + x.name() + " in " + dir.string(), ErrorKind::tables};
        // (Every file's checksum was read: a wanted slice is complete only with its inputs sound.)
        std::erase_if(folder.slices, [&](const Material& m) { return !wanted.count(m); });
        std::erase_if(folder.problems, [&](const FolderProblem& x) {
            const auto m = Material::parse(x.slice);
            return m && !wanted.count(*m);
        });
        folder.files = 0;
        for (const Material& m : folder.slices) folder.files += static_cast<int>(gen::slice_metrics_of<R>(m).size());
    }
    FolderReport report;
    report.variant = std::string(R::kName);
    report.db = dir.string();
    report.files = folder.files;
    report.slices = folder.slices.size();
    report.full = request.full;
    folder_run::Findings findings(report, events);
    for (const FolderProblem& x : folder.problems) findings.add(folder_run::unreadable(x.slice, x.file, x.problem));
    if (!request.full) return report;

    // The complete slices are re-derived (folder_check.hpp); the others are listed.
    std::vector<Material> to_derive;
    for (const Material& m : folder.slices) {
        if (folder.complete.count(m)) {
            to_derive.push_back(m);
            continue;
        }
        report.not_checked.push_back(m.name());
        if (events.found) {
            Finding f;
            f.kind = Finding::Kind::not_checked;
            f.slice = m.name();
            events.found(f);
        }
    }
    std::atomic<std::uint64_t> mismatches{0};
    FullTables<R> tables(dir, request.threads);
    std::uint64_t all_entries = 0, entries_before = 0;
    for (const Material& m : to_derive) all_entries += SliceIndex<R>(m).size();
    for (const Material& m : to_derive) {
        auto on_mismatch = [&](const Mismatch& x) {
            Finding f;
            f.kind = Finding::Kind::value_mismatch;
            f.slice = x.slice;
            f.file = (dir / format::file_name(x.slice, format::Metric::wdl)).string();
            f.index = x.index;
            f.fen = x.fen;
            f.stored = x.stored;
            f.derived = x.derived;
            findings.add_mismatch(std::move(f));
        };
        auto progress = [&](std::uint64_t done, std::uint64_t total) {
            if (events.overall) events.overall(entries_before + done, all_entries);
            if (events.progress) events.progress(m.name(), VerifyStage::values, done, total);
        };
        const SliceIndex<R> index(m);
        progress(0, index.size());
        auto r = verify_slice_full<R>(tables, m, on_mismatch, mismatches, progress);
        if (!r) {
            findings.add(folder_run::unreadable(m.name(), {}, r.error()));
            continue;
        }
        report.entries += *r;
        report.positions += index.num_positions();
        entries_before += index.size();
    }
    if constexpr (R::kCountingRules) {
        static_assert(!SliceIndex<R>::kMirror, "rule entries are counted as positions");
        const std::uint64_t rule_entries =
            folder_run::verify_rules_of<R>(request, to_derive, findings, events, mismatches);
        report.entries += rule_entries;
        report.positions += rule_entries;
    }
    report.mismatches = mismatches.load();
    return report;
}

template Expected<FolderReport> verify_folder<International>(const VerifyRequest&, const VerifyEvents&);
template Expected<FolderReport> verify_folder<Turkish>(const VerifyRequest&, const VerifyEvents&);

}  // namespace dtb::verify
