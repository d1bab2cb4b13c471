// Rule-aware tables (international): for every position, its value under the counting rules of a
// rule set, as a threshold (docs/ADJUDICATION.md). A stored value code win_in(t) means "wins iff
// at least t plies of budget remain", loss_in(t) "loses iff at least t remain", draw "draws at
// every budget". Which budget depends on the position's class:
//   in no class     the 25-move budget 50 - reversible; only king moves stay inside a phase,
//                   every capture or man move is an exit valued by the rule value of what it
//                   leads to with fresh counters (the threshold is a distance to zeroing).
//   16-move, 5-move the class budget; every move but a capture or promotion stays inside (the
//                   class count does not restart on man moves). Exits follow RULES.md 1: a
//                   capture by the lone king from the 16-move into the 5-move class keeps the
//                   16-move budget (fmjd: the smaller of the two, the 5-move one starting at 10;
//                   ffjd: K+M v K, read from the ffjd16 table); into material in no class, the
//                   class limit is gone and the fresh rule value counts.
//   ffjd 2K v K, K v K  drawn at once unless the side to move must capture (or cannot move).
// The 25-move budget inside a class is not part of these tables: after the first capture or man
// move it is 50 again, more than any class budget, so it can bind only on counters given at the
// start of a query; probe/adjudicate.cpp solves that case at query time.
#pragma once
#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gen/forward.hpp"
#include "gen/parallel.hpp"
#include "gen/retro.hpp"
#include "gen/slice_solver.hpp"
#include "index/slice_index.hpp"
#include "probe/counting_rules.hpp"
#include "probe/format.hpp"
#include "probe/value.hpp"
#include "rules/expected.hpp"

namespace dtb::gen {

// The rule tables this generator writes for a slice (White to move): fmjd and ffjd, and ffjd16
// for K+M v K.
inline std::vector<format::Metric> rule_metrics_of(const Material& m) {
    std::vector<format::Metric> out{format::Metric::fmjd, format::Metric::ffjd};
    if (is_ffjd_carried(m)) out.push_back(format::Metric::ffjd16);
    return out;
}

// The rule value with fresh counters (the position just arose from a capture or a man move)
// of a position whose threshold code under its class is `code`.
inline Wdl fresh_value(ValueCode code, CountClass c) {
    if (is_draw(code) || distance_of(code) > fresh_budget(c)) return Wdl::draw;
    return wdl_of(code);
}
// The value, for the side that moves, of a move into a position of rule value v whose counters
// restart (every limit out of reach in one ply): a win for the mover iff v is a loss.
inline ValueCode value_of_fresh_exit(Wdl v) {
    return v == Wdl::loss ? win_in(1) : v == Wdl::win ? loss_in(1) : kValueDraw;
}

// Rule tables of finished slices, in memory while later slices are solved.
template <class R>
class FinishedRuleTables {
public:
    explicit FinishedRuleTables(std::filesystem::path dir) : dir_(std::move(dir)) {}

    // Loads every rule table of m (once). Not thread-safe: call before parallel passes.
    Expected<bool> load(const Material& m) {
        for (format::Metric metric : rule_metrics_of(m)) {
            auto& slot = slots_[slot_of(m, metric)];
            if (slot) continue;
            const std::string name = format::file_name(m.name(), metric);
            auto reader = format::TableReader::open(dir_ / name, R::kId, rules_fingerprint<R>());
            if (!reader) return Error{reader.error()};
            auto values = reader->read_all();
            if (!values) return Error{values.error()};
            if (values->size() != SliceIndex<R>(m).size()) return Error{"table " + name + " has the wrong number of entries"};
            adopt(m, metric, std::move(*values));
        }
        return true;
    }
    void adopt(const Material& m, format::Metric metric, std::vector<ValueCode> values) {
        slots_[slot_of(m, metric)] = std::make_unique<Slice>(Slice{SliceIndex<R>(m), std::move(values)});
    }
    // Code of a White-to-move position whose table was loaded. Safe from many threads.
    ValueCode code(format::Metric metric, const Position& p) const {
        const Slice& s = *slots_[slot_of(Material::of(p), metric)];
        return s.value[s.index.rank(p)];
    }

private:
    struct Slice {
        SliceIndex<R> index;
        std::vector<ValueCode> value;
    };
    static std::size_t slot_of(const Material& m, format::Metric metric) {
        const int material = ((m.wk * 10 + m.wm) * 10 + m.bk) * 10 + m.bm;
        return static_cast<std::size_t>(material) * 3 + (static_cast<std::size_t>(metric) - 3);
    }
    std::filesystem::path dir_;
    std::array<std::unique_ptr<Slice>, 30000> slots_{};
};

// The rule tables of one slice and its mirror, given the slice's game-theoretic values.
template <class R>
class RuleTableSolver {
public:
    struct Table {
        Material material;  // White to move
        format::Metric metric;
        std::vector<ValueCode> value;
    };

