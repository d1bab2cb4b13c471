// The forward re-derivation of the rule tables (verify_rules.hpp), compiled for International.
#include "dtb/verify/verify_rules.hpp"

#include "dtb/gen/parallel.hpp"
#include "dtb/gen/positions.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/gen/rule_tables.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/fen.hpp"

namespace dtb::verify {

// The generator's rule-table readers and the move values they share with it.
using gen::better;
using gen::FinishedRuleTables;
using gen::parallel_for_positions;
using gen::reversed_after;
using gen::rule_exit_value;
using gen::rule_metrics_of;
using gen::rule_table_kind;
using gen::RuleTableKind;

namespace {

// The threshold of p (White to move, a position of `m`) that its successors imply.
template <class R>
ValueCode derive_rule_value(const FinishedRuleTables<R>& tables, const Material& m, format::Metric metric,
                            const Position& p) {
    using G = typename R::Geometry;
    const RuleTableKind g = rule_table_kind(m, metric);
    thread_local MoveList moves;
    generate_moves<R>(p, moves);
    if (moves.empty()) return loss_in(0);
    if (g.ffjd_small() && !moves.front().is_capture()) return kValueDraw;
    const Position rp = reversed<G>(p);
    ValueCode best = kValueUnknown;
    for (const Move& mv : moves) {
        const Position next = reversed_after<G>(rp, mv);
        ValueCode v;
        if (next.of(Color::white) == 0)
            v = win_in(1);
        else if (mv.is_capture() || mv.promotes)
            v = rule_exit_value(tables, g, next, [&](CountingRules rules, const Position& x) {
                return fresh_value(tables.code(rule_metric(rules), x), count_class(Material::of(x), rules));
            });
        else if (mv.by_king || g.man_moves_inside())
            v = value_one_ply_before(tables.code(metric, next));  // the same table, one ply on
        else                                                      // 25-move rule: a man move restarts the count
            v = value_of_fresh_exit(fresh_value(tables.code(metric, next), CountClass::none));
        best = better(best, v);
    }
    return best;
}

}  // namespace

// Checks every rule table of slice m (White to move). tables must hold m, its mirror and every
// slice their captures and promotions lead to. Returns the positions checked.
template <class R>
std::uint64_t verify_rule_tables(const FinishedRuleTables<R>& tables, const Material& m,
                                 const std::function<void(const RuleMismatch&)>& report,
                                 std::atomic<std::uint64_t>& mismatches) {
    const SliceIndex<R> index(m);
    std::uint64_t checked = 0;
    for (format::Metric metric : rule_metrics_of(m)) {
        parallel_for_positions(
            index,
            [&](std::uint64_t i, const Position& p) {
                const ValueCode stored = tables.code(metric, p);
                const ValueCode derived = derive_rule_value(tables, m, metric, p);
                if (stored == derived) return;
                mismatches.fetch_add(1);
                report(RuleMismatch{format::file_name(m.name(), metric), i, to_fen<R>(p), stored, derived});
            },
            {}, tables.threads());
        checked += index.size();
    }
    return checked;
}

template std::uint64_t verify_rule_tables<International>(const FinishedRuleTables<International>&, const Material&,
                                                         const std::function<void(const RuleMismatch&)>&,
                                                         std::atomic<std::uint64_t>&);

}  // namespace dtb::verify
