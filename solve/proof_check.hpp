// `dtb solve --check`: a proof (solve/proof.hpp, read with proof_pdn.hpp) verified move by move
// against the rules and the tables alone, without any search: every move legal; at the nodes
// where the claim's opponent moves, every legal move answered; every leaf a position the tables
// (or the counting rules with the counters of its line) value as the claim needs, a side without
// a move, or, for "not a win" and "not a loss", a repetition of a position earlier on its line;
// and every leaf's annotation true.
#pragma once
#include <cstdint>
#include <string>

#include "dtb/probe/probe.hpp"
#include "dtb/solve/proof.hpp"
#include "dtb/solve/solve_types.hpp"

namespace dtb::solve {

struct ProofCheck {
    probe::Result status;  // ok, or a table that failed (Tablebase::explain)
    bool valid = false;
    std::string problem;                 // the first problem, naming its ply and line; empty when valid
    Answer answer = Answer::unresolved;  // what the proven claims together say
    Wdl lower = Wdl::loss, upper = Wdl::win;
    std::uint64_t nodes = 0, leaves = 0;
};

// tables: of the proof's variant, with the rule tables when the proof has counting rules.
ProofCheck check_proof(const probe::Tablebase& tables, const Proof& proof);

}  // namespace dtb::solve
