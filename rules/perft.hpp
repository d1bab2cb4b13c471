// Perft: the number of leaf nodes of the legal-move tree, the standard proof of a move generator.
#pragma once
#include <cstdint>
#include <vector>

#include "count.hpp"
#include "movegen.hpp"

namespace dtb {

template <class R>
class Perft {
  public:
    explicit Perft(CaptureMode mode) : mode_(mode), counter_(mode) {}
    std::uint64_t count(const Position& p, int depth) {
        if (depth <= 0) return 1;
        if (lists_.size() < static_cast<size_t>(depth) + 1) lists_.resize(depth + 1);
        return recurse(p, depth);
    }

  private:
    std::uint64_t recurse(const Position& p, int depth) {
        return p.side_to_move == Color::white ? recurse<Color::white>(p, depth) : recurse<Color::black>(p, depth);
    }
    // Us == p.side_to_move: the colour is known at compile time down the whole tree.
    template <Color Us>
    std::uint64_t recurse(const Position& p, int depth) {
        // Bulk counting at the last ply: the moves are counted, never built.
        if (depth == 1) return counter_.template count<Us>(p);
        auto below = [&](const Move& m) {
            const Position q = make_move(p, m);
            return depth == 2 ? counter_.template count<~Us>(q) : recurse<~Us>(q, depth - 1);
        };
        std::uint64_t n = 0;
        if (capture_starters<R, Us>(p)) {
            MoveList& moves = lists_[depth];
            MoveGenerator<R>(p, moves, mode_).generate_captures_only();
            for (const Move& m : moves) n += below(m);
        } else {
            // Plain moves are played as they are found, without a list.
            for_each_quiet_move<R, Us>(p, [&](const Move& m) { n += below(m); });
        }
        return n;
    }
    CaptureMode mode_;
    MoveCounter<R> counter_;
    std::vector<MoveList> lists_;
};

}  // namespace dtb
