// dtb adjudicate --pdn: every game of a file judged (adjudicate/game_check.hpp) and printed as
// text or JSON, with the exit code the games call for.
#include "tools/adjudicate_game.hpp"

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "adjudicate/game_check.hpp"
#include "rules/pdn.hpp"
#include "tools/arguments.hpp"

namespace dtb::tools {

using adjudicate::GameReport;

int adjudicate_pdn_games(const probe::Tablebase& tb, const probe::Adjudicator& judge, const AdjudicateOptions& o,
                         const std::vector<PdnGame>& games) {
    bool all_consistent = true, any_bad_record = false, any_table_error = false;
    nlohmann::json out_games = nlohmann::json::array();
    for (const PdnGame& g : games) {
        const GameReport r = adjudicate::check_game(tb, judge, g);
        all_consistent = all_consistent && r.consistent;
        any_bad_record = any_bad_record || r.bad_record;
        if (!r.table_error.empty()) {
            any_table_error = true;
            std::cerr << "dtb adjudicate: " << pdn_game_label(g) << ": " << r.table_error << "\n";
        }
        if (o.json) {
            out_games.push_back(adjudicate::game_report_json(g, r));
            continue;
        }
        std::ostringstream s;
        s << pdn_game_label(g) << ": " << r.plies << " plies, recorded " << adjudicate::recorded_text(pdn_recorded_result(g))
          << (r.bad_record              ? ", NOT JUDGED (a bad record)"
              : !r.table_error.empty() ? ", NOT JUDGED (tables)"
              : r.consistent           ? ", consistent"
                                       : ", INCONSISTENT")
          << "\n";
        for (const adjudicate::Event& e : r.events)
            s << "  ply " << e.ply << ": " << e.event << (e.detail.empty() ? "" : " (" + e.detail + ")") << "\n";
        if (r.end.ply >= 0)
            s << "  at the end: theoretical " << r.end.theoretical << ", under the rules " << r.end.rule_value
              << (r.end.plies >= 0 ? " in " + std::to_string(r.end.plies) + " plies" : "") << "\n";
        for (const std::string& p : r.problems) s << "  problem: " << p << "\n";
        std::cout << s.str();
    }
    if (o.json) std::cout << nlohmann::json{{"rules", o.rules}, {"games", out_games}}.dump() << "\n";
    std::cout << std::flush;
    if (any_bad_record) return kExitBadInput;
    if (any_table_error) return kExitTables;
    return all_consistent ? kExitOk : kExitCheckFailed;
}

}  // namespace dtb::tools
