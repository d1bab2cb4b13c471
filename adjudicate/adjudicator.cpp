// Adjudication: see adjudicate/adjudicator.hpp and docs/ADJUDICATION.md.
#include "dtb/adjudicate/adjudicator.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <unordered_map>

#include "dtb/rules/movegen.hpp"
#include "dtb/rules/notation.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::adjudicate {

using probe::Access;
using probe::kDtw;
using probe::kWdl;
using probe::MoveValue;
using probe::Result;
using probe::Status;
using probe::Tablebase;

std::string_view to_string(DecidingRule r) {
    switch (r) {
        case DecidingRule::none:
            return "none";
        case DecidingRule::twenty_five:
            return "25-move";
        case DecidingRule::sixteen:
            return "16-move";
        case DecidingRule::five:
            return "5-move";
        case DecidingRule::two_kings:
            return "2k-v-k";
    }
    return "none";
}

namespace {

using R = International;
using G = R::Geometry;
constexpr int kNoLimit = 1 << 20;
// Search nodes one question may use for its plies before giving up on them (the result itself
// never needs more than the tables, except in the 25-move-inside-a-class case).
constexpr std::uint64_t kMaxPliesNodes = 4'000'000;

// Which table decides a position and with which budgets (see gen/rule_tables.hpp).
struct DecidingTable {
    bool is_class = false;  // the table's thresholds count the class budget c
    int rho = 0;            // 25-move budget
    int c = kNoLimit;       // class budget
    format::Metric table = format::Metric::fmjd;
};

// Thrown inside one question when a probe fails; caught at the API boundary.
struct ProbeFailure {
    Result result;
};

// The counting rules are international draughts' (RULES.md 2): a handle of another variant gets
// an answer of its own rather than values computed with the wrong board.
std::optional<Result> refuse_other_variant(const Tablebase& tb) {
    if (tb.variant() == VariantId::international) return std::nullopt;
    Result r;
    r.status = Status::illegal;
    r.reason = "the counting rules are those of international draughts";
    return r;
}

bool has_dtw(const Tablebase& tb) {
    return (tb.metrics() & kDtw) != 0;
}

// Tables that pass their checks one by one but contradict each other at p (a rule table of one
// generation beside game tables of another, say): no move keeps the value they give p. Said as
// such rather than answered with moves or plies that the tables cannot support.
ProbeFailure tables_disagree(const Position& p, CountingRules rules) {
    Result r;
    r.status = Status::corrupt;
    r.slice = Material::of(p);
    r.metric = rules == CountingRules::none ? format::Metric::wdl : rule_metric(rules);
    r.reason = "the tables disagree here: no move keeps the value they give this position";
    return ProbeFailure{r};
}

struct Key {
    Bitboard white, black, kings;
    std::uint8_t stm;
    std::int32_t rho, c;
    std::uint8_t table;
    bool operator==(const Key&) const = default;
};
struct KeyHash {
    std::size_t operator()(const Key& k) const {
        std::uint64_t h = k.white * 0x9E3779B97F4A7C15ull;
        h ^= (k.black + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
        h ^= (k.kings + (static_cast<std::uint64_t>(k.stm) << 1)) * 0x165667B19E3779F9ull;
        h ^= (static_cast<std::uint64_t>(k.rho) << 32 | static_cast<std::uint32_t>(k.c)) * 0x27D4EB2F165667C5ull;
        return static_cast<std::size_t>(h ^ (h >> 29) ^ k.table);
    }
};

// A counter one ply on. It saturates: a count at or past its limit means the limit was reached,
// whatever its value (RULES.md 1), and a caller may pass any int, INT_MAX included.
int one_ply_on(int count) {
    return count == std::numeric_limits<int>::max() ? count : count + 1;
}

Result ok_result(Wdl w) {
    Result r;
    r.wdl = w;
    return r;
}

// Move m of p's legal moves, with its text and the counters after it (a draw until valued).
RuleMove listed(const Adjudicator& judge, const Position& p, const Counters& counters, const Move& m,
                const MoveList& legal) {
    RuleMove rm;
    rm.move = m;
    rm.text = move_to_string<R>(m, legal);
    rm.after = judge.after_move(p, counters, m);
    return rm;
}

bool better_rule_move(const RuleMove& a, const RuleMove& b) {
    if (a.result != b.result) return static_cast<int>(a.result) > static_cast<int>(b.result);
    if (a.result == Wdl::win && a.plies != b.plies) return a.plies < b.plies;
    if (a.result == Wdl::loss && a.plies != b.plies) return a.plies > b.plies;
    return a.text < b.text;
}

// One question: memory of the searches it makes.
class Question {
  public:
    Question(const Adjudicator& judge, const Tablebase& tb, Access access) : judge_(judge), tb_(tb), access_(access) {}

