// PDN game records: read a whole file into games (pdn_reader.hpp, text forms in pdn_text.hpp),
// the variant of a game (pdn_game_type.hpp), replay a game under the rules of its variant
// (pdn_replay.hpp). Judging a game against the tables: adjudicate/game_check.hpp.
//
//   for (const PdnGame& g : read_pdn(text)) {
//       const auto replay = follow_pdn_game(g, VariantId::international);  // GameType decides
//       if (!replay) { report(replay.error()); continue; }  // or replay->stop: stopped at a ply
//       // replay->positions[0 .. n], replay->moves[0 .. n-1], pdn_recorded_result(g)
//   }
#pragma once
#include "pdn_reader.hpp"
#include "pdn_replay.hpp"
