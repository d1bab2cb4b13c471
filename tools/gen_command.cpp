// dtb gen: generate every slice up to N pieces (see gen/generate.hpp).
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "dtb/gen/generate.hpp"
#include "dtb/tools/arguments.hpp"
#ifdef DTB_HAVE_MPI
#include <csignal>
#include <cstring>

#include "dtb/mpi/distributed_gen.hpp"
#endif
#include "dtb/tools/commands.hpp"

namespace dtb::tools {

namespace {

// The summary lines of a finished run.
void print_summary(const gen::GenerateSummary& r, const std::filesystem::path& out_dir, const char* clear) {
    const std::string entries = r.entries == r.positions ? "" : " (" + std::to_string(r.entries) + " entries)";
    std::fprintf(
        stderr, "%sdone: %d slices generated, %d already present, %llu positions%s, %.1f s, %llu bytes written to %s\n",
        clear, r.slices_generated, r.slices_skipped, static_cast<unsigned long long>(r.positions), entries.c_str(),
        r.seconds, static_cast<unsigned long long>(r.bytes_written), out_dir.string().c_str());
    if (r.slices_generated > 0) std::fprintf(stderr, "time by part: %s\n", gen::describe_parts(r.part_seconds).c_str());
}

#ifdef DTB_HAVE_MPI
// What rank 0 has in flight, for the line it prints when mpirun stops the job (a rank died): two
// buffers, the one complete at the time read by the signal handler.
char in_flight_text[2][4096];
std::atomic<int> in_flight_current{0};

extern "C" void report_in_flight_and_exit(int sig) {
    // Only rank 0 knows what is in flight; the other ranks stop quietly.
    const char* text = in_flight_text[in_flight_current.load()];
    if (text[0] != '\0') {
        const char head[] = "dtb gen: the job was stopped; in flight: ";
        (void)!write(2, head, sizeof head - 1);
        (void)!write(2, text, std::strlen(text));
        (void)!write(2, "\n", 1);
    }
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

int run_gen_distributed(const gen::GenerateOptions& g) {
    mpi::DistributedEvents events;
    events.log = [](const std::string& line) { std::cerr << line << std::endl; };
    events.in_flight = [](const std::string& text) {
        const int next = 1 - in_flight_current.load();
        std::snprintf(in_flight_text[next], sizeof in_flight_text[next], "%s", text.c_str());
        in_flight_current.store(next);
    };
    std::signal(SIGTERM, report_in_flight_and_exit);
    std::signal(SIGINT, report_in_flight_and_exit);
    const mpi::DistributedResult r = mpi::generate_distributed(g, events);
    if (!r.summary) {
        const int code = exit_code_of(r.summary.error_kind());
        // The job's exit code is rank 0's, which says why. The other ranks end quietly with 0: a
        // rank that ended with an error first would have mpirun stop rank 0 before it has said it.
        if (r.rank != 0) return kExitOk;
        print_error("gen", r.summary.error());
        if (r.stop_job) mpi::abort_job(code);
        return code;
    }
    if (r.rank == 0) print_summary(*r.summary, g.out_dir, "");
    return kExitOk;
}
#endif

int run_gen(const GenOptions& o) {
    gen::GenerateOptions g;
    g.variant = variant_option(o.variant);
    g.max_pieces = o.pieces;
    g.out_dir = table_folder(o.out, o.tables, o.variant);
    g.threads = o.threads;
    g.only = o.only;
    g.memory_mb = o.memory_mb;
    g.zstd_level = o.zstd_level;
    g.wdl = o.wdl == "compact"      ? gen::WdlStorage::compact
            : o.wdl == "both-sides" ? gen::WdlStorage::both_sides
                                    : gen::WdlStorage::balanced;
    g.spill = o.spill;
    g.blocks = o.blocks;
    g.max_block_positions = o.block_positions;
    g.wait_for_lock = o.wait;

#ifdef DTB_HAVE_MPI
    if (mpi::launched_as_rank()) return run_gen_distributed(g);
#endif
    using Clock = std::chrono::steady_clock;
    std::string current_pass;
    Clock::time_point pass_start = Clock::now();
    std::uint64_t pass_start_done = 0;
    gen::GenerateEvents events;
    // On a terminal the progress line rewrites itself; in a log it is printed every 10 seconds.
    const bool tty = isatty(2);
    const char* clear = tty ? "\r\033[K" : "";
    Clock::time_point last_line = Clock::now();
    events.log = [&](const std::string& line) { std::cerr << clear << line << std::endl; };
    events.progress = [&](const std::string& slice, const std::string& pass, std::uint64_t done, std::uint64_t total) {
        // The rate is measured from the first report of a pass; a pass that starts again under the
        // same name (one per advancement level) starts a new measurement.
        if (slice + pass != current_pass || done < pass_start_done) {
            current_pass = slice + pass;
            pass_start = Clock::now();
            pass_start_done = done;
            return;
        }
        if (!tty) {
            if (Clock::now() - last_line < std::chrono::seconds(10)) return;
            last_line = Clock::now();
        }
        const double secs = std::chrono::duration<double>(Clock::now() - pass_start).count();
        const double rate = secs > 0 ? (done - pass_start_done) / secs : 0;
        const double eta = rate > 0 ? (total - done) / rate : 0;
        std::fprintf(stderr, "%s%s %s %5.1f%% %.2f M pos/s ETA %.0f s%s", clear, slice.c_str(), pass.c_str(),
                     100.0 * done / std::max<std::uint64_t>(total, 1), rate / 1e6, eta, tty ? "" : "\n");
        std::fflush(stderr);
    };
    auto r = gen::generate(g, events);
    if (!r) {
        std::cerr << clear;
        print_error("gen", r.error());
        return exit_code_of(r.error_kind());
    }
    print_summary(*r, g.out_dir, clear);
    return kExitOk;
}
}  // namespace

void add_gen_command(CLI::App& app, GenOptions& o, std::function<int()>& action) {
    auto* cmd = app.add_subcommand("gen", "Generate WDL, DTW and DTC tables up to N pieces");
    add_variant_and_pieces_options(cmd, o.variant, o.pieces);
    cmd->add_option("--out", o.out, "Output folder of the variant's tables (default <tables root>/<variant>)")
        ->check(not_empty());
    add_tables_option(cmd, o.tables);
    add_threads_option(cmd, o.threads);
    cmd->add_option("--only", o.only, "Generate only these slices (names like KKMvK)");
    cmd->add_option(
           "--memory", o.memory_mb,
           "Memory bound, as 16G or 4096M (a bare number is MB; default: the machine's physical memory): an "
           "international pair with men that would exceed it is solved by levels with its arrays spilled to files "
           "in the output folder; a slice that cannot fit even so is refused (exit 2)")
        ->transform(memory_size(1, 1, std::uint64_t{1} << 30));
    cmd->add_flag("--spill", o.spill,
                  "Solve every international pair with men by levels with its arrays in files in the output folder, "
                  "as is done anyway for a pair that does not fit in memory");
    cmd->add_flag("--blocks", o.blocks,
                  "Solve every pair with men by blocks (advancement levels, each with arrays of its own, the finished "
                  "ones kept compressed in memory), as is done anyway for a Turkish pair that does not fit whole; "
                  "the tables are the same")
        ->excludes("--spill");
    cmd->add_option("--block-positions", o.block_positions,
                    "Solve every pair with men by blocks, an advancement level of more than N positions a group of "
                    "its phases at a time (default: only a level that does not fit --memory whole is split); the "
                    "tables are the same")
        ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40))
        ->excludes("--spill");
    cmd->add_option("--zstd-level", o.zstd_level, "zstd level (default: the format's)")->check(integer_in(0, 22));
    cmd->add_option("--wdl", o.wdl,
                    "balanced (default): of a pair of slices, a side whose WDL table is at least 1 MiB and twice its "
                    "mirror's is derived by one ply of search at probe time, every other side stored; both-sides: "
                    "every WDL table stored, one table read per probe; compact: of each pair, the side whose WDL "
                    "compresses worse is derived (WDL about 2.6x smaller than both-sides). A WDL probe of a derived "
                    "side is a one-ply search, up to about 50 table reads")
        ->check(CLI::IsMember({"balanced", "compact", "both-sides"}))
        ->default_val("balanced");
    cmd->add_flag("--wait", o.wait,
                  "When another dtb gen is writing the folder, wait for it to finish (without --wait: exit 4)");
    cmd->callback([&]() { action = [&]() { return run_gen(o); }; });
}

}  // namespace dtb::tools
