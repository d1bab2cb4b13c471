#include "dtb/gen/generation_plan.hpp"

#include <algorithm>

#include "dtb/gen/cost_model.hpp"
#include "dtb/gen/generate.hpp"
#include "dtb/gen/pair_memory.hpp"

namespace dtb::gen {

namespace {

Expected<bool> check(const PlanRequest& r) {
    if (r.pieces < 2 || r.pieces > kMaxPieces)
        return Error{"pieces must be 2 to " + std::to_string(kMaxPieces) + ", not " + std::to_string(r.pieces),
                     ErrorKind::bad_input};
    if (r.nodes < 1 || r.nodes > kMaxPlanNodes)
        return Error{"nodes must be 1 to " + std::to_string(kMaxPlanNodes) + ", not " + std::to_string(r.nodes),
                     ErrorKind::bad_input};
    if (r.cores < 1 || r.cores > kMaxThreads)
        return Error{"cores must be 1 to " + std::to_string(kMaxThreads) + ", not " + std::to_string(r.cores),
                     ErrorKind::bad_input};
    return true;
}

// Every pair no node holds whole or by levels, named with its needs; empty when all fit.
std::string pairs_that_fit_nowhere(const std::vector<PairFigures>& figures, std::uint64_t limit) {
    std::string out;
    int named = 0, more = 0;
    for (const PairFigures& f : figures) {
        if (PairSchedule::holds(limit, f.whole_bytes, f.level_bytes)) continue;
        if (named == 8) {
            ++more;
            continue;
        }
        out += (named++ ? "; " : "") + f.material.name() + " (" + megabytes(f.whole_bytes) + " whole" +
               (f.level_bytes ? ", " + megabytes(f.level_bytes) + (f.level_by_blocks ? " by blocks" : " by levels")
                              : ", not by levels") +
               ")";
    }
    if (out.empty()) return out;
    if (more) out += "; and " + std::to_string(more) + " more";
    return out;
}

LevelSharing level_sharing(const std::vector<PlannedPair>& pairs, const std::vector<PairNeeds>& needs,
                           const CriticalPath& path, double work_seconds, int nodes) {
    // A pair that can be solved by levels (it has levels of its own pages) is the one a level-by-
    // level split could share; its levels are solved one after another, each split over the nodes.
    const CriticalPath shared = critical_path(needs, [&](std::size_t p) {
        return pairs[p].figures.level_bytes ? pairs[p].seconds / nodes : pairs[p].seconds;
    });
    LevelSharing s;
    s.critical_path_seconds = shared.seconds;
    s.bound_seconds = std::max(shared.seconds, work_seconds / nodes);
    s.bound_without_seconds = std::max(path.seconds, work_seconds / nodes);
    return s;
}

}  // namespace

Expected<Plan> make_plan(const PlanRequest& request) {
    if (auto ok = check(request); !ok) return Error{ok.error(), ok.error_kind()};
    auto figures = pair_figures(request.variant, request.pieces);
    if (!figures) return Error{figures.error(), figures.error_kind()};
    Plan plan;
    plan.request = request;
    plan.work_limit = MemoryBudget{request.memory_mb}.work_limit();
    if (const std::string nowhere = pairs_that_fit_nowhere(*figures, plan.work_limit); !nowhere.empty())
        return Error{"no node can hold these pairs whole, by levels or by blocks with " + megabytes(plan.work_limit) +
                         " of work memory: " + nowhere,
                     ErrorKind::bad_input};

    const std::vector<PairNeeds> needs = needs_of(*figures);
    for (PairFigures& f : figures.value()) {
        PlannedPair p;
        p.mode = plan.work_limit == 0 || f.whole_bytes <= plan.work_limit ? SolveMode::whole : SolveMode::by_levels;
        p.seconds = pair_seconds(request.variant, f, request.cores, p.mode);
        plan.positions += f.positions;
        plan.entries += f.entries;
        plan.disk_bytes += f.disk.all();
        plan.wdl_bytes += f.disk.wdl;
        plan.work_seconds += p.seconds;
        p.figures = std::move(f);
        plan.pairs.push_back(std::move(p));
    }
    plan.critical_path = critical_path(needs, [&](std::size_t p) { return plan.pairs[p].seconds; });

    auto schedule =
        PairSchedule::make(needs, std::vector<std::uint64_t>(static_cast<std::size_t>(request.nodes), plan.work_limit));
    if (!schedule) return Error{schedule.error(), schedule.error_kind()};
    auto run = simulate(std::move(*schedule), [&](std::size_t p, int, SolveMode mode) {
        return mode == plan.pairs[p].mode ? plan.pairs[p].seconds
                                          : pair_seconds(request.variant, plan.pairs[p].figures, request.cores, mode);
    });
    if (!run) return Error{run.error(), run.error_kind()};
    plan.run = std::move(*run);
    for (const SimulatedPair& s : plan.run.pairs) {
        PlannedPair& p = plan.pairs[s.pair];
        p.node = s.worker;
        p.start = s.start;
        p.end = s.end;
    }
    plan.level_sharing = level_sharing(plan.pairs, needs, plan.critical_path, plan.work_seconds, request.nodes);
    return plan;
}

}  // namespace dtb::gen
