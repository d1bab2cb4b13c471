// A line of moves numbered as in a game record: "1. 32-28 17-22 2. 28x17"; a line that starts
// with Black to move starts "1. ...". What `dtb probe` and `dtb solve` print as the PV.
#pragma once
#include <string>
#include <vector>

#include "dtb/rules/color.hpp"

namespace dtb::tools {

// Moves: anything with a `text` member (probe::MoveValue, solve::SolveMove).
template <class M>
std::string numbered_line(const std::vector<M>& moves, Color first) {
    std::string s;
    int number = 1;
    bool white = first == Color::white;
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (white)
            s += std::to_string(number) + ". ";
        else if (i == 0)
            s += "1. ... ";
        s += moves[i].text + " ";
        if (!white) ++number;
        white = !white;
    }
    if (!s.empty()) s.pop_back();
    return s;
}

}  // namespace dtb::tools
