// The theoretical seed pass (gen/pass_seed.hpp), a batch of positions at a time: their moves are
// generated and the words their exits lead to located and prefetched (add), then valued together
// (flush), so that the cache misses of a batch overlap instead of following one another.
#pragma once
#include <array>
#include <cassert>
#include <cstdint>
#include <span>
#include <vector>

#include "dtb/gen/exit_values.hpp"
#include "dtb/gen/forward.hpp"
#include "dtb/gen/retro.hpp"
#include "dtb/gen/solver_state.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/movegen.hpp"

namespace dtb::gen {

template <class R>
class SeedBatch {
  public:
    static constexpr int kPositions = 16;
    void add(SolverState<R>& st, int s, std::uint64_t i, const Position& p) {
        Pending& pd = pending_[n_++];
        pd.side = s;
        pd.index = i;
        pd.first_word = static_cast<std::uint32_t>(words_.size());
        pd.first_own = static_cast<std::uint32_t>(own_.size());
        Position rp;  // the position reversed, made only when there is an exit (most have none)
        bool reversed_made = false;
        const auto locate_exit = [&](const Move& m) {
            if (!reversed_made) {
                rp = reversed<typename R::Geometry>(p);
                reversed_made = true;
            }
            const Position next = reversed_after<typename R::Geometry>(rp, m);
            if (next.of(Color::white) == 0) {  // the opponent has no piece left
                words_.push_back(nullptr);
            } else if (m.is_capture() || m.promotes) {
                const std::uint16_t* w = st.external.locate(next);
                __builtin_prefetch(w);
                words_.push_back(w);
            } else {  // a plain man move solved by levels: the level above, final by now
                const SolverSide<R>& sd = st.sides[st.side_of(Material::of(next))];
                const ValueCode* v = &sd.value[sd.index.rank(next)];
                __builtin_prefetch(v);
                own_.push_back(v);
            }
        };
        pd.king_steps = 0;
        pd.inside = 0;
        pd.capture = generate_captures<R>(p, moves_);
        if (pd.capture) {  // captures are compulsory: every move leaves
            for (const Move& m : moves_) locate_exit(m);
            pd.any_move = true;
        } else {
            pd.king_steps = count_king_steps<R>(p);  // plain king moves always stay inside
            pd.inside = pd.king_steps;
            pd.any_move = pd.inside > 0;
            for_each_man_step<R>(p, [&](const Move& m) {
                pd.any_move = true;
                if (st.stays_inside(m))
                    ++pd.inside;
                else
                    locate_exit(m);
            });
            assert(pd.inside < kNoMove);  // fits open_code and the seed's byte
        }
        pd.end_word = static_cast<std::uint32_t>(words_.size());
        pd.end_own = static_cast<std::uint32_t>(own_.size());
        if (n_ == kPositions) flush(st);
    }
    void flush(SolverState<R>& st) {
        for (int k = 0; k < n_; ++k) {
            const Pending& pd = pending_[k];
            PreparedSeed seed;
            seed.capture = pd.capture;
            const std::span<const std::uint16_t* const> words(words_.data() + pd.first_word,
                                                              pd.end_word - pd.first_word);
            for (const std::uint16_t* w : words)
                seed.best_elsewhere =
                    better(seed.best_elsewhere, value_one_ply_before(w ? st.external.value_in(*w) : loss_in(0)));
            for (std::uint32_t o = pd.first_own; o < pd.end_own; ++o)
                seed.best_elsewhere = better(seed.best_elsewhere, value_one_ply_before(*own_[o]));
            if (!pd.capture) seed.king_steps = pd.any_move ? static_cast<std::uint8_t>(pd.inside) : kNoMove;
            if (st.observer) st.observer(pd.side, pd.index, words, pd.capture, pd.king_steps);
            st.record_seed(pd.side, pd.index, seed);
        }
        n_ = 0;
        words_.clear();
        own_.clear();
    }

  private:
    struct Pending {
        int side;
        std::uint64_t index;
        bool capture, any_move;
        int king_steps, inside;
        std::uint32_t first_word, end_word, first_own, end_own;
    };
    std::array<Pending, kPositions> pending_;
    int n_ = 0;
    MoveList moves_;
    // The words of the batch's captures and promotions (null: the opponent has no piece
    // left), and the values of its plain man moves solved by levels.
    std::vector<const std::uint16_t*> words_;
    std::vector<const ValueCode*> own_;
};

}  // namespace dtb::gen
