// dtb adjudicate --pdn: every game of the file checked by adjudicate::check_game (adjudicate/game_check.hpp),
// printed as the report for people (adjudicate/game_report.hpp) or as JSON. Turkish games are judged
// against the Turkish tables, opened only when the file holds such a game.
#include "dtb/tools/adjudicate_game.hpp"

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "dtb/adjudicate/game_check.hpp"
#include "dtb/adjudicate/game_report.hpp"
#include "dtb/json/game_json.hpp"
#include "dtb/rules/pdn.hpp"
#include "dtb/tools/arguments.hpp"

namespace dtb::tools {

namespace {

// The Turkish folder: --turkish-db, else "turkish" beside the --db folder, else the tables
// root's turkish/.
std::string turkish_folder(const AdjudicateOptions& o) {
    if (!o.turkish_db.empty()) return o.turkish_db;
    if (o.db.empty()) return table_folder({}, o.tables, "turkish").string();
    std::filesystem::path db(o.db);
    if (!db.has_filename()) db = db.parent_path();  // "tb/international/"
    return (db.parent_path() / "turkish").string();
}

}  // namespace

int adjudicate_pdn_games(const probe::Tablebase& tb, const adjudicate::Adjudicator& judge, const AdjudicateOptions& o,
                         const std::vector<PdnGame>& games) {
    adjudicate::GameTables tables;
    tables.international = &tb;
    tables.judge = &judge;
    tables.positions = o.json;  // the report for people prints no values ply by ply
    // The Turkish tables, when a game needs them.
    std::optional<Expected<probe::Tablebase>> turkish;
    const std::string turkish_dir = turkish_folder(o);
    for (const PdnGame& g : games) {
        const auto replay = follow_pdn_game(g, VariantId::international);
        if (!replay || replay->variant != VariantId::turkish) continue;
        probe::Options options;
        options.variant = VariantId::turkish;
        options.metrics = probe::kWdl | probe::kDtw;
        options.directories.emplace_back(turkish_dir);
        turkish.emplace(probe::Tablebase::open(options));
        if (*turkish)
            tables.turkish = &**turkish;
        else
            tables.turkish_error = turkish_dir + ": " + turkish->error();
        break;
    }

    bool any_bad_record = false, any_table_error = false, any_inconsistent = false;
    adjudicate::GameSummary summary;
    std::vector<adjudicate::GameCheck> checks;
    std::ostringstream report;
    for (const PdnGame& g : games) {
        const adjudicate::GameCheck& c = checks.emplace_back(adjudicate::check_game(g, tables));
        summary.add(c);
        any_bad_record = any_bad_record || c.bad_record;
        any_inconsistent = any_inconsistent || c.verdict == adjudicate::GameVerdict::inconsistent;
        if (!c.table_error.empty()) {
            any_table_error = true;
            std::cerr << "dtb adjudicate: " << pdn_game_label(g) << ": " << c.table_error << "\n";
        }
        if (!o.json) report << adjudicate::game_report_text(g, c);
    }
    if (o.json) {
        // Every string is UTF-8 already (the reader converts); replace guards the output anyway.
        std::cout
            << json::games_json(o.rules, games, checks).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
            << "\n";
    } else {
        std::cout << report.str() << adjudicate::game_summary_text(summary);
    }
    std::cout << std::flush;
    if (any_bad_record) return kExitBadInput;
    if (any_table_error) return kExitTables;
    return any_inconsistent ? kExitCheckFailed : kExitOk;
}

}  // namespace dtb::tools
