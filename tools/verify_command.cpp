// dtb verify: checksums of every table (fast), and with --full a re-derivation of every stored
// value from its successors by forward move generation (verify/verify_slice.hpp).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>

#include "dtb/gen/finished_tables.hpp"
#include "dtb/gen/rule_tables.hpp"
#include "dtb/probe/derived_wdl.hpp"
#include "dtb/probe/open_table.hpp"
#include "dtb/tools/arguments.hpp"
#include "dtb/tools/commands.hpp"
#include "dtb/verify/folder_check.hpp"
#include "dtb/verify/verify_rules.hpp"
#include "dtb/verify/verify_slice.hpp"

namespace dtb::tools {

namespace {

// A line of the report, flushed at once: what was found stays on record if the run is cut short.
void print_line(const std::string& line) {
    std::cout << escape_text(line) << std::endl;
}

nlohmann::json rule_value_json(ValueCode v) {
    return nlohmann::json{{"wdl", std::string(to_string(wdl_of(v)))}, {"threshold", distance_of(v)}};
}

// --full, rule tables (verify/verify_rules.hpp): every threshold from its successors' thresholds.
template <class R>
std::uint64_t verify_rules(const std::filesystem::path& dir, const std::vector<Material>& slices,
                           const VerifyOptions& o, nlohmann::json& problems, std::atomic<std::uint64_t>& mismatches) {
    gen::MappingCache memory;  // of the tables' arrays
    gen::FinishedRuleTables<R> tables(dir, memory, o.threads);
    std::mutex report_mutex;
    std::uint64_t positions = 0;
    for (const Material& m : slices) {
        // The pair, and every slice its captures and promotions lead to (derive_rule_value reads them).
        std::vector<Material> needed{m, m.mirrored()};
        for (const Material& x : gen::inputs_of_pair(m)) needed.push_back(x);
        bool loaded = true;
        for (const Material& x : needed)
            if (auto r = tables.load(x, gen::FinishedRuleTables<R>::Keep::all); !r) {
                problems.push_back({{"slice", m.name()}, {"problem", r.error()}});
                if (!o.json) print_line("FAIL " + m.name() + ": " + r.error());
                loaded = false;
                break;
            }
        if (!loaded) continue;
        std::fprintf(stderr, "verify %s rule tables\n", m.name().c_str());
        positions += verify::verify_rule_tables<R>(
            tables, m,
            [&](const verify::RuleMismatch& x) {
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
                              << to_string(wdl_of(x.derived)) << " threshold " << distance_of(x.derived) << std::endl;
            },
            mismatches);
    }
    return positions;
}

template <class R>
int run_verify(const VerifyOptions& o) {
    const std::filesystem::path dir =
        o.db.empty() ? std::filesystem::path("data/tb") / std::string(R::kName) : std::filesystem::path(o.db);
    if (!std::filesystem::is_directory(dir)) {
        print_error("verify", "no table folder " + dir.string());
        return kExitTables;
    }
    const verify::FolderCheck folder = verify::check_folder<R>(dir);
    if (folder.slices.empty()) {
        print_error("verify", "no tables of " + std::string(R::kName) + " in " + dir.string());
        return kExitTables;
    }
    nlohmann::json problems = nlohmann::json::array();
    for (const verify::FolderProblem& x : folder.problems) {
        nlohmann::json j{{"slice", x.slice}, {"problem", x.problem}};
        if (!x.file.empty()) j["file"] = x.file;
        problems.push_back(j);
        if (!o.json) print_line("FAIL " + (x.file.empty() ? x.slice : x.file) + ": " + x.problem);
    }
    const std::vector<Material>& slices = folder.slices;
    const int files = folder.files;
    // Entries re-derived, and the positions they stand for: the same in international; in a
    // Turkish mirror index an entry stands for a position and its mirror (index/slice_index.hpp).
    std::uint64_t entries = 0, positions = 0;
    std::atomic<std::uint64_t> mismatches{0};
    // --full re-derives the complete slices (verify/folder_check.hpp); the others are listed.
    nlohmann::json not_checked = nlohmann::json::array();
    std::vector<Material> to_derive;
    for (const Material& m : slices) {
        if (folder.complete.count(m))
            to_derive.push_back(m);
        else if (o.full) {
            not_checked.push_back(m.name());
            if (!o.json)
                print_line("SKIP " + m.name() + ": not re-derived, as it or a slice it needs is missing or invalid");
        }
    }
    if (o.full) {
        verify::FullTables<R> tables(dir, o.threads);
        const bool tty = isatty(2);
        for (const Material& m : to_derive) {
            auto report = [&](const verify::Mismatch& x) {
                if (problems.size() >= 100) return;
                auto values = [](const verify::StoredValues& v) {
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
                              << x.derived.dtc << std::endl;
            };
            auto progress = [&](std::uint64_t done, std::uint64_t total) {
                std::fprintf(stderr, "%sverify %s %5.1f%%%s", tty ? "\r\033[K" : "", m.name().c_str(),
                             100.0 * done / std::max<std::uint64_t>(total, 1), tty ? "" : "\n");
            };
            auto r = verify::verify_slice_full<R>(tables, m, report, mismatches, progress);
            if (!r) {
                problems.push_back({{"slice", m.name()}, {"problem", r.error()}});
                if (!o.json) print_line("FAIL " + m.name() + ": " + r.error());
                continue;
            }
            entries += *r;
            positions += SliceIndex<R>(m).num_positions();
        }
        if constexpr (R::kCountingRules) {
            static_assert(!SliceIndex<R>::kMirror, "rule entries are counted as positions");
            const std::uint64_t rule_entries = verify_rules<R>(dir, to_derive, o, problems, mismatches);
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
                                    {"problems", problems},
                                    {"not_checked", not_checked}}
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
    cmd->add_option("--variant", o.variant, "international or turkish (default: the folder's own)")
        ->check(CLI::IsMember({"international", "turkish"}))
        ->default_val("international");
    cmd->add_flag("--full", o.full, "Re-derive every stored value from its successors");
    cmd->add_flag("--json", o.json, "Print one JSON object");
    add_threads_option(cmd, o.threads);
    cmd->callback([&o, &action, cmd]() {
        o.variant_given = cmd->count("--variant") > 0;
        action = [&o]() {
            return with_variant(variant_for("verify", o.variant, o.variant_given, o.db),
                                [&](auto v) { return run_verify<decltype(v)>(o); });
        };
    });
}

}  // namespace dtb::tools
