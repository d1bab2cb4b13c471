// dtb plan: a generation planned on K nodes without running it (gen/generation_plan.hpp computes,
// this file prints).
#include <cstdio>
#include <iostream>
#include <sstream>
#include <thread>

#include "dtb/gen/cost_model.hpp"
#include "dtb/gen/generation_plan.hpp"
#include "dtb/gen/pair_memory.hpp"
#include "dtb/json/dump.hpp"
#include "dtb/json/plan_json.hpp"
#include "dtb/tools/arguments.hpp"
#include "dtb/tools/commands.hpp"

namespace dtb::tools {

namespace {

inline constexpr std::int64_t kMaxMemoryGb = std::int64_t{1} << 20;

double gigabytes(std::uint64_t bytes) {
    return static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 30);
}
double megabytes(std::uint64_t bytes) {
    return static_cast<double>(bytes) / static_cast<double>(std::uint64_t{1} << 20);
}
std::string hours(double seconds) {
    char text[64];
    std::snprintf(text, sizeof text, "%.0f s (%.1f h)", seconds, seconds / 3600.0);
    return text;
}

void print_text(const gen::Plan& plan) {
    const gen::PlanRequest& r = plan.request;
    std::ostringstream out;
    char line[512];
    std::snprintf(line, sizeof line, "%s, 2 to %d pieces, on %d node%s of %d cores and %.1f GB of work memory each\n",
                  std::string(variant_name(r.variant)).c_str(), r.pieces, r.nodes, r.nodes == 1 ? "" : "s", r.cores,
                  gigabytes(plan.work_limit));
    out << line << "Memory as dtb gen estimates it (GB = 2^30 bytes); disk and seconds from a model calibrated on\n"
        << "this project's measured runs (docs/SCALING.md). \"levels GB\": solved by levels or by blocks,\n"
        << "whichever needs less (\"how\" says which when the pair is not solved whole).\n\n";
    std::snprintf(line, sizeof line, "%-11s %-5s %16s %9s %9s %10s %9s %-9s %10s %5s\n", "pair", "kind", "positions",
                  "whole GB", "levels GB", "disk MB", "WDL MB", "how", "seconds", "node");
    out << line;
    for (const gen::PlannedPair& p : plan.pairs) {
        const gen::PairFigures& f = p.figures;
        char levels[32] = "-";
        if (f.level_bytes) std::snprintf(levels, sizeof levels, "%.2f", gigabytes(f.level_bytes));
        std::snprintf(line, sizeof line, "%-11s %-5s %16llu %9.2f %9s %10.1f %9.2f %-9s %10.1f %5d\n",
                      f.material.name().c_str(), gen::kind_name(gen::kind_of(f.material)),
                      static_cast<unsigned long long>(f.positions), gigabytes(f.whole_bytes), levels,
                      megabytes(f.disk.all()), megabytes(f.disk.wdl),
                      p.mode == gen::SolveMode::whole ? "whole"
                      : f.level_by_blocks             ? "by blocks"
                                                      : "by levels",
                      p.seconds, p.node);
        out << line;
    }
    std::string chain;
    for (std::size_t p : plan.critical_path.pairs)
        chain += (chain.empty() ? "" : " > ") + plan.pairs[p].figures.material.name();
    out << "\ncritical path: " << hours(plan.critical_path.seconds) << ", " << plan.critical_path.pairs.size()
        << " pairs: " << chain << "\n";
    const gen::SimulatedRun& run = plan.run;
    std::snprintf(line, sizeof line, "simulated run: wall %s; busiest node %d, busy %.0f s; idle %.1f%%\n",
                  hours(run.wall_seconds).c_str(), run.busiest, run.busy_seconds[run.busiest], 100.0 * run.idle_share);
    out << line;
    out << "sharing a pair's levels across nodes (not implemented): critical path "
        << hours(plan.level_sharing.critical_path_seconds) << "; wall at least "
        << hours(plan.level_sharing.bound_seconds) << ", against at least "
        << hours(plan.level_sharing.bound_without_seconds) << " without\n";
    std::snprintf(line, sizeof line,
                  "totals: %zu pairs, %llu positions (%llu entries), disk %.2f GB (WDL %.2f GB), work %s on one "
                  "node\n",
                  plan.pairs.size(), static_cast<unsigned long long>(plan.positions),
                  static_cast<unsigned long long>(plan.entries), gigabytes(plan.disk_bytes), gigabytes(plan.wdl_bytes),
                  hours(plan.work_seconds).c_str());
    out << line;
    std::cout << out.str() << std::flush;
}

int run_plan(const PlanOptions& o) {
    gen::PlanRequest r;
    r.variant = variant_option(o.variant);
    r.pieces = o.pieces;
    r.nodes = o.nodes;
    r.cores = o.cores ? o.cores : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    r.memory_mb = o.memory_gb ? o.memory_gb * 1024 : gen::MemoryBudget{}.bound_mb();
    auto plan = gen::make_plan(r);
    if (!plan && o.memory_gb == 0) {
        // No --memory and this machine's memory does not hold every pair: plan with the smallest
        // node (whole GB) that does, and say so, instead of refusing the question.
        std::uint64_t fits = 0;
        for (std::uint64_t gb = 1; gb <= static_cast<std::uint64_t>(kMaxMemoryGb); gb *= 2) {
            r.memory_mb = gb * 1024;
            if (gen::make_plan(r)) {
                fits = gb;
                break;
            }
        }
        if (fits) {
            std::uint64_t lo = fits / 2, hi = fits;  // lo fails (or is 0), hi fits
            while (hi - lo > 1) {
                const std::uint64_t mid = lo + (hi - lo) / 2;
                r.memory_mb = mid * 1024;
                (gen::make_plan(r) ? hi : lo) = mid;
            }
            r.memory_mb = hi * 1024;
            plan = gen::make_plan(r);
            std::cerr << "dtb plan: this machine's memory (" << gen::MemoryBudget{}.bound_mb() / 1024
                      << " GB) does not hold every pair; planned on nodes of " << hi
                      << " GB, the least that does (--memory GB plans another size)\n";
        }
    }
    if (!plan) {
        print_error("plan", plan.error());
        return exit_code_of(plan.error_kind());
    }
    if (o.json)
        std::cout << json::dump(with_version(json::plan_json(*plan))) << "\n" << std::flush;
    else
        print_text(*plan);
    return kExitOk;
}

}  // namespace

void add_plan_command(CLI::App& app, PlanOptions& o, std::function<int()>& action) {
    auto* cmd = app.add_subcommand(
        "plan",
        "Plan a generation on K nodes without running it: per pair memory, disk and time, the critical "
        "path, a simulated run");
    add_variant_and_pieces_options(cmd, o.variant, o.pieces);
    cmd->add_option("--nodes", o.nodes, "Nodes (default 1)")->check(integer_in(1, gen::kMaxPlanNodes));
    cmd->add_option("--cores", o.cores, "Cores per node (default: this machine's)")
        ->check(integer_in(1, gen::kMaxThreads));
    cmd->add_option("--memory", o.memory_gb,
                    "Memory per node, as 256G or 1T (a bare number is GB of 1024 MB; default: this machine's, or "
                    "the least that holds every pair)")
        ->transform(memory_size(1024, 1024, static_cast<std::uint64_t>(kMaxMemoryGb)));
    cmd->add_flag("--json", o.json, "One JSON object (keys: docs/CLI.md)");
    cmd->callback([&]() { action = [&]() { return run_plan(o); }; });
}

}  // namespace dtb::tools
