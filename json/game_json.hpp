// The JSON of a PDN game checked against the tables (adjudicate/game_check.hpp), as `dtb adjudicate
// --pdn --json` prints it (docs/CLI.md: the keys) and other front ends serve it.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "dtb/adjudicate/game_check.hpp"
#include "dtb/adjudicate/game_report.hpp"
#include "dtb/rules/pdn.hpp"

namespace dtb::json {

// One game: {"index","line","tags","result","recorded","variant","game_type","rules","plies",
// "events","first_judged_ply","theoretical_at_first_judged","rule_value_at_first_judged",
// "theoretical_at_end","rule_value_at_end","outcome","consistent","judged","verdict","reason",
// "decisive_ply","stopped_at_ply","notes","problems","positions"}; "positions" one object per
// position followed, ply 0 (the start) to "plies": {"ply","move" (that led there, null at ply 0),
// "fen","theoretical","theoretical_dtw" (as `dtb adjudicate --json` names them: `dtb probe`'s
// wdl and dtw),"rule_value" (`dtb adjudicate`'s result with the game's counters there; each for
// the side to move, null beyond the tables' reach),"counters" ({"reversible",
// "endgame","small"}, null for Turkish),"counting_rule" (the count that binds there),"started"
// ("16-move"/"5-move" when that count starts there),"drawn_by" (the limit or "repetition" that
// draws the game there), and "error" when the tables failed at a position within their reach}.
// The check must have been made with GameTables::positions (the default).
nlohmann::json game_check_json(const PdnGame& g, const adjudicate::GameCheck& c);

// {"games","judged","consistent","inconsistent","not_judged","other_variant"}.
nlohmann::json game_summary_json(const adjudicate::GameSummary& s);

// The answer for a whole PDN text, as `dtb adjudicate --pdn --json` prints it and the explorer's
// games route serves it: {"rules","games":[game_check_json...],"summary":game_summary_json};
// checks[k] is the check of games[k].
nlohmann::json games_json(const std::string& rules, const std::vector<PdnGame>& games,
                          const std::vector<adjudicate::GameCheck>& checks);

}  // namespace dtb::json
