// The JSON objects the front ends speak: `dtb probe --json`, `dtb adjudicate --json` and the
// explorer's API (docs/API.md) build them here, so that the same position always gives the
// same object, whoever asks.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/rules/position.hpp"

namespace dtb::json {

// `dtb probe --json`'s object: {"fen","variant","wdl","dtw","dtc","moves":[{"move","wdl","dtw",
// "dtc","fen","captures","promotes","path"}],"pv":[...]}; distances of draws are null; moves
// best first; "fen" the position after the move, "path" the squares the piece stands on from
// start to end, as the board numbers them (for a page that shows the move).
nlohmann::json analysis_json(const probe::Tablebase& tb, const Position& p, const probe::Analysis& a);

// `dtb adjudicate --json`'s object: {"fen","rules","reversible","endgame","small","result",
// "plies","rule","moves":[{"move","result","plies"}],"theoretical","theoretical_dtw"}.
nlohmann::json adjudication_json(const probe::Tablebase& tb, const Position& p, const std::string& rules,
                                 const adjudicate::Adjudication& a);

// {"reversible","endgame","small"}: the counters of a game in plies, null those not in force.
nlohmann::json counters_json(const adjudicate::Counters& k);

// The probe object with the counters following the moves (the explorer's probe route when
// counters are given): adds "rules", "counters" (as they apply to p) and to each move of
// `analysis` (analysis_json(tb, p, a)) its "counters", those after the move
// (Adjudicator::after_move: a capture or a man move restarts the 25-move count, entering a
// counting class starts its count, ...).
void add_counters_after(nlohmann::json& analysis, const adjudicate::Adjudicator& judge, const Position& p,
                        const probe::Analysis& a, const std::string& rules, const adjudicate::Counters& counters);

// The distance of a decided value, null for a draw or an unknown distance.
inline nlohmann::json distance_json(Wdl w, int d) {
    return w == Wdl::draw || d < 0 ? nlohmann::json() : nlohmann::json(d);
}

}  // namespace dtb::json
