// Depth-first proof-number search (df-pn, Nagai 2002) with the 1+epsilon trick (Pawlewicz and
// Lew 2007), proving that one side (the attacker) wins. Internal to solve/ (prover.hpp is the
// interface); docs/SOLVE.md tells the method.
//
// Repetitions (the graph-history interaction): a move back to a position of the current path is
// a leaf the attacker does not win (a winner never needs to repeat: docs/SOLVE.md). A disproof
// that rests on such a leaf carries the ply of the position repeated. It is stored in the
// transposition table only at a node on that ply or above it (nearer the root), where the cycle
// lies inside the node's own subtree and the disproof holds whatever the path to the node. Below
// it, the disproof is used on this path only (kept in the frame of the node searching it) and
// searched again when the node is met on another path.
#pragma once
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "dtb/rules/count.hpp"
#include "dtb/solve/leaf.hpp"
#include "dtb/solve/proof_numbers.hpp"
#include "dtb/solve/solve_types.hpp"
#include "dtb/solve/state_key.hpp"
#include "dtb/solve/transposition_table.hpp"

namespace dtb::solve::detail {

// A successor of a searched node, with what is known of it.
struct Child {
    Move move;
    Position pos;
    adjudicate::Counters counters;
    NodeValue value;
    Leaf leaf;
    std::uint64_t hash = 0;
    StateKey key;
    int pieces = 0;  // on the board
};

struct SearchStats {
    std::uint64_t nodes = 0;
    std::uint64_t probes = 0;
    int max_pieces = 0;
    bool depth_limited = false;  // a line reached max_depth
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

template <class R>
class Search {
    using Clock = std::chrono::steady_clock;

  public:
    Search(const Oracle& oracle, TranspositionTable& tt, const ProverOptions& options, SearchStats& stats)
        : oracle_(oracle), tt_(tt), options_(options), stats_(stats) {
        stack_.reserve(4096);
    }

    // Budgets for the calls that follow: stop after `node_limit` nodes in all (stats.nodes) or
    // at `deadline`.
    void set_budget(std::uint64_t node_limit, Clock::time_point deadline) {
        node_limit_ = node_limit;
        deadline_ = deadline;
        stopped_ = StopReason::none;
    }
    void set_attacker(Color attacker) { attacker_ = attacker; }
    void set_root_side(Color side) { root_side_ = side; }
    Color attacker() const { return attacker_; }
    StopReason stopped() const { return stopped_; }
    const probe::Result& failure() const { return failure_; }
    bool failed() const { return !failure_.ok(); }

    bool with_counters() const { return oracle_.judge != nullptr; }
    adjudicate::Counters counters_after(const Position& p, const adjudicate::Counters& c, const Move& m) const {
        return with_counters() ? oracle_.judge->after_move(p, c, m) : c;
    }

    // p as a leaf, or open (Leaf::moves its mobility). The moves are counted, not made.
    Leaf evaluate(const Position& p, const adjudicate::Counters& c) { return evaluate(p, c, popcount(p.occupied())); }
    Leaf evaluate(const Position& p, const adjudicate::Counters& c, int pieces) {
        ++stats_.nodes;
        stats_.max_pieces = std::max(stats_.max_pieces, pieces);
        const auto moves = static_cast<int>(counter_.count(p));
        return classify_leaf(oracle_, p, c, moves, pieces, failure_, stats_.probes);
    }

    // The path from the root to the node being searched (extraction walks it too).
    void push_path(const Position& p, bool after_irreversible) {
        path_.push_back({p, after_irreversible});
        ++on_path_[path_slot(p)];
    }
    void pop_path() {
        --on_path_[path_slot(path_.back().pos)];
        path_.pop_back();
    }
    int path_length() const { return static_cast<int>(path_.size()); }

    // The ply of the latest position of the path equal to q, or -1; q follows the path's last
    // position by a reversible move (only king moves lie between two equal positions).
    int repetition_of(const Position& q) const {
        if (on_path_[path_slot(q)] == 0) return -1;  // no position of the path is q
        for (int i = static_cast<int>(path_.size()) - 1; i >= 0; --i) {
            if (path_[i].pos.side_to_move == q.side_to_move && path_[i].pos == q) return i;
            if (path_[i].after_irreversible) break;
        }
        return -1;
    }

