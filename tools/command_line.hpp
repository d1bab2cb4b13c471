// The dtb command line: every subcommand registered on one CLI11 app, with the options it fills
// and the action parsing selects. main() parses and runs it; the argument fuzzer
// (fuzz/fuzz_args.cpp) parses without running. DTB_VERSION is the project's version (CMake's
// project() version, the one source every front end reports).
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <iostream>
#include <string>

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

    std::string help_topic;  // dtb help [command]

    CommandLine() {
        app.require_subcommand(1);
        app.set_version_flag("--version", std::string("dtb ") + DTB_VERSION, "Print the version and exit");
        auto* help = app.add_subcommand("help", "Every subcommand, or one subcommand's options: dtb help probe");
        help->add_option("command", help_topic, "The subcommand");
        help->callback([this] {
            action = [this] {
                if (help_topic.empty()) {
                    // app.help() would show the help of the subcommand parsed ("help" itself).
                    std::cout << app.get_formatter()->make_help(&app, "dtb", CLI::AppFormatMode::Normal);
                    return 0;
                }
                for (const CLI::App* sub : app.get_subcommands({}))
                    if (sub->get_name() == help_topic && help_topic != "help") {
                        std::cout << sub->help();
                        return 0;
                    }
                std::cerr << "dtb help: no command named '" << help_topic << "' (dtb help lists them)\n";
                return 2;
            };
        });
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
