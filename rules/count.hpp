// Counting the legal moves of a position without building them: perft's last ply ("bulk
// counting"). Plain moves are counted with popcounts of shifted bitboards and king slides;
// captures run the same search as move generation (capture.hpp) with a sink that only counts.
// count_moves<R>(p, mode) == the size of generate_moves<R>(p, list, mode)'s list, always.
#pragma once
#include <cstdint>
#include <vector>

#include "movegen.hpp"

namespace dtb {

template <class R>
class MoveCounter {
    using G = typename R::Geometry;
    using Rules = RulesOf<R>;

  public:
    explicit MoveCounter(CaptureMode mode) : mode_(mode) {}

    std::uint64_t count(const Position& p) {
        return p.side_to_move == Color::white ? count<Color::white>(p) : count<Color::black>(p);
    }
    // The same when the caller knows the side to move (Us == p.side_to_move).
    template <Color Us>
    std::uint64_t count(const Position& p);

  private:
    // What makes two captures the same move in unique mode.
    struct Effect {
        Bitboard captured;
        std::uint8_t from, to;
    };

    class Sink {
      public:
        Sink(CaptureMode mode, std::vector<Effect>& seen) : mode_(mode), seen_(seen) { seen_.clear(); }
        void push_landing(int) {}
        void pop_landing() {}
        void record(int from, int to, Bitboard captured, int n, bool) {
            if (n < best_) return;
            if (n > best_) {
                best_ = n;
                count_ = 0;
                seen_.clear();
            }
            // One jump is fixed by its landing square, so only longer captures can repeat.
            if (mode_ == CaptureMode::unique && n > 1) {
                for (const Effect& e : seen_)
                    if (e.from == from && e.to == to && e.captured == captured) return;
                seen_.push_back({captured, static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to)});
            }
            ++count_;
        }
        std::uint64_t count() const { return count_; }

      private:
        CaptureMode mode_;
        std::vector<Effect>& seen_;
        int best_ = 0;
        std::uint64_t count_ = 0;
    };

    CaptureMode mode_;
    std::vector<Effect> seen_;  // reused, so that counting allocates only while it grows
};

template <class R>
template <Color Us>
std::uint64_t MoveCounter<R>::count(const Position& p) {
    const Bitboard occupied = p.occupied();
    const Bitboard empty = G::kPlayable & ~occupied;
    const Bitboard men = p.men(Us);
    const Bitboard jump_squares = man_jump_squares<R, Us>(p);
    const Bitboard king_starters = kings_that_capture<R, Us>(p);
    const Bitboard man_starters = jump_squares & men;
    if (man_starters && !king_starters) {
        // Only men capture. A man that has jumped in direction d can jump again only in
        // another direction (its victim is taken), and a jump in another direction neither
        // crosses its victim nor lands on its vacated origin: so it goes on exactly when it lands
        // on a jump square of the position as it stands. When no man can, every capture takes
        // one piece and is fixed by its direction and landing: a popcount, no search.
        Bitboard landed = 0;
        int n = 0;
        for_each_dir<R::kManCaptureDirs>([&]<Dir d0>() {
            constexpr Dir d = Rules::for_side(d0, Us);
            const Bitboard land = G::step(G::step(man_starters, d) & p.of(~Us), d) & empty;
            landed |= land;
            n += popcount(land);
        });
        const bool crowned_midway = R::kPromoteMidCapture && (landed & Rules::promotion_row(Us));
        if (!(landed & jump_squares) && !crowned_midway) return static_cast<std::uint64_t>(n);
    }
    if (man_starters | king_starters) {
        Sink sink(mode_, seen_);
        CaptureSearch<R, Us, Sink>(p, sink).run(man_starters | king_starters);
        return sink.count();
    }
    int n = 0;
    for_each_dir<R::kManStepDirs>([&]<Dir d0>() { n += popcount(G::step(men, Rules::for_side(d0, Us)) & empty); });
    for (int k : bits(p.kings_of(Us))) {
        for_each_dir<R::kKingDirs>([&]<Dir d>() { n += popcount(Rules::template king_slide<d>(k, occupied)); });
    }
    return static_cast<std::uint64_t>(n);
}

// The number of legal moves of `p` (the length of generate_moves' list in the same mode).
template <class R>
std::uint64_t count_moves(const Position& p, CaptureMode mode = CaptureMode::unique) {
    return MoveCounter<R>(mode).count(p);
}

}  // namespace dtb
