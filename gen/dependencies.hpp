// Which slices a slice depends on: those its captures and promotions lead to. The generator
// solves them first; a folder of tables is complete only when they are there too.
#pragma once
#include <set>
#include <vector>

#include "dtb/index/material.hpp"

namespace dtb::gen {

// Every material a move from `m` (White to move) can lead to outside the slice, colour-reversed
// so that it is again White to move: captures of any of Black's pieces, promotions, or both.
inline std::vector<Material> exit_materials(const Material& m) {
    std::vector<Material> out;
    for (int promoted = 0; promoted <= (m.wm > 0 ? 1 : 0); ++promoted)
        for (int kings_taken = 0; kings_taken <= m.bk; ++kings_taken)
            for (int men_taken = 0; men_taken <= m.bm; ++men_taken) {
                if (promoted == 0 && kings_taken == 0 && men_taken == 0) continue;
                if (kings_taken == m.bk && men_taken == m.bm) continue;  // Black has nothing left
                out.push_back(Material{m.bk - kings_taken, m.bm - men_taken, m.wk + promoted, m.wm - promoted});
            }
    return out;
}

// Every slice a capture or promotion leads to from a pair (m and its mirror), either side to
// move. Each has fewer pieces, or as many with fewer men: it comes earlier in all_materials.
inline std::set<Material> inputs_of_pair(const Material& m) {
    std::set<Material> inputs;
    for (const Material& side : {m, m.mirrored()})
        for (const Material& x : exit_materials(side)) inputs.insert(x);
    return inputs;
}

}  // namespace dtb::gen
