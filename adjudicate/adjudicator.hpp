// Adjudication under the counting rules of international draughts (RULES.md 1, "The special
// draw rules"): for a position, the counters of the game and a rule set, the result for the side
// to move under optimal play of both sides UNDER THOSE RULES, the plies to the end of the game,
// the rule that turns a theoretical result into a draw, and the moves that keep the result.
//
//   auto tb = dtb::probe::Tablebase::open({.directories = {"data/tb/international"},
//                                          .metrics = dtb::probe::kAllMetrics | dtb::probe::kRuleMetrics});
//   dtb::adjudicate::Adjudicator judge(*tb, dtb::CountingRules::fmjd);
//   dtb::adjudicate::Adjudication a = judge.adjudicate(position, {.reversible = 12});
//
// Method (docs/ADJUDICATION.md): the generator's rule tables (.fmjd, .ffjd, .ffjd16) hold, per
// position, the smallest budget with which the side to move wins (or loses); a position with
// counters is decided by comparing that threshold with the budget its counters leave. The one
// case the tables do not cover, a 25-move budget smaller than the class budget inside a counting
// class (counters no game produces: entering a class is a capture or a man move, which restarts
// the 25-move count), is searched here along king moves, exactly, with the tables at every exit.
// Plies to the end come from a search over the moves that keep the result (winner: fewest,
// loser: most), bounded below by the theoretical DTW.
//
// Thread safety: an Adjudicator is immutable; its members may be called from many threads (each
// call keeps its own search memory). It needs the handle to stay alive.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dtb/probe/counting_rules.hpp"
#include "dtb/probe/probe.hpp"

namespace dtb::adjudicate {

// The counters of a game (RULES.md 1), in plies.
// The largest counter value (plies) the front ends take: far past every limit of the counting
// rules, which are decided long before it.
inline constexpr int kMaxCounterPlies = 1'000'000;

struct Counters {
    int reversible = 0;          // since the last man move or capture
    std::optional<int> endgame;  // since the 16-move class was entered (a carried limit in the
                                 // 5-move class or, ffjd, in K+M v K)
    std::optional<int> small;    // since the 5-move class was entered (fmjd)
    bool operator==(const Counters&) const = default;
};

enum class DecidingRule : std::uint8_t { none, twenty_five, sixteen, five, two_kings };
std::string_view to_string(DecidingRule);  // "none", "25-move", "16-move", "5-move", "2k-v-k"

// A move with the result it keeps for the side that plays it.
struct RuleMove {
    Move move;
    std::string text;
    Wdl result = Wdl::draw;
    int plies = -1;  // to the end of the game under the rules when decided; -1 for a draw
    Counters after;  // the counters after the move
};

struct Adjudication {
    probe::Result status;  // ok, or why there is no answer (Tablebase::explain)
    Wdl result = Wdl::draw;
    int plies = -1;  // -1 for a draw (or when plies_known is false)
    // False when the search for plies gave up (more than a few million positions: not seen on
    // positions of up to 5 pieces); result, rule and moves are still exact.
    bool plies_known = true;
    // The rule that turns a theoretical win or loss into the draw (none when the theory is a
    // draw); beyond the tables' reach, where the theory is not known, the limit reached.
    DecidingRule rule = DecidingRule::none;
    Wdl theoretical = Wdl::draw;
    int theoretical_dtw = 0;  // -1 when the handle was opened without DTW
    // False for a position beyond the tables' reach that the rules alone decide (see
    // Adjudicator::adjudicate): theoretical and theoretical_dtw (-1) then mean nothing.
    bool theoretical_known = true;
    Counters counters;            // as applied to the position (defaults in, others out)
    std::vector<RuleMove> moves;  // the moves that keep the result, best first
    bool ok() const { return status.ok(); }
};

class Adjudicator {
  public:
    // The handle must hold international tables opened with kRuleMetrics (WDL is enough for
    // CountingRules::none); DTW is used when enabled (theoretical_dtw, and bounds that keep the search
    // for plies short; under CountingRules::none the plies are the DTW, not known without it). A
    // handle of another variant is refused (Status::illegal). Tables that pass their checks but
    // contradict each other at a position (no move keeps its value) give Status::corrupt, with
    // a reason, rather than moves or plies.
    Adjudicator(const probe::Tablebase& tables, CountingRules rules) : tb_(tables), rules_(rules) {}

    // A position with more pieces than the handle's largest slice is answered from the tables
    // when its captures lead into them (captures are compulsory); otherwise only when the rules
    // alone decide it (RULES.md 1): the side to move has no move (lost), or a limit has already
    // been reached (drawn, `rule` naming it, every move keeping the draw; theoretical_known
    // false; under CountingRules::none there is no limit). Any other such position gives
    // Status::missing, as does a table missing within the reach, also one reached through
    // captures from beyond it.
    Adjudication adjudicate(const Position& p, const Counters& counters) const;

    // Only the result (Result::wdl), without plies or moves: what an engine asks in its search.
    // Cache-only access answers Status::not_cached instead of reading a table. Positions beyond
    // the tables' reach as for adjudicate.
    probe::Result probe_wdl(const Position& p, const Counters& counters,
                            probe::Access access = probe::Access::load) const;

    // RULES.md 1 bookkeeping: the counters that apply to p (defaults filled in, counters that do
    // not apply dropped), and the counters after move m.
    Counters applicable(const Position& p, const Counters& counters) const;
    Counters after_move(const Position& p, const Counters& counters, const Move& m) const;

    // Which limit (if any) has drawn the game at position p reached with these counters (the
    // move into p did not end the game): a budget at 0, or ffjd's immediate 2K v K / K v K draw.
    DecidingRule limit_reached(const Position& p, const Counters& counters) const;

    CountingRules rules() const { return rules_; }

  private:
    std::optional<Wdl> result_by_rules_alone(const Position& p, const Counters& counters,
                                             const probe::Result& failure) const;
    std::optional<Adjudication> by_the_rules_alone(const Position& p, const Counters& counters,
                                                   const probe::Result& failure) const;
    DecidingRule deciding_rule(const Position& p, const Counters& counters) const;
    const probe::Tablebase& tb_;
    CountingRules rules_;
};

// The same as Adjudicator(tables, rules).adjudicate(p, counters).
Adjudication adjudicate(const probe::Tablebase& tables, const Position& p, const Counters& counters,
                        CountingRules rules);

}  // namespace dtb::adjudicate
