// Retrograde analysis of one material slice together with its colour-reversed mirror.
//
// Every position is stored with White to move. Slice X with Black to move is slice mirror(X)
// with White to move, so the solver holds two arrays, side 0 = X and side 1 = mirror(X), and a
// plain move from side s leads to side 1-s. When X is its own mirror (KvK, MMvMM) both sides are
// one array.
//
// Passes (each a parallel loop over an index range):
//   1. seed_from_exits     forward: for each position, the best value among the moves that
//                          leave the slice (captures, promotions; looked up in finished tables)
//                          and the number of moves that stay inside it.
//   2. iterate_dtw         by ply d = 1, 2, ...: wins at d from losses at d-1 (un-moves), from
//                          exits at d; losses when the last in-slice successor turns out won.
//   3. seed_dtc            forward again, now that every WDL is known: conversions (captures
//                          and man moves) are worth 1; only king moves stay unconverted.
//   4. iterate_dtc         by ply along king moves only.
// Predecessors with a capture are never touched: all their moves leave the slice, so pass 1
// (and pass 3) already made their values final, and every update below only changes open ones.
// Invariant of pass 2 after level d: every position whose DTW is <= d is final, and every loss
// whose DTW is > d has been found as soon as its last successor was known.
#pragma once
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gen/parallel.hpp"
#include "gen/retro.hpp"
#include "index/slice_index.hpp"
#include "probe/value.hpp"
#include "rules/movegen.hpp"

namespace dtb::gen {

// Values of positions outside the slice being solved (White to move, any other material).
using ExternalLookup = std::function<ValueCode(const Position&)>;
// (pass name, done, total) for progress lines.
using PassProgress = std::function<void(const std::string& pass, std::uint64_t done, std::uint64_t total)>;

// Better for the player to move: quick wins, then draws, then slow losses.
constexpr int preference(ValueCode v) {
    if (v == kValueUnknown) return -1000000;
    if (is_win(v)) return 1000000 - distance_of(v);
    if (is_draw(v)) return 0;
    return -100000 + distance_of(v);
}
constexpr ValueCode better(ValueCode a, ValueCode b) { return preference(a) >= preference(b) ? a : b; }

template <class R>
class SliceSolver {
public:
    struct Side {
        SliceIndex<R> index;
        std::vector<ValueCode> value;    // WDL + DTW (value code), kValueUnknown while open
        std::vector<ValueCode> exit;     // best value among moves leaving the slice (pass 1)
        std::vector<std::uint8_t> open;  // in-slice successors not yet known to be won
        std::vector<std::uint16_t> dtc;  // pass 3-4
    };

    SliceSolver(Material m, ExternalLookup external, PassProgress progress = {})
        : external_(std::move(external)), progress_(std::move(progress)) {
        sides_.push_back(Side{SliceIndex<R>(m), {}, {}, {}, {}});
        if (m.mirrored() != m) sides_.push_back(Side{SliceIndex<R>(m.mirrored()), {}, {}, {}, {}});
    }

    void solve() {
        seed_from_exits();
        iterate_dtw();
        seed_dtc();
        iterate_dtc();
        release_work_arrays();
    }

    int num_sides() const { return static_cast<int>(sides_.size()); }
    const Side& side(int s) const { return sides_[s]; }
    // Value (WDL + DTW) of a position of this slice or its mirror, White to move.
    ValueCode value_of(const Position& p) const {
        const int s = side_of(Material::of(p));
        return sides_[s].value[sides_[s].index.rank(p)];
    }
    std::uint16_t dtc_of(const Position& p) const {
        const int s = side_of(Material::of(p));
        return sides_[s].dtc[sides_[s].index.rank(p)];
    }
    int side_of(const Material& m) const { return m == sides_[0].index.material() ? 0 : 1; }

private:
    int other(int s) const { return sides_.size() == 1 ? 0 : 1 - s; }
    std::uint64_t total() const {
        std::uint64_t n = 0;
        for (const Side& sd : sides_) n += sd.index.size();
        return n;
    }
    // Runs body(side, index) over every position of both sides.
    template <class Body>
    void for_all(const std::string& pass, Body&& body) {
        std::uint64_t offset = 0;
        const std::uint64_t all = total();
        for (int s = 0; s < num_sides(); ++s) {
            const std::uint64_t base = offset;
            ChunkProgress report;
            if (progress_) report = [&](std::uint64_t done, std::uint64_t) { progress_(pass, base + done, all); };
            parallel_for(sides_[s].index.size(), [&](std::uint64_t i) { body(s, i); }, report);
            offset += sides_[s].index.size();
        }
    }

