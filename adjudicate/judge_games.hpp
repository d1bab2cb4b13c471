// The one judge of a PDN text: its games read (rules/pdn.hpp), each checked against the tables
// (check_game, game_check.hpp), with what the front ends need to answer: `dtb adjudicate --pdn`,
// POST /api/v1/{variant}/games and Python's adjudicate_pdn all call judge_pdn, so that a game
// gets the same result from each. Failures are typed, never told apart by their text: the text
// that holds no game is an Error of kind bad_input; a game the tables fail carries a
// probe::Status (GameCheck::table_status); a record that cannot be followed, bad_record.
//
//   adjudicate::GameTableSources sources;
//   sources.international = {.tables = &tb};
//   sources.turkish = {.folder = "data/tb/turkish"};  // opened only if a Turkish game needs it
//   auto judged = adjudicate::judge_pdn(text, sources, {.rules = CountingRules::fmjd});
//   if (!judged) ...;                                 // judged.error_kind() == ErrorKind::bad_input
//   for (const GameCheck& c : judged->checks) ...;
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/adjudicate/game_check.hpp"
#include "dtb/adjudicate/game_report.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/rules/pdn.hpp"

namespace dtb::adjudicate {

// Where a variant's tables come from: a handle already open, else a folder opened the first
// time a game of that variant needs it, else none (`missing` says why, in the games' problems).
struct TableSource {
    const probe::Tablebase* tables = nullptr;
    std::filesystem::path folder;
    std::string missing = "no tables given";
};

struct GameTableSources {
    TableSource international;  // opened with the rule tables (the counting rules need them)
    TableSource turkish;        // WDL and DTW (Turkish draughts has no counting rules)
};

struct JudgeOptions {
    CountingRules rules = CountingRules::fmjd;  // for international games
    // Also value every position of each game (GameCheck::positions): what the JSON carries; a
    // report for people needs none of it.
    bool positions = true;
};

// The games of a text and their checks, index by index, with what decides a front end's answer.
struct JudgedGames {
    std::vector<PdnGame> games;  // every record read, also those that are not games to judge
    std::vector<GameCheck> checks;
    GameSummary summary;
    // The first game the tables failed: its label and table_error, and its kind (missing or
    // corrupt); table_status ok when none failed.
    probe::Status table_status = probe::Status::ok;
    std::string table_error;
    // The first record that cannot be followed (its first problem), empty when none.
    bool bad_record = false;
    std::string bad_record_error;
    bool inconsistent = false;  // a game inconsistent, or with an illegal or ambiguous move
};

// The games of `text` judged. An Error of kind bad_input when the text holds no game.
Expected<JudgedGames> judge_pdn(std::string_view text, const GameTableSources& sources, const JudgeOptions& options);

// The same for games already read (read_pdn; holds_a_game), as `dtb adjudicate --pdn` reads its
// file before it opens the tables.
JudgedGames judge_games(std::vector<PdnGame> games, const GameTableSources& sources, const JudgeOptions& options);

// The folder of `variant` beside `folder` ("tb/international" -> "tb/turkish"), where `dtb gen`
// and the default set put each variant's tables.
std::filesystem::path folder_beside(const std::filesystem::path& folder, VariantId variant);

}  // namespace dtb::adjudicate
