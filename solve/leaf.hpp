// The leaves of a proof search, valued without search: a side without a move (lost), a limit of
// the counting rules already reached (drawn), a position inside the tables (their value, or
// under counting rules the rule tables' value with the counters). Anything else is open.
#pragma once
#include <cstdint>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/rules/bitboard.hpp"
#include "dtb/rules/movegen.hpp"

namespace dtb::solve {

enum class LeafKind : std::uint8_t {
    open,        // to be searched
    terminal,    // the side to move has no move: lost
    limit,       // counting rules: a limit already reached, drawn
    table,       // inside the tables
    repetition,  // the position repeats one earlier on the path (the attacker does not win)
    depth,       // the depth limit: left open, the attacker's win not proven there
};

struct Leaf {
    LeafKind kind = LeafKind::open;
    Wdl value = Wdl::draw;  // for the side to move (terminal, limit, table)
    adjudicate::DecidingRule rule = adjudicate::DecidingRule::none;
    int moves = 0;  // open: the number of legal moves
};

// The tables a search reads: WDL (rules none) or the rule tables through the adjudicator.
struct Oracle {
    const probe::Tablebase* tables = nullptr;
    const adjudicate::Adjudicator* judge = nullptr;  // null under CountingRules::none
    int table_pieces = 0;                            // positions with at most this many pieces are probed
};

// Values p, whose side to move has `moves` legal moves and which has `pieces` pieces, as a leaf,
// or says it is open. A table that fails (missing, corrupt) is returned in `failure` (status not
// ok).
inline Leaf classify_leaf(const Oracle& oracle, const Position& p, const adjudicate::Counters& counters, int moves,
                          int pieces, probe::Result& failure, std::uint64_t& probes) {
    Leaf leaf;
    if (moves == 0) {
        leaf.kind = LeafKind::terminal;
        leaf.value = Wdl::loss;
        return leaf;
    }
    if (oracle.judge != nullptr) {
        leaf.rule = oracle.judge->limit_reached(p, counters);
        if (leaf.rule != adjudicate::DecidingRule::none) {
            leaf.kind = LeafKind::limit;
            leaf.value = Wdl::draw;
            return leaf;
        }
    }
    if (pieces <= oracle.table_pieces) {
        ++probes;
        const probe::Result r =
            oracle.judge != nullptr ? oracle.judge->probe_wdl(p, counters) : oracle.tables->probe_wdl(p);
        if (!r.ok()) {
            failure = r;
            return leaf;
        }
        leaf.kind = LeafKind::table;
        leaf.value = r.wdl;
        return leaf;
    }
    leaf.moves = moves;
    return leaf;
}

// The same, with the legal moves made into `moves`.
template <class R>
Leaf evaluate_leaf(const Oracle& oracle, const Position& p, const adjudicate::Counters& counters, MoveList& moves,
                   probe::Result& failure, std::uint64_t& probes) {
    moves.clear();
    generate_moves<R>(p, moves);
    return classify_leaf(oracle, p, counters, static_cast<int>(moves.size()), popcount(p.occupied()), failure, probes);
}

// True when the side to move wins with value w while `attacker` is the side it proves a win for.
inline bool attacker_wins(Color side_to_move, Wdl w, Color attacker) {
    return side_to_move == attacker ? w == Wdl::win : w == Wdl::loss;
}

}  // namespace dtb::solve
