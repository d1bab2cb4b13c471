// Judging a PDN game record against the tables: the game is replayed (rules/pdn.hpp); an
// international game keeps the counters of RULES.md 1 ply by ply (Adjudicator::after_move), a
// Turkish game is judged on the tables' theoretical values alone (rule set none: Turkish has no
// counting rules). The check says where each counting rule started, where a limit or a threefold
// repetition drew the game, from which ply the tables could judge, the theoretical and rule
// values there and at the end, and whether the recorded result agrees with all that. What
// `dtb adjudicate --pdn` prints, and what other front ends reuse.
//
//   adjudicate::GameTables tables{.international = &tb, .judge = &judge, .turkish = &turkish_tb};
//   for (const PdnGame& g : read_pdn(text)) {
//       const adjudicate::GameCheck c = adjudicate::check_game(g, tables);
//       std::cout << adjudicate::game_report_text(g, c);   // game_report.hpp
//   }
#pragma once
#include <string>
#include <vector>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/rules/pdn.hpp"

namespace dtb::adjudicate {

struct GameEvent {
    int ply = 0;
    std::string event;   // "16-move started", "5-move started", "draw by 25-move", "repetition",
                         // "first judged"
    std::string detail;  // may be empty
};

// The value of a position of the game for the result of the game.
struct GameValue {
    int ply = -1;                         // -1: not judged
    std::string theoretical, rule_value;  // "white wins", "draw", "black wins"
    int plies = -1;                       // the theoretical DTW (plies to the end with best play, limits ignored),
                                          // -1 for a draw or when the tables hold no DTW
};

// One position of the game (ply 0: the start; ply k: after the k-th move) with its values: the
// theory from the tables (WDL, DTW: what `dtb probe` says) and the value under the counting rules
// with the game's counters at that point (what `dtb adjudicate` says with those counters; for a
// Turkish game, rule set none, the theory). `judged` is false beyond the tables' reach (more
// pieces than their largest slice), when the tables failed there (`error`) and in a game they
// cannot judge (GameCheck::table_error).
// The plies to the end under the rules are not given: `dtb adjudicate` searches for them, far too
// slow for every ply of every game (BENCHMARKS.md, "PDN adjudication").
struct GamePosition {
    int ply = 0;
    std::string move;  // the move that led here, as PDN writes it (the shortest unambiguous
                       // notation, as `dtb probe` lists moves); empty at ply 0
    std::string fen;
    bool judged = false;
    Wdl theoretical = Wdl::draw;  // for the side to move
    int theoretical_dtw = -1;     // -1 for a draw, or when the tables hold no DTW
    Wdl rule_value = Wdl::draw;   // under the rule set applied
    // International only: the counters at this point (RULES.md 1, Adjudicator::after_move from
    // the start) and the count that binds here under the rule set ("25-move", "16-move",
    // "5-move", "2k-v-k"; empty under rule set none).
    bool has_counters = false;
    Counters counters;
    std::string counting_rule;
    std::string started;   // "16-move" or "5-move" when that count starts at this ply, else empty
    std::string drawn_by;  // "25-move", "16-move", "5-move", "2k-v-k" or "repetition" when the
                           // game is drawn at this ply, else empty
    // Why the tables could not value this position within their reach (judged false), else
    // empty. The game's verdict does not depend on it: that reads the first and the last
    // positions the tables reach (GameCheck::table_error), as without positions.
    std::string error;
};

enum class GameVerdict : std::uint8_t {
    consistent,     // the recorded result agrees with what the record and the tables show
    inconsistent,   // it does not, or a move of the record is illegal or ambiguous (exit 1)
    not_judged,     // a record that cannot be followed (exit 2) or tables that fail (exit 3)
    other_variant,  // a game of a variant dtb does not play: skipped
};
std::string_view to_string(GameVerdict v);

struct GameCheck {
    VariantId variant = VariantId::international;
    std::string variant_name;                   // "international", "turkish", else the game type's name
    int game_type = -1;                         // the GameType number, -1 when absent or not a number
    CountingRules rules = CountingRules::none;  // the rule set applied (none for Turkish)
    int plies = 0;                              // plies followed
    std::vector<GameEvent> events;              // by ply
    GameValue first, end;                       // the first position the tables judge, and the last one
    std::string outcome = "unknown";            // what the record shows: "drawn at ply 32", ...
    std::vector<std::string> problems;          // why inconsistent or not judged, one line each
    std::vector<PdnNote> notes;                 // what was stepped over or recovered, and a Result tag
                                                // at odds with the moves' result
    GameVerdict verdict = GameVerdict::consistent;
    std::string reason;       // one line: why that verdict
    int decisive_ply = -1;    // the ply that decides the verdict, -1 when none does
    int stop_ply = 0;         // the ply that could not be followed (illegal, ambiguous,
                              // unreadable), 0 when every move was followed
    bool bad_record = false;  // not a record to judge (exit 2): cannot be followed
    // Why the tables could not judge a position they should cover (exit 3): a table missing,
    // corrupt, or at odds with the others. Such a game is not judged, never called consistent.
    std::string table_error;
    // Its kind, typed for the front ends (exit 3, HTTP 503, TablesMissing or TableCorrupt):
    // missing (no tables for the variant, a table not there) or corrupt (a check failed, or
    // tables at odds with each other); ok when table_error is empty.
    probe::Status table_status = probe::Status::ok;
    // Every position followed, ply 0 to `plies` (empty for a game not replayed: another
    // variant, a record that cannot be followed from its start; and when GameTables::positions
    // is false).
    std::vector<GamePosition> positions;
};

// The tables a check may use; either side may be missing (nullptr, with why in *_error).
struct GameTables {
    const probe::Tablebase* international = nullptr;
    const Adjudicator* judge = nullptr;  // over `international`, with its rule set
    std::string international_error;
    const probe::Tablebase* turkish = nullptr;
    std::string turkish_error;
    // Also value every position of the game (GameCheck::positions): a probe of the theory and one
    // of the rule value per ply within the tables' reach, where the check alone probes two
    // positions a game (bench/pdn_bench measures both). What the JSON of games carries; a report
    // for people needs none of it.
    bool positions = true;
};

GameCheck check_game(const PdnGame& g, const GameTables& tables);

// The recorded result in words: "white wins", "draw", "black wins", "unknown".
std::string recorded_result_text(PdnResult r);

}  // namespace dtb::adjudicate
