// A distributed run played out in time instead of solved: the schedule (gen/pair_schedule.hpp)
// hands out pairs, each takes the seconds a cost model gives it, and the run's wall time, each
// worker's busy time and the idle share come out (dtb plan, docs/SCALING.md).
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "dtb/gen/pair_schedule.hpp"
#include "dtb/rules/expected.hpp"

namespace dtb::gen {

// Seconds pair p takes on worker w solved in mode.
using PairSeconds = std::function<double(std::size_t p, int w, SolveMode mode)>;

struct SimulatedPair {
    std::size_t pair = 0;
    int worker = 0;
    SolveMode mode = SolveMode::whole;
    double start = 0, end = 0;
};

struct SimulatedRun {
    double wall_seconds = 0;
    std::vector<double> busy_seconds;  // per worker
    int busiest = 0;                   // the worker with the most busy time
    double idle_share = 0;             // of all workers' wall time, the part spent idle
    std::vector<SimulatedPair> pairs;  // in the order they started
};

// Runs the schedule to its end. An error if it stalls (no pair in flight, pairs left).
Expected<SimulatedRun> simulate(PairSchedule schedule, const PairSeconds& seconds);

// The longest chain of pairs, each waiting for the one before (its input), with every pair's
// seconds given: no number of workers finishes sooner. Returns the seconds and the chain.
struct CriticalPath {
    double seconds = 0;
    std::vector<std::size_t> pairs;  // first to last
};
CriticalPath critical_path(const std::vector<PairNeeds>& pairs, const std::function<double(std::size_t p)>& seconds);

}  // namespace dtb::gen
