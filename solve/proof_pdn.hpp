// A proof (solve/proof.hpp) as PDN: one game per claim, with the root in the FEN tag, the claim,
// the rule set and counters in tags, the tree as the main line and variations (PDN 3.0), and
// each leaf's source in the comment after its move:
//   {table: White wins}  {table: draw}  {terminal: Black has no move}
//   {limit: draw by the 25-move rule}  {repetition: ply 3}   (the position after ply 3; ply 0
//   is the root)
// `dtb adjudicate` and any PDN viewer read the main line; solve/proof_check.hpp reads it all.
#pragma once
#include <string>
#include <string_view>

#include "dtb/rules/expected.hpp"
#include "dtb/solve/proof.hpp"

namespace dtb::solve {

// The longest line a proof file may hold: reading, checking and freeing a tree recurse along its
// lines, and a file is input (a hand-made one could be of any depth).
inline constexpr int kMaxProofPlies = 10'000;

std::string write_proof_pdn(const Proof& proof);

// The proof a PDN text holds, every game a part. Fails (bad input) on text that is no proof: no
// game, a game without FEN or Claim tag, an unknown claim, rules or game type, broken
// variations, a line longer than kMaxProofPlies. Comments other than the leaf annotations above
// are allowed and ignored.
Expected<Proof> read_proof_pdn(std::string_view text);

// The annotation of a leaf ("table: White wins"); empty for an open node.
std::string leaf_comment(const ProofNode& node, Color side_to_move);

}  // namespace dtb::solve
