#include "dtb/solve/proof_check.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/notation.hpp"
#include "dtb/solve/leaf.hpp"
#include "dtb/solve/proof_pdn.hpp"

namespace dtb::solve {

namespace {

template <class R>
class Checker {
  public:
    Checker(const probe::Tablebase& tables, const adjudicate::Adjudicator* judge, Claim claim, Color root_side,
            ProofCheck& report)
        : judge_(judge), claim_(claim), root_side_(root_side), report_(report) {
        oracle_.tables = &tables;
        oracle_.judge = judge;
        oracle_.table_pieces = tables.max_pieces();
        attacker_ = claim_attacker_is_root_side(claim) ? root_side : ~root_side;
    }

    // The first problem below `node` (the position p on ply `ply`), or empty.
    std::string check(const ProofNode& node, const Position& p, const adjudicate::Counters& c, int ply) {
        ++report_.nodes;
        if (node.children.empty()) return check_leaf(node, p, c, ply);
        MoveList legal;
        generate_moves<R>(p, legal);
        std::vector<bool> answered(legal.size(), false);
        path_.push_back(p);
        std::string problem;
        for (const ProofNode& child : node.children) {
            const auto m = parse_move<R>(p, child.move);
            if (!m) {
                problem = where(ply + 1, child.move) + ": not a legal move (" + m.error() + ")";
                break;
            }
            for (std::size_t i = 0; i < legal.size(); ++i)
                if (legal[i].same_effect(*m)) answered[i] = true;
            line_.push_back(move_to_string<R>(*m, legal));
            problem = check(child, make_move(p, *m), counters_after(p, c, *m), ply + 1);
            line_.pop_back();
            if (!problem.empty()) break;
        }
        const bool choice = (p.side_to_move == attacker_) == claim_is_win(claim_);
        if (problem.empty() && !choice)
            for (std::size_t i = 0; i < legal.size(); ++i)
                if (!answered[i]) {
                    problem = where(ply + 1, move_to_string<R>(legal[i], legal)) + ": this move of " +
                              side_name(p.side_to_move) + " is missing (every reply must be answered)";
                    break;
                }
        path_.pop_back();
        return problem;
    }

  private:
    adjudicate::Counters counters_after(const Position& p, const adjudicate::Counters& c, const Move& m) const {
        return judge_ != nullptr ? judge_->after_move(p, c, m) : c;
    }
    static const char* side_name(Color c) { return c == Color::white ? "White" : "Black"; }

    // "ply 5 (3. 32-28, after 1. 33-29 17-22 2. 29x18 12x23)": the move on that ply and its line.
    std::string where(int ply, const std::string& move) const {
        auto numbered = [&](int k, const std::string& m) {  // move k (1-based) of the line
            const bool black = (root_side_ == Color::white) == (k % 2 == 0);
            const int full = (k + (root_side_ == Color::black ? 1 : 0) + 1) / 2;
            return std::to_string(full) + (black ? "... " : ". ") + m;
        };
        std::string s = "ply " + std::to_string(ply) + " (" + numbered(ply, move);
        if (!line_.empty()) {
            s += ", after";
            for (std::size_t i = 0; i < line_.size(); ++i) s += " " + numbered(static_cast<int>(i) + 1, line_[i]);
        }
        return s + ")";
    }

    std::string check_leaf(const ProofNode& node, const Position& p, const adjudicate::Counters& c, int ply) {
        ++report_.leaves;
        const std::string at = ply == 0 ? std::string("the root") : where(ply, line_.back());
        probe::Result failure;
        MoveList moves;
        std::uint64_t probes = 0;
        const Leaf leaf = evaluate_leaf<R>(oracle_, p, c, moves, failure, probes);
        if (!failure.ok()) {
            report_.status = failure;
            return at + ": a table failed";
        }
        const std::size_t path_end = path_.size();
        int repeated = -1;
        for (std::size_t i = 0; i < path_end; ++i)
            if (path_[i] == p) repeated = static_cast<int>(i);
        const bool claim_win = claim_is_win(claim_);
        auto holds = [&](LeafKind kind, Wdl value) {
            if (kind == LeafKind::repetition) return !claim_win;
            return attacker_wins(p.side_to_move, value, attacker_) == claim_win;
        };
        if (node.annotated) {
            // The annotation must be true of the position, and what it says must prove the claim.
            const std::string said = "the comment says \"" + leaf_comment(node, p.side_to_move) + "\"";
            if (node.leaf == LeafKind::repetition) {
                if (node.repeats_ply < 0 || node.repeats_ply >= static_cast<int>(path_end) ||
                    !(path_[static_cast<std::size_t>(node.repeats_ply)] == p))
                    return at + ": " + said + ", but that ply's position is not this one";
            } else if (node.leaf != leaf.kind || node.value != leaf.value) {
                return at + ": " + said + ", but " + fact(leaf, p);
            }
            if (!holds(node.leaf, node.value)) return at + ": " + said + ", which does not prove " + claim_text();
            return {};
        }
        if (leaf.kind != LeafKind::open && holds(leaf.kind, leaf.value)) return {};
        if (repeated >= 0 && !claim_win) return {};
        if (leaf.kind != LeafKind::open)
            return at + ": the line ends where " + fact(leaf, p) + ", which does not prove " + claim_text();
        return at + ": the line ends in a position that is neither in the tables nor decided by the rules" +
               std::string(claim_win ? "" : " nor a repetition") + ": a move is missing";
    }

