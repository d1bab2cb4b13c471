// dtb stats: per slice and side to move, value counts, longest wins and losses with an example
// position, and bytes on disk (verify/table_stats.hpp computes, this file prints).
#include <cstdio>
#include <iostream>
#include <sstream>

#include "dtb/json/dump.hpp"
#include "dtb/json/stats_json.hpp"
#include "dtb/tools/arguments.hpp"
#include "dtb/tools/commands.hpp"
#include "dtb/verify/table_stats.hpp"

namespace dtb::tools {

namespace {

std::string plies_text(const verify::Longest& l) {
    return l.plies < 0 ? "-" : std::to_string(l.plies);
}

void print_text(const std::vector<verify::SliceStats>& stats, const std::string& variant,
                const std::filesystem::path& dir) {
    std::ostringstream out;
    out << variant << " tables in " << dir.string() << ": " << stats.size() / 2
        << " slices, each with White and with Black to move\n"
        << "Counts are from the side to move's point of view; \"quiet\": the side to move has no "
           "capture.\n"
        << "Distances in plies; the longest win and loss in DTW and in DTC. Black to move is "
           "served by the\n"
        << "files of the mirrored slice, whose bytes are shown.\n\n";
    char line[512];
    std::snprintf(line, sizeof line, "%-10s %-5s %12s %11s %11s %11s %11s %11s %11s %5s %5s %5s %5s %10s %8s\n",
                  "slice", "stm", "positions", "win", "draw", "loss", "quiet win", "quiet draw", "quiet loss", "DTW+",
                  "DTW-", "DTC+", "DTC-", "bytes", "bits/pos");
    out << line;
    for (const verify::SliceStats& s : stats) {
        const auto w = static_cast<int>(Wdl::win), d = static_cast<int>(Wdl::draw), l = static_cast<int>(Wdl::loss);
        std::snprintf(line, sizeof line,
                      "%-10s %-5s %12llu %11llu %11llu %11llu %11llu %11llu %11llu %5s %5s %5s %5s "
                      "%10llu %8.3f\n",
                      s.material.name().c_str(), s.side_to_move == Color::white ? "white" : "black",
                      static_cast<unsigned long long>(s.positions), static_cast<unsigned long long>(s.count[w]),
                      static_cast<unsigned long long>(s.count[d]), static_cast<unsigned long long>(s.count[l]),
                      static_cast<unsigned long long>(s.quiet[w]), static_cast<unsigned long long>(s.quiet[d]),
                      static_cast<unsigned long long>(s.quiet[l]), plies_text(s.dtw_win).c_str(),
                      plies_text(s.dtw_loss).c_str(), plies_text(s.dtc_win).c_str(), plies_text(s.dtc_loss).c_str(),
                      static_cast<unsigned long long>(s.bytes),
                      s.positions ? 8.0 * static_cast<double>(s.bytes) / static_cast<double>(s.positions) : 0.0);
        out << line;
    }
    out << "\nExamples (the first position, by index, with the longest distance):\n";
    for (const verify::SliceStats& s : stats) {
        const char* stm = s.side_to_move == Color::white ? "white" : "black";
        for (auto [label, longest] : {std::pair{"DTW win ", &s.dtw_win}, std::pair{"DTW loss", &s.dtw_loss},
                                      std::pair{"DTC win ", &s.dtc_win}, std::pair{"DTC loss", &s.dtc_loss}}) {
            if (longest->plies < 0) continue;
            std::snprintf(line, sizeof line, "%-10s %-5s %s %4d  %s\n", s.material.name().c_str(), stm, label,
                          longest->plies, longest->fen.c_str());
            out << line;
        }
    }
    std::cout << out.str() << std::flush;
}

template <class R>
int run_stats(const StatsOptions& o) {
    const std::filesystem::path dir = table_folder(o.db, o.tables, R::kName);
    auto stats = verify::table_stats<R>(dir, o.threads);
    if (!stats) {
        print_error("stats", stats.error());
        return kExitTables;
    }
    if (o.json)
        std::cout << json::dump(json::stats_json(*stats)) << "\n" << std::flush;
    else
        print_text(*stats, std::string(R::kName), dir);
    return kExitOk;
}

}  // namespace

void add_stats_command(CLI::App& app, StatsOptions& o, std::function<int()>& action) {
    auto* cmd = app.add_subcommand("stats", "Value counts, longest wins and losses, and sizes, per slice");
    add_db_option(cmd, o.db);
    add_tables_option(cmd, o.tables);
    add_variant_option(cmd, o.variant, "international or turkish (default: the folder's own)");
    cmd->add_flag("--json", o.json, "Print one JSON object");
    add_threads_option(cmd, o.threads);
    cmd->callback([&o, &action, cmd]() {
        o.variant_given = cmd->count("--variant") > 0;
        action = [&o]() {
            return with_variant(variant_for("stats", o.variant, o.variant_given, o.db),
                                [&](auto v) { return run_stats<decltype(v)>(o); });
        };
    });
}

}  // namespace dtb::tools