    DecidingTable deciding_table_of(const Position& p, const Counters& k) const {
        const Material m = Material::of(p);
        const CountClass cls = count_class(m, judge_.rules());
        DecidingTable r;
        r.rho = kReversibleLimit - k.reversible;
        r.table = rule_metric(judge_.rules());
        switch (cls) {
            case CountClass::sixteen:
                r.is_class = true;
                r.c = kSixteenMoveLimit - k.endgame.value_or(0);
                break;
            case CountClass::five:
                r.is_class = true;
                r.c = kFiveMoveLimit - k.small.value_or(0);
                if (k.endgame) r.c = std::min(r.c, kSixteenMoveLimit - *k.endgame);
                break;
            case CountClass::ffjd_small:
                r.is_class = true;
                r.c = k.endgame ? kSixteenMoveLimit - *k.endgame : kNoLimit;
                break;
            case CountClass::none:
                if (judge_.rules() == CountingRules::ffjd && is_ffjd_carried(m) && k.endgame) {
                    r.is_class = true;
                    r.c = kSixteenMoveLimit - *k.endgame;
                    r.table = format::Metric::ffjd16;
                }
                break;
        }
        return r;
    }

    // The result for the side to move of p with counters k (already applicable).
    Wdl value(const Position& p, const Counters& k) {
        if (judge_.rules() == CountingRules::none) return wdl_only(p);
        if (p.of(p.side_to_move) == 0) return Wdl::loss;  // the game is over: no piece left
        const DecidingTable r = deciding_table_of(p, k);
        const ValueCode code = table_code(p, r.table);
        // Every rule table stores "lost now" (loss_in(0)) exactly for the positions without a
        // move, whatever the budget: the end of the game comes before any limit.
        if (code == loss_in(0)) return Wdl::loss;
        if (std::min(r.rho, r.c) <= 0) return Wdl::draw;
        const int d = distance_of(code);
        if (!r.is_class) return is_draw(code) || d > r.rho ? Wdl::draw : wdl_of(code);
        if (is_draw(code) || d > r.c) return Wdl::draw;
        if (r.rho >= r.c || d <= r.rho) return wdl_of(code);
        MoveList moves;
        generate_moves<R>(p, moves);
        return search_king_phase(p, k, r, moves);
    }

    // Plies to the end under the rules of a decided position (v its value): the winner takes
    // the fewest, the loser the most, over moves that keep the result.
    int plies(const Position& p, const Counters& k, Wdl v) {
        // Without rules the plies are the theoretical DTW: the winner's fewest, the loser's most.
        // Without DTW they are not known: no counter bounds that game, its graph has cycles.
        if (judge_.rules() == CountingRules::none) {
            if (!has_dtw()) throw TooDeep{};
            return theoretical(p).dtw;
        }
        const DecidingTable r = deciding_table_of(p, k);
        const Key key = key_of(p, r);
        if (auto it = plies_memo_.find(key); it != plies_memo_.end()) return it->second;
        if (++plies_nodes_ > kMaxPliesNodes) throw TooDeep{};
        MoveList moves;
        generate_moves<R>(p, moves);
        int best = 0;
        if (!moves.empty() && v == Wdl::win) {
            struct Candidate {
                Position next;
                Counters counters;
                int bound;
            };
            std::vector<Candidate> candidates;
            for (const Move& m : moves) {
                const Position q = make_move(p, m);
                if (q.of(q.side_to_move) == 0) {
                    candidates.push_back({q, {}, 0});
                    continue;
                }
                const Counters kq = judge_.after_move(p, k, m);
                if (value(q, kq) == Wdl::loss) candidates.push_back({q, kq, lower_bound(q, kq)});
            }
            if (candidates.empty()) throw tables_disagree(p, judge_.rules());
            std::sort(candidates.begin(), candidates.end(),
                      [](const Candidate& a, const Candidate& b) { return a.bound < b.bound; });
            best = 1 << 30;
            for (const Candidate& c : candidates) {
                if (1 + c.bound >= best) break;
                const int n = c.next.of(c.next.side_to_move) == 0 ? 0 : plies(c.next, c.counters, Wdl::loss);
                best = std::min(best, 1 + n);
            }
        } else if (!moves.empty()) {
            for (const Move& m : moves) {
                const Position q = make_move(p, m);
                const Counters kq = judge_.after_move(p, k, m);
                best = std::max(best, 1 + plies(q, kq, Wdl::win));
            }
        }
        plies_memo_.emplace(key, best);
        return best;
    }

