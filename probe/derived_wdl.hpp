// Derived WDL tables (docs/FORMAT.md, "Derived WDL tables"): which slices may have one, and how
// a WDL value is recovered without a search when the slice's DTW is at hand.
//
// Why it pays: of the two sides to move of a material, one usually has far more mixed values,
// while every move of that side lands in the other side's table (international 2-5 pieces: 40 of
// the 85 WDL tables derived, WDL 26.3 MB -> 9.9 MB). The price is one ply of search per probe of
// the derived side (BENCHMARKS.md, "Derived WDL").
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/index/material.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/movegen.hpp"

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

// The inverse: the slices whose quiet moves reach m (m's mirror, and the slice whose promotion
// leads to m), so whose WDL may be derived only while m stores its own.
inline std::vector<Material> quiet_predecessor_materials(const Material& m) {
    std::vector<Material> out{m.mirrored()};
    if (m.bk > 0) out.push_back(Material{m.bk - 1, m.bm + 1, m.wk, m.wm});
    return out;
}

// A slice whose mirror is itself reaches itself by a quiet move: it can never be derived.
inline bool may_derive_wdl(const Material& m) {
    return m.mirrored() != m;
}

// Why a derived WDL table for m in `dir` breaks the rule above (empty: it does not): every slice
// m's quiet moves reach must be there with a stored WDL table.
inline std::string derived_wdl_problem(const std::filesystem::path& dir, const Material& m) {
    if (!may_derive_wdl(m)) return "a derived WDL table for a slice that is its own mirror";
    for (const Material& x : quiet_successor_materials(m)) {
        auto info = format::read_table_info(dir / format::file_name(x.name(), format::Metric::wdl));
        if (!info) return "its WDL is derived from " + x.name() + ", which cannot be read: " + info.error();
        if (info->derived()) return "its WDL is derived from " + x.name() + ", whose WDL is derived too";
    }
    return {};
}

// The WDL of a position without a capture, from its DTW entry (plies): wins are odd, losses even,
// and 0 is a draw unless the side to move has no move at all (lost now). position() gives the
// position; it is called only for DTW 0, so that a pass over a whole table unranks only those.
template <class R, class PositionFn>
Wdl wdl_from_dtw(std::uint16_t dtw, PositionFn&& position) {
    if (dtw != 0) return (dtw & 1) ? Wdl::win : Wdl::loss;
    thread_local MoveList moves;
    generate_moves<R>(position(), moves);
    return moves.empty() ? Wdl::loss : Wdl::draw;
}

}  // namespace dtb
