// The counting rules of international draughts (RULES.md 1, "The special draw rules") as data:
// rule sets, their limits in plies, and which class a material belongs to under each.
//
// Budgets. Every limit is read as a budget of plies still allowed: 50 - reversible (25-move
// rule), 32 - endgame (16-move class), 10 - small (5-move class, fmjd). A ply that does not end
// the game and brings a budget to 0 draws; a budget already at 0 draws unless the side to move
// has no move. Captures and man moves restore the 25-move budget; the class budgets only drop
// when the position leaves the class into material that is in no class.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "dtb/format/format.hpp"
#include "dtb/index/material.hpp"

namespace dtb {

// Which counting rules judge a position (docs/RULES.md): the FMJD's, the FFJD's, or none (the
// game's value alone). The game's own rules are the variant's (rules/).
enum class CountingRules : std::uint8_t { none, fmjd, ffjd };

constexpr std::string_view to_string(CountingRules r) {
    return r == CountingRules::fmjd ? "fmjd" : r == CountingRules::ffjd ? "ffjd" : "none";
}
// The place of a rule set with tables in a pair of per-rule-set counters or arrays: fmjd 0, ffjd
// 1 (none has no rule tables).
constexpr int rule_set_slot(CountingRules rules) {
    return rules == CountingRules::fmjd ? 0 : 1;
}
constexpr std::optional<CountingRules> parse_counting_rules(std::string_view s) {
    if (s == "fmjd") return CountingRules::fmjd;
    if (s == "ffjd") return CountingRules::ffjd;
    if (s == "none") return CountingRules::none;
    return std::nullopt;
}

// RULES 1: "25 moves of each player (50 consecutive plies)", "16 more moves (32 plies)",
// fmjd "5 more moves (10 plies)".
inline constexpr int kReversibleLimit = 50;
inline constexpr int kSixteenMoveLimit = 32;
inline constexpr int kFiveMoveLimit = 10;

// The class a material is in under a rule set (either colour may be the lone king).
//   sixteen     one side a single king, the other exactly 3 pieces with at least one king
//   five        fmjd: one side a single king, the other 2K, K+M or K
//   ffjd_small  ffjd: one side a single king, the other 2K or K (drawn at the first position of
//               the class whose side to move has no capture)
enum class CountClass : std::uint8_t { none, sixteen, five, ffjd_small };

namespace detail {
constexpr bool lone_king(int kings, int men) {
    return kings == 1 && men == 0;
}
constexpr CountClass class_against_lone_king(int kings, int men, CountingRules rules) {
    const int pieces = kings + men;
    if (rules == CountingRules::none || kings < 1) return CountClass::none;
    if (pieces == 3) return CountClass::sixteen;
    if (rules == CountingRules::fmjd && pieces <= 2) return CountClass::five;
    if (rules == CountingRules::ffjd && men == 0 && pieces <= 2) return CountClass::ffjd_small;
    return CountClass::none;
}
}  // namespace detail

constexpr CountClass count_class(const Material& m, CountingRules rules) {
    if (detail::lone_king(m.bk, m.bm)) {
        const CountClass c = detail::class_against_lone_king(m.wk, m.wm, rules);
        if (c != CountClass::none) return c;
    }
    if (detail::lone_king(m.wk, m.wm)) return detail::class_against_lone_king(m.bk, m.bm, rules);
    return CountClass::none;
}

// K+M v K under ffjd: in no class, but a 16-move limit carried in from the 16-move class stays
// in force (RULES 1); such positions are read from the ffjd16 table.
constexpr bool is_ffjd_carried(const Material& m) {
    return (detail::lone_king(m.bk, m.bm) && m.wk == 1 && m.wm == 1) ||
           (detail::lone_king(m.wk, m.wm) && m.bk == 1 && m.bm == 1);
}

constexpr format::Metric rule_metric(CountingRules rules) {
    return rules == CountingRules::ffjd ? format::Metric::ffjd : format::Metric::fmjd;
}

// Largest budget a fresh position of each kind gets: the class limit, else the 25-move one.
constexpr int fresh_budget(CountClass c) {
    return c == CountClass::sixteen ? kSixteenMoveLimit : c == CountClass::five ? kFiveMoveLimit : kReversibleLimit;
}

static_assert(count_class(Material{3, 0, 1, 0}, CountingRules::fmjd) == CountClass::sixteen);
static_assert(count_class(Material{0, 1, 1, 0}, CountingRules::fmjd) == CountClass::none);
static_assert(count_class(Material{1, 0, 1, 2}, CountingRules::ffjd) == CountClass::sixteen);
static_assert(count_class(Material{1, 1, 1, 0}, CountingRules::fmjd) == CountClass::five);
static_assert(count_class(Material{1, 1, 1, 0}, CountingRules::ffjd) == CountClass::none);
static_assert(count_class(Material{1, 0, 1, 0}, CountingRules::ffjd) == CountClass::ffjd_small);
static_assert(count_class(Material{2, 0, 2, 0}, CountingRules::fmjd) == CountClass::none);
static_assert(count_class(Material{0, 2, 1, 0}, CountingRules::fmjd) == CountClass::none);

}  // namespace dtb