    // The successors of p (the path's last position), pushed on the frame stack and valued from
    // the path, the table or as leaves. Their table buckets are asked for first, so that the
    // lookups' cache misses overlap.
    void make_children(const Position& p, const adjudicate::Counters& c) {
        const std::size_t first = stack_.size();
        moves_.clear();
        generate_moves<R>(p, moves_);
        const int pieces = popcount(p.occupied());
        for (const Move& m : moves_) {
            Child& ch = stack_.emplace_back();
            ch.move = m;
            ch.pos = make_move(p, m);
            ch.counters = counters_after(p, c, m);
            ch.key = make_key(ch.pos, ch.counters, with_counters(), attacker_);
            ch.hash = hash_of(ch.key);
            ch.pieces = m.is_capture() ? pieces - popcount(m.captured) : pieces;
            if (ch.pieces > oracle_.table_pieces) tt_.prefetch(ch.hash);
        }
        for (std::size_t i = first; i < stack_.size(); ++i)
            if (stack_[i].pieces > oracle_.table_pieces) tt_.prefetch_entries(stack_[i].hash);
        for (std::size_t i = first; i < stack_.size(); ++i) {
            value_child(p, stack_[i]);
            if (failed()) {
                stack_.resize(i + 1);
                break;
            }
        }
    }

    // Values the successor ch of p from the path, the table or as a leaf.
    void value_child(const Position& p, Child& ch) {
        if (!irreversible(p, ch.move)) {
            const int rep = repetition_of(ch.pos);
            if (rep >= 0) {
                ch.leaf.kind = LeafKind::repetition;
                ch.value = NodeValue::no_win(rep);
                return;
            }
        }
        if (ch.pieces > oracle_.table_pieces)
            if (const TableEntry* e = tt_.find(ch.key, ch.hash)) {
                ch.value = {e->pn, e->dn, kClean, e->distance};
                return;
            }
        ch.leaf = evaluate(ch.pos, ch.counters, ch.pieces);
        if (ch.leaf.kind != LeafKind::open)
            ch.value =
                attacker_wins(ch.pos.side_to_move, ch.leaf.value, attacker_) ? NodeValue::win() : NodeValue::no_win();
        else
            ch.value = initial_value(ch.pos, ch.leaf.moves);
    }

    // Searches the open node p (on ply `depth`, not on the path yet) until its numbers reach a
    // threshold or a budget runs out. With `out`, hands back its children as last valued.
    NodeValue mid(const Position& p, const adjudicate::Counters& c, ProofNumber th_pn, ProofNumber th_dn, int depth,
                  bool after_irreversible, std::vector<Child>* out = nullptr) {
        const StateKey key = make_key(p, c, with_counters(), attacker_);
        const std::uint64_t hash = hash_of(key);
        const std::uint64_t nodes_before = stats_.nodes;
        const bool or_node = p.side_to_move == attacker_;
        ++stats_.nodes;  // an expansion counts, so that a search among stored values alone ends too
        push_path(p, after_irreversible);
        // The children live on the frame stack (no allocation per node): indices, not
        // references, across the recursion, which may grow it.
        const std::size_t first = stack_.size();
        make_children(p, c);
        const std::size_t last = stack_.size();
        NodeValue v;
        // Nothing has changed the table since the children were made: the first step reads none.
        for (bool made = true;; made = false) {
            const bool reread = options_.refresh_children && !made;
            if (reread) prefetch_open(first, last);
            std::size_t best = 0;
            ProofNumber second = kInfinity;
            v = aggregate(first, last, or_node, reread, best, second);
            if (depth == 0) root_ = v;
            if (v.pn >= th_pn || v.dn >= th_dn || out_of_budget()) break;
            Child& ch = stack_[first + best];
            if (depth + 1 >= options_.max_depth) {
                stats_.depth_limited = true;
                ch.leaf.kind = LeafKind::depth;
                ch.value = NodeValue::no_win(kDepthLimited);
                continue;
            }
            const ProofNumber grown = second >= kInfinity ? kInfinity : grow(second);
            ProofNumber child_pn = 0, child_dn = 0;
            if (or_node) {
                child_pn = std::min(th_pn, grown);
                child_dn = shrink(th_dn, v.dn, ch.value.dn);
            } else {
                child_dn = std::min(th_dn, grown);
                child_pn = shrink(th_pn, v.pn, ch.value.pn);
            }
            const Position child = ch.pos;
            const adjudicate::Counters child_counters = ch.counters;
            const bool child_irreversible = irreversible(p, ch.move);
            const NodeValue searched = mid(child, child_counters, child_pn, child_dn, depth + 1, child_irreversible);
            stack_[first + best].value = searched;
        }
        pop_path();
        if (out != nullptr) out->assign(stack_.begin() + static_cast<std::ptrdiff_t>(first), stack_.end());
        stack_.resize(first);
        const std::uint64_t work = (stats_.nodes - nodes_before) + 1;       // the store adds the entry's own
        if (v.disproven() && v.repetition >= depth) v.repetition = kClean;  // the repetition is inside
        if (!v.disproven() || v.repetition == kClean) tt_.store(key, hash, v.pn, v.dn, v.distance, work);
        return v;
    }

