// What the moves that leave a slice are worth, as a solver (gen/slice_solver.hpp) is told: the
// game's finished tables (ExternalTables), or the valuation of other rules of the game
// (MoveValuation, the counting rules), and what a seed pass learns of a position's exits.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "dtb/gen/pair_array.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/movegen.hpp"

namespace dtb::gen {

// The finished slices that moves leaving the slice being solved lead to, in two steps:
// locate(p) is the address of the word of a White-to-move position p of any other material
// (gen/finished_tables.hpp), value_in(word) its value code. Two steps so that the seed pass can
// locate the exits of a batch of positions, prefetch their words, and read them once they have
// arrived: at 6 pieces a word is a cache miss into a table of hundreds of MB.
struct ExternalTables {
    std::function<const std::uint16_t*(const Position&)> locate;
    ValueCode (*value_in)(std::uint16_t word) = nullptr;
    ValueCode value(const Position& p) const { return value_in(*locate(p)); }
};
// What a seed pass learns from a position's captures and promotions, which lead to other slices
// and so are the same for every valuation that reads the same finished tables.
struct PreparedSeed {
    bool drawn = false;                        // known to be a draw (the rest does not matter)
    bool capture = false;                      // the side to move must capture: every move leaves
    std::uint8_t king_steps = 0;               // plain king moves (0 when it must capture)
    ValueCode best_elsewhere = kValueUnknown;  // best value among its captures and promotions
};
// What moves are worth under a set of rules other than the plain game (the counting rules).
struct MoveValuation {
    // false: only king moves stay inside (the 25-move rule's king phases); man moves are exits.
    bool man_moves_inside = true;
    // The value, for the side that moves, of a move that does not stay inside. next is the
    // position after the move, colour-reversed (White to move, with at least one white piece).
    std::function<ValueCode(const Position& next, const Move& m)> exit;
    // Optional, only with man_moves_inside = false: the seed of position `index` of side `side`
    // computed beforehand (gen/rule_tables.hpp does it for both rule sets in one pass). The seed
    // pass then generates only plain man moves, and values those that do not promote by exit().
    std::function<PreparedSeed(int side, std::uint64_t index)> prepared;
    // Optional: the values of a men configuration known beforehand (kings_per_config() of them,
    // from its first index on), or nullptr when it must be solved. A known configuration is
    // copied, not solved. Only king moves may stay inside (man_moves_inside = false): a
    // configuration is then closed, and nothing inside the slice leads into one from outside
    // except man moves, which read its (final) values.
    std::function<const ValueCode*(int side, std::uint64_t men_config)> known;
    // Optional, only with man_moves_inside = false and prepared seeds: values that this valuation's
    // equal or are stronger than (a valuation's win is the reference's win, slower, or a draw; its
    // loss the reference's loss, slower, or a draw: the counting rules against the game's DTC,
    // gen/rule_tables.hpp). The solver then re-solves only the positions whose exits differ from
    // the reference's and those whose value may depend on them (gen/rule_repair.hpp), and takes
    // the reference's value everywhere else.
    struct Reference {
        std::vector<const PairArray<ValueCode>*> values;  // per side, by index
        // Whether a position's captures and promotions are worth what they are in the reference.
        std::function<bool(int side, std::uint64_t index)> exits_like;
        // Whether a plain man move into a position whose value is `solved` here, and `reference`
        // in the reference, is worth the same under both.
        std::function<bool(ValueCode solved, ValueCode reference)> same_exit;
        // false (tests only): repair however far the closure grows, never solving in full.
        bool fall_back = true;
    };
    std::optional<Reference> reference;
};
// Told, for a position (side, index) of the theoretical seed pass: the words (ExternalTables) of
// the positions its moves that leave the slice lead to (every capture, or the promotions), in the
// order of the moves, a null pointer for a move that takes the opponent's last piece; whether it
// must capture; its plain king moves. The words have been read by then (in cache).
using SeedObserver = std::function<void(int side, std::uint64_t index, std::span<const std::uint16_t* const> exit_words,
                                        bool capture, int king_steps)>;

// Better for the player to move: quick wins, then draws, then slow losses.
constexpr int preference(ValueCode v) {
    if (v == kValueUnknown) return -1000000;
    if (is_win(v)) return 1000000 - distance_of(v);
    if (is_draw(v)) return 0;
    return -100000 + distance_of(v);
}
constexpr ValueCode better(ValueCode a, ValueCode b) {
    return preference(a) >= preference(b) ? a : b;
}

}  // namespace dtb::gen
