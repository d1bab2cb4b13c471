// dtb verify: checksums of every table (fast), and with --full a re-derivation of every stored
// value from its successors by forward move generation (gen/verify.hpp).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "gen/finished_tables.hpp"
#include "gen/rule_tables.hpp"
#include "gen/verify.hpp"
#include "gen/verify_rules.hpp"
#include "probe/open_table.hpp"
#include "probe/derived_wdl.hpp"
#include "tools/commands.hpp"

namespace dtb::tools {

namespace {

nlohmann::json rule_value_json(ValueCode v) {
    return nlohmann::json{{"wdl", std::string(to_string(wdl_of(v)))}, {"threshold", distance_of(v)}};
}

// --full, rule tables (gen/verify_rules.hpp): every threshold from its successors' thresholds.
template <class R>
std::uint64_t verify_rules(const std::filesystem::path& dir, const std::vector<Material>& slices,
                           const VerifyOptions& o, nlohmann::json& problems, std::atomic<std::uint64_t>& mismatches) {
    gen::FinishedRuleTables<R> tables(dir);
    std::mutex report_mutex;
    std::uint64_t positions = 0;
    for (const Material& m : slices) {
        std::vector<Material> needed{m, m.mirrored()};
        for (const Material& side : {m, m.mirrored()})
            for (const Material& x : gen::FinishedTables<R>::capture_materials(side)) needed.push_back(x);
        bool loaded = true;
        for (const Material& x : needed)
            if (auto r = tables.load(x, gen::FinishedRuleTables<R>::Keep::all); !r) {
                problems.push_back({{"slice", m.name()}, {"problem", r.error()}});
                if (!o.json) std::cout << "FAIL " << m.name() << ": " << r.error() << "\n";
                loaded = false;
                break;
            }
        if (!loaded) continue;
        std::fprintf(stderr, "verify %s rule tables\n", m.name().c_str());
        positions += gen::verify_rule_tables<R>(tables, m, [&](const gen::RuleMismatch& x) {
            std::lock_guard lock(report_mutex);
            if (problems.size() >= 100) return;
            problems.push_back({{"slice", m.name()},
                                {"file", (dir / x.table).string()},
                                {"index", x.index},
                                {"fen", x.fen},
                                {"stored", rule_value_json(x.stored)},
                                {"derived", rule_value_json(x.derived)}});
            if (!o.json)
                std::cout << "FAIL " << x.table << " index " << x.index << " " << x.fen << ": stored "
                          << to_string(wdl_of(x.stored)) << " threshold " << distance_of(x.stored) << ", derived "
                          << to_string(wdl_of(x.derived)) << " threshold " << distance_of(x.derived) << "\n";
        }, mismatches);
    }
    return positions;
}

template <class R>
int run_verify(const VerifyOptions& o) {
    const std::filesystem::path dir = o.db.empty() ? std::filesystem::path("data/tb") / std::string(R::kName) : std::filesystem::path(o.db);
    if (!std::filesystem::is_directory(dir)) {
        std::cerr << "dtb verify: no table folder " << dir.string() << "\n";
        return kExitTables;
    }
    nlohmann::json problems = nlohmann::json::array();
    std::vector<Material> slices;
    int files = 0;
    // Every material whose WDL file is in the folder, in generation order.
    for (const Material& m : all_materials<R>(12)) {
        bool any = false;
        for (auto metric : {format::Metric::wdl, format::Metric::dtw, format::Metric::dtc})
            any = any || std::filesystem::exists(dir / format::file_name(m.name(), metric));
        if (!any) continue;
        slices.push_back(m);
        const std::uint64_t entries = SliceIndex<R>(m).size();
        std::vector<format::Metric> metrics{format::Metric::wdl, format::Metric::dtw, format::Metric::dtc};
        if constexpr (R::kCountingRules)
            for (auto metric : gen::rule_metrics_of(m)) metrics.push_back(metric);
        for (auto metric : metrics) {
            const auto path = dir / format::file_name(m.name(), metric);
            ++files;
            auto reader = format::TableReader::open(path, R::kId, rules_fingerprint<R>());
            std::string problem;
            if (!reader)
                problem = reader.error();
            else if (problem = format::header_problem<R>(reader->info(), m, metric, entries); !problem.empty())
                ;
            else if (auto st = reader->verify_checksums(); !st.ok())
                problem = st.error();
            else if (reader->info().derived())
                problem = derived_wdl_problem(dir, m);
            if (!problem.empty()) {
                problems.push_back({{"file", path.string()}, {"slice", m.name()}, {"problem", problem}});
                if (!o.json) std::cout << "FAIL " << path.string() << ": " << problem << "\n";
            }
        }
    }
    if (slices.empty()) {
        std::cerr << "dtb verify: no tables of " << R::kName << " in " << dir.string() << "\n";
        return kExitTables;
    }
    // Entries re-derived, and the positions they stand for: the same in international; in a
    // Turkish mirror index an entry stands for a position and its mirror (index/slice_index.hpp).
    std::uint64_t entries = 0, positions = 0;
    std::atomic<std::uint64_t> mismatches{0};
    if (o.full && problems.empty()) {
        gen::FullTables<R> tables(dir);
        const bool tty = isatty(2);
        for (const Material& m : slices) {
            auto report = [&](const gen::Mismatch& x) {
                if (problems.size() >= 100) return;
                auto values = [](const gen::StoredValues& v) {
                    return nlohmann::json{{"wdl", std::string(to_string(v.wdl))}, {"dtw", v.dtw}, {"dtc", v.dtc}};
                };
                problems.push_back({{"slice", x.slice},
                                    {"file", (dir / format::file_name(x.slice, format::Metric::wdl)).string()},
                                    {"index", x.index},
                                    {"fen", x.fen},
                                    {"stored", values(x.stored)},
                                    {"derived", values(x.derived)}});
                if (!o.json)
                    std::cout << "FAIL " << x.slice << " index " << x.index << " " << x.fen << ": stored "
                              << to_string(x.stored.wdl) << " dtw " << x.stored.dtw << " dtc " << x.stored.dtc
                              << ", derived " << to_string(x.derived.wdl) << " dtw " << x.derived.dtw << " dtc "
                              << x.derived.dtc << "\n";
            };
            auto progress = [&](std::uint64_t done, std::uint64_t total) {
                std::fprintf(stderr, "%sverify %s %5.1f%%%s", tty ? "\r\033[K" : "", m.name().c_str(),
                             100.0 * done / std::max<std::uint64_t>(total, 1), tty ? "" : "\n");
            };
            auto r = gen::verify_slice_full<R>(tables, m, report, mismatches, progress);
            if (!r) {
                problems.push_back({{"slice", m.name()}, {"problem", r.error()}});
                if (!o.json) std::cout << "FAIL " << m.name() << ": " << r.error() << "\n";
                continue;
            }
            entries += *r;
            positions += SliceIndex<R>(m).num_positions();
        }
        if constexpr (R::kCountingRules) {
            static_assert(!SliceIndex<R>::kMirror, "rule entries are counted as positions");
            const std::uint64_t rule_entries = verify_rules<R>(dir, slices, o, problems, mismatches);
            entries += rule_entries;
            positions += rule_entries;
        }
        if (tty) std::cerr << "\r\033[K";
    }
    const bool ok = problems.empty() && mismatches.load() == 0;
    if (o.json) {
        std::cout << nlohmann::json{{"variant", std::string(R::kName)},
                                    {"db", dir.string()},
                                    {"files", files},
                                    {"slices", slices.size()},
                                    {"full", o.full},
                                    {"positions_checked", positions},
                                    {"entries_checked", entries},
                                    {"mismatches", mismatches.load()},
                                    {"ok", ok},
                                    {"problems", problems}}
                         .dump()
                  << "\n";
    } else {
        std::cout << (ok ? "OK" : "FAILED") << ": " << files << " files, " << slices.size() << " slices";
        if (o.full) {
            std::cout << ", " << positions << " positions re-derived";
            if (entries != positions) std::cout << " (" << entries << " entries)";
            std::cout << ", " << mismatches.load() << " mismatches";
        }
        std::cout << "\n";
    }
    return ok ? kExitOk : kExitCheckFailed;
}

}  // namespace

void add_verify_command(CLI::App& app, VerifyOptions& o, std::function<int()>& action) {
    auto* cmd = app.add_subcommand("verify", "Check table checksums; with --full re-derive every value");
    cmd->add_option("--db", o.db, "Table folder (default data/tb/<variant>)");
    cmd->add_option("--variant", o.variant, "international or turkish")
        ->check(CLI::IsMember({"international", "turkish"}))
        ->default_val("international");
    cmd->add_flag("--full", o.full, "Re-derive every stored value from its successors");
    cmd->add_flag("--json", o.json, "Print one JSON object");
    cmd->add_option("--threads", o.threads, "Threads (default: all cores)");
    cmd->callback([&]() {
        action = [&]() {
            if (o.threads > 0) omp_set_num_threads(o.threads);
            return with_variant(o.variant == "turkish" ? VariantId::turkish : VariantId::international,
                                [&](auto v) { return run_verify<decltype(v)>(o); });
        };
    });
}

}  // namespace dtb::tools
