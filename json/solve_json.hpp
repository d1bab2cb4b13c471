// `dtb solve --json`'s objects: the answer of a proof search (solve/prover.hpp) and the verdict
// on a proof file (`--check`).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "dtb/solve/proof_check.hpp"
#include "dtb/solve/solve_types.hpp"

namespace dtb::json {

// {"fen","variant","rules","counters","answer","lower","upper","source","best_move","pv",
//  "nodes","probes","max_pieces","seconds","stopped"}: answer win, draw, loss or unresolved;
// lower / upper the proven bounds (loss, draw, win) for the side to move; best_move null when
// none is fixed; stopped none, nodes, time or depth.
nlohmann::json solve_json(const std::string& fen, VariantId variant, CountingRules rules,
                          const adjudicate::Counters& counters, const solve::SolveResult& r);

// {"file","valid","problem","answer","lower","upper","nodes","leaves"}: problem null when valid.
nlohmann::json proof_check_json(const std::string& file, const solve::ProofCheck& c);

}  // namespace dtb::json
