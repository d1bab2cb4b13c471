// The JSON of checked PDN games (game_json.hpp).
#include "dtb/json/game_json.hpp"

#include "dtb/json/probe_json.hpp"

namespace dtb::json {

namespace {

nlohmann::json value_json(const adjudicate::GameValue& v, bool theoretical) {
    if (v.ply < 0) return nullptr;
    return theoretical ? nlohmann::json(v.theoretical) : nlohmann::json(v.rule_value);
}

nlohmann::json text_or_null(const std::string& s) {
    return s.empty() ? nlohmann::json() : nlohmann::json(s);
}

nlohmann::json position_json(const adjudicate::GamePosition& at) {
    const auto value = [&](Wdl w) { return at.judged ? nlohmann::json(std::string(to_string(w))) : nlohmann::json(); };
    const auto distance = [&](Wdl w, int d) { return at.judged ? distance_json(w, d) : nlohmann::json(); };
    nlohmann::json j{{"ply", at.ply},
                     {"move", text_or_null(at.move)},
                     {"fen", at.fen},
                     {"theoretical", value(at.theoretical)},
                     {"theoretical_dtw", distance(at.theoretical, at.theoretical_dtw)},
                     {"rule_value", value(at.rule_value)},
                     {"counters", at.has_counters ? counters_json(at.counters) : nlohmann::json()},
                     {"counting_rule", text_or_null(at.counting_rule)},
                     {"started", text_or_null(at.started)},
                     {"drawn_by", text_or_null(at.drawn_by)}};
    if (!at.error.empty()) j["error"] = at.error;
    return j;
}

}  // namespace

nlohmann::json game_check_json(const PdnGame& g, const adjudicate::GameCheck& c) {
    nlohmann::json tags = nlohmann::json::object();
    for (const PdnTag& t : g.tags) tags[t.name] = t.value;
    nlohmann::json events = nlohmann::json::array();
    for (const adjudicate::GameEvent& e : c.events) {
        nlohmann::json ev = {{"ply", e.ply}, {"event", e.event}};
        if (!e.detail.empty()) ev["detail"] = e.detail;
        events.push_back(ev);
    }
    nlohmann::json notes = nlohmann::json::array();
    for (const PdnNote& n : c.notes)
        notes.push_back({{"ply", n.ply}, {"line", n.line}, {"column", n.column}, {"message", n.message}});
    nlohmann::json positions = nlohmann::json::array();
    for (const adjudicate::GamePosition& at : c.positions) positions.push_back(position_json(at));
    const bool other = c.verdict == adjudicate::GameVerdict::other_variant;
    const auto or_null = [](int v) { return v >= 0 ? nlohmann::json(v) : nlohmann::json(); };
    return {{"index", g.index},
            {"line", g.line},
            {"tags", tags},
            {"result", g.result_token.empty() ? nlohmann::json() : nlohmann::json(g.result_token)},
            {"recorded", adjudicate::recorded_result_text(pdn_recorded_result(g))},
            {"variant", c.variant_name},
            {"game_type", or_null(c.game_type)},
            {"rules", other ? nlohmann::json() : nlohmann::json(std::string(to_string(c.rules)))},
            {"plies", c.plies},
            {"events", events},
            {"first_judged_ply", or_null(c.first.ply)},
            {"theoretical_at_first_judged", value_json(c.first, true)},
            {"rule_value_at_first_judged", value_json(c.first, false)},
            {"theoretical_at_end", value_json(c.end, true)},
            {"rule_value_at_end", value_json(c.end, false)},
            {"outcome", c.outcome},
            {"consistent", c.verdict == adjudicate::GameVerdict::consistent},
            {"judged", !other && !c.bad_record && c.table_error.empty()},
            {"verdict", std::string(adjudicate::to_string(c.verdict))},
            {"reason", c.reason},
            {"decisive_ply", or_null(c.decisive_ply)},
            {"stopped_at_ply", c.stop_ply > 0 ? nlohmann::json(c.stop_ply) : nlohmann::json()},
            {"notes", notes},
            {"problems", c.problems},
            {"positions", positions}};
}

nlohmann::json game_summary_json(const adjudicate::GameSummary& s) {
    return {{"games", s.games},           {"judged", s.judged},
            {"consistent", s.consistent}, {"inconsistent", s.inconsistent},
            {"not_judged", s.not_judged}, {"other_variant", s.other_variant}};
}

nlohmann::json games_json(const std::string& rules, const std::vector<PdnGame>& games,
                          const std::vector<adjudicate::GameCheck>& checks) {
    adjudicate::GameSummary summary;
    nlohmann::json out = nlohmann::json::array();
    for (std::size_t k = 0; k < games.size() && k < checks.size(); ++k) {
        summary.add(checks[k]);
        out.push_back(game_check_json(games[k], checks[k]));
    }
    return {{"rules", rules}, {"games", out}, {"summary", game_summary_json(summary)}};
}

}  // namespace dtb::json
