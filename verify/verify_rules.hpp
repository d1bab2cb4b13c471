// `dtb verify --full` for the rule tables (gen/rule_tables.hpp): every stored threshold is
// re-derived from the stored thresholds of its successors by forward move generation, the way
// verify/verify_slice.hpp re-derives WDL, DTW and DTC: a win at t needs a move to a loss at t - 1 and no
// faster one, a loss at t has every move lead to a win, the longest at t - 1, a draw has neither.
// Moves that leave the slice are valued by rule_exit_value, shared with the generator (the
// counting rules live in one place); what this adds is the independent forward pass.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "dtb/gen/finished_rule_tables.hpp"
#include "dtb/index/material.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::verify {

struct RuleMismatch {
    std::string table;  // file name, e.g. "KKMvK.fmjd"
    std::uint64_t index = 0;
    std::string fen;
    ValueCode stored = 0, derived = 0;
};

// Checks every rule table of slice m (White to move). tables must hold m, its mirror and every
// slice their captures and promotions lead to. Returns the positions checked. Compiled for
// International, the variant with rule tables (verify_rules.cpp).
template <class R>
std::uint64_t verify_rule_tables(const gen::FinishedRuleTables<R>& tables, const Material& m,
                                 const std::function<void(const RuleMismatch&)>& report,
                                 std::atomic<std::uint64_t>& mismatches);

extern template std::uint64_t verify_rule_tables<International>(const gen::FinishedRuleTables<International>&,
                                                                const Material&,
                                                                const std::function<void(const RuleMismatch&)>&,
                                                                std::atomic<std::uint64_t>&);

}  // namespace dtb::verify