    // A move stays in the slice when it neither captures nor promotes.
    static bool stays_inside(const Move& m) { return !m.is_capture() && !m.promotes; }
    static bool is_conversion(const Move& m) { return m.is_capture() || !m.by_king; }

    ValueCode external_value_after(const Position& p, const Move& m) const {
        const Position next = reversed<typename R::Geometry>(make_move(p, m));
        if (next.of(Color::white) == 0) return loss_in(0);  // the opponent has no piece left
        return external_(next);
    }

    void seed_from_exits() {
        for (Side& sd : sides_) {
            sd.value.assign(sd.index.size(), kValueUnknown);
            sd.exit.assign(sd.index.size(), kValueUnknown);
            sd.open.assign(sd.index.size(), 0);
        }
        for_all("seed", [&](int s, std::uint64_t i) {
            thread_local MoveList moves;
            Side& sd = sides_[s];
            const Position p = sd.index.unrank(i);
            generate_moves<R>(p, moves);
            if (moves.empty()) {
                sd.value[i] = loss_in(0);
                return;
            }
            ValueCode best = kValueUnknown;
            int inside = 0;
            for (const Move& m : moves) {
                if (stays_inside(m))
                    ++inside;
                else
                    best = better(best, value_one_ply_before(external_value_after(p, m)));
            }
            sd.exit[i] = best;
            sd.open[i] = static_cast<std::uint8_t>(inside);
            if (inside == 0) sd.value[i] = best;
        });
    }

    void iterate_dtw() {
        int max_exit_win = 0;
        for (const Side& sd : sides_)
            for (std::uint64_t i = 0; i < sd.exit.size(); ++i)
                if (is_win(sd.exit[i]))
                    max_exit_win = std::max(max_exit_win, distance_of(sd.exit[i]));
        std::atomic<int> max_loss{0};
        for (const Side& sd : sides_)
            for (ValueCode v : sd.value)
                if (is_loss(v)) max_loss = std::max(max_loss.load(), distance_of(v));
        for (int d = 1;; ++d) {
            std::atomic<std::uint64_t> new_wins{0};
            const ValueCode win_d = win_in(d), loss_prev = loss_in(d - 1);
            // Wins at d: through an exit of length d, or a plain move to a loss at d - 1.
            for_all("dtw " + std::to_string(d), [&](int s, std::uint64_t i) {
                Side& sd = sides_[s];
                std::atomic_ref<ValueCode> v(sd.value[i]);
                const ValueCode cur = v.load(std::memory_order_relaxed);
                if (cur == kValueUnknown && sd.exit[i] == win_d) {
                    ValueCode expected = kValueUnknown;
                    if (v.compare_exchange_strong(expected, win_d)) new_wins.fetch_add(1, std::memory_order_relaxed);
                }
                if (cur != loss_prev) return;
                Side& pred_side = sides_[other(s)];
                for_each_predecessor<R, Quiet::assume>(sd.index.unrank(i), UnmoveKinds::all, [&](const Position& q) {
                    std::atomic_ref<ValueCode> pv(pred_side.value[pred_side.index.rank(q)]);
                    ValueCode expected = kValueUnknown;
                    if (pv.compare_exchange_strong(expected, win_d)) new_wins.fetch_add(1, std::memory_order_relaxed);
                });
            });
            // Losses: a position whose last open successor is now won for the opponent.
            for_all("dtw " + std::to_string(d), [&](int s, std::uint64_t i) {
                Side& sd = sides_[s];
                if (std::atomic_ref<ValueCode>(sd.value[i]).load(std::memory_order_relaxed) != win_d) return;
                Side& pred_side = sides_[other(s)];
                for_each_predecessor<R, Quiet::assume>(sd.index.unrank(i), UnmoveKinds::all, [&](const Position& q) {
                    const std::uint64_t j = pred_side.index.rank(q);
                    std::atomic_ref<ValueCode> pv(pred_side.value[j]);
                    if (pv.load(std::memory_order_relaxed) != kValueUnknown) return;
                    if (std::atomic_ref<std::uint8_t>(pred_side.open[j]).fetch_sub(1) != 1) return;
                    const ValueCode ex = pred_side.exit[j];
                    if (is_win(ex) || is_draw(ex)) return;  // an exit is better than every plain move
                    const int dtw = std::max(d + 1, ex == kValueUnknown ? 0 : distance_of(ex));
                    pv.store(loss_in(dtw), std::memory_order_relaxed);
                    int m = max_loss.load();
                    while (dtw > m && !max_loss.compare_exchange_weak(m, dtw)) {
                    }
                });
            });
            if (new_wins.load() == 0 && d > max_exit_win && d > max_loss.load()) break;
        }
        for (Side& sd : sides_)
            for (ValueCode& v : sd.value)
                if (v == kValueUnknown) v = kValueDraw;
    }

