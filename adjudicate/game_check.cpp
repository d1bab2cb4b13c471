// Each game is replayed with the counters kept ply by ply (adjudicate/game_check.hpp).
#include "adjudicate/game_check.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "rules/movegen.hpp"

namespace dtb::adjudicate {

namespace {

using probe::Counters;
using probe::DecidingRule;

// A value for the side to move, as a game result.
std::string game_result(Wdl w, Color side_to_move) {
    if (w == Wdl::draw) return "draw";
    const bool white_wins = (w == Wdl::win) == (side_to_move == Color::white);
    return white_wins ? "white wins" : "black wins";
}
}  // namespace

std::string recorded_text(PdnResult r) {
    switch (r) {
        case PdnResult::white_wins:
            return "white wins";
        case PdnResult::black_wins:
            return "black wins";
        case PdnResult::draw:
            return "draw";
        case PdnResult::unknown:
            break;
    }
    return "unknown";
}

namespace {

// Whether a game's record is bad input rather than a record to judge: whatever the replay
// refuses before the first move (a syntax error, a game type dtb does not play, a bad FEN), or a
// game of another variant (the counting rules are international draughts'). An illegal move in a
// well-formed record is the record judged wrong: inconsistent (exit 1), as the adjudication
// contract says. The replay of the record without its moves decides, so that these stay the
// replay's own checks.
bool is_bad_record(const PdnGame& g) {
    PdnGame record = g;
    record.moves.clear();
    const auto start = replay_pdn_game(record, VariantId::international);
    return !start || start->variant != VariantId::international;
}

CountClass class_of(const Position& p, RuleSet rules) { return count_class(Material::of(p), rules); }

// Whether the folder should answer for p: no more pieces than its largest slice. A position
// with more is simply not yet in the tables' reach; one within it that they cannot judge is
// a fault of the tables, not of the game.
bool within_tables(const probe::Tablebase& tb, const Position& p) {
    return Material::of(p).pieces() <= tb.max_pieces();
}

// The judgement at ply `ply`, or the tables' failure there (ply stays -1). Illegal positions
// (none arise from a replayed game) are left unjudged rather than blamed on the tables.
Judgement judge_at(const probe::Tablebase& tb, const probe::Adjudicator& judge, const Position& p,
                   const Counters& k, int ply, GameReport& report) {
    Judgement j;
    const probe::Adjudication a = judge.adjudicate(p, k);
    if (!a.ok()) {
        if (a.status.status != probe::Status::illegal) {
            report.table_error = "ply " + std::to_string(ply) + ", " + tb.to_fen(p) + ": " + tb.explain(a.status);
            report.table_status = a.status.status;
        }
        return j;
    }
    j.ply = ply;
    j.theoretical = game_result(a.theoretical, p.side_to_move);
    j.rule_value = game_result(a.result, p.side_to_move);
    j.plies = a.result == Wdl::draw ? -1 : a.plies;
    return j;
}

}  // namespace

GameReport check_game(const probe::Tablebase& tb, const probe::Adjudicator& judge, const PdnGame& g) {
    GameReport report;
    report.game = &g;
    auto replay = replay_pdn_game(g, VariantId::international);
    if (!replay) {
        report.problems.push_back(replay.error());
        report.consistent = false;
        report.bad_record = is_bad_record(g);
        return report;
    }
    if (replay->variant != VariantId::international) {
        report.problems.push_back(pdn_game_label(g) + ": not an international game: the counting rules do not apply");
        report.consistent = false;
        report.bad_record = true;
        return report;
    }
    using R = International;
    const RuleSet rules = judge.rules();
    const auto& positions = replay->positions;
    report.plies = static_cast<int>(replay->moves.size());
    Counters k = judge.applicable(positions[0], Counters{});
    std::map<std::tuple<Bitboard, Bitboard, Bitboard, int>, int> seen;
    std::optional<int> drawn_at;  // ply at which a rule or repetition drew the game
    std::string drawn_by;
    bool ended = false;           // the last position has no move: its side to move lost
    for (std::size_t ply = 0; ply < positions.size(); ++ply) {
        const Position& p = positions[ply];
        const int n = static_cast<int>(ply);
        if (ply > 0) {
            k = judge.after_move(positions[ply - 1], k, replay->moves[ply - 1]);
            const CountClass before = class_of(positions[ply - 1], rules), now = class_of(p, rules);
            if (now == CountClass::sixteen && before != CountClass::sixteen)
                report.events.push_back({n, "16-move started", ""});
            if (now == CountClass::five && before != CountClass::five)
                report.events.push_back({n, "5-move started", ""});
        } else {
            if (class_of(p, rules) == CountClass::sixteen) report.events.push_back({0, "16-move started", ""});
            if (class_of(p, rules) == CountClass::five) report.events.push_back({0, "5-move started", ""});
        }
        MoveList moves;
        generate_moves<R>(p, moves);
        if (moves.empty()) {
            if (ply + 1 == positions.size()) ended = true;
            break;  // the game is over (a replay cannot go on from here)
        }
        if (!drawn_at) {
            if (const DecidingRule r = judge.limit_reached(p, k); r != DecidingRule::none) {
                drawn_at = n;
                drawn_by = "draw by " + std::string(probe::to_string(r));
                report.events.push_back({n, drawn_by, ""});
            }
            const auto key = std::make_tuple(p.pieces[0], p.pieces[1], p.kings, static_cast<int>(p.side_to_move));
            if (++seen[key] == 3 && !drawn_at) {
                drawn_at = n;
                drawn_by = "repetition";
                report.events.push_back({n, drawn_by, "third occurrence of this position"});
            }
        }
        if (report.first.ply < 0 && within_tables(tb, p)) {
            report.first = judge_at(tb, judge, p, k, n, report);
            if (!report.table_error.empty()) break;
            if (report.first.ply >= 0) {
                std::string detail = "theoretical " + report.first.theoretical + ", under the rules " + report.first.rule_value;
                report.events.push_back({n, "first judged", detail});
            }
        }
    }
    const Position& last = positions.back();
    if (report.first.ply >= 0) report.end = judge_at(tb, judge, last, k, report.plies, report);
    if (!report.table_error.empty()) {
        report.problems.push_back("tables: " + report.table_error);
        report.consistent = false;
        report.first = report.end = Judgement{};
        return report;
    }
    std::sort(report.events.begin(), report.events.end(),
              [](const Event& a, const Event& b) { return a.ply < b.ply; });

    // What the record proves, then whether the recorded result agrees.
    const PdnResult recorded = pdn_recorded_result(g);
    std::string proven;  // "white wins", "draw", "black wins" or empty
    if (drawn_at) {
        proven = "draw";
        report.outcome = "drawn at ply " + std::to_string(*drawn_at);
    } else if (ended) {
        proven = game_result(Wdl::loss, last.side_to_move);
        report.outcome = "game over at ply " + std::to_string(report.plies);
    } else if (report.end.ply >= 0) {
        proven = report.end.rule_value;
        report.outcome = "judged at the end";
    }
    if (recorded != PdnResult::unknown && !proven.empty() && recorded_text(recorded) != proven) {
        report.consistent = false;
        std::string why = "recorded " + recorded_text(recorded) + ", but ";
        if (drawn_at)
            why += "the game was drawn at ply " + std::to_string(*drawn_at) + " (" + drawn_by + ")";
        else if (ended)
            why += "the game ended at ply " + std::to_string(report.plies) + ": " + proven;
        else if (proven == "draw")
            why += "the final position is a draw under the rules (theoretical: " + report.end.theoretical + ")";
        else
            why += "a forced win remains within the limits at the end: " + proven +
                   (report.end.plies >= 0 ? " in " + std::to_string(report.end.plies) + " plies" : "");
        report.problems.push_back(why);
    }
    return report;
}

namespace {

nlohmann::json judgement_json(const Judgement& j, const std::string& which) {
    if (j.ply < 0) return nullptr;
    return which == "theoretical" ? nlohmann::json(j.theoretical) : nlohmann::json(j.rule_value);
}

}  // namespace

nlohmann::json game_report_json(const PdnGame& g, const GameReport& r) {
    nlohmann::json tags = nlohmann::json::object();
    for (const PdnTag& t : g.tags) tags[t.name] = t.value;
    nlohmann::json events = nlohmann::json::array();
    for (const Event& e : r.events) {
        nlohmann::json ev = {{"ply", e.ply}, {"event", e.event}};
        if (!e.detail.empty()) ev["detail"] = e.detail;
        events.push_back(ev);
    }
    return {{"index", g.index},
            {"tags", tags},
            {"result", g.result_token.empty() ? nlohmann::json() : nlohmann::json(g.result_token)},
            {"recorded", recorded_text(pdn_recorded_result(g))},
            {"plies", r.plies},
            {"events", events},
            {"first_judged_ply", r.first.ply >= 0 ? nlohmann::json(r.first.ply) : nlohmann::json()},
            {"theoretical_at_first_judged", judgement_json(r.first, "theoretical")},
            {"rule_value_at_first_judged", judgement_json(r.first, "rule")},
            {"theoretical_at_end", judgement_json(r.end, "theoretical")},
            {"rule_value_at_end", judgement_json(r.end, "rule")},
            {"outcome", r.outcome},
            {"consistent", r.consistent},
            {"judged", !r.bad_record && r.table_error.empty()},
            {"problems", r.problems}};
}

}  // namespace dtb::adjudicate