    RuleTableSolver(Material m, const FinishedRuleTables<R>& finished, const SliceSolver<R>& theory,
                    PassProgress progress)
        : m_(m), finished_(finished), theory_(theory), progress_(std::move(progress)) {}

    std::vector<Table> solve() {
        std::vector<Table> out;
        for (RuleSet rules : {RuleSet::fmjd, RuleSet::ffjd}) {
            const CountClass c = count_class(m_, rules);
            if (c == CountClass::ffjd_small)
                append(out, rule_metric(rules), solve_ffjd_small());
            else if (c == CountClass::none)
                append(out, rule_metric(rules), solve_phases(rules));
            else
                append(out, rule_metric(rules), solve_class(rules, c, /*carried=*/false));
            if (rules == RuleSet::ffjd && is_ffjd_carried(m_))
                append(out, format::Metric::ffjd16, solve_class(rules, CountClass::sixteen, /*carried=*/true));
        }
        std::vector<std::vector<std::uint16_t>>().swap(phase_seeds_);
        return out;
    }

private:
    using G = typename R::Geometry;
    using Values = std::vector<std::vector<ValueCode>>;  // per side of the solver

    void append(std::vector<Table>& out, format::Metric metric, Values values) const {
        for (int s = 0; s < theory_.num_sides(); ++s)
            out.push_back(Table{theory_.side(s).index.material(), metric, std::move(values[static_cast<std::size_t>(s)])});
    }

    // Rule value with fresh counters of a position in another slice.
    Wdl fresh_elsewhere(RuleSet rules, const Position& next) const {
        const CountClass c = count_class(Material::of(next), rules);
        return fresh_value(finished_.code(rule_metric(rules), next), c);
    }

    // No class: king phases by the 25-move budget, exits valued with fresh counters. A man move
    // that stays in the slice leads to a position of this very table with more advanced men: the
    // solver handles phases by decreasing advancement (SliceSolver::solve_values), so its value
    // is final when it is read.
    Values solve_phases(RuleSet rules) {
        if (phase_seeds_.empty()) prepare_phase_seeds();
        const SliceSolver<R>* self = nullptr;
        Regime regime;
        regime.man_moves_inside = false;
        regime.exit = [&](const Position& next, const Move& m) {
            if (!m.is_capture() && !m.promotes)  // a man move inside the slice
                return value_of_fresh_exit(fresh_value(self->value_of(next), CountClass::none));
            return value_of_fresh_exit(fresh_elsewhere(rules, next));
        };
        regime.prepared = [this, shift = exit_shift(rules)](int s, std::uint64_t i) {
            const unsigned word = phase_seeds_[static_cast<std::size_t>(s)][i];
            return PreparedSeed{(word & kCaptureBit) != 0, static_cast<std::uint8_t>(word & 0xFF),
                                unpack_exit(word >> shift)};
        };
        SliceSolver<R> solver(m_, std::move(regime), named(std::string(to_string(rules))));
        self = &solver;
        solver.solve_values();
        Values out(static_cast<std::size_t>(solver.num_sides()));
        for (int s = 0; s < solver.num_sides(); ++s) out[static_cast<std::size_t>(s)] = solver.side(s).value;
        return out;
    }

    // The seeds of the phase solves. Captures and promotions lead to other slices, whose rule
    // tables are final, so one pass values them for every rule set that solves phases (one capture
    // generation for both). Per position, 16 bits: plain king moves (bits 0-7), must capture
    // (bit 8), and per rule set the best of those exits (2 bits each, all of them worth win in 1,
    // draw or loss in 1 with fresh counters).
    static constexpr unsigned kCaptureBit = 1u << 8;
    static constexpr unsigned exit_shift(RuleSet rules) { return rules == RuleSet::fmjd ? 9 : 11; }
    static unsigned pack_exit(ValueCode v) {
        return v == kValueUnknown ? 0 : v == win_in(1) ? 1 : is_draw(v) ? 2 : 3;
    }
    static ValueCode unpack_exit(unsigned bits) {
        constexpr ValueCode kCodes[] = {kValueUnknown, win_in(1), kValueDraw, loss_in(1)};
        return kCodes[bits & 3];
    }
    void prepare_phase_seeds() {
        std::vector<RuleSet> phased;
        for (RuleSet rules : {RuleSet::fmjd, RuleSet::ffjd})
            if (count_class(m_, rules) == CountClass::none) phased.push_back(rules);
        phase_seeds_.resize(static_cast<std::size_t>(theory_.num_sides()));
        for (int s = 0; s < theory_.num_sides(); ++s) {
            const auto& sd = theory_.side(s);
            auto& out = phase_seeds_[static_cast<std::size_t>(s)];
            out.assign(sd.index.size(), 0);
            parallel_for(sd.index.size(), [&](std::uint64_t i) {
                thread_local MoveList captures;
                const Position p = sd.index.unrank(i);
                const Position rp = reversed<G>(p);
                ValueCode best[2] = {kValueUnknown, kValueUnknown};
                auto value_exit = [&](const Move& m) {
                    const Position next = reversed_after<G>(rp, m);
                    for (std::size_t k = 0; k < phased.size(); ++k)
                        best[k] = better(best[k], next.of(Color::white) == 0
                                                      ? win_in(1)
                                                      : value_of_fresh_exit(fresh_elsewhere(phased[k], next)));
                };
                unsigned word = 0;
                if (sd.capture[i]) {
                    generate_captures<R>(p, captures);
                    for (const Move& m : captures) value_exit(m);
                    word = kCaptureBit;
                } else {
                    word = static_cast<unsigned>(count_king_steps<R>(p));
                    for_each_man_step<R>(p, [&](const Move& m) {
                        if (m.promotes) value_exit(m);
                    });
                }
                for (std::size_t k = 0; k < phased.size(); ++k) word |= pack_exit(best[k]) << exit_shift(phased[k]);
                out[i] = static_cast<std::uint16_t>(word);
            });
        }
    }

