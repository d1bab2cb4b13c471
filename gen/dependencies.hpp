// Which slices a slice depends on: those its captures and promotions lead to. The generator
// solves them first; a folder of tables is complete only when they are there too.
#pragma once
#include <cstddef>
#include <map>
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

// For each pair of `order` (a run's pairs in generation order, each named by one of its slices),
// the pairs it reads, as ascending indices in `order`. An input is read from the pair that holds
// it; with --only that pair may be outside the run (its tables must then be on disk already), and
// is left out.
inline std::vector<std::vector<std::size_t>> inputs_in_order(const std::vector<Material>& order) {
    std::map<Material, std::size_t> pair_of;
    for (std::size_t k = 0; k < order.size(); ++k) {
        pair_of[order[k]] = k;
        pair_of[order[k].mirrored()] = k;
    }
    std::vector<std::vector<std::size_t>> out;
    for (const Material& m : order) {
        std::set<std::size_t> inputs;
        for (const Material& x : inputs_of_pair(m))
            if (auto it = pair_of.find(x); it != pair_of.end()) inputs.insert(it->second);
        out.emplace_back(inputs.begin(), inputs.end());
    }
    return out;
}

}  // namespace dtb::gen
