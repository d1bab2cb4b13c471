// dtb's proof search beyond the tables: proves a position won, drawn or lost for the side to move
// with a df-pn search (solve/dfpn.hpp) whose leaves are table probes, terminal positions and
// repetitions; under counting rules the counters are part of the state and the leaves are the
// rule tables' values (adjudicate/adjudicator.hpp). Method and soundness: docs/SOLVE.md.
//
//   auto tb = dtb::probe::Tablebase::open({.directories = {"data/tb/international"}});
//   auto prover = dtb::solve::Prover::create(*tb, {.max_seconds = 10});
//   dtb::solve::SolveResult r = prover->solve(position);
//   if (r.ok() && r.answer != dtb::solve::Answer::unresolved) use(r.answer, r.best_move, r.pv);
//   auto proof = prover->proof();   // the proof of what the last solve proved
//
// Two questions are searched in turns with growing budgets: "does the side to move win" and
// "does the opponent win". A win of either answers; two disproofs make a draw; a single disproof
// is a bound (lower, upper). Nothing is guessed: what the budget did not settle is unresolved.
//
// A Prover is not safe to use from two threads at once (it owns the search memory); the
// tables must outlive it. Nothing is printed; progress goes to ProverOptions::progress.
#pragma once
#include <memory>

#include "dtb/probe/probe.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/solve/proof.hpp"
#include "dtb/solve/solve_types.hpp"

namespace dtb::solve {

// The largest proof proof() writes out, in nodes of the tree.
inline constexpr std::size_t kMaxProofNodes = 2'000'000;

class Prover {
  public:
    // Refuses (an error text) options that make no sense: counting rules on Turkish tables,
    // counters out of range, a memory budget of 0, a depth of 0. Throws std::bad_alloc when the
    // transposition table's memory is refused.
    static Expected<Prover> create(const probe::Tablebase& tables, const ProverOptions& options);

    Prover(Prover&&) noexcept;
    Prover& operator=(Prover&&) noexcept;
    ~Prover();

    // The value of p for its side to move within the budgets. A table that fails, or a position
    // the tables refuse (illegal: a side without pieces, ...), gives a status that is not ok.
    SolveResult solve(const Position& p);

    // The proof of what the last solve() proved (one part per claim: a win, a loss, or for a
    // draw "not a win" and "not a loss"); no part when nothing was proven or the root was inside
    // the tables (a leaf). Fails when the proof cannot be re-derived within the node budget
    // given (0: the search's own budget, at least a million) or has more than kMaxProofNodes.
    Expected<Proof> proof(std::uint64_t max_nodes = 0);

    const ProverOptions& options() const;

    class Impl;

  private:
    explicit Prover(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace dtb::solve
