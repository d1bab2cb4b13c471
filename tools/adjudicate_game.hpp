// dtb adjudicate --pdn: every game of a PDN file replayed with its counters and judged.
#pragma once
#include <vector>

#include "probe/adjudicate.hpp"
#include "rules/pdn.hpp"
#include "tools/commands.hpp"

namespace dtb::tools {

// Prints the report (text or JSON) of the games read from a PDN file and returns the exit code:
// 0 all games consistent, 1 a game inconsistent or with an illegal move, 2 a record that cannot
// be judged (a syntax error, a bad FEN, a game type other than international; the other games
// are still reported).
int adjudicate_pdn_games(const probe::Tablebase& tb, const probe::Adjudicator& judge, const AdjudicateOptions& o,
                         const std::vector<PdnGame>& games);

}  // namespace dtb::tools