    bool has_dtw() const { return dtb::adjudicate::has_dtw(tb_); }

    // The game-theoretic value, with the DTW when the handle has it (dtw -1 otherwise).
    Result theoretical(const Position& p) const {
        Result r = tb_.probe(p, kWdl | (has_dtw() ? kDtw : 0u), access_);
        if (!r.ok()) throw ProbeFailure{r};
        return r;
    }

    Wdl wdl_only(const Position& p) const {
        const Result r = tb_.probe(p, kWdl, access_);
        if (!r.ok()) throw ProbeFailure{r};
        return r.wdl;
    }

    struct TooDeep {};

  private:
    ValueCode table_code(const Position& p, format::Metric table) const {
        const Result r = tb_.probe_table(p, table, access_);
        if (!r.ok()) throw ProbeFailure{r};
        return r.entry;
    }

    static Key key_of(const Position& p, const DecidingTable& r) {
        return Key{p.pieces[0],
                   p.pieces[1],
                   p.kings,
                   static_cast<std::uint8_t>(p.side_to_move),
                   std::min(r.rho, kNoLimit),
                   std::min(r.c, kNoLimit),
                   static_cast<std::uint8_t>(r.table)};
    }

    // Plies to the end are at least the theoretical DTW and at least the rule threshold.
    int lower_bound(const Position& p, const Counters& k) {
        int bound = std::max(0, theoretical(p).dtw);
        if (judge_.rules() != CountingRules::none) {
            const DecidingTable r = deciding_table_of(p, k);
            bound = std::max(bound, distance_of(table_code(p, r.table)));
        }
        return bound;
    }

    // Inside a class with a 25-move budget below the class budget: every move is tried; a king
    // move keeps both budgets falling in step, any other move restarts the 25-move count so that
    // the tables answer for it. Depth at most rho (< 32) plies.
    Wdl search_king_phase(const Position& p, const Counters& k, const DecidingTable& r, const MoveList& moves) {
        const Key key = key_of(p, r);
        if (auto it = value_memo_.find(key); it != value_memo_.end()) return it->second;
        Wdl best = Wdl::loss;
        for (const Move& m : moves) {
            const Position q = make_move(p, m);
            const Wdl v = q.of(q.side_to_move) == 0 ? Wdl::win : flip(value(q, judge_.after_move(p, k, m)));
            if (static_cast<int>(v) > static_cast<int>(best)) best = v;
            if (best == Wdl::win) break;
        }
        value_memo_.emplace(key, best);
        return best;
    }

