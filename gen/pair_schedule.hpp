// Which pair each worker solves next, when several workers (the ranks of a distributed run, or the
// nodes of a simulated one) share a generation: the pairs as a dependency graph, each ready once
// every pair it reads is complete, handed out largest first to workers whose memory holds it.
// Variant-free: what the schedule knows of a pair is its PairNeeds (docs/SCALING.md, "Schedule").
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dtb/rules/expected.hpp"

namespace dtb::gen {

// How a pair is solved: whole, or one advancement level at a time with its arrays in files
// (docs/GENERATOR.md, "Memory").
enum class SolveMode : unsigned char { whole, by_levels };

// A size in whole megabytes, rounded up ("12 MB"), as the schedule's and the plan's messages
// print it.
std::string megabytes(std::uint64_t bytes);

// What the schedule needs of a pair.
struct PairNeeds {
    std::string name;                 // the pair's first slice, as in slice lines
    std::uint64_t positions = 0;      // both slices: the measure of "largest first"
    std::uint64_t whole_bytes = 0;    // memory to solve it whole, its inputs held
    std::uint64_t level_bytes = 0;    // by levels (its largest level, inputs held); 0: cannot be
    bool by_blocks = false;           // level_bytes is by blocks, the cheaper way
    std::vector<std::size_t> inputs;  // the pairs it reads, as indices in the schedule's list
    bool complete = false;            // already on disk: never handed out
};

struct Assignment {
    std::size_t pair = 0;
    int worker = 0;
    SolveMode mode = SolveMode::whole;
};

// The schedule of one run. Rules (docs/SCALING.md, "Schedule"):
// - ready: not complete, not in flight, every input complete;
// - ready pairs are considered largest first (positions; ties: earlier in the list, which is the
//   generation order);
// - a pair that some worker can hold whole is solved whole: it goes to the idle worker with the
//   least memory that holds it (ties: the lowest worker), or waits for one while smaller pairs go
//   ahead;
// - a pair that no worker holds whole is solved by levels on the idle worker with the most
//   memory that holds its largest level (ties: the lowest worker), or waits for one.
class PairSchedule {
  public:
    // limits: each worker's work memory in bytes (0: unbounded). Refused, before anything is
    // handed out: a pair that no worker can hold whole or by levels (named, with its needs), an
    // input index out of range or not before its reader.
    static Expected<PairSchedule> make(std::vector<PairNeeds> pairs, std::vector<std::uint64_t> limits);

    // Ready pairs for the idle workers; each returned assignment makes its worker busy.
    std::vector<Assignment> assign();
    // The pair in flight on worker w is complete; w is idle again.
    void finished(int worker);
    bool done() const { return remaining_ == 0; }
    // Per worker: the pair it solves, if any.
    const std::vector<std::optional<std::size_t>>& in_flight() const { return in_flight_; }
    const std::vector<PairNeeds>& pairs() const { return pairs_; }
    std::size_t remaining() const { return remaining_; }
    int workers() const { return static_cast<int>(limits_.size()); }
    // Whether work memory `limit` (0: unbounded) holds a pair of these needs whole or by levels
    // (level_bytes 0: it cannot be solved by levels): the rule make() refuses pairs by.
    static bool holds(std::uint64_t limit, std::uint64_t whole_bytes, std::uint64_t level_bytes) {
        return fits(limit, whole_bytes) || (level_bytes != 0 && fits(limit, level_bytes));
    }
    // Whether pair p could be solved whole by worker w / by levels.
    bool holds_whole(int w, std::size_t p) const { return fits(limits_[w], pairs_[p].whole_bytes); }
    bool holds_level(int w, std::size_t p) const {
        return pairs_[p].level_bytes != 0 && fits(limits_[w], pairs_[p].level_bytes);
    }

  private:
    PairSchedule(std::vector<PairNeeds> pairs, std::vector<std::uint64_t> limits);
    static bool fits(std::uint64_t limit, std::uint64_t bytes) { return limit == 0 || bytes <= limit; }
    bool ready(std::size_t p) const;
    std::optional<Assignment> place(std::size_t p) const;

    std::vector<PairNeeds> pairs_;
    std::vector<std::uint64_t> limits_;
    std::vector<bool> complete_;
    std::vector<bool> started_;
    std::vector<bool> whole_somewhere_;  // some worker holds the pair whole
    std::vector<std::optional<std::size_t>> in_flight_;
    std::vector<std::size_t> by_size_;  // pair indices, largest first
    std::size_t remaining_ = 0;
};

}  // namespace dtb::gen
