// dtb solve: a position beyond the tables proven won, drawn or lost by a proof search whose
// leaves are table probes (solve/prover.hpp); --proof writes the proof as PDN, --check verifies
// such a file from the tables.
#include <chrono>
#include <fstream>
#include <iostream>
#include <new>
#include <sstream>

#include "dtb/json/dump.hpp"
#include "dtb/json/solve_json.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/solve/proof_check.hpp"
#include "dtb/solve/proof_pdn.hpp"
#include "dtb/solve/prover.hpp"
#include "dtb/tools/arguments.hpp"
#include "dtb/tools/commands.hpp"
#include "dtb/tools/move_line.hpp"

namespace dtb::tools {

namespace {

using solve::Answer;
using solve::SolveResult;

std::string answer_text(const SolveResult& r) {
    if (r.answer != Answer::unresolved) {
        const std::string a(to_string(r.answer));
        if (r.source == solve::AnswerSource::tables) return a + " (from the tables)";
        if (r.source == solve::AnswerSource::terminal)
            return r.answer == Answer::loss ? "loss (no legal move)"
                                            : a + " (a limit of the counting rules is reached)";
        return a + " (proven)";
    }
    std::string s = "unresolved: ";
    if (r.lower == Wdl::draw)
        s += "at least a draw (a loss is disproven)";
    else if (r.upper == Wdl::draw)
        s += "at most a draw (a win is disproven)";
    else
        s += "nothing proven";
    if (r.stop == solve::StopReason::depth) return s + "; a line reached the depth limit";
    return s + "; stopped by the " + (r.stop == solve::StopReason::time ? "time" : "node") + " limit";
}

void print_text(const std::string& fen, const Position& p, const SolveOptions& o, VariantId variant,
                const SolveResult& r) {
    std::ostringstream out;
    out << fen << "  (" << variant_name(variant) << ", rules " << o.rules << ")\n";
    out << "  " << (p.side_to_move == Color::white ? "White" : "Black") << " to move: " << answer_text(r) << "\n";
    if (r.best_move) out << "  best move: " << r.best_move->text << "\n";
    if (!r.pv.empty()) out << "  PV: " << numbered_line(r.pv, p.side_to_move) << "\n";
    const double rate = r.seconds > 0 ? static_cast<double>(r.nodes) / r.seconds : 0;
    out << "  " << r.nodes << " nodes, " << r.probes << " probes, at most " << r.max_pieces << " pieces, " << r.seconds
        << " s";
    if (r.nodes > 0 && r.seconds > 0) out << " (" << static_cast<long long>(rate) << " nodes/s)";
    out << "\n";
    std::cout << out.str() << std::flush;
}

// Progress on stderr every two seconds of a search.
std::function<void(const solve::Progress&)> progress_printer() {
    auto next = std::make_shared<double>(2.0);
    return [next](const solve::Progress& p) {
        if (p.seconds < *next) return;
        *next = p.seconds + 2.0;
        std::cerr << "dtb solve: " << p.nodes << " nodes, " << p.probes << " probes, "
                  << (p.proving_win ? "win?" : "loss?") << " root pn " << p.root_pn << " dn " << p.root_dn << ", "
                  << static_cast<long long>(static_cast<double>(p.nodes) / std::max(p.seconds, 1e-9)) << " nodes/s\n"
                  << std::flush;
    };
}

probe::Options table_options(const SolveOptions& o, VariantId variant, CountingRules rules) {
    probe::Options options;
    options.variant = variant;
    options.metrics = probe::kAllMetrics | (rules != CountingRules::none ? probe::kRuleMetrics : 0u);
    options.directories.emplace_back(table_folder(o.db, o.tables, variant_name(variant)));
    return options;
}

int exit_code_of(const probe::Result& r) {
    return r.status == probe::Status::illegal ? kExitBadInput : kExitTables;
}

int write_proof(solve::Prover& prover, const std::string& file) {
    const auto proof = prover.proof();
    if (!proof) {
        print_error("solve", "--proof: " + proof.error());
        return kExitSystem;
    }
    if (proof->parts.empty()) {
        print_error("solve", "--proof: nothing was proven: no proof written");
        return kExitOk;
    }
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << solve::write_proof_pdn(*proof);
    out.close();
    if (!out) {
        print_error("solve", "--proof: cannot write " + file);
        return kExitSystem;
    }
    return kExitOk;
}

int run_check(const SolveOptions& o) {
    auto text = format::read_file_bounded(o.check, kMaxPdnBytes);
    if (!text) {
        print_error("solve", text.error());
        return kExitBadInput;
    }
    const auto proof = solve::read_proof_pdn(*text);
    if (!proof) {
        print_error("solve", o.check + ": " + proof.error());
        return kExitBadInput;
    }
    if (o.variant_given && variant_name(proof->variant) != o.variant) {
        print_error("solve", o.check + " is a proof of " + std::string(variant_name(proof->variant)) + " draughts");
        return kExitBadInput;
    }
    auto tb = probe::Tablebase::open(table_options(o, proof->variant, proof->rules));
    if (!tb) {
        print_error("solve", tb.error());
        return kExitTables;
    }
    const solve::ProofCheck c = solve::check_proof(*tb, *proof);
    if (!c.status.ok()) {
        print_error("solve", "--check: " + tb->explain(c.status));
        return kExitTables;
    }
    if (o.json) {
        std::cout << json::dump(json::proof_check_json(o.check, c)) << "\n" << std::flush;
    } else if (c.valid) {
        std::cout << o.check << ": the proof holds: " << to_string(c.answer) << " for the side to move";
        if (c.answer == Answer::unresolved)
            std::cout << " (" << (c.lower == Wdl::draw ? "at least" : "at most") << " a draw)";
        std::cout << "; " << c.nodes << " positions, " << c.leaves << " leaves\n" << std::flush;
    } else {
        std::cout << o.check << ": the proof fails: " << c.problem << "\n" << std::flush;
    }
    return c.valid ? kExitOk : kExitCheckFailed;
}

int run_solve(const SolveOptions& o) {
    const auto rules = parse_counting_rules(o.rules);
    if (!rules) {
        print_error("solve", "--rules must be none, fmjd or ffjd");
        return kExitBadInput;
    }
    if (!o.check.empty()) {
        if (!o.fen.empty()) {
            print_error("solve", "give a FEN or --check FILE, not both");
            return kExitBadInput;
        }
        return run_check(o);
    }
    if (o.fen.empty()) {
        print_error("solve", "give a position (FEN) or --check FILE");
        return kExitBadInput;
    }
    const VariantId variant = variant_for("solve", o.variant, o.variant_given, o.db, {o.fen});
    if (*rules != CountingRules::none && variant != VariantId::international) {
        print_error("solve", "--rules fmjd and ffjd are international draughts' only");
        return kExitBadInput;
    }
    const auto p = with_variant(variant, [&](auto v) { return parse_fen<decltype(v)>(o.fen); });
    if (!p) {
        print_error("solve", p.error());
        return kExitBadInput;
    }
    auto tb = probe::Tablebase::open(table_options(o, variant, *rules));
    if (!tb) {
        print_error("solve", tb.error());
        return kExitTables;
    }
    solve::ProverOptions options;
    options.rules = *rules;
    options.counters = {o.reversible, o.endgame, o.small};
    options.max_nodes = o.nodes;
    options.max_seconds = o.time;
    options.memory_mb = o.memory_mb;
    options.progress = progress_printer();
    auto prover = solve::Prover::create(*tb, options);
    if (!prover) {
        print_error("solve", prover.error());
        return kExitBadInput;
    }
    solve::Prover& solver = prover.value();
    const SolveResult r = solver.solve(*p);
    if (!r.ok()) {
        print_error("solve", tb->to_fen(*p) + ": " + tb->explain(r.status));
        return exit_code_of(r.status);
    }
    if (o.json)
        std::cout << json::dump(json::solve_json(tb->to_fen(*p), variant, *rules, options.counters, r)) << "\n"
                  << std::flush;
    else
        print_text(tb->to_fen(*p), *p, o, variant, r);
    return o.proof.empty() ? kExitOk : write_proof(solver, o.proof);
}

}  // namespace

void add_solve_command(CLI::App& app, SolveOptions& o, std::function<int()>& action) {
    auto* cmd = app.add_subcommand("solve", "Prove a position beyond the tables won, drawn or lost (proof search)");
    cmd->add_option("fen", o.fen, "The position (PDN FEN, side to move first)");
    add_db_option(cmd, o.db);
    add_tables_option(cmd, o.tables);
    add_variant_option(cmd, o.variant,
                       "international or turkish (default: the folder's own with --db, else the FEN's)");
    cmd->add_option("--rules", o.rules, "none (the game's value), fmjd or ffjd (counting rules, international)")
        ->default_val("none");
    cmd->add_option("--reversible", o.reversible, "Plies since the last man move or capture (with --rules)")
        ->check(integer_in(0, adjudicate::kMaxCounterPlies))
        ->default_val(0);
    cmd->add_option("--endgame", o.endgame, "Plies since the 16-move class was entered (with --rules)")
        ->check(integer_in(0, adjudicate::kMaxCounterPlies));
    cmd->add_option("--small", o.small, "Plies since the 5-move class was entered (--rules fmjd)")
        ->check(integer_in(0, adjudicate::kMaxCounterPlies));
    cmd->add_option("--time", o.time, "Time limit in seconds (default 60)")
        ->check(decimal_in(0.001, 1e7))
        ->default_val(60);
    cmd->add_option("--nodes", o.nodes, "Node limit (default: none)")->check(integer_in(1, 1'000'000'000'000'000LL));
    cmd->add_option("--memory", o.memory_mb, "Transposition table in MB (default 256)")
        ->check(integer_in(1, 1 << 24))
        ->default_val(256);
    cmd->add_option("--proof", o.proof, "Write the proof as PDN to this file");
    cmd->add_option("--check", o.check, "Verify the proof in this PDN file from the tables");
    cmd->add_flag("--json", o.json, "One JSON object");
    cmd->footer(
        "The answer for the side to move: win, draw or loss, proven, or unresolved with what was\n"
        "proven (at least / at most a draw); a position inside the tables is answered from them.\n"
        "Progress on stderr every 2 s. JSON: {\"fen\",\"variant\",\"rules\",\"counters\",\"answer\",\n"
        "\"lower\",\"upper\",\"source\",\"best_move\",\"pv\",\"nodes\",\"probes\",\"max_pieces\",\"seconds\",\n"
        "\"stopped\"}; --check: {\"file\",\"valid\",\"problem\",\"answer\",\"lower\",\"upper\",\"nodes\",\"leaves\"}.\n"
        "Exit codes: 0 ok (also unresolved); 1 --check: the proof fails (the ply is named);\n"
        "2 bad input (FEN, a side without pieces, options, an unreadable proof file);\n"
        "3 tables missing or corrupt; 5 memory refused, or the proof could not be written.");
    cmd->callback([&o, &action, cmd]() {
        o.variant_given = cmd->count("--variant") > 0;
        action = [&o]() {
            try {
                return run_solve(o);
            } catch (const std::bad_alloc&) {
                print_error("solve", "out of memory (try a smaller --memory)");
                return kExitSystem;
            }
        };
    });
}

}  // namespace dtb::tools
