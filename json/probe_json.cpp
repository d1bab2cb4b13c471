#include "dtb/json/probe_json.hpp"

#include "dtb/rules/movegen.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::json {

namespace {

// The squares a move's piece stands on, start to end, as the variant names them.
template <class R>
nlohmann::json path_json(const Move& m) {
    using G = typename R::Geometry;
    nlohmann::json path = nlohmann::json::array();
    path.push_back(G::square_name(m.from));
    if (m.num_landings == 0)
        path.push_back(G::square_name(m.to));
    else
        for (int k = 0; k < m.num_landings; ++k)
            path.push_back(G::square_name(m.landings[static_cast<std::size_t>(k)]));
    return path;
}

}  // namespace

nlohmann::json analysis_json(const probe::Tablebase& tb, const Position& p, const probe::Analysis& a) {
    const probe::Result& r = a.result;
    nlohmann::json moves = nlohmann::json::array();
    for (const probe::MoveValue& m : a.moves)
        moves.push_back({{"move", m.text},
                         {"wdl", std::string(to_string(m.wdl))},
                         {"dtw", distance_json(m.wdl, m.dtw)},
                         {"dtc", distance_json(m.wdl, m.dtc)},
                         {"fen", tb.to_fen(make_move(p, m.move))},
                         {"captures", m.move.num_captured()},
                         {"promotes", m.move.promotes},
                         {"path", with_variant(tb.variant(), [&](auto v) { return path_json<decltype(v)>(m.move); })}});
    nlohmann::json pv = nlohmann::json::array();
    for (const probe::MoveValue& m : a.pv) pv.push_back(m.text);
    return {{"fen", tb.to_fen(p)},
            {"variant", std::string(variant_name(tb.variant()))},
            {"wdl", std::string(to_string(r.wdl))},
            {"dtw", distance_json(r.wdl, r.dtw)},
            {"dtc", distance_json(r.wdl, r.dtc)},
            {"moves", moves},
            {"pv", pv}};
}

nlohmann::json counters_json(const adjudicate::Counters& k) {
    const auto counter = [](const std::optional<int>& c) { return c ? nlohmann::json(*c) : nlohmann::json(); };
    return {{"reversible", k.reversible}, {"endgame", counter(k.endgame)}, {"small", counter(k.small)}};
}

void add_counters_after(nlohmann::json& analysis, const adjudicate::Adjudicator& judge, const Position& p,
                        const probe::Analysis& a, const std::string& rules, const adjudicate::Counters& counters) {
    const adjudicate::Counters k = judge.applicable(p, counters);
    analysis["rules"] = rules;
    analysis["counters"] = counters_json(k);
    nlohmann::json& moves = analysis["moves"];
    for (std::size_t i = 0; i < a.moves.size() && i < moves.size(); ++i)
        moves[i]["counters"] = counters_json(judge.after_move(p, k, a.moves[i].move));
}

nlohmann::json adjudication_json(const probe::Tablebase& tb, const Position& p, const std::string& rules,
                                 const adjudicate::Adjudication& a) {
    nlohmann::json moves = nlohmann::json::array();
    for (const auto& m : a.moves)
        moves.push_back({{"move", m.text},
                         {"result", std::string(to_string(m.result))},
                         {"plies", distance_json(m.result, m.plies)}});
    const auto counter = [](const std::optional<int>& c) { return c ? nlohmann::json(*c) : nlohmann::json(); };
    return {
        {"fen", tb.to_fen(p)},
        {"rules", rules},
        {"reversible", a.counters.reversible},
        {"endgame", counter(a.counters.endgame)},
        {"small", counter(a.counters.small)},
        {"result", std::string(to_string(a.result))},
        {"plies", distance_json(a.result, a.plies)},
        {"rule", std::string(adjudicate::to_string(a.rule))},
        {"moves", moves},
        {"theoretical", a.theoretical_known ? nlohmann::json(std::string(to_string(a.theoretical))) : nlohmann::json()},
        {"theoretical_dtw", distance_json(a.theoretical, a.theoretical_dtw)}};
}

}  // namespace dtb::json
