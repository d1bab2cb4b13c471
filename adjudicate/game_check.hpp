// Judging a PDN game record against the tables, for `dtb adjudicate --pdn` and the Python module:
// the game is replayed (rules/pdn.hpp) with the counters of RULES.md 1 kept ply by ply
// (probe::Adjudicator::after_move); the report says where each counting rule started, where a
// limit or a threefold repetition drew the game, from which ply the tables could judge, the
// theoretical and rule values there and at the end, and whether the recorded result agrees.
//
//   for (const PdnGame& g : read_pdn(text)) {
//       const adjudicate::GameReport r = adjudicate::check_game(tb, judge, g);
//       out.push_back(adjudicate::game_report_json(g, r));  // one game of --pdn --json
//   }
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "probe/adjudicate.hpp"
#include "rules/pdn.hpp"

namespace dtb::adjudicate {

struct Event {
    int ply;
    std::string event;
    std::string detail;
};

struct Judgement {
    int ply = -1;
    std::string theoretical, rule_value;
    int plies = -1;  // rule plies to the end, -1 for a draw or unknown
};

struct GameReport {
    const PdnGame* game = nullptr;
    int plies = 0;
    std::vector<Event> events;
    Judgement first, end;
    std::string outcome = "unknown";  // what the record shows: a game end, a draw by rule, ...
    std::vector<std::string> problems;
    bool consistent = true;
    bool bad_record = false;  // not a record this command can judge (exit 2, as bad input)
    // Why the tables could not judge a position they should cover (exit 3): a table missing,
    // corrupt, or at odds with the others. Such a game is not judged, never called consistent.
    std::string table_error;
    probe::Status table_status = probe::Status::ok;  // missing or corrupt when table_error is set
};

GameReport check_game(const probe::Tablebase& tb, const probe::Adjudicator& judge, const PdnGame& g);

// One game of `dtb adjudicate --pdn --json`: index, tags, result, recorded, plies, events, the
// judgements, outcome, consistent, judged, problems.
nlohmann::json game_report_json(const PdnGame& g, const GameReport& r);

// The recorded result in words: "white wins", "black wins", "draw", "unknown".
std::string recorded_text(PdnResult r);

}  // namespace dtb::adjudicate
