// dtb verify: checksums of every table (fast), and with --full a re-derivation of every stored
// value from its successors (verify/verify_folder.hpp); this file parses and prints.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "dtb/json/dump.hpp"
#include "dtb/json/verify_json.hpp"
#include "dtb/tools/arguments.hpp"
#include "dtb/tools/commands.hpp"
#include "dtb/verify/verify_folder.hpp"

namespace dtb::tools {

namespace {

template <class R>
int run_verify(const VerifyOptions& o) {
    verify::VerifyRequest request;
    request.dir = table_folder(o.db, o.tables, R::kName);
    request.full = o.full;
    request.threads = o.threads;
    request.only = o.only;
    const bool tty = isatty(2);
    verify::VerifyEvents events;
    // Each finding printed at once, flushed: what was found stays on record if the run is cut short.
    if (!o.json)
        events.found = [](const verify::Finding& f) { std::cout << escape_text(verify::finding_line(f)) << std::endl; };
    // Each slice's share, and the whole run's with an estimate of the time left (from the rate
    // since the first values were checked).
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    std::uint64_t all_done = 0, all_total = 0;
    events.overall = [&](std::uint64_t done, std::uint64_t total) {
        all_done = done;
        all_total = total;
    };
    events.progress = [&, tty](const std::string& slice, verify::VerifyStage stage, std::uint64_t done,
                               std::uint64_t total) {
        if (stage != verify::VerifyStage::values) {
            std::fprintf(stderr, "%sverify %s rule tables\n", tty ? "\r\033[K" : "", slice.c_str());
            return;
        }
        const double secs = std::chrono::duration<double>(Clock::now() - start).count();
        const double share = static_cast<double>(all_done) / static_cast<double>(std::max<std::uint64_t>(all_total, 1));
        char eta[48] = "";
        if (share > 0.001 && secs > 1) std::snprintf(eta, sizeof eta, ", ETA %.0f s", secs * (1 - share) / share);
        std::fprintf(stderr, "%sverify %s %5.1f%%; all %5.1f%% of %.3g M entries%s%s", tty ? "\r\033[K" : "",
                     slice.c_str(),
                     100.0 * static_cast<double>(done) / static_cast<double>(std::max<std::uint64_t>(total, 1)),
                     100.0 * share, static_cast<double>(all_total) / 1e6, eta, tty ? "" : "\n");
    };
    auto report = verify::verify_folder<R>(request, events);
    if (tty && o.full) std::cerr << "\r\033[K";
    if (!report) {
        print_error("verify", report.error());
        return exit_code_of(report.error_kind());
    }
    if (o.json)
        std::cout << json::dump(with_version(json::verify_report_json(*report))) << "\n";
    else
        std::cout << verify::summary_line(*report) << "\n";
    return report->ok() ? kExitOk : kExitCheckFailed;
}

}  // namespace

void add_verify_command(CLI::App& app, VerifyOptions& o, std::function<int()>& action) {
    auto* cmd = app.add_subcommand("verify", "Check table checksums; with --full re-derive every value");
    add_db_option(cmd, o.db);
    add_tables_option(cmd, o.tables);
    add_variant_option(cmd, o.variant, "international or turkish (default: the folder's own)");
    cmd->add_flag("--full", o.full, "Re-derive every stored value from its successors");
    cmd->add_flag("--json", o.json, "Print one JSON object");
    add_threads_option(cmd, o.threads);
    cmd->add_option("--only", o.only, "Check only these slices and their mirrors (names like KKMvK)");
    cmd->callback([&o, &action, cmd]() {
        o.variant_given = cmd->count("--variant") > 0;
        action = [&o]() {
            return with_variant(variant_for("verify", o.variant, o.variant_given, o.db),
                                [&](auto v) { return run_verify<decltype(v)>(o); });
        };
    });
}

}  // namespace dtb::tools
