// The report for people of checked PDN games (game_check.hpp): per game the players, event,
// round and date, the variant and rule set, where each counting rule started and where a limit
// or a repetition drew, the first ply the tables judge and the value there, the value at the end,
// what the reader stepped over, and the verdict with its decisive ply; then a summary line for
// the file. Plain text, UTF-8, lines ending in '\n'.
#pragma once
#include <string>

#include "dtb/adjudicate/game_check.hpp"

namespace dtb::adjudicate {

// Counts over the games of a file.
struct GameSummary {
    int games = 0;
    int judged = 0;  // consistent + inconsistent
    int consistent = 0;
    int inconsistent = 0;
    int not_judged = 0;
    int other_variant = 0;

    void add(const GameCheck& c);
};

// The report of one game, several lines.
std::string game_report_text(const PdnGame& g, const GameCheck& c);

// "12 games: 9 judged (8 consistent, 1 inconsistent), 2 not judged, 1 other variant"
std::string game_summary_text(const GameSummary& s);

}  // namespace dtb::adjudicate