    std::string fact(const Leaf& leaf, const Position& p) const {
        ProofNode n;
        n.leaf = leaf.kind;
        n.value = leaf.value;
        n.rule = leaf.rule;
        if (leaf.kind == LeafKind::open) return "the position is not a leaf (not in the tables, not decided)";
        return "it is \"" + leaf_comment(n, p.side_to_move) + "\"";
    }

    std::string claim_text() const {
        const Color side = root_side_;
        switch (claim_) {
            case Claim::win:
                return std::string("that ") + side_name(side) + " wins";
            case Claim::loss:
                return std::string("that ") + side_name(~side) + " wins";
            case Claim::not_win:
                return std::string("that ") + side_name(side) + " does not win";
            case Claim::not_loss:
                break;
        }
        return std::string("that ") + side_name(~side) + " does not win";
    }

    Oracle oracle_;
    const adjudicate::Adjudicator* judge_;
    Claim claim_;
    Color root_side_;
    Color attacker_ = Color::white;
    ProofCheck& report_;
    std::vector<Position> path_;
    std::vector<std::string> line_;
};

template <class R>
ProofCheck check_with(const probe::Tablebase& tables, const Proof& proof) {
    ProofCheck report;
    const auto root = parse_fen<R>(proof.fen);
    if (!root) {
        report.problem = "the FEN tag: " + root.error();
        return report;
    }
    std::optional<adjudicate::Adjudicator> judge;
    if (proof.rules != CountingRules::none) judge.emplace(tables, proof.rules);
    const adjudicate::Counters counters = judge ? judge->applicable(*root, proof.counters) : adjudicate::Counters{};
    bool win = false, loss = false, not_win = false, not_loss = false;
    for (const ProofPart& part : proof.parts) {
        Checker<R> checker(tables, judge ? &*judge : nullptr, part.claim, root->side_to_move, report);
        const std::string problem = checker.check(part.root, *root, counters, 0);
        if (!problem.empty()) {
            report.problem = "claim " + std::string(to_string(part.claim)) + ": " + problem;
            return report;
        }
        win |= part.claim == Claim::win;
        loss |= part.claim == Claim::loss;
        not_win |= part.claim == Claim::not_win;
        not_loss |= part.claim == Claim::not_loss;
    }
    if ((win && (loss || not_win)) || (loss && not_loss)) {
        report.problem = "the claims contradict each other";
        return report;
    }
    report.valid = true;
    if (win) report.lower = report.upper = Wdl::win;
    if (loss) report.lower = report.upper = Wdl::loss;
    if (not_win) report.upper = Wdl::draw;
    if (not_loss) report.lower = Wdl::draw;
    report.answer = win    ? Answer::win
                    : loss ? Answer::loss
                           : (report.lower == report.upper ? Answer::draw : Answer::unresolved);
    return report;
}

}  // namespace

ProofCheck check_proof(const probe::Tablebase& tables, const Proof& proof) {
    if (tables.variant() != proof.variant) {
        ProofCheck report;
        report.problem = "the proof is of " + std::string(variant_name(proof.variant)) + " draughts, the tables of " +
                         std::string(variant_name(tables.variant()));
        return report;
    }
    return with_variant(proof.variant, [&](auto v) { return check_with<decltype(v)>(tables, proof); });
}

}  // namespace dtb::solve
