// dtb adjudicate: a position (--fen) or every game of a PDN file (--pdn) judged under the
// counting rules (adjudicate/adjudicator.hpp).
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/json/dump.hpp"
#include "dtb/json/probe_json.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/tools/adjudicate_game.hpp"
#include "dtb/tools/arguments.hpp"
#include "dtb/tools/commands.hpp"

namespace dtb::tools {

namespace {

using adjudicate::Adjudication;
using adjudicate::Counters;

std::string result_text(Wdl w, int plies) {
    if (w == Wdl::draw) return "draw";
    const std::string v = w == Wdl::win ? "win" : "loss";
    return plies >= 0 ? v + " in " + std::to_string(plies) + (plies == 1 ? " ply" : " plies") : v;
}

void print_position(const probe::Tablebase& tb, const Position& p, const AdjudicateOptions& o, const Adjudication& a) {
    if (o.json) {
        std::cout << json::dump(json::adjudication_json(tb, p, o.rules, a)) << "\n" << std::flush;
        return;
    }
    std::ostringstream out;
    const char* side = p.side_to_move == Color::white ? "White" : "Black";
    out << tb.to_fen(p) << "  (rules " << o.rules << "; reversible " << a.counters.reversible;
    if (a.counters.endgame) out << ", endgame " << *a.counters.endgame;
    if (a.counters.small) out << ", small " << *a.counters.small;
    out << ")\n  " << side << " to move: " << result_text(a.result, a.plies);
    if (!a.plies_known && a.result != Wdl::draw) out << " (plies not searched: too many positions)";
    if (a.rule != adjudicate::DecidingRule::none) out << " by the " << adjudicate::to_string(a.rule) << " rule";
    out << "\n  theoretical: "
        << (a.theoretical_known ? result_text(a.theoretical, a.theoretical_dtw)
                                : std::string("not known (more pieces than the tables hold; the rules decide)"))
        << "\n";
    if (!a.moves.empty()) {
        out << "  moves that keep it:";
        for (const auto& m : a.moves) {
            out << " " << m.text;
            if (m.result != Wdl::draw && m.plies >= 0) out << " (" << m.plies << ")";
        }
        out << "\n";
    }
    std::cout << out.str() << std::flush;
}

int run_adjudicate(const AdjudicateOptions& o) {
    const auto rules = parse_counting_rules(o.rules);
    if (!rules) {
        print_error("adjudicate", "--rules must be fmjd, ffjd or none");
        return kExitBadInput;
    }
    if (!o.fen.empty() && !o.fen_argument.empty()) {
        print_error("adjudicate", "give the position once: as --fen FEN or as FEN, not both");
        return kExitBadInput;
    }
    const std::string fen = o.fen.empty() ? o.fen_argument : o.fen;
    if (fen.empty() == o.pdn.empty()) {
        print_error("adjudicate", "give exactly one of a position (FEN, or --fen FEN) and --pdn FILE");
        return kExitBadInput;
    }
    // The input is read before the tables are opened: malformed input is exit 2 whatever state
    // the tables are in.
    std::vector<PdnGame> games;
    std::optional<Position> p;
    if (!o.pdn.empty()) {
        auto text = format::read_file_bounded(o.pdn, kMaxPdnBytes);
        if (!text) {
            print_error("adjudicate", text.error());
            return kExitBadInput;
        }
        games = read_pdn(*text);
        if (!holds_a_game(games)) {
            print_error("adjudicate", "no game in " + o.pdn);
            return kExitBadInput;
        }
    } else {
        auto parsed = parse_fen<International>(fen);
        if (!parsed) {
            print_error("adjudicate", parsed.error());
            return kExitBadInput;
        }
        p = *parsed;
    }
    probe::Options options;
    options.variant = VariantId::international;
    options.metrics = probe::kAllMetrics | probe::kRuleMetrics;
    options.directories.emplace_back(table_folder(o.db, o.tables, "international"));
    auto tb = probe::Tablebase::open(options);
    if (!tb) {
        print_error("adjudicate", tb.error());
        return kExitTables;
    }
    if (!o.pdn.empty()) return adjudicate_pdn_games(*tb, o, *rules, std::move(games));
    const adjudicate::Adjudicator judge(*tb, *rules);
    Counters counters;
    counters.reversible = o.reversible;
    counters.endgame = o.endgame;
    counters.small = o.small;
    const Adjudication a = judge.adjudicate(*p, counters);
    if (!a.ok()) {
        print_error("adjudicate",
                    probe_failure_text(*tb, *p, a.status, VariantId::international, options.directories.front()));
        return a.status.status == probe::Status::illegal ? kExitBadInput : kExitTables;
    }
    print_position(*tb, *p, o, a);
    return kExitOk;
}

}  // namespace

void add_adjudicate_command(CLI::App& app, AdjudicateOptions& o, std::function<int()>& action) {
    auto* cmd = app.add_subcommand("adjudicate",
                                   "Result of a position or of PDN games under the counting rules (international)");
    cmd->add_option("--db", o.db,
                    "Folder of international tables with rule tables (default <tables root>/international)")
        ->check(not_empty());
    add_tables_option(cmd, o.tables);
    cmd->add_option("--turkish-db", o.turkish_db,
                    "--pdn: folder of Turkish tables for Turkish games (default: turkish beside --db, "
                    "else <tables root>/turkish)");
    cmd->add_option("--rules", o.rules, "fmjd (25/16/5-move rules), ffjd (25/16-move, 2K v K drawn) or none")
        ->default_val("fmjd");
    cmd->add_option("--fen", o.fen, "The position (PDN FEN, side to move first)");
    cmd->add_option("fen", o.fen_argument, "The position, as --fen");
    cmd->add_option("--pdn", o.pdn, "A PDN file: every game is replayed and checked");
    // Counters are plies (half-moves: a move of each side is 2), as the rules' moves are counted
    // by arbiters in moves of both sides: 25 moves = 50 plies. Each flag has a name after its rule.
    cmd->add_option("--reversible,--25-move-plies", o.reversible,
                    "25-move rule: plies since the last man move or capture (25 moves = 50 plies)")
        ->check(integer_in(0, adjudicate::kMaxCounterPlies))
        ->default_val(0);
    cmd->add_option("--endgame,--16-move-plies", o.endgame,
                    "16-move rule: plies since the 16-move class was entered (16 moves = 32 plies)")
        ->check(integer_in(0, adjudicate::kMaxCounterPlies));
    cmd->add_option("--small,--5-move-plies", o.small,
                    "5-move rule (fmjd): plies since the 5-move class was entered (5 moves = 10 plies)")
        ->check(integer_in(0, adjudicate::kMaxCounterPlies));
    cmd->add_flag("--json", o.json, "JSON output (one object per position; for --pdn one object)");
    cmd->footer(
        "--fen JSON: {\"fen\",\"rules\",\"reversible\",\"endgame\",\"small\",\"result\",\"plies\",\"rule\",\n"
        "\"moves\":[{\"move\",\"result\",\"plies\"},...],\"theoretical\"}; moves are those that keep the result.\n"
        "A position with more pieces than the tables hold is answered from the tables when its captures\n"
        "lead into them, else when the rules alone decide it (no move: lost; a limit reached: drawn,\n"
        "\"theoretical\" null), else exit 3.\n"
        "--pdn: Turkish games (GameType 30) are judged on the Turkish tables, rules none; games\n"
        "of other variants are skipped and reported as such.\n"
        "Exit codes: 0 ok; 1 a game record is inconsistent or has an illegal move (--pdn);\n"
        "2 bad input (also a PDN file without games, or with a record that cannot be followed:\n"
        "a broken FEN or GameType, an unreadable move); 3 tables missing or corrupt (the rule\n"
        "tables come from dtb gen).");
    cmd->callback([&]() { action = [&]() { return run_adjudicate(o); }; });
}

}  // namespace dtb::tools
