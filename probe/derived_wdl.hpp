// Derived WDL tables (probe/format.hpp, "Derived WDL tables"): which slices may have one, and how
// a WDL value is recovered without a search when the slice's DTW is at hand.
//
// Why it pays: of the two sides to move of a material, one usually has far more mixed values
// (international 2-5 pieces: dropping the larger side of each pair shrinks WDL by about 60%),
// while every move of that side lands in the other side's table. The price is one ply of search
// per probe of the derived side (BENCHMARKS.md, "Derived WDL").
#pragma once
#include <cstdint>
#include <vector>

#include "index/material.hpp"
#include "probe/value.hpp"
#include "rules/movegen.hpp"

namespace dtb {

// The slices (White to move) that White's non-capturing moves from m lead to, colour-reversed:
// m's mirror and, when White has men, the mirror of m with one man promoted. A slice's WDL may be
// derived only if all of these store theirs; captures may lead anywhere smaller, since the
// capture resolution of every reader already searches them.
inline std::vector<Material> quiet_successor_materials(const Material& m) {
    std::vector<Material> out{m.mirrored()};
    if (m.wm > 0) out.push_back(Material{m.bk, m.bm, m.wk + 1, m.wm - 1});
    return out;
}

// A slice whose mirror is itself reaches itself by a quiet move: it can never be derived.
inline bool may_derive_wdl(const Material& m) { return m.mirrored() != m; }

// The WDL of a position without a capture, from its DTW entry (plies): wins are odd, losses even,
// and 0 is a draw unless the side to move has no move at all (lost now).
template <class R>
Wdl wdl_from_dtw(const Position& p, std::uint16_t dtw) {
    if (dtw != 0) return (dtw & 1) ? Wdl::win : Wdl::loss;
    thread_local MoveList moves;
    generate_moves<R>(p, moves);
    return moves.empty() ? Wdl::loss : Wdl::draw;
}

}  // namespace dtb
