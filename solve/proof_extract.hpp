// The proof tree of a claim, read off the search: at the claim side's choice the child that keeps
// the claim with the least work, elsewhere every child. Nodes the transposition table no longer
// holds (replaced, or disproofs that rest on a repetition of the path) are searched again, each
// with the search's budget. Internal to solve/.
#pragma once
#include <algorithm>
#include <string>

#include "dtb/rules/expected.hpp"
#include "dtb/rules/notation.hpp"
#include "dtb/solve/dfpn.hpp"
#include "dtb/solve/proof.hpp"

namespace dtb::solve {

namespace detail {

enum class Outcome : std::uint8_t { done, not_on_this_line, fatal };
struct Step {
    Outcome outcome = Outcome::done;
    std::string message;
};

template <class R>
class ProofExtractor {
  public:
    ProofExtractor(Search<R>& search, bool prove_win, std::size_t max_nodes)
        : search_(search), prove_win_(prove_win), max_nodes_(max_nodes) {}

    // The tree below the open position p on ply `depth` (p not on the path yet). At the claim
    // side's choice the children that keep the claim are tried by rising distance: a child
    // proven elsewhere may fail on this line (its proof would repeat a position of the line).
    Step extend(ProofNode& node, const Position& p, const adjudicate::Counters& c, int depth, bool after_irreversible) {
        std::vector<Child> children;
        const NodeValue v = search_.mid(p, c, kInfinity, kInfinity, depth, after_irreversible, &children);
        if (search_.failed()) return fatal("a table failed while the proof was written");
        if (!(prove_win_ ? v.proven() : v.disproven())) {
            if (search_.stopped() == StopReason::cancelled) return fatal("the proof was cancelled");
            if (search_.stopped() != StopReason::none)
                return fatal("the proof could not be searched again within the node budget (ply " +
                             std::to_string(depth) + ")");
            return {Outcome::not_on_this_line, {}};
        }
        const bool choice = (p.side_to_move == search_.attacker()) == prove_win_;
        MoveList legal;
        for (const Child& ch : children) legal.push_back(ch.move);
        search_.push_path(p, after_irreversible);
        Step step{Outcome::done, {}};
        for (const Child* ch : candidates(children, choice)) {
            if (++nodes_ > max_nodes_) {
                step = fatal("the proof has more than " + std::to_string(max_nodes_) + " nodes: too large to write");
                break;
            }
            ProofNode& child = node.children.emplace_back();
            child.move = move_to_string<R>(ch->move, legal);
            child.leaf = ch->leaf.kind;
            child.value = ch->leaf.value;
            child.rule = ch->leaf.rule;
            if (ch->leaf.kind == LeafKind::repetition) child.repeats_ply = ch->value.repetition;
            step = {Outcome::done, {}};
            if (ch->leaf.kind == LeafKind::open) {
                const bool irreversible = ch->move.is_capture() || (p.kings & bit(ch->move.from)) == 0;
                step = extend(child, ch->pos, ch->counters, depth + 1, irreversible);
            }
            if (step.outcome == Outcome::fatal) break;
            if (step.outcome == Outcome::not_on_this_line) {
                node.children.pop_back();
                if (choice) continue;  // the next candidate
                break;                 // every reply must hold: this line fails
            }
            if (choice) break;  // one move suffices
        }
        if (choice && step.outcome == Outcome::done && node.children.empty()) step = {Outcome::not_on_this_line, {}};
        search_.pop_path();
        return step;
    }

  private:
    Step fatal(std::string message) const { return {Outcome::fatal, std::move(message)}; }

    // Every child where all must hold; else those that keep the claim, leaves first, then by
    // rising distance.
    std::vector<const Child*> candidates(const std::vector<Child>& children, bool choice) const {
        std::vector<const Child*> out;
        for (const Child& ch : children)
            if (!choice || (prove_win_ ? ch.value.proven() : ch.value.disproven())) out.push_back(&ch);
        if (choice)
            std::stable_sort(out.begin(), out.end(), [](const Child* a, const Child* b) {
                const bool la = a->leaf.kind != LeafKind::open, lb = b->leaf.kind != LeafKind::open;
                if (la != lb) return la;
                return a->value.distance < b->value.distance;
            });
        return out;
    }

    Search<R>& search_;
    bool prove_win_;
    std::size_t max_nodes_;
    std::size_t nodes_ = 0;
};

}  // namespace detail

// The tree proving (prove_win) or disproving that the search's attacker wins from the open root.
template <class R>
Expected<ProofNode> extract_proof(detail::Search<R>& search, const Position& root, const adjudicate::Counters& counters,
                                  bool prove_win, std::size_t max_nodes) {
    ProofNode tree;
    detail::ProofExtractor<R> extractor(search, prove_win, max_nodes);
    const detail::Step step = extractor.extend(tree, root, counters, 0, true);
    if (step.outcome == detail::Outcome::fatal) return Error{step.message, ErrorKind::unspecified};
    if (step.outcome != detail::Outcome::done)
        return Error{"the proof could not be searched again", ErrorKind::unspecified};
    return tree;
}

}  // namespace dtb::solve
