// How the win step of each level of passes 2 and 4 (gen/pass_dtw.hpp, gen/pass_dtc.hpp) finds its
// wins: pushed from the losses' un-moves, or pulled by the undecided positions' moves
// (gen/push_pull.hpp), whichever is estimated to cost less: late in a lopsided slice a few
// undecided positions remain while millions of losses would each visit dozens of predecessors
// already won. The results are the same either way; tests compare them.
#pragma once
#include <array>
#include <cstdint>

#include "dtb/gen/frontier.hpp"
#include "dtb/gen/parallel.hpp"

namespace dtb::gen {

// Pushed, pulled, or each level whichever is estimated to cost less (by_cost, the default).
enum class WinSteps { by_cost, pushed, pulled };

// The choice of each level's win step, as the policy allows; counts the levels that pulled.
class WinStepChoice {
  public:
    void set_policy(WinSteps w) { policy_ = w; }
    std::uint64_t levels_pulled() const { return levels_pulled_; }

    // Pass 2: whether the win step of this level costs fewer moves pulled than pushed. Pushing
    // visits every un-move of the losses at d - 1; pulling, every in-slice move of the positions
    // still open (fewer when one reaches a loss early), each ranked from scratch where an un-move
    // is ranked incrementally. A position's moves are counted as the open positions of its side
    // averaged after the seeds (open: their positions and in-slice moves; decided: those decided
    // since). Late levels of lopsided slices pull: the losses of the lone king would be pushed into
    // the strong side's positions, most already won, while few are still open.
    bool pull_is_cheaper(int num_sides, const SideTally& open, const SideTally& decided, const ItemList& losses) {
        if (losses.empty()) return false;
        std::array<std::int64_t, 2> lost{};
        losses.for_each([&](Item it) { ++lost[static_cast<std::size_t>(item_side(it))]; });
        double push = 0, pull = 0;
        for (int s = 0; s < num_sides; ++s) {
            const std::int64_t open_after_seeds = open.positions(s);
            if (open_after_seeds == 0) continue;
            const double moves_each = static_cast<double>(open.moves(s)) / static_cast<double>(open_after_seeds);
            pull += static_cast<double>(open_after_seeds - decided.positions(s)) * moves_each;
            // Losses of the other side are pushed into this side's positions.
            push += static_cast<double>(lost[static_cast<std::size_t>(other(num_sides, s))]) * moves_each;
        }
        return choose_pull(pull, push);
    }
    // Pass 4: whether the win step of DTC level c costs fewer king moves pulled than pushed:
    // pushing visits the king un-moves of the losses at c (items flagged lost), pulling the king
    // moves of the wins still waiting. A side's moves are counted as its kings (kings[s]).
    bool pull_dtc_is_cheaper(int num_sides, const std::array<double, 2>& kings, const SideTally& waiting,
                             const ItemList& items) {
        std::array<std::int64_t, 2> lost{};
        items.for_each([&](Item it) {
            if (item_flagged(it)) ++lost[static_cast<std::size_t>(item_side(it))];
        });
        double push = 0, pull = 0;
        for (int s = 0; s < num_sides; ++s) {
            pull += static_cast<double>(waiting.positions(s)) * kings[static_cast<std::size_t>(s)];
            push += static_cast<double>(lost[static_cast<std::size_t>(other(num_sides, s))]) *
                    kings[static_cast<std::size_t>(s)];
        }
        return push > 0 && choose_pull(pull, push);
    }

  private:
    // A pulled move costs about this many pushed un-moves (ranked from scratch, not incrementally).
    static constexpr double kPullCostRatio = 2.0;
    static int other(int num_sides, int s) { return num_sides == 1 ? 0 : 1 - s; }
    // The choice between estimated costs, as the policy allows; counts pulls.
    bool choose_pull(double pull, double push) {
        const bool chosen =
            policy_ == WinSteps::pulled || (policy_ == WinSteps::by_cost && pull * kPullCostRatio < push);
        levels_pulled_ += chosen;
        return chosen;
    }
    WinSteps policy_ = WinSteps::by_cost;
    std::uint64_t levels_pulled_ = 0;
};

}  // namespace dtb::gen