    const Adjudicator& judge_;
    const Tablebase& tb_;
    Access access_;
    std::unordered_map<Key, Wdl, KeyHash> value_memo_;
    std::unordered_map<Key, int, KeyHash> plies_memo_;
    std::uint64_t plies_nodes_ = 0;
};

}  // namespace

Counters Adjudicator::applicable(const Position& p, const Counters& in) const {
    Counters out;
    out.reversible = std::max(0, in.reversible);
    const Material m = Material::of(p);
    switch (count_class(m, rules_)) {
        case CountClass::sixteen:
            out.endgame = std::max(0, in.endgame.value_or(0));
            break;
        case CountClass::five:
            out.small = std::max(0, in.small.value_or(0));
            if (in.endgame) out.endgame = std::max(0, *in.endgame);
            break;
        case CountClass::ffjd_small:
            if (in.endgame) out.endgame = std::max(0, *in.endgame);
            break;
        case CountClass::none:
            if (rules_ == CountingRules::ffjd && is_ffjd_carried(m) && in.endgame)
                out.endgame = std::max(0, *in.endgame);
            break;
    }
    return out;
}

Counters Adjudicator::after_move(const Position& p, const Counters& in, const Move& m) const {
    const Counters k = applicable(p, in);
    const Position q = make_move(p, m);
    Counters out;
    out.reversible = (m.is_capture() || !m.by_king) ? 0 : one_ply_on(k.reversible);
    if (rules_ == CountingRules::none) return out;
    const Material before = Material::of(p), after = Material::of(q);
    const CountClass from = count_class(before, rules_), to = count_class(after, rules_);
    if (to == CountClass::sixteen) {
        out.endgame = from == CountClass::sixteen && k.endgame ? one_ply_on(*k.endgame) : 0;
    } else if (to == CountClass::five || to == CountClass::ffjd_small ||
               (rules_ == CountingRules::ffjd && is_ffjd_carried(after))) {
        if (k.endgame) out.endgame = one_ply_on(*k.endgame);  // a 16-move limit carried along
    }
    if (to == CountClass::five) out.small = from == CountClass::five && k.small ? one_ply_on(*k.small) : 0;
    return applicable(q, out);
}

DecidingRule Adjudicator::limit_reached(const Position& q, const Counters& in) const {
    if (rules_ == CountingRules::none) return DecidingRule::none;
    const Counters k = applicable(q, in);
    const Question question(*this, tb_, Access::load);
    const DecidingTable r = question.deciding_table_of(q, k);
    const CountClass cls = count_class(Material::of(q), rules_);
    if (r.is_class && r.c <= 0) {
        if (cls == CountClass::five && kFiveMoveLimit - k.small.value_or(0) <= 0) return DecidingRule::five;
        return DecidingRule::sixteen;
    }
    if (r.rho <= 0) return DecidingRule::twenty_five;
    if (cls == CountClass::ffjd_small && !has_capture<R>(q)) {
        MoveList moves;
        generate_moves<R>(q, moves);
        if (!moves.empty()) return DecidingRule::two_kings;
    }
    return DecidingRule::none;
}

Result Adjudicator::probe_wdl(const Position& p, const Counters& counters, Access access) const {
    if (auto refused = refuse_other_variant(tb_)) return *refused;
    if (rules_ == CountingRules::none) {
        const Result r = tb_.probe(p, kWdl, access);
        if (auto alone = result_by_rules_alone(p, counters, r)) return ok_result(*alone);
        return r;
    }
    // Illegal positions and positions outside the tables are refused by the table lookups.
    try {
        Question q(*this, tb_, access);
        return ok_result(q.value(p, applicable(p, counters)));
    } catch (const ProbeFailure& f) {
        if (auto alone = result_by_rules_alone(p, counters, f.result)) return ok_result(*alone);
        return f.result;
    }
}

// Beyond the tables' reach, the rules still decide a side without a move (lost, RULES.md 1)
// and a game whose limit was reached (drawn, whatever each move would have been worth: an
// arbiter's most common question, the 25-move count run out in a middlegame). Only when both
// the position and the table that failed are beyond the reach: a position beyond it with a
// capture is valued through its successors, and a table missing among those, within the
// reach, is a fault of the folder to report, not to answer around. `failure` is the probe's
// result: any other status (ok included) is no case for the rules alone.
std::optional<Wdl> Adjudicator::result_by_rules_alone(const Position& p, const Counters& counters,
                                                      const Result& failure) const {
    const int reach = tb_.max_pieces();
    if (failure.status != Status::missing || Material::of(p).pieces() <= reach || failure.slice.pieces() <= reach)
        return std::nullopt;
    MoveList legal;
    generate_moves<R>(p, legal);
    if (legal.empty()) return Wdl::loss;
    if (limit_reached(p, applicable(p, counters)) != DecidingRule::none) return Wdl::draw;
    return std::nullopt;
}

std::optional<Adjudication> Adjudicator::by_the_rules_alone(const Position& p, const Counters& counters,
                                                            const Result& failure) const {
    const std::optional<Wdl> result = result_by_rules_alone(p, counters, failure);
    if (!result) return std::nullopt;
    Adjudication a;
    a.counters = applicable(p, counters);
    if (*result == Wdl::loss) {
        a.result = a.theoretical = Wdl::loss;
        a.plies = 0;
        a.theoretical_dtw = has_dtw(tb_) ? 0 : -1;
        return a;
    }
    a.result = Wdl::draw;
    a.rule = limit_reached(p, a.counters);
    a.theoretical_known = false;
    a.theoretical_dtw = -1;
    MoveList legal;
    generate_moves<R>(p, legal);
    for (const Move& m : legal) a.moves.push_back(listed(*this, p, a.counters, m, legal));  // each a draw
    std::sort(a.moves.begin(), a.moves.end(), better_rule_move);
    return a;
}

Adjudication Adjudicator::adjudicate(const Position& p, const Counters& counters) const {
    Adjudication a;
    if (auto refused = refuse_other_variant(tb_)) {
        a.status = *refused;
        return a;
    }
    a.counters = applicable(p, counters);
    try {
        Question q(*this, tb_, Access::load);
        const Result theory = q.theoretical(p);  // also refuses illegal positions
        a.theoretical = theory.wdl;
        a.theoretical_dtw = theory.dtw;
        a.result = q.value(p, a.counters);
        MoveList legal;
        generate_moves<R>(p, legal);
        // A limit already reached here (a counter at its limit, or ffjd's immediate 2K v K / K v
        // K draw) has ended the game in a draw: no move changes that, so every move keeps it,
        // also one that would win or lose were the game still on.
        const DecidingRule reached = limit_reached(p, a.counters);
        for (const Move& m : legal) {
            RuleMove rm = listed(*this, p, a.counters, m, legal);
            const Position next = make_move(p, m);
            if (reached != DecidingRule::none)
                rm.result = Wdl::draw;
            else
                rm.result = next.of(next.side_to_move) == 0 ? Wdl::win : flip(q.value(next, rm.after));
            if (rm.result == a.result) a.moves.push_back(std::move(rm));
        }
        if (!legal.empty() && a.moves.empty()) throw tables_disagree(p, rules_);
        try {
            for (RuleMove& rm : a.moves) {
                if (rm.result == Wdl::draw) continue;
                const Position next = make_move(p, rm.move);
                rm.plies = next.of(next.side_to_move) == 0 ? 1 : 1 + q.plies(next, rm.after, flip(rm.result));
            }
        } catch (const Question::TooDeep&) {
            a.plies_known = false;
            for (RuleMove& rm : a.moves) rm.plies = -1;
        }
        std::sort(a.moves.begin(), a.moves.end(), better_rule_move);
        if (a.result != Wdl::draw && a.plies_known) a.plies = legal.empty() ? 0 : a.moves.front().plies;
        if (a.result == Wdl::draw && a.theoretical != Wdl::draw)
            a.rule = reached != DecidingRule::none ? reached : deciding_rule(p, a.counters);
    } catch (const ProbeFailure& f) {
        if (auto alone = by_the_rules_alone(p, counters, f.result)) return *alone;
        a.status = f.result;
    }
    return a;
}

DecidingRule Adjudicator::deciding_rule(const Position& p, const Counters& counters) const {
    // The first limit reached on the theoretical principal line (best moves by DTW)...
    Position x = p;
    Counters k = counters;
    for (int ply = 0; ply < 1000; ++ply) {
        std::optional<MoveValue> best;
        const Result r = tb_.best_move(x, best);
        if (!r.ok() || !best) break;
        const Counters next_k = after_move(x, k, best->move);
        const Position y = make_move(x, best->move);
        MoveList replies;
        generate_moves<R>(y, replies);
        if (replies.empty()) break;  // the game ends on this ply, before any limit
        if (const DecidingRule rule = limit_reached(y, next_k); rule != DecidingRule::none) return rule;
        x = y;
        k = next_k;
    }
    // ... else the limit that binds at the start. In ffjd's 2K v K / K v K without a carried
    // 16-move count that is the immediate draw, whose class budget is unlimited (and so never
    // below the 25-move one).
    const Question q(*this, tb_, Access::load);
    const DecidingTable r = q.deciding_table_of(p, counters);
    const CountClass cls = count_class(Material::of(p), rules_);
    if (cls == CountClass::ffjd_small && !counters.endgame) return DecidingRule::two_kings;
    if (!r.is_class || r.rho < r.c) return DecidingRule::twenty_five;
    if (cls == CountClass::five && r.c == kFiveMoveLimit - counters.small.value_or(0)) return DecidingRule::five;
    return DecidingRule::sixteen;
}

Adjudication adjudicate(const Tablebase& tables, const Position& p, const Counters& counters, CountingRules rules) {
    return Adjudicator(tables, rules).adjudicate(p, counters);
}

}  // namespace dtb::adjudicate
