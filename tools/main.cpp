// dtb: the command-line tool. Only this folder prints and chooses exit codes.
#include <exception>
#include <iostream>

#include "tools/commands.hpp"

int main(int argc, char** argv) {
    using namespace dtb::tools;
    CLI::App app{"dtb: draughts endgame tablebases (international and Turkish)"};
    app.require_subcommand(1);
    std::function<int()> action;
    PerftOptions perft;
    add_perft_command(app, perft, action);
    GenOptions gen;
    add_gen_command(app, gen, action);
    VerifyOptions verify;
    add_verify_command(app, verify, action);
    ProbeOptions probe;
    add_probe_command(app, probe, action);
    StatsOptions stats;
    add_stats_command(app, stats, action);
    AdjudicateOptions adjudicate;
    add_adjudicate_command(app, adjudicate, action);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitBadInput;
    }
    try {
        return action ? action() : kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "dtb: " << e.what() << "\n";
        return kExitBadInput;
    }
}
