// dtb adjudicate --pdn: the games of the file judged by adjudicate::judge_games (the judge of every
// front end, adjudicate/judge_games.hpp), printed as the report for people (adjudicate/game_report.hpp)
// or as JSON. Turkish games are judged against the Turkish tables, opened only when the file holds
// such a game.
#include "dtb/tools/adjudicate_game.hpp"

#include <filesystem>
#include <iostream>
#include <sstream>

#include "dtb/adjudicate/judge_games.hpp"
#include "dtb/json/dump.hpp"
#include "dtb/json/game_json.hpp"
#include "dtb/rules/pdn.hpp"
#include "dtb/tools/arguments.hpp"

namespace dtb::tools {

namespace {

// The Turkish folder: --turkish-db, else "turkish" beside the --db folder, else the tables
// root's turkish/.
std::filesystem::path turkish_folder(const AdjudicateOptions& o) {
    if (!o.turkish_db.empty()) return o.turkish_db;
    if (o.db.empty()) return table_folder({}, o.tables, "turkish");
    return adjudicate::folder_beside(o.db, VariantId::turkish);
}

}  // namespace

int adjudicate_pdn_games(const probe::Tablebase& tb, const AdjudicateOptions& o, CountingRules rules,
                         std::vector<PdnGame> games) {
    adjudicate::GameTableSources sources;
    sources.international.tables = &tb;
    sources.turkish.folder = turkish_folder(o);
    const adjudicate::JudgedGames judged =
        adjudicate::judge_games(std::move(games), sources, {.rules = rules, .positions = o.json});
    std::ostringstream report;
    for (std::size_t i = 0; i < judged.games.size(); ++i) {
        const PdnGame& g = judged.games[i];
        const adjudicate::GameCheck& c = judged.checks[i];
        if (!c.table_error.empty())
            std::cerr << "dtb adjudicate: " << pdn_game_label(g) << ": " << c.table_error << "\n";
        if (!o.json) report << adjudicate::game_report_text(g, c);
    }
    if (o.json)
        std::cout << json::dump(json::games_json(o.rules, judged.games, judged.checks)) << "\n";
    else
        std::cout << report.str() << adjudicate::game_summary_text(judged.summary);
    std::cout << std::flush;
    if (judged.bad_record) return kExitBadInput;
    if (judged.table_status != probe::Status::ok) return kExitTables;
    return judged.inconsistent ? kExitCheckFailed : kExitOk;
}

}  // namespace dtb::tools