    bool out_of_budget() {
        if (failed()) return true;
        if (stopped_ != StopReason::none) return true;
        if (node_limit_ != 0 && stats_.nodes >= node_limit_) {
            stopped_ = StopReason::nodes;
            return true;
        }
        if ((++checks_ & 255) == 0) {
            if (options_.stop.stop_requested()) {
                stopped_ = StopReason::cancelled;
                return true;
            }
            if (Clock::now() >= deadline_) {
                stopped_ = StopReason::time;
                return true;
            }
        }
        if (options_.progress && stats_.nodes >= next_progress_) {
            next_progress_ = stats_.nodes + std::max<std::uint64_t>(options_.progress_every, 1);
            Progress p;
            p.nodes = stats_.nodes;
            p.probes = stats_.probes;
            p.seconds = std::chrono::duration<double>(Clock::now() - stats_.start).count();
            p.proving_win = attacker_ == root_side_;
            p.root_pn = root_.pn;
            p.root_dn = root_.dn;
            options_.progress(p);
        }
        return false;
    }

  private:
    // A slot per position, so that most children are known not to repeat the path without
    // reading it: on_path_ counts the path's positions in each slot.
    static std::size_t path_slot(const Position& p) {
        const std::uint64_t h = p.pieces[0] * 0x9E3779B97F4A7C15ULL ^ p.pieces[1] * 0xC2B2AE3D27D4EB4FULL ^
                                p.kings * 0x165667B19E3779F9ULL ^ static_cast<std::uint64_t>(idx(p.side_to_move));
        return static_cast<std::size_t>(h >> 54);  // 10 bits
    }

    struct PathEntry {
        Position pos;
        bool after_irreversible = false;
    };

    static bool irreversible(const Position& p, const Move& m) {
        return m.is_capture() || (p.kings & bit(m.from)) == 0;
    }

    ProofNumber grow(ProofNumber second) const {
        const double scaled = std::ceil(static_cast<double>(second) * (1.0 + options_.epsilon));
        const ProofNumber plus_one = add_capped(second, 1);
        return scaled >= kLargest ? kLargest : std::max(plus_one, static_cast<ProofNumber>(scaled));
    }
    // The child's threshold on the summed number: what the parent's threshold leaves it.
    static ProofNumber shrink(ProofNumber th, ProofNumber sum, ProofNumber child) {
        if (th >= kInfinity) return kInfinity;
        const std::uint64_t t = std::uint64_t{th} - sum + child;
        return static_cast<ProofNumber>(std::min<std::uint64_t>(t, kInfinity));
    }

    // Open children may have moved on through transpositions searched elsewhere: before they are
    // read again, their buckets are asked for, so that the cache misses overlap.
    void prefetch_open(std::size_t first, std::size_t last) const {
        for (std::size_t i = first; i < last; ++i)
            if (!stack_[i].value.final() && stack_[i].leaf.kind == LeafKind::open) tt_.prefetch(stack_[i].hash);
        for (std::size_t i = first; i < last; ++i)
            if (!stack_[i].value.final() && stack_[i].leaf.kind == LeafKind::open) tt_.prefetch_entries(stack_[i].hash);
    }
    void reread(Child& ch) const {
        if (ch.value.final() || ch.leaf.kind != LeafKind::open) return;
        if (const TableEntry* e = tt_.find(ch.key, ch.hash)) ch.value = {e->pn, e->dn, kClean, e->distance};
    }

