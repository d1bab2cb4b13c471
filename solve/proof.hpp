// A proof as a tree of moves: what `dtb solve --proof` writes as PDN (solve/proof_pdn.hpp) and
// `dtb solve --check` reads back and verifies (solve/proof_check.hpp).
//
// A proof part proves one claim for the side to move at the root. At the nodes where the claim's
// side chooses, one move (or more) is given; at the others, every legal move. A node without
// moves is a leaf: a position of the tables, a side without a move, a limit of the counting
// rules reached, or (for the claims "not a win" and "not a loss" only, where the side that
// avoids losing may repeat) a repetition of a position earlier on its line.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/probe/counting_rules.hpp"
#include "dtb/rules/variant.hpp"
#include "dtb/solve/leaf.hpp"

namespace dtb::solve {

// For the side to move at the root: it wins; it loses; it does not win (at most a draw); it
// does not lose (at least a draw).
enum class Claim : std::uint8_t { win, loss, not_win, not_loss };
std::string_view to_string(Claim c);  // "win", "loss", "not-win", "not-loss"
std::optional<Claim> parse_claim(std::string_view s);

// The side a claim proves a win for, or proves does not win: the root's side for win and
// not_win, the other side for loss and not_loss.
constexpr bool claim_attacker_is_root_side(Claim c) {
    return c == Claim::win || c == Claim::not_win;
}
constexpr bool claim_is_win(Claim c) {
    return c == Claim::win || c == Claim::loss;
}

struct ProofNode {
    std::string move;  // the move that led here, in notation of the position it is played in
    LeafKind leaf = LeafKind::open;
    Wdl value = Wdl::draw;  // a leaf's value for its side to move (table, terminal, limit)
    adjudicate::DecidingRule rule = adjudicate::DecidingRule::none;  // limit leaves
    int repeats_ply = -1;                                            // repetition leaves: the ply repeated
    bool annotated = false;  // read from a file: the leaf fields come from its comment
    int line = 0;            // read from a file: the line of the move
    std::vector<ProofNode> children;
};

struct ProofPart {
    Claim claim = Claim::win;
    ProofNode root;
};

struct Proof {
    VariantId variant = VariantId::international;
    std::string fen;
    CountingRules rules = CountingRules::none;
    adjudicate::Counters counters;  // as they apply at the root
    std::vector<ProofPart> parts;
};

}  // namespace dtb::solve
