// Variants as data. Each struct lists the rule fields a move generator needs; each field cites the
// sentence of docs/RULES.md it encodes. A new variant (Brazilian: international rules on the
// 8x8 dark squares) is a new struct plus a geometry, never a new move generator.
//
// Directions are written for White; Black uses the same directions turned 180 degrees.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include "direction.hpp"
#include "geometry.hpp"

namespace dtb {

enum class VariantId : std::uint8_t { international = 0, turkish = 1 };

// The variant's name as the command line and the table files' readers spell it.
constexpr std::string_view variant_name(VariantId v) {
    return v == VariantId::international ? "international" : v == VariantId::turkish ? "turkish" : "unknown";
}

struct International {
    static constexpr VariantId kId = VariantId::international;
    static constexpr std::string_view kName = "international";
    // RULES 1, Board: "10x10 board, only the 50 dark squares are used".
    using Geometry = International10x10;
    // RULES 1, Moves: "A man moves one square diagonally forward onto an empty square."
    static constexpr std::array<Dir, 2> kManStepDirs{Dir::NW, Dir::NE};
    // RULES 1, Captures: "A man captures an adjacent opponent piece diagonally (any of the 4 directions)".
    static constexpr std::array<Dir, 4> kManCaptureDirs = kDiagonals;
    // RULES 1, Moves: "A king ("flying king") moves any number of empty squares along a diagonal".
    static constexpr std::array<Dir, 4> kKingDirs = kDiagonals;
    static constexpr bool kFlyingKings = true;
    // RULES 1, Captures: "Captured pieces stay on the board until the whole capture is finished".
    static constexpr bool kRemoveCapturedAtOnce = false;
    // No 180-degree ban: reversing would re-cross the jumped piece, which still blocks.
    static constexpr bool kKingMayReverse = true;
    // RULES 1, Moves: "A man that only passes over that row during a capture ... stays a man".
    static constexpr bool kPromoteMidCapture = false;
    // RULES 1, Board: men start on the four rows nearest their side; they never go back, but a man
    // may stand on its own back row (it starts there).
    static constexpr bool kManNeverOnOwnBackRow = false;
    // RULES 1, Board: "Start: Black men on 1..20, White men on 31..50".
    static constexpr int kMaxPiecesPerSide = 20;
    static constexpr std::string_view kStartFen = "W:W31-50:B1-20";
    // RULES 1, "The special draw rules": the 25-move, 16-move and 5-move counting rules apply
    // (rule sets fmjd / ffjd; probe/counting_rules.hpp). Not part of the fingerprint: they do
    // not change WDL, DTW or DTC, and rule-aware tables name their rule set in their metric.
    static constexpr bool kCountingRules = true;
};

struct Turkish {
    static constexpr VariantId kId = VariantId::turkish;
    static constexpr std::string_view kName = "turkish";
    // RULES 2, Board: "8x8 board, ALL 64 squares are used."
    using Geometry = Full8x8;
    // RULES 2, Moves: "A man moves one square straight forward, or one square sideways".
    static constexpr std::array<Dir, 3> kManStepDirs{Dir::N, Dir::W, Dir::E};
    // RULES 2, Captures: "A man captures forward or sideways (never backward)".
    static constexpr std::array<Dir, 3> kManCaptureDirs{Dir::N, Dir::W, Dir::E};
    // RULES 2, Moves: "A king moves any number of empty squares along its row or column".
    static constexpr std::array<Dir, 4> kKingDirs = kOrthogonals;
    static constexpr bool kFlyingKings = true;
    // RULES 2, Captures: "Captured pieces are removed one by one AS they are jumped (seed)".
    static constexpr bool kRemoveCapturedAtOnce = true;
    // RULES 2, Captures: "A king may not reverse direction (turn 180 degrees) between two jumps".
    static constexpr bool kKingMayReverse = false;
    // RULES 2, Moves: "a man that reaches the last row during a capture continues ... only as a
    // man ... and is crowned when the move ends" (seed). Sources differ: this is the field.
    static constexpr bool kPromoteMidCapture = false;
    // RULES 2, Board/Moves: men start on rows 2-3 and never move backward, so a man never stands
    // on its own back row.
    static constexpr bool kManNeverOnOwnBackRow = true;
    static constexpr int kMaxPiecesPerSide = 16;
    static constexpr std::string_view kStartFen = "W:Wa2-h2,a3-h3:Ba6-h6,a7-h7";
    // RULES 2, End of game: "Turkish draughts has no counting rules in this project".
    static constexpr bool kCountingRules = false;
};

// A fingerprint of every rule field, written into each table so that tables computed under other
// rules (another variant, or Turkish with mid-capture promotion) are refused.
template <class R>
constexpr std::uint64_t rules_fingerprint() {
    std::uint64_t h = 1469598103934665603ULL;
    auto mix = [&h](std::uint64_t v) {
        h ^= v;
        h *= 1099511628211ULL;
    };
    mix(static_cast<std::uint64_t>(R::kId));
    mix(R::Geometry::kWidth);
    mix(R::Geometry::kHeight);
    mix(R::Geometry::kNumSquares);
    for (Dir d : R::kManStepDirs) mix(10 + static_cast<int>(d));
    for (Dir d : R::kManCaptureDirs) mix(20 + static_cast<int>(d));
    for (Dir d : R::kKingDirs) mix(30 + static_cast<int>(d));
    mix(R::kFlyingKings);
    mix(R::kRemoveCapturedAtOnce);
    mix(R::kKingMayReverse);
    mix(R::kPromoteMidCapture);
    mix(R::kManNeverOnOwnBackRow);
    return h;
}

// True when the rules look the same in a mirror (files reversed): the board maps onto itself and
// each direction list holds the mirror of each of its directions. A position and its mirror then
// have the same value, so an index may store one of the two (index/slice_index.hpp). Derived
// from fields the fingerprint already holds. Turkish: yes; international: no (the mirror of a
// dark square is a light one).
template <class R>
constexpr bool has_mirror_symmetry() {
    auto closed = [](const auto& dirs) {
        for (Dir d : dirs) {
            bool found = false;
            for (Dir e : dirs) found |= e == mirrored(d);
            if (!found) return false;
        }
        return true;
    };
    return R::Geometry::kHasFileMirror && closed(R::kManStepDirs) && closed(R::kManCaptureDirs) && closed(R::kKingDirs);
}
static_assert(!has_mirror_symmetry<International>() && has_mirror_symmetry<Turkish>());

// Calls f(International{}) or f(Turkish{}): one binary serves every variant, and the hot loops
// inside f are instantiated per variant.
template <class F>
decltype(auto) with_variant(VariantId id, F&& f) {
    if (id == VariantId::turkish) return f(Turkish{});
    return f(International{});
}

}  // namespace dtb
