// PDN game records: read a whole file into games (pdn_reader.hpp), replay a game under the rules
// of its variant (pdn_replay.hpp).
//
//   for (const PdnGame& g : read_pdn(text)) {
//       const auto replay = replay_pdn_game(g, VariantId::international);  // GameType decides
//       if (!replay) { report(replay.error()); continue; }
//       // replay->positions[0 .. n], replay->moves[0 .. n-1], pdn_recorded_result(g)
//   }
#pragma once
#include "pdn_reader.hpp"
#include "pdn_replay.hpp"
