// Legal move generation for any variant struct (see variant.hpp). Captures are compulsory and
// follow the majority rule; among captures of the maximal size every one is legal. In "unique"
// mode captures with the same origin, destination and captured set are emitted once; in "paths"
// mode every distinct sequence of landing squares is emitted (RULES.md 1, Captures).
//
// Order of the list: captures by ascending origin, then in the search order of capture.hpp (the
// variant's direction lists, nearest landing first); plain moves of men by step direction and
// ascending destination, then those of kings by ascending origin, direction, distance.
#pragma once
#include <cstdint>

#include "capture.hpp"
#include "move.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dtb {

enum class CaptureMode : std::uint8_t { unique, paths };

// Calls f(move) for every plain move of side Us, in the order of the list (above). Perft walks
// them without building a list; MoveGenerator appends them.
template <class R, Color Us, class F>
void for_each_quiet_move(const Position& p, F&& f) {
    using G = typename R::Geometry;
    using Rules = RulesOf<R>;
    const Bitboard occupied = p.occupied();
    const Bitboard empty = G::kPlayable & ~occupied;
    for_each_dir<R::kManStepDirs>([&]<Dir d0>() {
        constexpr Dir d = Rules::for_side(d0, Us);
        for (int to : bits(G::step(p.men(Us), d) & empty)) {
            Move m;
            m.from = static_cast<std::uint8_t>(G::neighbor(to, opposite(d)));
            m.to = static_cast<std::uint8_t>(to);
            m.promotes = (Rules::promotion_row(Us) & bit(to)) != 0;
            f(m);
        }
    });
    for (int from : bits(p.kings_of(Us))) {
        for_each_dir<R::kKingDirs>([&]<Dir d>() {
            Bitboard targets = Rules::template king_slide<d>(from, occupied);
            while (targets) {  // nearest first
                const int to = G::nearest(targets, d);
                targets &= ~bit(to);
                Move m;
                m.from = static_cast<std::uint8_t>(from);
                m.to = static_cast<std::uint8_t>(to);
                m.by_king = true;
                f(m);
            }
        });
    }
}

template <class R>
class MoveGenerator {
    using G = typename R::Geometry;
    using Rules = RulesOf<R>;

  public:
    MoveGenerator(const Position& p, MoveList& out, CaptureMode mode) : pos_(p), out_(out), mode_(mode) {}

    // Fills `out` with the legal moves; returns the number of pieces each captures (0 if none).
    int generate() { return pos_.side_to_move == Color::white ? run<Color::white>(true) : run<Color::black>(true); }
    int generate_captures_only() {
        return pos_.side_to_move == Color::white ? run<Color::white>(false) : run<Color::black>(false);
    }
    // The captures only, without their landing squares (num_landings 0): for a caller that needs
    // only what they do to the board (the generator's seed passes, where copying every path was
    // a good part of the cost of a 6-piece kings slice's captures).
    int generate_capture_effects() {
        return pos_.side_to_move == Color::white ? run<Color::white, false>(false) : run<Color::black, false>(false);
    }

  private:
    // Builds a Move for every capture the search completes, keeping only the largest; with
    // its landing squares when kLandings.
    template <bool kLandings>
    class Sink {
      public:
        Sink(MoveList& out, CaptureMode mode, Bitboard promotion_row)
            : out_(out), mode_(mode), promotion_row_(promotion_row) {}
        void push_landing(int sq) {
            if constexpr (kLandings) landings_[num_landings_++] = static_cast<std::uint8_t>(sq);
        }
        void pop_landing() {
            if constexpr (kLandings) --num_landings_;
        }
        void record(int from, int to, Bitboard captured, int n, bool by_king) {
            if (n < best_) return;
            if (n > best_) {
                best_ = n;
                out_.clear();
            }
            // One jump is fixed by its landing square, so only longer captures can repeat.
            if (mode_ == CaptureMode::unique && n > 1) {
                for (const Move& o : out_)
                    if (o.from == from && o.to == to && o.captured == captured) return;
            }
            Move& m = out_.emplace_back();
            m.captured = captured;
            m.from = static_cast<std::uint8_t>(from);
            m.to = static_cast<std::uint8_t>(to);
            m.promotes = !by_king && (promotion_row_ & bit(to)) != 0;
            m.by_king = by_king;
            if constexpr (kLandings) {
                m.num_landings = static_cast<std::uint8_t>(num_landings_);
                for (int i = 0; i < num_landings_; ++i) m.landings[i] = landings_[i];
            }
        }
        int best() const { return best_; }

      private:
        MoveList& out_;
        CaptureMode mode_;
        Bitboard promotion_row_;
        int best_ = 0, num_landings_ = 0;
        std::array<std::uint8_t, kMaxLandings> landings_{};
    };

    template <Color Us, bool kLandings = true>
    int run(bool with_quiet) {
        out_.clear();
        const Bitboard starters = capture_starters<R, Us>(pos_);
        if (starters) {
            Sink<kLandings> sink(out_, mode_, Rules::promotion_row(Us));
            CaptureSearch<R, Us, Sink<kLandings>>(pos_, sink).run(starters);
            return sink.best();
        }
        if (with_quiet) generate_quiet<Us>();
        return 0;
    }

    template <Color Us>
    void generate_quiet() {
        for_each_quiet_move<R, Us>(pos_, [&](const Move& m) { out_.push_back(m); });
    }

    const Position& pos_;
    MoveList& out_;
    CaptureMode mode_;
};

template <class R>
int generate_moves(const Position& p, MoveList& out, CaptureMode mode = CaptureMode::unique) {
    return MoveGenerator<R>(p, out, mode).generate();
}

// True when the side to move has a capture (and so must capture). Bitboard test, no move list.
template <class R>
bool has_capture(const Position& p) {
    auto test = [&]<Color Us>() {
        if (men_that_capture<R, Us>(p)) return true;
        for (int k : bits(p.kings_of(Us)))
            if (king_can_capture<R>(k, p.occupied(), p.of(~Us))) return true;
        return false;
    };
    return p.side_to_move == Color::white ? test.template operator()<Color::white>()
                                          : test.template operator()<Color::black>();
}

}  // namespace dtb
