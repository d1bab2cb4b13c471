#include "dtb/gen/schedule_simulation.hpp"

#include <algorithm>
#include <queue>

namespace dtb::gen {

Expected<SimulatedRun> simulate(PairSchedule schedule, const PairSeconds& seconds) {
    SimulatedRun run;
    run.busy_seconds.assign(static_cast<std::size_t>(schedule.workers()), 0.0);
    // Pairs in flight by their end time (ties: the lower worker first, for a repeatable order).
    using Event = std::pair<double, int>;
    std::priority_queue<Event, std::vector<Event>, std::greater<>> ends;
    double now = 0;
    const auto start_ready = [&] {
        for (const Assignment& a : schedule.assign()) {
            const double s = std::max(0.0, seconds(a.pair, a.worker, a.mode));
            run.pairs.push_back({a.pair, a.worker, a.mode, now, now + s});
            run.busy_seconds[static_cast<std::size_t>(a.worker)] += s;
            ends.push({now + s, a.worker});
        }
    };
    start_ready();
    while (!schedule.done()) {
        if (ends.empty())
            return Error{"the schedule stalled with " + std::to_string(schedule.remaining()) + " pairs left",
                         ErrorKind::unspecified};
        const auto [t, worker] = ends.top();
        ends.pop();
        now = t;
        schedule.finished(worker);
        start_ready();
    }
    run.wall_seconds = now;
    double busy = 0;
    for (std::size_t w = 0; w < run.busy_seconds.size(); ++w) {
        busy += run.busy_seconds[w];
        if (run.busy_seconds[w] > run.busy_seconds[static_cast<std::size_t>(run.busiest)])
            run.busiest = static_cast<int>(w);
    }
    const double capacity = now * static_cast<double>(run.busy_seconds.size());
    run.idle_share = capacity > 0 ? 1.0 - busy / capacity : 0.0;
    return run;
}

CriticalPath critical_path(const std::vector<PairNeeds>& pairs, const std::function<double(std::size_t p)>& seconds) {
    // Inputs come before their readers, so one sweep in list order sees every chain's start.
    std::vector<double> finish(pairs.size(), 0.0);
    std::vector<std::size_t> before(pairs.size(), SIZE_MAX);
    CriticalPath path;
    std::size_t last = SIZE_MAX;
    for (std::size_t p = 0; p < pairs.size(); ++p) {
        double start = 0;
        for (std::size_t x : pairs[p].inputs)
            if (x < p && finish[x] > start) {
                start = finish[x];
                before[p] = x;
            }
        finish[p] = start + (pairs[p].complete ? 0.0 : seconds(p));
        if (last == SIZE_MAX || finish[p] > finish[last]) last = p;
    }
    if (last == SIZE_MAX) return path;
    path.seconds = finish[last];
    for (std::size_t p = last; p != SIZE_MAX; p = before[p]) path.pairs.push_back(p);
    std::reverse(path.pairs.begin(), path.pairs.end());
    return path;
}

}  // namespace dtb::gen
