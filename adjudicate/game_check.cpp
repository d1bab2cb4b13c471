// check_game (game_check.hpp): replay, counters and repetition ply by ply, the tables at the
// first position they reach and at the end, then the recorded result against what that shows.
#include "dtb/adjudicate/game_check.hpp"

#include <algorithm>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/notation.hpp"

namespace dtb::adjudicate {

using probe::Access;
using probe::kDtw;
using probe::kWdl;
using probe::Result;
using probe::Status;
using probe::Tablebase;

std::string_view to_string(GameVerdict v) {
    switch (v) {
        case GameVerdict::consistent:
            return "consistent";
        case GameVerdict::inconsistent:
            return "inconsistent";
        case GameVerdict::not_judged:
            return "not judged";
        case GameVerdict::other_variant:
            return "other variant";
    }
    return "not judged";
}

std::string recorded_result_text(PdnResult r) {
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

// A value for the side to move, as a game result.
std::string game_result(Wdl w, Color side_to_move) {
    if (w == Wdl::draw) return "draw";
    const bool white_wins = (w == Wdl::win) == (side_to_move == Color::white);
    return white_wins ? "white wins" : "black wins";
}

CountClass class_of(const Position& p, CountingRules rules) {
    return count_class(Material::of(p), rules);
}

// Whether the folder should answer for p: no more pieces than its largest slice. A position
// with more is simply not yet in the tables' reach; one within it that they cannot judge is
// a fault of the tables, not of the game.
bool within_tables(const Tablebase& tb, const Position& p) {
    return Material::of(p).pieces() <= tb.max_pieces();
}

// The value at ply `ply`, or the tables' failure there (ply stays -1). Illegal positions (none
// arise from a replayed game) are left unjudged rather than blamed on the tables. The theory
// (WDL, DTW) from the tables; an international game's rule value from the adjudicator's
// threshold tables (probe_wdl: no search for plies, which can cost millions of positions); the
// DTW only where it is reported (`with_dtw`: at the end), one table block fewer to read.
template <class R>
GameValue judge_at(const Tablebase& tb, const Adjudicator* judge, const Position& p, const Counters& k, int ply,
                   bool with_dtw, GameCheck& c) {
    GameValue v;
    MoveList moves;
    generate_moves<R>(p, moves);
    if (moves.empty()) {  // the side to move has lost (RULES.md: no piece or no move)
        v.ply = ply;
        v.theoretical = v.rule_value = game_result(Wdl::loss, p.side_to_move);
        v.plies = 0;
        return v;
    }
    // The rules only ever turn a win into a draw: a decided rule value is the theory too, and
    // the theory's table need not be read unless its DTW is wanted.
    Result rule, theory;
    if (judge) rule = judge->probe_wdl(p, k);
    if (rule.ok() && (!judge || rule.wdl == Wdl::draw || with_dtw))
        theory = tb.probe(p, with_dtw && (tb.metrics() & kDtw) ? kWdl | kDtw : kWdl);
    else
        theory = rule;
    if (!judge) rule = theory;
    const Result& failed = !rule.ok() ? rule : theory;
    if (!failed.ok()) {
        if (failed.status != Status::illegal) {
            c.table_error = "ply " + std::to_string(ply) + ", " + tb.to_fen(p) + ": " + tb.explain(failed);
            c.table_status = failed.status;
        }
        return v;
    }
    v.ply = ply;
    v.theoretical = game_result(theory.wdl, p.side_to_move);
    v.rule_value = game_result(rule.wdl, p.side_to_move);
    v.plies = theory.wdl == Wdl::draw ? -1 : theory.dtw;
    return v;
}

struct PositionKey {
    Bitboard white, black, kings;
    int side;
    bool operator==(const PositionKey&) const = default;
};
struct PositionKeyHash {
    size_t operator()(const PositionKey& k) const {
        std::uint64_t h = k.white * 0x9E3779B97F4A7C15ull ^ (k.black + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
        h ^= (k.kings + static_cast<std::uint64_t>(k.side)) * 0x165667B19E3779F9ull;
        return static_cast<size_t>(h ^ (h >> 29));
    }
};

// The count that binds at p with counters k (applicable to p) under `rules`: the class's when its
// budget is the smaller, else the 25-move one; empty under rule set none.
std::string counting_rule_at(const Position& p, const Counters& k, CountingRules rules) {
    if (rules == CountingRules::none) return "";
    const Material m = Material::of(p);
    const int rho = kReversibleLimit - k.reversible;
    std::optional<int> c;  // the class budget, if any
    std::string name;
    switch (count_class(m, rules)) {
        case CountClass::sixteen:
            c = kSixteenMoveLimit - k.endgame.value_or(0), name = "16-move";
            break;
        case CountClass::five:
            c = kFiveMoveLimit - k.small.value_or(0), name = "5-move";
            if (k.endgame && kSixteenMoveLimit - *k.endgame < *c) c = kSixteenMoveLimit - *k.endgame, name = "16-move";
            break;
        case CountClass::ffjd_small:
            return "2k-v-k";  // drawn at its first position without a capture
        case CountClass::none:
            if (rules == CountingRules::ffjd && is_ffjd_carried(m) && k.endgame)
                c = kSixteenMoveLimit - *k.endgame, name = "16-move";
            break;
    }
    return c && *c <= rho ? name : "25-move";
}

// The values of position p of the game (`at` has its ply, move, FEN and counters): the theory
// (WDL, DTW) and, for an international game, the value under the rules with the game's counters
// (Adjudicator::probe_wdl: the rule tables' thresholds, what `dtb adjudicate` says with those
// counters, without its search for plies: a quarter of a second a 5-piece position on average,
// too much for every ply of a file of games). A failure of the tables goes to at.error (illegal positions,
// which no replay reaches, are left unjudged).
template <class R>
void value_position(const Tablebase& tb, const Adjudicator* judge, const Position& p, GamePosition& at) {
    MoveList moves;
    generate_moves<R>(p, moves);
    if (moves.empty()) {  // lost: no piece or no move (RULES.md), before any limit
        at.judged = true;
        at.theoretical = at.rule_value = Wdl::loss;
        at.theoretical_dtw = 0;
        return;
    }
    const Result theory = tb.probe(p, kWdl | (tb.metrics() & kDtw));
    const Result rule = theory.ok() && judge ? judge->probe_wdl(p, at.counters) : theory;
    const Result& failed = !theory.ok() ? theory : rule;
    if (!failed.ok()) {
        if (failed.status != Status::illegal) at.error = tb.explain(failed);
        return;
    }
    at.judged = true;
    at.theoretical = theory.wdl;
    at.theoretical_dtw = theory.wdl == Wdl::draw ? -1 : theory.dtw;
    at.rule_value = rule.wdl;
}

// The plies of a followed replay: events, the first and last values, how the record ended, and
// every position with its values (c.positions, listed before: ply, move, FEN).
template <class R>
void judge_plies(const PdnReplay& replay, const Tablebase& tb, const Adjudicator* judge, GameCheck& c,
                 std::optional<int>& drawn_at, std::string& drawn_by, bool& ended) {
    const CountingRules rules = c.rules;
    const auto& positions = replay.positions;
    Counters k = judge ? judge->applicable(positions[0], Counters{}) : Counters{};
    std::unordered_map<PositionKey, int, PositionKeyHash> seen;
    MoveList moves;
    for (std::size_t ply = 0; ply < positions.size(); ++ply) {
        const Position& p = positions[ply];
        const int n = static_cast<int>(ply);
        GamePosition none;  // when the positions are not wanted
        GamePosition& at = ply < c.positions.size() ? c.positions[ply] : none;
        if (judge) {
            const CountClass now = class_of(p, rules);
            const CountClass before = ply > 0 ? class_of(positions[ply - 1], rules) : CountClass::none;
            if (ply > 0) k = judge->after_move(positions[ply - 1], k, replay.moves[ply - 1]);
            if (now == CountClass::sixteen && before != CountClass::sixteen) {
                c.events.push_back({n, "16-move started", ""});
                at.started = "16-move";
            }
            if (now == CountClass::five && before != CountClass::five) {
                c.events.push_back({n, "5-move started", ""});
                at.started = "5-move";
            }
            at.has_counters = true;
            at.counters = k;
            at.counting_rule = counting_rule_at(p, k, rules);
        }
        if (ply < c.positions.size() && within_tables(tb, p)) value_position<R>(tb, judge, p, at);
        generate_moves<R>(p, moves);
        if (moves.empty()) {
            if (ply + 1 == positions.size()) ended = true;
            break;  // the game is over (a replay cannot go on from here)
        }
        if (!drawn_at) {
            if (judge) {
                if (const DecidingRule r = judge->limit_reached(p, k); r != DecidingRule::none) {
                    drawn_at = n;
                    drawn_by = "draw by " + std::string(to_string(r));
                    c.events.push_back({n, drawn_by, ""});
                    at.drawn_by = std::string(to_string(r));
                }
            }
            const PositionKey key{p.pieces[0], p.pieces[1], p.kings, static_cast<int>(p.side_to_move)};
            if (++seen[key] == 3 && !drawn_at) {
                drawn_at = n;
                drawn_by = "repetition";
                c.events.push_back({n, drawn_by, "third occurrence of this position"});
                at.drawn_by = "repetition";
            }
        }
        if (c.first.ply < 0 && c.table_error.empty() && within_tables(tb, p)) {
            c.first = judge_at<R>(tb, judge, p, k, n, false, c);
            if (c.first.ply >= 0) {
                std::string detail = "theoretical " + c.first.theoretical;
                if (judge) detail += ", under the rules " + c.first.rule_value;
                c.events.push_back({n, "first judged", detail});
            }
        }
    }
    if (c.first.ply >= 0 && c.table_error.empty())
        c.end = judge_at<R>(tb, judge, positions.back(), k, c.plies, true, c);
    if (!c.table_error.empty())
        for (GamePosition& at : c.positions) at.judged = false;  // a game the tables cannot judge
}

// Ply, move and FEN of every position of a followed replay (values: judge_plies).
template <class R>
void list_positions(const PdnReplay& replay, GameCheck& c) {
    c.positions.resize(replay.positions.size());
    MoveList legal;
    for (std::size_t ply = 0; ply < replay.positions.size(); ++ply) {
        GamePosition& at = c.positions[ply];
        at.ply = static_cast<int>(ply);
        at.fen = to_fen<R>(replay.positions[ply]);
        if (ply == 0) continue;
        generate_moves<R>(replay.positions[ply - 1], legal);
        at.move = move_to_string<R>(replay.moves[ply - 1], legal);
    }
}

// What the record proves, then whether the recorded result agrees.
void compare_result(const PdnGame& g, GameCheck& c, const std::optional<int>& drawn_at, const std::string& drawn_by,
                    bool ended, Color last_to_move) {
    const PdnResult recorded = pdn_recorded_result(g);
    std::string proven;  // "white wins", "draw", "black wins" or empty
    std::string shown;   // how the record shows it
    if (drawn_at) {
        proven = "draw";
        c.outcome = "drawn at ply " + std::to_string(*drawn_at);
        c.decisive_ply = *drawn_at;
        shown = "the game was drawn at ply " + std::to_string(*drawn_at) + " (" + drawn_by + ")";
    } else if (ended) {
        proven = game_result(Wdl::loss, last_to_move);
        c.outcome = "game over at ply " + std::to_string(c.plies);
        c.decisive_ply = c.plies;
        shown = "the game ended at ply " + std::to_string(c.plies) + ": " + proven;
    } else if (c.end.ply >= 0) {
        proven = c.end.rule_value;
        c.outcome = "judged at the end";
        c.decisive_ply = c.plies;
        if (proven == "draw")
            shown = "the final position (ply " + std::to_string(c.plies) + ") is a draw" +
                    (c.rules == CountingRules::none ? std::string()
                                                    : " under the rules (theoretical: " + c.end.theoretical + ")");
        else
            shown =
                "a forced win remains" + std::string(c.rules == CountingRules::none ? "" : " within the limits") +
                " at the end (ply " + std::to_string(c.plies) + "): " + proven +
                (c.end.plies >= 0 && c.end.theoretical == proven
                     ? " (theoretically in " + std::to_string(c.end.plies) + (c.end.plies == 1 ? " ply)" : " plies)")
                     : "");
    }
    const std::string rec = recorded_result_text(recorded);
    if (recorded != PdnResult::unknown && !proven.empty() && rec != proven) {
        c.verdict = GameVerdict::inconsistent;
        c.reason = "recorded " + rec + ", but " + shown;
        c.problems.push_back(c.reason);
        return;
    }
    c.verdict = GameVerdict::consistent;
    if (proven.empty()) {
        c.decisive_ply = -1;
        c.reason = c.first.ply < 0 ? "the tables never reach this game: nothing contradicts the record"
                                   : "nothing decides the game by its end: nothing contradicts the record";
    } else if (recorded == PdnResult::unknown) {
        c.reason = "no result recorded; " + shown;
    } else {
        c.reason = "recorded " + rec + ", and " + shown;
    }
}

template <class R>
void check_followed(const PdnGame& g, const PdnReplay& replay, const GameTables& t, GameCheck& c) {
    const bool turkish = R::kId == VariantId::turkish;
    const Tablebase* tb = turkish ? t.turkish : t.international;
    const Adjudicator* judge = turkish ? nullptr : t.judge;
    c.rules = judge ? judge->rules() : CountingRules::none;
    if (t.positions) list_positions<R>(replay, c);
    if (!tb || (!turkish && !judge)) {
        c.table_error =
            "no " + std::string(R::kName) + " tables: " + (turkish ? t.turkish_error : t.international_error);
        c.table_status = Status::missing;
    } else {
        std::optional<int> drawn_at;
        std::string drawn_by;
        bool ended = false;
        judge_plies<R>(replay, *tb, judge, c, drawn_at, drawn_by, ended);
        std::stable_sort(c.events.begin(), c.events.end(),
                         [](const GameEvent& a, const GameEvent& b) { return a.ply < b.ply; });
        if (c.table_error.empty() && replay.stop == PdnStop::none)
            compare_result(g, c, drawn_at, drawn_by, ended, replay.positions.back().side_to_move);
    }
    if (replay.stop != PdnStop::none) {
        c.stop_ply = replay.stop_ply;
        c.decisive_ply = replay.stop_ply;
        c.problems.insert(c.problems.begin(), replay.stop_message);
        c.reason = replay.stop_message;
        if (replay.stop == PdnStop::unreadable) {
            c.verdict = GameVerdict::not_judged;
            c.bad_record = true;
        } else {
            c.verdict = GameVerdict::inconsistent;
        }
    }
    if (!c.table_error.empty()) {
        c.problems.push_back("tables: " + c.table_error);
        c.first = c.end = GameValue{};
        if (c.verdict != GameVerdict::inconsistent || replay.stop == PdnStop::none) {
            c.verdict = GameVerdict::not_judged;
            c.reason = "tables: " + c.table_error;
        }
    }
}

}  // namespace

GameCheck check_game(const PdnGame& g, const GameTables& tables) {
    GameCheck c;
    const PdnGameType type = pdn_game_type(g);
    c.game_type = type.number;
    if (pdn_other_variant(type)) {
        c.variant_name = type.name.empty() ? "game type " + std::to_string(type.number) : type.name;
        c.verdict = GameVerdict::other_variant;
        c.reason = pdn_game_type_error(type) + "; skipped";
        return c;
    }
    const auto replay = follow_pdn_game(g, VariantId::international);
    if (!replay) {
        c.variant_name = type.variant
                             ? std::string(type.variant == VariantId::turkish ? Turkish::kName : International::kName)
                             : "unknown";
        c.verdict = GameVerdict::not_judged;
        c.bad_record = true;
        c.reason = replay.error();
        c.problems.push_back(replay.error());
        return c;
    }
    c.variant = replay->variant;
    c.variant_name = c.variant == VariantId::turkish ? Turkish::kName : International::kName;
    if (!type.given) c.game_type = c.variant == VariantId::turkish ? kPdnGameTypeTurkish : kPdnGameTypeInternational;
    c.plies = static_cast<int>(replay->moves.size());
    c.notes = replay->notes;
    if (const auto conflict = pdn_result_conflict(g)) c.notes.push_back({0, g.line, 0, *conflict});
    with_variant(c.variant, [&](auto rules) { check_followed<decltype(rules)>(g, *replay, tables, c); });
    return c;
}

}  // namespace dtb::adjudicate
