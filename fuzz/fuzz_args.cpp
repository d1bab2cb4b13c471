// libFuzzer target: the command line of every subcommand (tools/command_line.hpp). The input is
// split at NUL bytes into arguments (at most 32), parsed by a fresh CommandLine, and never run:
// parsing must end in success or a CLI11 error, and what it accepts must hold what the
// validators promise (threads 0 to 1024, counters not negative, pieces 2 to 8, memory at least 1).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dtb/gen/generate.hpp"
#include "dtb/tools/command_line.hpp"

namespace {

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "fuzz_args: %s\n", what);
    std::abort();
}

void check_accepted(const dtb::tools::CommandLine& cli) {
    for (int threads : {cli.gen.threads, cli.verify.threads, cli.stats.threads})
        if (threads < 0 || threads > dtb::gen::kMaxThreads) fail("threads out of range accepted");
    if (cli.app.got_subcommand("gen")) {
        if (cli.gen.pieces < 2 || cli.gen.pieces > dtb::gen::kMaxPieces) fail("pieces out of range accepted");
        if (cli.app.get_subcommand("gen")->count("--memory") && cli.gen.memory_mb < 1) fail("memory 0 accepted");
    }
    if (cli.adjudicate.reversible < 0 || (cli.adjudicate.endgame && *cli.adjudicate.endgame < 0) ||
        (cli.adjudicate.small && *cli.adjudicate.small < 0))
        fail("negative counter accepted");
    if (cli.app.got_subcommand("perft") && (cli.perft.depth < 0 || cli.perft.depth > 30))
        fail("depth out of range accepted");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> args;
    std::string current;
    for (std::size_t i = 0; i < size && args.size() < 32; ++i) {
        if (data[i] == 0) {
            args.push_back(current);
            current.clear();
        } else {
            current += static_cast<char>(data[i]);
        }
    }
    if (args.size() < 32) args.push_back(current);
    dtb::tools::CommandLine cli;
    // CLI11 takes the arguments last first.
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    try {
        cli.app.parse(reversed);
    } catch (const CLI::Error&) {
        return 0;
    }
    check_accepted(cli);
    return 0;
}
