// judge_pdn (judge_games.hpp): read, open what the games need, check each game, sum up.
#include "dtb/adjudicate/judge_games.hpp"

#include <memory>
#include <utility>

namespace dtb::adjudicate {

namespace {

// A variant's tables for the games: the handle given, or the folder opened here (kept in
// `opened`), or the reason there are none.
const probe::Tablebase* tables_of(VariantId variant, const TableSource& source,
                                  std::optional<Expected<probe::Tablebase>>& opened, std::string& missing) {
    if (source.tables) return source.tables;
    if (source.folder.empty()) {
        missing = source.missing;
        return nullptr;
    }
    probe::Options options;
    options.variant = variant;
    options.metrics =
        variant == VariantId::turkish ? probe::kWdl | probe::kDtw : probe::kAllMetrics | probe::kRuleMetrics;
    options.directories.push_back(source.folder);
    opened.emplace(probe::Tablebase::open(options));
    if (*opened) return &**opened;
    missing = source.folder.string() + ": " + opened->error();
    return nullptr;
}

// Whether a game of `variant` is among the records (a record that cannot be followed needs no
// tables).
bool needs(const std::vector<PdnGame>& games, VariantId variant) {
    for (const PdnGame& g : games) {
        const auto replay = follow_pdn_game(g, VariantId::international);
        if (replay && replay->variant == variant) return true;
    }
    return false;
}

}  // namespace

std::filesystem::path folder_beside(const std::filesystem::path& folder, VariantId variant) {
    std::filesystem::path f = folder;
    if (!f.has_filename()) f = f.parent_path();  // "tb/international/"
    return f.parent_path() / std::string(variant_name(variant));
}

Expected<JudgedGames> judge_pdn(std::string_view text, const GameTableSources& sources, const JudgeOptions& options) {
    std::vector<PdnGame> games = read_pdn(text);
    if (!holds_a_game(games)) return Error{"no game in the text", ErrorKind::bad_input};
    return judge_games(std::move(games), sources, options);
}

JudgedGames judge_games(std::vector<PdnGame> games, const GameTableSources& sources, const JudgeOptions& options) {
    JudgedGames out;
    out.games = std::move(games);

    GameTables tables;
    tables.positions = options.positions;
    std::optional<Expected<probe::Tablebase>> international, turkish;
    if (sources.international.tables || needs(out.games, VariantId::international))
        tables.international =
            tables_of(VariantId::international, sources.international, international, tables.international_error);
    std::optional<Adjudicator> judge;
    if (tables.international) tables.judge = &judge.emplace(*tables.international, options.rules);
    if (sources.turkish.tables || needs(out.games, VariantId::turkish))
        tables.turkish = tables_of(VariantId::turkish, sources.turkish, turkish, tables.turkish_error);

    out.checks.reserve(out.games.size());
    for (const PdnGame& g : out.games) {
        const GameCheck& c = out.checks.emplace_back(check_game(g, tables));
        out.summary.add(c);
        out.inconsistent = out.inconsistent || c.verdict == GameVerdict::inconsistent;
        if (!c.table_error.empty() && out.table_error.empty()) {
            out.table_status = c.table_status;
            out.table_error = pdn_game_label(g) + ": " + c.table_error;
        }
        if (c.bad_record && !out.bad_record) {
            out.bad_record = true;
            out.bad_record_error = c.problems.empty() ? pdn_game_label(g) + ": cannot be judged" : c.problems.front();
        }
    }
    return out;
}

}  // namespace dtb::adjudicate