    // The node's numbers from its children [first, last) (read again from the table first when
    // `refresh`), and in the same pass the child to search: the one of the smallest number that
    // decides (pn at the attacker's nodes, dn at the defender's; the first of equals), and the
    // second smallest.
    NodeValue aggregate(std::size_t first, std::size_t last, bool or_node, bool refresh, std::size_t& best,
                        ProofNumber& second) {
        NodeValue v;
        std::uint32_t low = 0xFFFFFFFF, high = 0;  // distances of the children that decide
        ProofNumber smallest = kInfinity + 1u;
        second = kInfinity;
        auto consider = [&](std::size_t i, ProofNumber n) {
            if (n < smallest) {
                second = smallest;
                smallest = n;
                best = i;
            } else if (n < second) {
                second = n;
            }
        };
        const std::span<Child> children(stack_.data() + first, last - first);
        if (or_node) {  // pn = min, dn = sum
            v = {kInfinity, 0, kClean, 0};
            for (std::size_t i = 0; i < children.size(); ++i) {
                Child& ch = children[i];
                if (refresh) reread(ch);
                consider(i, ch.value.pn);
                v.pn = std::min(v.pn, ch.value.pn);
                v.dn = add_capped(v.dn, ch.value.dn);
                v.repetition = std::min(v.repetition, ch.value.repetition);
                if (ch.value.proven()) low = std::min(low, ch.value.distance);
                high = std::max(high, ch.value.distance);
            }
            if (v.pn != kInfinity) v.repetition = kClean;
            v.distance = 1 + (v.pn == 0 ? low : high);
        } else {  // pn = sum, dn = min; a disproof takes the child whose disproof holds highest
            v = {0, kInfinity, kClean, 0};
            int rep = kDepthLimited - 1;
            for (std::size_t i = 0; i < children.size(); ++i) {
                Child& ch = children[i];
                if (refresh) reread(ch);
                consider(i, ch.value.dn);
                v.pn = add_capped(v.pn, ch.value.pn);
                v.dn = std::min(v.dn, ch.value.dn);
                if (ch.value.disproven()) {
                    rep = std::max(rep, ch.value.repetition);
                    low = std::min(low, ch.value.distance);
                }
                high = std::max(high, ch.value.distance);
            }
            v.repetition = v.dn == 0 ? rep : kClean;
            v.distance = 1 + (v.dn == 0 ? low : high);
        }
        second = std::min(second, kInfinity);
        return v;
    }

    NodeValue initial_value(const Position& q, int moves) const {
        const bool attacker_to_move = q.side_to_move == attacker_;
        if (options_.initial == InitialNumbers::uniform) return {1, 1, kClean};
        const auto n = static_cast<ProofNumber>(std::max(moves, 1));
        NodeValue v = attacker_to_move ? NodeValue{1, n, kClean} : NodeValue{n, 1, kClean};
        if (options_.initial == InitialNumbers::material) {
            auto score = [&](Color c) { return popcount(q.men(c)) + 3 * popcount(q.kings_of(c)); };
            const int balance = score(attacker_) - score(~attacker_);
            if (balance > 0) v.dn *= static_cast<ProofNumber>(1 + balance);
            if (balance < 0) v.pn *= static_cast<ProofNumber>(1 - balance);
        }
        return v;
    }

    const Oracle& oracle_;
    TranspositionTable& tt_;
    const ProverOptions& options_;
    SearchStats& stats_;
    Color attacker_ = Color::white;
    Color root_side_ = Color::white;
    NodeValue root_;
    std::uint64_t next_progress_ = 0;
    std::vector<PathEntry> path_;
    std::array<std::uint32_t, 1024> on_path_{};
    std::vector<Child> stack_;  // the children of every node of the path, the root's first
    MoveList moves_;            // make_children's, used before any recursion
    MoveCounter<R> counter_{CaptureMode::unique};
    probe::Result failure_;
    std::uint64_t node_limit_ = 0;
    Clock::time_point deadline_ = Clock::time_point::max();
    std::uint64_t checks_ = 0;
    StopReason stopped_ = StopReason::none;
};

}  // namespace dtb::solve::detail