    // DTC seeds: won positions with a winning conversion (or game-ending move) are at 1; lost
    // positions wait for all their king moves, every other move being a conversion worth 1.
    void seed_dtc() {
        for (Side& sd : sides_) {
            sd.dtc.assign(sd.index.size(), kDtcUnknown);
            std::fill(sd.open.begin(), sd.open.end(), 0);
            std::fill(sd.exit.begin(), sd.exit.end(), 0);  // reused: 1 when a lost position can convert
        }
        for_all("dtc seed", [&](int s, std::uint64_t i) {
            thread_local MoveList moves;
            Side& sd = sides_[s];
            const ValueCode v = sd.value[i];
            if (is_draw(v)) {
                sd.dtc[i] = 0;
                return;
            }
            const Position p = sd.index.unrank(i);
            generate_moves<R>(p, moves);
            if (moves.empty()) {
                sd.dtc[i] = 0;
                return;
            }
            const Side& next_side = sides_[other(s)];
            if (is_win(v)) {
                for (const Move& m : moves) {
                    const ValueCode after = stays_inside(m)
                        ? next_side.value[next_side.index.rank(reversed<typename R::Geometry>(make_move(p, m)))]
                        : external_value_after(p, m);
                    if (is_loss(after) && (is_conversion(m) || after == loss_in(0))) {
                        sd.dtc[i] = 1;
                        return;
                    }
                }
                return;  // waits for a king move into a lost position
            }
            int king_moves = 0;
            bool converts = false;
            for (const Move& m : moves) {
                if (is_conversion(m))
                    converts = true;
                else
                    ++king_moves;
            }
            if (king_moves == 0) {
                sd.dtc[i] = converts ? 1 : 0;
                return;
            }
            sd.open[i] = static_cast<std::uint8_t>(king_moves);
            sd.exit[i] = converts ? 1 : 0;
        });
    }

    void iterate_dtc() {
        for (std::uint16_t c = 1;; ++c) {
            std::atomic<std::uint64_t> at_level{0};
            const auto next = static_cast<std::uint16_t>(c + 1);
            // Won positions: a king move into a loss whose DTC is c gives c + 1.
            for_all("dtc " + std::to_string(c), [&](int s, std::uint64_t i) {
                Side& sd = sides_[s];
                if (sd.dtc[i] != c) return;
                at_level.fetch_add(1, std::memory_order_relaxed);
                if (!is_loss(sd.value[i])) return;
                Side& pred_side = sides_[other(s)];
                for_each_predecessor<R, Quiet::assume>(sd.index.unrank(i), UnmoveKinds::kings_only, [&](const Position& q) {
                    const std::uint64_t j = pred_side.index.rank(q);
                    if (!is_win(pred_side.value[j])) return;
                    std::atomic_ref<std::uint16_t> pd(pred_side.dtc[j]);
                    std::uint16_t expected = kDtcUnknown;
                    pd.compare_exchange_strong(expected, next);
                });
            });
            if (at_level.load() == 0) break;
            // Lost positions: when the last king move's reply is known, the longest is c + 1.
            for_all("dtc " + std::to_string(c), [&](int s, std::uint64_t i) {
                Side& sd = sides_[s];
                if (sd.dtc[i] != c || !is_win(sd.value[i])) return;
                Side& pred_side = sides_[other(s)];
                for_each_predecessor<R, Quiet::assume>(sd.index.unrank(i), UnmoveKinds::kings_only, [&](const Position& q) {
                    const std::uint64_t j = pred_side.index.rank(q);
                    if (!is_loss(pred_side.value[j]) || pred_side.dtc[j] != kDtcUnknown) return;
                    if (std::atomic_ref<std::uint8_t>(pred_side.open[j]).fetch_sub(1) != 1) return;
                    std::atomic_ref<std::uint16_t>(pred_side.dtc[j]).store(next, std::memory_order_relaxed);
                });
            });
        }
    }

    void release_work_arrays() {
        for (Side& sd : sides_) {
            std::vector<ValueCode>().swap(sd.exit);
            std::vector<std::uint8_t>().swap(sd.open);
        }
    }

public:
    static constexpr std::uint16_t kDtcUnknown = 0xFFFF;

private:
    std::vector<Side> sides_;
    ExternalLookup external_;
    PassProgress progress_;
};

}  // namespace dtb::gen
