#include "dtb/server/counting_params.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "dtb/rules/quote.hpp"
#include "dtb/rules/whole_number.hpp"

namespace dtb::server {

namespace {

// A counter parameter: absent, or plain decimal in [0, adjudicate::kMaxCounterPlies].
struct Counter {
    std::optional<int> value;
    std::string error;
};
Counter counter_param(const Explorer::Params& params, const char* name) {
    const auto it = params.find(name);
    if (it == params.end() || it->second.empty()) return {};
    if (const auto v = parse_whole_number(it->second, 0, adjudicate::kMaxCounterPlies))
        return {static_cast<int>(*v), {}};
    return {std::nullopt, std::string(name) + " must be a whole number from 0 to " +
                              std::to_string(adjudicate::kMaxCounterPlies) + ", not " + quote_input(it->second, 24)};
}

std::string rules_error(const std::string& name) {
    return "rules must be fmjd, ffjd or none, not " + quote_input(name, 24);
}

// The parameters that ask for the counting rules.
constexpr std::array<const char*, 4> kCountingParams{"rules", "reversible", "endgame", "small"};

}  // namespace

Expected<adjudicate::Counters> counters_param(const Explorer::Params& params) {
    const Counter reversible = counter_param(params, "reversible"), endgame = counter_param(params, "endgame"),
                  small = counter_param(params, "small");
    for (const Counter* c : {&reversible, &endgame, &small})
        if (!c->error.empty()) return Error{c->error, ErrorKind::bad_input};
    adjudicate::Counters counters;
    counters.reversible = reversible.value.value_or(0);
    counters.endgame = endgame.value;
    counters.small = small.value;
    return counters;
}

Rules rules_param(const Explorer::Params& params, const char* fallback) {
    const auto it = params.find("rules");
    Rules r{it == params.end() || it->second.empty() ? fallback : it->second, std::nullopt};
    r.rules = parse_counting_rules(r.name);
    return r;
}

Response bad_rules(const Rules& r) {
    return error_response(400, rules_error(r.name));
}

bool counting_asked(const Explorer::Params& params) {
    return std::any_of(kCountingParams.begin(), kCountingParams.end(),
                       [&](const char* name) { return params.count(name) > 0; });
}

Expected<Counting> counting_params(VariantId variant, const Explorer::Params& params, const char* fallback) {
    if (variant != VariantId::international)
        return Error{
            "Turkish draughts has no counting rules: rules, reversible, endgame and small are for "
            "international positions",
            ErrorKind::bad_input};
    const Rules rules = rules_param(params, fallback);
    if (!rules.rules) return Error{rules_error(rules.name), ErrorKind::bad_input};
    auto counters = counters_param(params);
    if (!counters) return Error{counters.error(), ErrorKind::bad_input};
    return Counting{rules.name, *rules.rules, *counters};
}

}  // namespace dtb::server
