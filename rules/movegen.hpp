// Legal move generation for any variant struct (see variant.hpp). Captures are compulsory and
// follow the majority rule; among captures of the maximal size every one is legal. In "unique"
// mode captures with the same origin, destination and captured set are emitted once; in "paths"
// mode every distinct sequence of landing squares is emitted (RULES.md 1, Captures).
#pragma once
#include <cstdint>

#include "move.hpp"
#include "position.hpp"
#include "variant.hpp"

namespace dtb {

enum class CaptureMode : std::uint8_t { unique, paths };

template <class R>
struct RulesOf {
    using G = typename R::Geometry;
    static constexpr Dir for_side(Dir d, Color c) { return c == Color::white ? d : rotated(d); }
    static constexpr Bitboard promotion_row(Color c) {
        return c == Color::white ? G::rank_mask(G::kHeight - 1) : G::rank_mask(0);
    }
    static constexpr Bitboard back_row(Color c) { return promotion_row(~c); }
};

template <class R>
class MoveGenerator {
    using G = typename R::Geometry;
    using Rules = RulesOf<R>;

public:
    MoveGenerator(const Position& p, MoveList& out, CaptureMode mode)
        : pos_(p), out_(out), mode_(mode), us_(p.side_to_move) {}

    // Fills `out` with the legal moves; returns the number of pieces each captures (0 if none).
    int generate() {
        out_.clear();
        generate_captures();
        if (best_ == 0) generate_quiet();
        return best_;
    }
    int generate_captures_only() {
        out_.clear();
        generate_captures();
        return best_;
    }

private:
    void generate_captures() {
        const Bitboard own = pos_.of(us_);
        for (int from : bits(own)) {
            cur_.from = static_cast<std::uint8_t>(from);
            cur_.captured = 0;
            cur_.num_landings = 0;
            cur_.by_king = (pos_.kings & bit(from)) != 0;
            occ_ = pos_.occupied() & ~bit(from);  // the origin counts as empty
            targets_ = pos_.of(~us_);
            if (cur_.by_king)
                king_capture(from, Dir::N, false);
            else
                man_capture(from);
        }
    }

    void record(int to) {
        const int n = popcount(cur_.captured);
        if (n < best_) return;
        if (n > best_) {
            best_ = n;
            out_.clear();
        }
        Move m = cur_;
        m.to = static_cast<std::uint8_t>(to);
        m.promotes = !m.by_king && (Rules::promotion_row(us_) & bit(to)) != 0;
        if (mode_ == CaptureMode::unique) {
            for (const Move& o : out_)
                if (o.same_effect(m)) return;
        }
        out_.push_back(m);
    }

    void push_landing(int sq) { cur_.landings[cur_.num_landings++] = static_cast<std::uint8_t>(sq); }

    // Takes the piece on `victim`; returns the state to restore afterwards.
    struct Saved {
        Bitboard occ, targets, captured;
    };
    Saved take(int victim) {
        Saved s{occ_, targets_, cur_.captured};
        cur_.captured |= bit(victim);
        targets_ &= ~bit(victim);
        if constexpr (R::kRemoveCapturedAtOnce) occ_ &= ~bit(victim);
        return s;
    }
    void restore(const Saved& s) {
        occ_ = s.occ;
        targets_ = s.targets;
        cur_.captured = s.captured;
    }

    void man_capture(int sq) {
        bool continued = false;
        for (Dir d0 : R::kManCaptureDirs) {
            const Dir d = Rules::for_side(d0, us_);
            const int victim = G::neighbor(sq, d);
            if (victim < 0 || !(targets_ & bit(victim))) continue;
            const int land = G::neighbor(victim, d);
            if (land < 0 || (occ_ & bit(land))) continue;
            continued = true;
            const Saved s = take(victim);
            push_landing(land);
            if (R::kPromoteMidCapture && (Rules::promotion_row(us_) & bit(land))) {
                cur_.by_king = true;  // crowned at once; continues as a king
                king_capture(land, d, true);
                cur_.by_king = false;
            } else {
                man_capture(land);
            }
            --cur_.num_landings;
            restore(s);
        }
        if (!continued && cur_.num_landings > 0) record(sq);
    }

    void king_capture(int sq, Dir last, bool has_jumped) {
        bool continued = false;
        for (Dir d : R::kKingDirs) {
            if (!R::kKingMayReverse && has_jumped && d == opposite(last)) continue;
            int s = G::neighbor(sq, d);
            if constexpr (R::kFlyingKings) {
                while (s >= 0 && !(occ_ & bit(s))) s = G::neighbor(s, d);
            }
            if (s < 0 || !(targets_ & bit(s))) continue;
            int land = G::neighbor(s, d);
            if (land < 0 || (occ_ & bit(land))) continue;
            continued = true;
            const Saved saved = take(s);
            while (land >= 0 && !(occ_ & bit(land))) {
                push_landing(land);
                king_capture(land, d, true);
                --cur_.num_landings;
                if constexpr (!R::kFlyingKings) break;
                land = G::neighbor(land, d);
            }
            restore(saved);
        }
        if (!continued && has_jumped) record(sq);
    }

    void generate_quiet() {
        const Bitboard empty = G::kPlayable & ~pos_.occupied();
        const Bitboard men = pos_.men(us_);
        for (Dir d0 : R::kManStepDirs) {
            const Dir d = Rules::for_side(d0, us_);
            for (int to : bits(G::step(men, d) & empty)) {
                Move m;
                m.from = static_cast<std::uint8_t>(G::neighbor(to, opposite(d)));
                m.to = static_cast<std::uint8_t>(to);
                m.promotes = (Rules::promotion_row(us_) & bit(to)) != 0;
                out_.push_back(m);
            }
        }
        for (int from : bits(pos_.kings_of(us_))) {
            for (Dir d : R::kKingDirs) {
                for (int to = G::neighbor(from, d); to >= 0 && (empty & bit(to)); to = G::neighbor(to, d)) {
                    Move m;
                    m.from = static_cast<std::uint8_t>(from);
                    m.to = static_cast<std::uint8_t>(to);
                    m.by_king = true;
                    out_.push_back(m);
                    if constexpr (!R::kFlyingKings) break;
                }
            }
        }
    }

    const Position& pos_;
    MoveList& out_;
    CaptureMode mode_;
    Color us_;
    int best_ = 0;
    Move cur_{};
    Bitboard occ_ = 0, targets_ = 0;
};

template <class R>
int generate_moves(const Position& p, MoveList& out, CaptureMode mode = CaptureMode::unique) {
    return MoveGenerator<R>(p, out, mode).generate();
}

// True when the side to move has a capture (and so must capture). Bitboard test, no move list.
template <class R>
bool has_capture(const Position& p) {
    using G = typename R::Geometry;
    const Color us = p.side_to_move;
    const Bitboard opp = p.of(~us);
    const Bitboard empty = G::kPlayable & ~p.occupied();
    const Bitboard men = p.men(us);
    for (Dir d0 : R::kManCaptureDirs) {
        const Dir d = RulesOf<R>::for_side(d0, us);
        if (G::step(G::step(men, d) & opp, d) & empty) return true;
    }
    for (int k : bits(p.kings_of(us))) {
        for (Dir d : R::kKingDirs) {
            int s = G::neighbor(k, d);
            if constexpr (R::kFlyingKings) {
                while (s >= 0 && (empty & bit(s))) s = G::neighbor(s, d);
            }
            if (s < 0 || !(opp & bit(s))) continue;
            const int land = G::neighbor(s, d);
            if (land >= 0 && (empty & bit(land))) return true;
        }
    }
    return false;
}

}  // namespace dtb