    // A counting class: the class budget, every non-converting move inside.
    Values solve_class(RuleSet rules, CountClass c, bool carried) {
        Regime regime;
        regime.man_moves_inside = true;
        regime.exit = [this, rules, c, carried](const Position& next, const Move&) {
            const Material x = Material::of(next);
            const CountClass cx = count_class(x, rules);
            if (rules == RuleSet::fmjd) {
                if (cx == CountClass::sixteen || (cx == CountClass::five && c == CountClass::five))
                    return value_one_ply_before(finished_.code(format::Metric::fmjd, next));
                if (cx == CountClass::five) {  // from the 16-move class: the smaller budget rules
                    const ValueCode t = finished_.code(format::Metric::fmjd, next);
                    return value_one_ply_before(distance_of(t) <= kFiveMoveLimit ? t : kValueDraw);
                }
            } else {
                if (cx == CountClass::sixteen || cx == CountClass::ffjd_small)
                    return value_one_ply_before(finished_.code(format::Metric::ffjd, next));
                if (!carried && is_ffjd_carried(x))  // the 16-move limit stays in force
                    return value_one_ply_before(finished_.code(format::Metric::ffjd16, next));
            }
            return value_of_fresh_exit(fresh_elsewhere(rules, next));  // left every class
        };
        SliceSolver<R> solver(m_, std::move(regime), named(std::string(to_string(rules)) + (carried ? "16" : "") + " class"));
        solver.solve_values();
        Values out(static_cast<std::size_t>(solver.num_sides()));
        for (int s = 0; s < solver.num_sides(); ++s) out[static_cast<std::size_t>(s)] = solver.side(s).value;
        return out;
    }

    // ffjd 2K v K and K v K: drawn at the first position without a capture for the side to move
    // (a side without a move has lost first); capture positions take their best capture.
    Values solve_ffjd_small() {
        Values out(static_cast<std::size_t>(theory_.num_sides()));
        for (int s = 0; s < theory_.num_sides(); ++s) {
            const auto& index = theory_.side(s).index;
            auto& v = out[static_cast<std::size_t>(s)];
            v.assign(index.size(), kValueDraw);
            parallel_for(index.size(), [&](std::uint64_t i) {
                thread_local MoveList moves;
                const Position p = index.unrank(i);
                generate_moves<R>(p, moves);
                if (moves.empty()) {
                    v[i] = loss_in(0);
                    return;
                }
                if (!moves.front().is_capture()) return;  // captures are compulsory: all or none
                const Position rp = reversed<G>(p);
                ValueCode best = kValueUnknown;
                for (const Move& m : moves) {
                    const Position next = reversed_after<G>(rp, m);
                    best = better(best, next.of(Color::white) == 0
                                           ? win_in(1)
                                           : value_one_ply_before(finished_.code(format::Metric::ffjd, next)));
                }
                v[i] = best;
            });
        }
        return out;
    }

    PassProgress named(const std::string& what) const {
        if (!progress_) return {};
        return [this, what](const std::string& pass, std::uint64_t done, std::uint64_t total) {
            progress_(what + " " + pass, done, total);
        };
    }

    Material m_;
    const FinishedRuleTables<R>& finished_;
    const SliceSolver<R>& theory_;
    PassProgress progress_;
    std::vector<std::vector<std::uint16_t>> phase_seeds_;  // per side, while the phases are solved
};

}  // namespace dtb::gen
