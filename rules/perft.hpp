// Perft: the number of leaf nodes of the legal-move tree, the standard proof of a move generator.
#pragma once
#include <cstdint>
#include <vector>

#include "movegen.hpp"

namespace dtb {

template <class R>
class Perft {
public:
    explicit Perft(CaptureMode mode) : mode_(mode) {}
    std::uint64_t count(const Position& p, int depth) {
        if (depth <= 0) return 1;
        if (lists_.size() < static_cast<size_t>(depth) + 1) lists_.resize(depth + 1);
        return recurse(p, depth);
    }

private:
    std::uint64_t recurse(const Position& p, int depth) {
        MoveList& moves = lists_[depth];
        MoveGenerator<R>(p, moves, mode_).generate();
        if (depth == 1) return moves.size();  // bulk counting at the last ply
        std::uint64_t n = 0;
        for (size_t i = 0; i < moves.size(); ++i) n += recurse(make_move(p, moves[i]), depth - 1);
        return n;
    }
    CaptureMode mode_;
    std::vector<MoveList> lists_;
};

}  // namespace dtb
