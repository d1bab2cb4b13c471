#include "dtb/server/explorer.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/adjudicate/judge_games.hpp"
#include "dtb/json/dump.hpp"
#include "dtb/json/game_json.hpp"
#include "dtb/json/probe_json.hpp"
#include "dtb/probe/table_folders.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/parse_variant.hpp"
#include "dtb/rules/pdn.hpp"
#include "dtb/rules/quote.hpp"
#include "dtb/server/counting_params.hpp"
#include "dtb/server/static_files.hpp"

namespace dtb::server {

namespace {

constexpr std::string_view kApi = "/api/v1/";

// `message` with the variant's folder named as the API names it ("international/"): answers are
// readable from any origin and must not tell where the server keeps its files.
std::string relative_names(std::string message, const std::filesystem::path& folder, std::string_view variant) {
    std::error_code ec;
    const std::string shown = std::string(variant) + "/";
    std::vector<std::string> spellings{folder.string()};
    const auto absolute = std::filesystem::absolute(folder, ec);
    if (!ec) spellings.push_back(absolute.lexically_normal().string());
    const auto canonical = std::filesystem::weakly_canonical(folder, ec);
    if (!ec) spellings.push_back(canonical.string());
    std::sort(spellings.begin(), spellings.end(), [](const auto& a, const auto& b) { return a.size() > b.size(); });
    for (const std::string& name : spellings) {
        if (name.empty()) continue;
        for (std::size_t at = message.find(name); at != std::string::npos; at = message.find(name, at + shown.size())) {
            std::size_t end = at + name.size();
            if (end < message.size() && message[end] == '/') ++end;
            message.replace(at, end - at, shown);
        }
    }
    return message;
}

}  // namespace

bool searching_route(std::string_view path) {
    return path.ends_with("/adjudicate") || path.ends_with("/solve");
}

Response json_response(const nlohmann::json& j, bool cacheable) {
    Response r;
    r.body = json::dump(j);
    r.cacheable = cacheable;
    r.cross_origin = true;
    return r;
}

Response error_response(int status, const std::string& message) {
    Response r;
    r.status = status;
    r.body = json::dump(nlohmann::json{{"error", escape_text(message)}});
    r.cross_origin = true;
    return r;
}

Explorer::Explorer(const ExplorerOptions& options) : solve_limits_(options.solve) {
    for (VariantId id : {VariantId::international, VariantId::turkish}) {
        auto v = std::make_unique<Variant>();
        v->id = id;
        v->folder = options.tables / std::string(variant_name(id));
        const probe::FolderSlices present = probe::slices_in(v->folder);
        v->slices = present.slices;
        v->largest_pieces = present.largest_pieces;
        if (v->slices == 0) {
            v->missing = "no " + std::string(variant_name(id)) + " tables on this server (its tables folder has no " +
                         std::string(variant_name(id)) + "/ with tables; dtb gen --variant " +
                         std::string(variant_name(id)) + " --pieces 4 makes them)";
        } else {
            probe::Options o;
            o.variant = id;
            o.directories = {v->folder};
            o.cache_mb = options.cache_mb;
            if (id == VariantId::international) o.metrics = probe::kAllMetrics | probe::kRuleMetrics;
            auto tb = probe::Tablebase::open(o);
            if (tb)
                v->tables.emplace(std::move(tb.value()));
            else
                v->missing = relative_names(tb.error(), v->folder, variant_name(id));
        }
        variants_.push_back(std::move(v));
    }
}

const Explorer::Variant* Explorer::variant_named(std::string_view name) const {
    const auto id = parse_variant(name);
    return id ? variant_of(*id) : nullptr;
}

const Explorer::Variant* Explorer::variant_of(VariantId id) const {
    for (const auto& v : variants_)
        if (v->id == id) return v.get();
    return nullptr;
}

std::string Explorer::status_json() const {
    nlohmann::json variants = nlohmann::json::array();
    for (const auto& v : variants_) {
        nlohmann::json rule_sets =
            v->id == VariantId::international ? nlohmann::json{"fmjd", "ffjd", "none"} : nlohmann::json{"none"};
        nlohmann::json j{{"variant", std::string(variant_name(v->id))},         {"tables", v->tables.has_value()},
                         {"folder", std::string(variant_name(v->id)) + "/"},    {"slices", v->slices},
                         {"largest_pieces", v->tables ? v->largest_pieces : 0}, {"rule_sets", rule_sets}};
        if (!v->tables) j["problem"] = v->missing;
        variants.push_back(j);
    }
    const nlohmann::json solve{{"default_seconds", solve_limits_.default_time()},
                               {"max_seconds", solve_limits_.max_seconds},
                               {"memory_mb", solve_limits_.memory_mb}};
    return json::dump(nlohmann::json{{"version", DTB_VERSION}, {"variants", variants}, {"solve", solve}});
}

Response Explorer::get(std::string_view path, const Params& params, std::stop_token stop) const {
    if (path.substr(0, kApi.size()) != kApi) {
        if (const StaticFile* f = find_static_file(path)) {
            Response r;
            r.content_type = std::string(f->content_type);
            r.body = std::string(f->content);
            return r;
        }
        return error_response(404, "no such page: " + quote_input(path, 64));
    }
    const std::string_view rest = path.substr(kApi.size());
    if (rest == "status") {
        Response r;
        r.body = status_json();
        r.cross_origin = true;
        return r;
    }
    const std::size_t slash = rest.find('/');
    const std::string_view name = rest.substr(0, slash);
    const Variant* v = variant_named(name);
    if (!v)
        return error_response(
            404, "unknown variant or route " + quote_input(path, 64) + " (variants: international, turkish)");
    const std::string_view action = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (slash == std::string_view::npos) return probe_position(*v, params);
    if (action == "adjudicate" && v->id == VariantId::international) return adjudicate_position(*v, params);
    if (action == "solve") return solve_position(*v, params, std::move(stop));
    if (action == "games") {
        Response r = error_response(405, "games takes POST with a PDN body");
        r.allow = "POST";
        return r;
    }
    return error_response(404, "no such route: " + quote_input(path, 64));
}

Response Explorer::post(std::string_view path, std::string_view body, const Params& params) const {
    for (const auto& v : variants_)
        if (path == std::string(kApi) + std::string(variant_name(v->id)) + "/games")
            return judge_games(*v, body, params);
    if (path.substr(0, kApi.size()) == kApi || find_static_file(path)) {
        Response r = error_response(405, "only POST /api/v1/{variant}/games takes a body");
        r.allow = "GET, HEAD";
        return r;
    }
    return error_response(404, "no such route: " + quote_input(path, 64));
}

Response Explorer::probe_failure(const Variant& v, const Position& p, const probe::Result& r) const {
    if (const auto beyond = probe::beyond_tables(v.id, "this server", v.largest_pieces, p, r))
        return error_response(422, v.tables->to_fen(p) + " (" + r.slice.name() + "): " + *beyond);
    return table_failure(v, p, r);
}

Response Explorer::table_failure(const Variant& v, const Position& p, const probe::Result& r) const {
    const std::string fen = v.tables->to_fen(p);
    const int status = r.status == probe::Status::illegal ? 400 : 503;
    return error_response(status, fen + ": " + relative_names(v.tables->explain(r), v.folder, variant_name(v.id)));
}

Response Explorer::probe_position(const Variant& v, const Params& params) const {
    const auto fen = params.find("fen");
    if (fen == params.end() || fen->second.empty())
        return error_response(400, "give the position: ?fen=W:W31,...:B1,...");
    auto p = with_variant(v.id, [&](auto r) { return parse_fen<decltype(r)>(fen->second); });
    if (!p) return error_response(400, p.error());
    if (!v.tables) return error_response(503, v.missing);
    // Counters given (any of rules, reversible, endgame, small): each move also says the counters
    // after it. Without them nothing more is done than for `dtb probe --json`.
    std::optional<Counting> counting;
    if (counting_asked(params)) {
        auto asked = counting_params(v.id, params, "fmjd");
        if (!asked) return error_response(400, asked.error());
        counting = *asked;
    }
    const probe::Analysis a = v.tables->analyse(*p);
    if (!a.result.ok()) return probe_failure(v, *p, a.result);
    nlohmann::json j = json::analysis_json(*v.tables, *p, a);
    if (counting)
        json::add_counters_after(j, adjudicate::Adjudicator(*v.tables, counting->rules), *p, a, counting->rules_name,
                                 counting->counters);
    return json_response(j, true);
}

Response Explorer::adjudicate_position(const Variant& v, const Params& params) const {
    const auto fen = params.find("fen");
    if (fen == params.end() || fen->second.empty())
        return error_response(400, "give the position: ?fen=W:W31,...:B1,...");
    const Rules rules = rules_param(params);
    if (!rules.rules) return bad_rules(rules);
    const auto counters = counters_param(params);
    if (!counters) return error_response(400, counters.error());
    auto p = parse_fen<International>(fen->second);
    if (!p) return error_response(400, p.error());
    if (!v.tables) return error_response(503, v.missing);
    const adjudicate::Adjudicator judge(*v.tables, *rules.rules);
    const adjudicate::Adjudication a = judge.adjudicate(*p, *counters);
    if (!a.ok()) return probe_failure(v, *p, a.status);
    return json_response(json::adjudication_json(*v.tables, *p, rules.name, a), true);
}

Response Explorer::judge_games(const Variant& v, std::string_view body, const Params& params) const {
    if (body.size() > kMaxBodyBytes) return error_response(413, "a PDN body may hold at most 1 MB");
    const Rules rules = rules_param(params);
    if (!rules.rules) return bad_rules(rules);
    std::vector<PdnGame> games = read_pdn(body);
    if (!holds_a_game(games)) return error_response(400, "no game in the body (a PDN text: tags and moves)");
    // Each position followed is judged and answered (about 300 bytes of JSON): the work and the
    // answer of one request are bounded by the positions, not only by the body's size.
    std::size_t positions = 0;
    for (const PdnGame& g : games) positions += g.moves.size() + 1;
    if (games.size() > kMaxGamesPerRequest || positions > kMaxPositionsPerRequest)
        return error_response(413, "a request may judge at most " + std::to_string(kMaxGamesPerRequest) +
                                       " games and " + std::to_string(kMaxPositionsPerRequest) +
                                       " positions; this body has " + std::to_string(games.size()) + " games and " +
                                       std::to_string(positions) +
                                       " positions (split the PDN, or judge the file with dtb adjudicate --pdn)");
    if (!v.tables) return error_response(503, v.missing);
    // Each game judged against its own variant's tables, whichever route took it.
    adjudicate::GameTableSources sources;
    for (const auto& [id, source] : {std::pair{VariantId::international, &sources.international},
                                     std::pair{VariantId::turkish, &sources.turkish}}) {
        const Variant* tables = variant_of(id);
        if (tables && tables->tables)
            source->tables = &*tables->tables;
        else
            source->missing = tables ? tables->missing : "no " + std::string(variant_name(id)) + " tables";
    }
    const adjudicate::JudgedGames judged = adjudicate::judge_games(std::move(games), sources, {.rules = *rules.rules});
    return json_response(json::games_json(rules.name, judged.games, judged.checks), false);
}

}  // namespace dtb::server
