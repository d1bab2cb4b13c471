// dtb adjudicate --pdn: every game of a PDN file judged (adjudicate/judge_games.hpp) and printed.
#pragma once
#include <vector>

#include "dtb/probe/counting_rules.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/rules/pdn.hpp"
#include "dtb/tools/commands.hpp"

namespace dtb::tools {

// Prints the report (text or JSON) of the games read from a PDN file and returns the exit code:
// 0 every judged game consistent, 1 a game inconsistent or with an illegal or ambiguous move,
// 2 a record that cannot be followed (the other games are still reported), 3 the tables fail a
// game (Turkish games: the folder --turkish-db, else "turkish" beside --db, opened here when a
// game needs it). Games of other variants are reported and leave the exit code alone.
int adjudicate_pdn_games(const probe::Tablebase& tb, const AdjudicateOptions& o, CountingRules rules,
                         std::vector<PdnGame> games);

}  // namespace dtb::tools
