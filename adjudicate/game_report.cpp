// game_report_text and the file summary (game_report.hpp).
#include "dtb/adjudicate/game_report.hpp"

#include <sstream>

namespace dtb::adjudicate {

void GameSummary::add(const GameCheck& c) {
    ++games;
    switch (c.verdict) {
        case GameVerdict::consistent:
            ++consistent, ++judged;
            break;
        case GameVerdict::inconsistent:
            ++inconsistent, ++judged;
            break;
        case GameVerdict::not_judged:
            ++not_judged;
            break;
        case GameVerdict::other_variant:
            ++other_variant;
            break;
    }
}

namespace {

std::string tag_or(const PdnGame& g, const char* name, const char* fallback) {
    const std::string* v = g.tag(name);
    return v && !v->empty() && *v != "?" ? pdn_detail::printable(*v, 200) : std::string(fallback);
}

std::string plural(int n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string game_report_text(const PdnGame& g, const GameCheck& c) {
    std::ostringstream s;
    s << "game " << g.index + 1 << ": " << tag_or(g, "White", "?") << " - " << tag_or(g, "Black", "?");
    std::string where;
    for (const auto& [name, label] : {std::pair{"Event", ""}, std::pair{"Round", "round "}, std::pair{"Date", ""}}) {
        const std::string v = tag_or(g, name, "");
        if (v.empty()) continue;
        where += (where.empty() ? "" : ", ") + std::string(label) + v;
    }
    if (!where.empty()) s << " (" << where << ")";
    s << " [line " << g.line << "]\n";
    if (c.verdict == GameVerdict::other_variant) {
        s << "  verdict: NOT JUDGED (another variant: " << c.variant_name << "): " << c.reason << "\n";
        return s.str();
    }
    s << "  " << c.variant_name << ", rules " << to_string(c.rules)
      << (c.variant == VariantId::turkish ? " (Turkish draughts has no counting rules)" : "") << ", "
      << plural(c.plies, "ply", "plies") << ", recorded "
      << (g.result_token.empty() ? recorded_result_text(pdn_recorded_result(g))
                                 : g.result_token + " (" + recorded_result_text(g.result) + ")")
      << "\n";
    for (const GameEvent& e : c.events)
        s << "  ply " << e.ply << ": " << e.event << (e.detail.empty() ? "" : " (" + e.detail + ")") << "\n";
    if (c.first.ply < 0 && c.table_error.empty() && !c.bad_record) s << "  the tables judge no position of this game\n";
    if (c.end.ply >= 0)
        s << "  at the end (ply " << c.end.ply << "): theoretical " << c.end.theoretical
          << (c.end.plies >= 0 ? " in " + plural(c.end.plies, "ply", "plies") : "")
          << (c.rules == CountingRules::none ? "" : ", under the rules " + c.end.rule_value) << "\n";
    for (const PdnNote& n : c.notes)
        s << "  note: "
          << (n.line > 0 && n.column > 0
                  ? "line " + std::to_string(n.line) + ", column " + std::to_string(n.column) + ": "
                  : "")
          << n.message << "\n";
    for (const std::string& p : c.problems)
        if (p != c.reason) s << "  problem: " << p << "\n";
    s << "  verdict: ";
    switch (c.verdict) {
        case GameVerdict::consistent:
            s << "consistent";
            break;
        case GameVerdict::inconsistent:
            s << "INCONSISTENT";
            break;
        case GameVerdict::not_judged:
            s << (c.table_error.empty() ? "NOT JUDGED (a bad record)" : "NOT JUDGED (tables)");
            break;
        case GameVerdict::other_variant:
            break;
    }
    if (c.decisive_ply >= 0) s << ", decisive ply " << c.decisive_ply;
    s << ": " << c.reason << "\n";
    return s.str();
}

std::string game_summary_text(const GameSummary& s) {
    std::ostringstream o;
    o << plural(s.games, "game", "games") << ": " << s.judged << " judged (" << s.consistent << " consistent, "
      << s.inconsistent << " inconsistent), " << s.not_judged << " not judged, "
      << plural(s.other_variant, "other variant", "other variants") << "\n";
    return o.str();
}

}  // namespace dtb::adjudicate
