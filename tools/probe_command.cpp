// dtb probe: the value of positions, every legal move with its value, and the principal
// variation, read from the tables through the probe library (probe/probe.hpp).
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dtb/json/dump.hpp"
#include "dtb/json/probe_json.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/tools/arguments.hpp"
#include "dtb/tools/commands.hpp"
#include "dtb/tools/move_line.hpp"

namespace dtb::tools {

namespace {

using probe::MoveValue;
using probe::Result;
using probe::Status;

int exit_code_of(Status s) {
    return s == Status::illegal ? kExitBadInput : kExitTables;
}

std::string value_text(Wdl w, int dtw) {
    if (w == Wdl::draw) return "draw";
    if (w == Wdl::loss && dtw == 0) return "loss (no legal move)";
    const std::string v = w == Wdl::win ? "win" : "loss";
    return dtw > 0 ? v + " in " + std::to_string(dtw) + (dtw == 1 ? " ply" : " plies") : v;
}

std::string column(const std::string& s, std::size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}
std::string right(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

void print_text(const probe::Tablebase& tb, const Position& p, const probe::Analysis& a, const std::string& variant) {
    const Result& r = a.result;
    const char* side = p.side_to_move == Color::white ? "White" : "Black";
    std::ostringstream out;
    out << tb.to_fen(p) << "  (" << variant << ")\n";
    out << "  " << side << " to move: " << value_text(r.wdl, r.dtw);
    if (r.wdl != Wdl::draw && r.dtw > 0) {
        out << "  (DTW " << r.dtw;
        if (r.dtc >= 0) out << ", DTC " << r.dtc;
        out << ")";
    }
    out << "\n";
    // Every move one per line with its distances, best first (wins, draws, losses); a draw has
    // none.
    std::size_t width = 6;
    for (const MoveValue& m : a.moves) width = std::max(width, m.text.size() + 2);
    if (!a.moves.empty())
        out << "  " << column("move", width) << column("result", 7) << right("DTW", 4) << right("DTC", 5) << "\n";
    for (const MoveValue& m : a.moves) {
        const bool decided = m.wdl != Wdl::draw;
        out << "  " << column(m.text, width) << column(std::string(to_string(m.wdl)), 7)
            << right(decided && m.dtw >= 0 ? std::to_string(m.dtw) : "-", 4)
            << right(decided && m.dtc >= 0 ? std::to_string(m.dtc) : "-", 5) << "\n";
    }
    if (!a.pv.empty()) out << "  PV: " << numbered_line(a.pv, p.side_to_move) << "\n";
    std::cout << out.str() << std::flush;
}

void print_json(const probe::Tablebase& tb, const Position& p, const probe::Analysis& a) {
    std::cout << json::dump(json::analysis_json(tb, p, a)) << "\n" << std::flush;
}

int run_probe(const ProbeOptions& o) {
    probe::Options options;
    std::vector<std::string> fens = o.fen_options;
    fens.insert(fens.end(), o.fens.begin(), o.fens.end());
    if (fens.empty()) {
        print_error("probe", "give a position: dtb probe FEN (or --fen FEN)");
        return kExitBadInput;
    }
    options.variant =
        variant_for("probe", o.variant, o.variant_given, o.db.empty() ? std::string() : o.db.front(), fens);
    const std::string variant(variant_name(options.variant));
    options.cache_mb = o.cache_mb;
    if (o.db.empty())
        options.directories.push_back(table_folder({}, o.tables, variant));
    else
        for (const std::string& d : o.db) options.directories.emplace_back(d);
    // The positions are read before the tables are opened: malformed input is exit 2 whatever
    // state the tables are in.
    int code = kExitOk;
    std::vector<Position> positions;
    for (const std::string& fen : fens) {
        auto p = with_variant(options.variant, [&](auto v) { return parse_fen<decltype(v)>(fen); });
        if (!p) {
            print_error("probe", p.error());
            if (code == kExitOk) code = kExitBadInput;
            continue;
        }
        positions.push_back(*p);
    }
    if (positions.empty()) return code;
    auto tb = probe::Tablebase::open(options);
    if (!tb) {
        print_error("probe", tb.error());
        return kExitTables;
    }
    for (const Position& p : positions) {
        const probe::Analysis a = tb->analyse(p);
        if (!a.result.ok()) {
            print_error("probe", probe_failure_text(*tb, p, a.result, options.variant, options.directories.front()));
            if (code == kExitOk) code = exit_code_of(a.result.status);
            continue;
        }
        if (o.json)
            print_json(*tb, p, a);
        else
            print_text(*tb, p, a, variant);
    }
    return code;
}

}  // namespace

void add_probe_command(CLI::App& app, ProbeOptions& o, std::function<int()>& action) {
    auto* cmd = app.add_subcommand("probe", "Value, moves and principal variation of positions");
    add_db_option(cmd, o.db,
                  "Table folder of one variant, searched in order when repeated (default <tables root>/<variant>)")
        ->allow_extra_args(false);
    add_tables_option(cmd, o.tables);
    add_variant_option(cmd, o.variant,
                       "international or turkish (default: the folder's own with --db, else the FEN's: squares a1-h8 "
                       "are Turkish)");
    cmd->add_flag("--json", o.json, "One JSON object per position per line");
    cmd->add_option("--cache-mb", o.cache_mb, "Block cache budget in MB")
        ->check(integer_in(0, 1 << 30))
        ->default_val(64);
    cmd->add_option("fen", o.fens, "Positions in PDN FEN (W:W31,K46:B1,K5)");
    cmd->add_option("--fen", o.fen_options, "A position, as the positional FENs (repeatable)")->allow_extra_args(false);
    cmd->footer(
        "Prints, per position: the value for the side to move with DTW and DTC (plies),\n"
        "every legal move best first with the result and distances of the side that\n"
        "plays it, and the principal variation. --json, one object per line:\n"
        "  {\"fen\",\"variant\",\"wdl\",\"dtw\",\"dtc\",\n"
        "   \"moves\":[{\"move\",\"wdl\",\"dtw\",\"dtc\"},...],\"pv\":[...]}\n"
        "  distances are null for draws.\n"
        "Exit codes: 0 ok; 2 malformed FEN or illegal position; 3 position outside the\n"
        "tables, or a table missing or corrupt. Every position is tried; the first\n"
        "failure sets the exit code.");
    cmd->callback([&o, &action, cmd]() {
        o.variant_given = cmd->count("--variant") > 0;
        action = [&o]() { return run_probe(o); };
    });
}

}  // namespace dtb::tools
