// The values a tablebase speaks in (RULES.md 3), always from the side to move's point of view.
//
// In memory a WDL + DTW pair travels as one 16-bit "value code" so that it fits one atomic word:
//   0            draw
//   2*d - 1      win, DTW d >= 1 plies      (1 = win in 1, 3 = win in 2, ...)
//   2*d + 2      loss, DTW d >= 0 plies     (2 = lost now: no piece or no move, 4 = lost in 1, ...)
// so that a code never collides with another and 0xFFFF stays free for "not known yet".
// In table files WDL, DTW and DTC are stored separately (see docs/FORMAT.md): WDL as
// 0 loss / 1 draw / 2 win, distances as plain plies (0 for draws).
#pragma once
#include <cstdint>
#include <string_view>

namespace dtb {

enum class Wdl : std::uint8_t { loss = 0, draw = 1, win = 2 };

constexpr Wdl flip(Wdl w) {
    return static_cast<Wdl>(2 - static_cast<int>(w));
}
constexpr std::string_view to_string(Wdl w) {
    return w == Wdl::win ? "win" : w == Wdl::loss ? "loss" : "draw";
}

using ValueCode = std::uint16_t;
inline constexpr ValueCode kValueUnknown = 0xFFFF;
inline constexpr ValueCode kValueDraw = 0;

constexpr ValueCode win_in(int plies) {
    return static_cast<ValueCode>(2 * plies - 1);
}
constexpr ValueCode loss_in(int plies) {
    return static_cast<ValueCode>(2 * plies + 2);
}
constexpr bool is_win(ValueCode v) {
    return v != kValueUnknown && (v & 1) != 0;
}
constexpr bool is_loss(ValueCode v) {
    return v != kValueUnknown && v != 0 && (v & 1) == 0;
}
constexpr bool is_draw(ValueCode v) {
    return v == kValueDraw;
}
constexpr int distance_of(ValueCode v) {
    return is_win(v) ? (v + 1) / 2 : is_loss(v) ? (v - 2) / 2 : 0;
}
constexpr Wdl wdl_of(ValueCode v) {
    return is_win(v) ? Wdl::win : is_loss(v) ? Wdl::loss : Wdl::draw;
}
constexpr ValueCode make_value(Wdl w, int dtw) {
    return w == Wdl::win ? win_in(dtw) : w == Wdl::loss ? loss_in(dtw) : kValueDraw;
}
// The value for the player who moved into a position of value v (one ply earlier).
constexpr ValueCode value_one_ply_before(ValueCode v) {
    return is_loss(v) ? win_in(distance_of(v) + 1) : is_win(v) ? loss_in(distance_of(v) + 1) : kValueDraw;
}

static_assert(distance_of(win_in(7)) == 7 && distance_of(loss_in(0)) == 0 && distance_of(loss_in(9)) == 9);
static_assert(value_one_ply_before(loss_in(0)) == win_in(1));

}  // namespace dtb
