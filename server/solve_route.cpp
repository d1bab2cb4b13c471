// GET /api/v1/{variant}/solve: a proof search beyond the tables (solve/prover.hpp) within the
// server's limits, answered with `dtb solve --json`'s object and the limits it ran under.
#include <algorithm>
#include <bit>
#include <cmath>
#include <new>
#include <nlohmann/json.hpp>
#include <utility>

#include "dtb/json/solve_json.hpp"
#include "dtb/rules/decimal_number.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/quote.hpp"
#include "dtb/server/counting_params.hpp"
#include "dtb/server/explorer.hpp"
#include "dtb/solve/prover.hpp"

namespace dtb::server {

Response Explorer::solve_position(const Variant& v, const Params& params, std::stop_token stop) const {
    const auto fen = params.find("fen");
    if (fen == params.end() || fen->second.empty())
        return error_response(400, "give the position: ?fen=W:W31,...:B1,...");
    // A time beyond the server's limit is cut to it (the answer's limits say so); one that is no
    // number of seconds is refused.
    double seconds = solve_limits_.default_time();
    if (const auto t = params.find("time"); t != params.end()) {
        const auto asked = parse_decimal(t->second, kMinSolveSeconds, HUGE_VAL);
        if (!asked)
            return error_response(
                400, "time must be a number of seconds from 0.001 (5, 0.5), not " + quote_input(t->second, 24));
        seconds = std::min(*asked, solve_limits_.max_seconds);
    }
    // As `dtb solve`: the game's value unless counting rules are asked for.
    Counting counting{"none", CountingRules::none, {}};
    if (counting_asked(params)) {
        auto asked = counting_params(v.id, params, "none");
        if (!asked) return error_response(400, asked.error());
        counting = *asked;
    }
    auto p = with_variant(v.id, [&](auto r) { return parse_fen<decltype(r)>(fen->second); });
    if (!p) return error_response(400, p.error());
    if (!v.tables) return error_response(503, v.missing);

    solve::ProverOptions options;
    options.rules = counting.rules;
    options.counters = counting.counters;
    options.max_seconds = seconds;
    options.stop = std::move(stop);
    // A position inside the tables is the search's only leaf: answered from them, no table needed.
    const bool inside = std::popcount(p->occupied()) <= v.tables->max_pieces();
    options.memory_mb = inside ? 1 : solve_limits_.memory_mb;
    try {
        auto prover = solve::Prover::create(*v.tables, options);
        if (!prover) return error_response(400, prover.error());
        const solve::SolveResult r = prover.value().solve(*p);
        if (!r.ok()) return table_failure(v, *p, r.status);
        nlohmann::json j = json::solve_json(v.tables->to_fen(*p), v.id, counting.rules, counting.counters, r);
        j["limits"] = {{"seconds", seconds}, {"memory_mb", options.memory_mb}};
        // A proven answer holds while the tables do; an unresolved one may resolve another time.
        return json_response(j, r.answer != solve::Answer::unresolved);
    } catch (const std::bad_alloc&) {
        return error_response(503, "no memory for a solve's " + std::to_string(options.memory_mb) +
                                       " MB transposition table now: try again in a few seconds");
    }
}

}  // namespace dtb::server
