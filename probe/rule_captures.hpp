// Rule values with fresh counters, and the rule-table entries that readers resolve.
//
// A capture restarts the 25-move count (RULES.md 1). So in material in no counting class (where
// only the 25-move rule counts), a position whose side to move must capture is worth, under a
// rule set, the best of its captures, each valued by its successor's rule value with fresh
// counters: nothing of its own counters matters. The generator stores such entries of the fmjd
// and ffjd tables as "don't care" (filled to compress best; docs/FORMAT.md), and every reader
// resolves them here: the generator's rule-table loader (gen/finished_rule_tables.hpp) and the
// probe library (probe_table); gen/finished_tables.hpp computes the same from the successors'
// words it reads in batches for their game values (FinishedTables::resolve_captures). Material in a counting class
// keeps every entry: there a capture may carry a class budget along (into the 5-move class, or
// into K+M v K under ffjd), so its value depends on the counters.
#pragma once
#include "dtb/index/material.hpp"
#include "dtb/probe/counting_rules.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/position.hpp"

namespace dtb {

// The materials whose rule tables store every position, including those with a capture: in a
// counting class under either rule set, or K+M v K (whose ffjd16 table carries a 16-move limit).
// The generator also keeps exactly these tables in memory for later slices' rule solves.
constexpr bool has_class_thresholds(const Material& m) {
    return count_class(m, CountingRules::fmjd) != CountClass::none ||
           count_class(m, CountingRules::ffjd) != CountClass::none || is_ffjd_carried(m);
}
// Whether the fmjd and ffjd tables of m leave capture positions "don't care".
constexpr bool rule_captures_dont_care(const Material& m) {
    return !has_class_thresholds(m);
}

// The rule value with fresh counters (the position just arose from a capture or a man move)
// of a position whose threshold code under its class is `code`.
inline Wdl fresh_value(ValueCode code, CountClass c) {
    if (is_draw(code) || distance_of(code) > fresh_budget(c)) return Wdl::draw;
    return wdl_of(code);
}
// The value, for the side that moves, of a move into a position of rule value v whose counters
// restart (every limit out of reach in one ply): a win for the mover iff v is a loss.
inline ValueCode value_of_fresh_exit(Wdl v) {
    return v == Wdl::loss ? win_in(1) : v == Wdl::win ? loss_in(1) : kValueDraw;
}

// The better, for the side that captures, of best (so far) and a capture into a position whose rule
// value with fresh counters is `after` (Wdl::loss where the capture took the last piece). A capture
// position's rule code is value_of_fresh_exit(flip(best)) over all its captures, from Wdl::loss.
inline Wdl better_capture(Wdl best, Wdl after) {
    const Wdl mine = flip(after);
    return static_cast<int>(mine) > static_cast<int>(best) ? mine : best;
}

// The rule code (fmjd or ffjd table) of p, White to move, a position of material in no counting
// class whose side to move has a capture: win_in(1), loss_in(1) or a draw. fresh_of(next) gives
// the rule value with fresh counters of a successor (White to move, with a white piece) under
// the rule set wanted; it may resolve the successor here in turn, with another `moves` list.
template <class R, class FreshOf>
ValueCode rule_code_from_captures(const Position& p, MoveList& moves, const FreshOf& fresh_of) {
    using G = typename R::Geometry;
    MoveGenerator<R>(p, moves, CaptureMode::unique).generate_captures_only();
    Wdl best = Wdl::loss;  // (a capture position has at least one capture)
    for (const Move& m : moves) {
        const Position next = reversed<G>(make_move(p, m));
        best = better_capture(best, next.of(Color::white) == 0 ? Wdl::loss : fresh_of(next));
        if (best == Wdl::win) break;
    }
    return value_of_fresh_exit(flip(best));
}

}  // namespace dtb
