// The dtb command line: every subcommand registered on one CLI11 app, with the options it fills
// and the action parsing selects. main() parses and runs it; the argument fuzzer
// (fuzz/fuzz_args.cpp) parses without running.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>

#include "dtb/tools/commands.hpp"

namespace dtb::tools {

struct CommandLine {
    CLI::App app{"dtb: draughts endgame tablebases (international and Turkish)"};
    PerftOptions perft;
    GenOptions gen;
    VerifyOptions verify;
    ProbeOptions probe;
    StatsOptions stats;
    AdjudicateOptions adjudicate;
    SolveOptions solve;
    ServeOptions serve;
    PlanOptions plan;
    std::function<int()> action;  // set by the subcommand that parsing selected

    CommandLine() {
        app.require_subcommand(1);
        add_perft_command(app, perft, action);
        add_gen_command(app, gen, action);
        add_verify_command(app, verify, action);
        add_probe_command(app, probe, action);
        add_stats_command(app, stats, action);
        add_adjudicate_command(app, adjudicate, action);
        add_solve_command(app, solve, action);
        add_serve_command(app, serve, action);
        add_plan_command(app, plan, action);
    }
    CommandLine(const CommandLine&) = delete;
    CommandLine& operator=(const CommandLine&) = delete;
};

}  // namespace dtb::tools
