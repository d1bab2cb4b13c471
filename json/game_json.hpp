// The JSON of a PDN game checked against the tables (adjudicate/game_check.hpp), as `dtb adjudicate
// --pdn --json` prints it (docs/CLI.md: the keys) and other front ends serve it.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "adjudicate/game_check.hpp"
#include "adjudicate/game_report.hpp"
#include "rules/pdn.hpp"

namespace dtb::json {

// One game: {"index","line","tags","result","recorded","variant","game_type","rules","plies",
// "events","first_judged_ply","theoretical_at_first_judged","rule_value_at_first_judged",
// "theoretical_at_end","rule_value_at_end","outcome","consistent","judged","verdict","reason",
// "decisive_ply","stopped_at_ply","notes","problems"}.
nlohmann::json game_check_json(const PdnGame& g, const probe::GameCheck& c);

// {"games","judged","consistent","inconsistent","not_judged","other_variant"}.
nlohmann::json game_summary_json(const probe::GameSummary& s);

// The answer for a whole PDN text, as `dtb adjudicate --pdn --json` prints it and the explorer's
// games route serves it: {"rules","games":[game_check_json...],"summary":game_summary_json};
// checks[k] is the check of games[k].
nlohmann::json games_json(const std::string& rules, const std::vector<PdnGame>& games,
                          const std::vector<probe::GameCheck>& checks);

}  // namespace dtb::json
