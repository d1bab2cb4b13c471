// The query parameters of the counting rules, read once for every route that takes them: the rule
// set and the game's counters (docs/API.md).
#pragma once
#include <optional>
#include <string>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/probe/counting_rules.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/server/explorer.hpp"

namespace dtb::server {

// reversible (default 0), endgame and small (absent: not in force), each plain decimal in
// [0, adjudicate::kMaxCounterPlies]; a bad_input error naming the parameter otherwise.
Expected<adjudicate::Counters> counters_param(const Explorer::Params& params);

// The rules parameter: `fallback` when absent or empty; `rules` empty when it names no rule set.
struct Rules {
    std::string name;
    std::optional<CountingRules> rules;
};
Rules rules_param(const Explorer::Params& params, const char* fallback = "fmjd");
Response bad_rules(const Rules& r);

// The counting rules a request asks for: any of rules, reversible, endgame, small given.
bool counting_asked(const Explorer::Params& params);

// Those parameters read: the rule set (`fallback` when absent) and the counters. An error text
// (a 400's) when one is malformed, or when they are given for a Turkish position (no counting
// rules).
struct Counting {
    std::string rules_name;
    CountingRules rules = CountingRules::none;
    adjudicate::Counters counters;
};
Expected<Counting> counting_params(VariantId variant, const Explorer::Params& params, const char* fallback);

}  // namespace dtb::server
