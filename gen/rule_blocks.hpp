// Whether a pair solved by blocks keeps to its blocks through its rule tables too
// (RuleTableSolver::solve_by_blocks): it has men (levels), and every rule set solves phases (no
// counting class, no carried 16-move table). A variant without counting rules has no rule tables.
// Otherwise the game's arrays are gathered whole again for the rule tables.
#pragma once
#include "dtb/index/material.hpp"
#include "dtb/probe/counting_rules.hpp"

namespace dtb::gen {

template <class R>
constexpr bool rule_tables_by_blocks_of(const Material& m) {
    if constexpr (!R::kCountingRules) {
        return true;
    } else {
        if (m.men() == 0 || is_ffjd_carried(m)) return false;
        for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd})
            if (count_class(m, rules) != CountClass::none) return false;
        return true;
    }
}

}  // namespace dtb::gen
