#include "dtb/gen/pair_schedule.hpp"

#include <algorithm>
#include <numeric>

namespace dtb::gen {

std::string megabytes(std::uint64_t bytes) {
    return std::to_string((bytes + (1 << 20) - 1) >> 20) + " MB";
}

Expected<PairSchedule> PairSchedule::make(std::vector<PairNeeds> pairs, std::vector<std::uint64_t> limits) {
    if (limits.empty()) return Error{"a schedule needs at least one worker", ErrorKind::bad_input};
    for (std::size_t p = 0; p < pairs.size(); ++p)
        for (std::size_t x : pairs[p].inputs)
            if (x >= p)
                return Error{"pair " + pairs[p].name + " reads a pair that does not come before it",
                             ErrorKind::bad_input};
    // The most memory of any worker (0, unbounded, if one is).
    const bool unbounded = std::find(limits.begin(), limits.end(), 0) != limits.end();
    const std::uint64_t largest = unbounded ? 0 : *std::max_element(limits.begin(), limits.end());
    for (const PairNeeds& pair : pairs) {
        if (pair.complete || holds(largest, pair.whole_bytes, pair.level_bytes)) continue;
        return Error{"pair " + pair.name + " needs about " + megabytes(pair.whole_bytes) + " solved whole" +
                         (pair.level_bytes
                              ? " and " + megabytes(pair.level_bytes) + (pair.by_blocks ? " by blocks" : " by levels")
                              : "") +
                         ", more than the largest worker's " + megabytes(largest) +
                         " of work memory (give the ranks more --memory)",
                     ErrorKind::bad_input};
    }
    return PairSchedule(std::move(pairs), std::move(limits));
}

PairSchedule::PairSchedule(std::vector<PairNeeds> pairs, std::vector<std::uint64_t> limits)
    : pairs_(std::move(pairs)),
      limits_(std::move(limits)),
      complete_(pairs_.size()),
      started_(pairs_.size()),
      whole_somewhere_(pairs_.size()),
      in_flight_(limits_.size()),
      by_size_(pairs_.size()) {
    for (std::size_t p = 0; p < pairs_.size(); ++p) {
        complete_[p] = pairs_[p].complete;
        if (!complete_[p]) ++remaining_;
        for (int w = 0; w < workers(); ++w)
            if (holds_whole(w, p)) whole_somewhere_[p] = true;
    }
    std::iota(by_size_.begin(), by_size_.end(), std::size_t{0});
    std::stable_sort(by_size_.begin(), by_size_.end(),
                     [&](std::size_t a, std::size_t b) { return pairs_[a].positions > pairs_[b].positions; });
}

bool PairSchedule::ready(std::size_t p) const {
    if (complete_[p] || started_[p]) return false;
    return std::all_of(pairs_[p].inputs.begin(), pairs_[p].inputs.end(), [&](std::size_t x) { return complete_[x]; });
}

// The idle worker for pair p by the rules of the class comment, if one is idle now.
std::optional<Assignment> PairSchedule::place(std::size_t p) const {
    std::optional<int> best;
    const SolveMode mode = whole_somewhere_[p] ? SolveMode::whole : SolveMode::by_levels;
    for (int w = 0; w < workers(); ++w) {
        if (in_flight_[w]) continue;
        if (mode == SolveMode::whole ? !holds_whole(w, p) : !holds_level(w, p)) continue;
        if (!best) {
            best = w;
            continue;
        }
        // Limit 0 is unbounded: the most memory of all.
        const auto memory = [&](int v) { return limits_[v] == 0 ? UINT64_MAX : limits_[v]; };
        if (mode == SolveMode::whole ? memory(w) < memory(*best) : memory(w) > memory(*best)) best = w;
    }
    if (!best) return std::nullopt;
    return Assignment{p, *best, mode};
}

std::vector<Assignment> PairSchedule::assign() {
    std::vector<Assignment> out;
    for (std::size_t p : by_size_) {
        if (std::none_of(in_flight_.begin(), in_flight_.end(), [](const auto& f) { return !f.has_value(); })) break;
        if (!ready(p)) continue;
        if (auto a = place(p)) {
            started_[p] = true;
            in_flight_[a->worker] = p;
            out.push_back(*a);
        }
    }
    return out;
}

void PairSchedule::finished(int worker) {
    if (worker < 0 || worker >= workers() || !in_flight_[worker]) return;
    complete_[*in_flight_[worker]] = true;
    in_flight_[worker].reset();
    --remaining_;
}

}  // namespace dtb::gen
