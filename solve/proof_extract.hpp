// The proof tree of a claim, read off the search: at the claim side's choice the child that keeps
// the claim with the least work, elsewhere every child. Nodes the transposition table no longer
// holds (replaced, or disproofs that rest on a repetition of the path) are searched again, each
// with the search's budget. Internal to solve/.
#pragma once
#include <string>

#include "dtb/rules/expected.hpp"
#include "dtb/rules/notation.hpp"
#include "dtb/solve/dfpn.hpp"
#include "dtb/solve/proof.hpp"

namespace dtb::solve {

namespace detail {

template <class R>
class ProofExtractor {
  public:
    ProofExtractor(Search<R>& search, bool prove_win, std::size_t max_nodes)
        : search_(search), prove_win_(prove_win), max_nodes_(max_nodes) {}

    // The tree below the open position p on ply `depth` (p not on the path yet); empty message:
    // done.
    std::string extend(ProofNode& node, const Position& p, const probe::Counters& c, int depth,
                       bool after_irreversible) {
        std::vector<Child> children;
        const NodeValue v = search_.mid(p, c, kInfinity, kInfinity, depth, after_irreversible, &children);
        if (search_.failed()) return "a table failed while the proof was written";
        if (!(prove_win_ ? v.proven() : v.disproven()))
            return "the proof could not be searched again within the node budget (ply " + std::to_string(depth) + ")";
        const bool choice = (p.side_to_move == search_.attacker()) == prove_win_;
        MoveList legal;
        for (const Child& ch : children) legal.push_back(ch.move);
        search_.push_path(p, after_irreversible);
        std::string error;
        for (const Child* ch : chosen(children, choice)) {
            if (++nodes_ > max_nodes_) {
                error = "the proof has more than " + std::to_string(max_nodes_) + " nodes: too large to write";
                break;
            }
            ProofNode& child = node.children.emplace_back();
            child.move = move_to_string<R>(ch->move, legal);
            child.leaf = ch->leaf.kind;
            child.value = ch->leaf.value;
            child.rule = ch->leaf.rule;
            if (ch->leaf.kind == LeafKind::repetition) child.repeats_ply = ch->value.repetition;
            if (ch->leaf.kind != LeafKind::open) continue;
            const bool irreversible = ch->move.is_capture() || (p.kings & bit(ch->move.from)) == 0;
            error = extend(child, ch->pos, ch->counters, depth + 1, irreversible);
            if (!error.empty()) break;
        }
        search_.pop_path();
        return error;
    }

  private:
    std::vector<const Child*> chosen(const std::vector<Child>& children, bool choice) const {
        std::vector<const Child*> out;
        if (!choice) {
            for (const Child& ch : children) out.push_back(&ch);
            return out;
        }
        const Child* best = nullptr;
        auto rank = [&](const Child& ch) {  // leaves first, then transposition-table entries by work
            if (ch.leaf.kind != LeafKind::open) return std::uint64_t{0};
            return std::uint64_t{1} + ch.value.pn + ch.value.dn;
        };
        for (const Child& ch : children) {
            const bool keeps = prove_win_ ? ch.value.proven() : ch.value.disproven();
            if (keeps && (best == nullptr || rank(ch) < rank(*best))) best = &ch;
        }
        if (best != nullptr) out.push_back(best);
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
Expected<ProofNode> extract_proof(detail::Search<R>& search, const Position& root, const probe::Counters& counters,
                                  bool prove_win, std::size_t max_nodes) {
    ProofNode tree;
    detail::ProofExtractor<R> extractor(search, prove_win, max_nodes);
    const std::string error = extractor.extend(tree, root, counters, 0, true);
    if (!error.empty()) return Error{error, ErrorKind::unspecified};
    return tree;
}

}  // namespace dtb::solve
