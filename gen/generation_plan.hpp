// A generation planned, not run (`dtb plan`): every pair's figures (gen/pair_figures.hpp), how and how
// long it would be solved on nodes of a given size (gen/cost_model.hpp), the critical path, and
// the run of the schedule of a distributed generation (gen/pair_schedule.hpp) simulated on K such
// nodes (gen/schedule_simulation.hpp). docs/SCALING.md reads its figures.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "dtb/gen/pair_figures.hpp"
#include "dtb/gen/pair_schedule.hpp"
#include "dtb/gen/schedule_simulation.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::gen {

inline constexpr int kMaxPlanNodes = 65536;

struct PlanRequest {
    VariantId variant = VariantId::international;
    int pieces = 6;
    int nodes = 1;
    int cores = 2;                // per node
    std::uint64_t memory_mb = 0;  // per node (the bound of `dtb gen --memory`); 0: this machine's
};

struct PlannedPair {
    PairFigures figures;
    SolveMode mode = SolveMode::whole;  // whole when a node holds it whole, else by levels
    double seconds = 0;                 // on one node, in that mode
    int node = 0;                       // where the simulated run solved it
    double start = 0, end = 0;          // and when
};

// What sharing one pair's levels across nodes would gain (not implemented: docs/SCALING.md).
// Bounds, not simulations: no run is shorter than its critical path or than its work spread
// evenly over the nodes.
struct LevelSharing {
    double critical_path_seconds = 0;  // each pair that has levels split evenly over the nodes
    double bound_seconds = 0;          // max(that path, the work / nodes)
    double bound_without_seconds = 0;  // max(the critical path, the work / nodes) as things are
};

struct Plan {
    PlanRequest request;
    std::uint64_t work_limit = 0;  // bytes per node (MemoryBudget::work_limit)
    std::vector<PlannedPair> pairs;
    CriticalPath critical_path;  // pair indices
    SimulatedRun run;
    LevelSharing level_sharing;
    std::uint64_t positions = 0, entries = 0, disk_bytes = 0, wdl_bytes = 0;
    double work_seconds = 0;  // every pair's seconds summed: the run on one node
};

// Errors (bad_input): a request out of range (pieces 2 to kMaxPieces, nodes 1 to kMaxPlanNodes,
// cores 1 to kMaxThreads), or pairs that no node can hold whole or by levels (the first 8 named,
// with what they need, then a count). memory_mb 0 is this machine's physical memory.
Expected<Plan> make_plan(const PlanRequest& request);

}  // namespace dtb::gen
