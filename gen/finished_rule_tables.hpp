// Rule tables (gen/rule_tables.hpp) of finished slices, and what a move into one of their
// positions is worth. A rule solve reads most finished positions only through their value with
// fresh counters, which FinishedTables keeps with the theoretical value (gen/finished_tables.hpp);
// full thresholds are read only where a counting class goes on across a capture or promotion,
// so FinishedRuleTables holds the tables of material in a class (at most 4 pieces) alone.
#pragma once
#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/gen/big_array.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/positions.hpp"
#include "dtb/gen/table_values.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/counting_rules.hpp"
#include "dtb/probe/open_table.hpp"
#include "dtb/probe/rule_captures.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/expected.hpp"

namespace dtb::gen {

// Materials (White to move) reached by White's captures from m: fewer pieces.
inline std::vector<Material> capture_materials(const Material& m) {
    std::vector<Material> out;
    for (int promoted = 0; promoted <= (m.wm > 0 ? 1 : 0); ++promoted)
        for (int kt = 0; kt <= m.bk; ++kt)
            for (int mt = 0; mt <= m.bm; ++mt)
                if (kt + mt > 0 && !(kt == m.bk && mt == m.bm))
                    out.push_back(Material{m.bk - kt, m.bm - mt, m.wk + promoted, m.wm - promoted});
    return out;
}

// The rule tables this generator writes for a slice (White to move): fmjd and ffjd, and ffjd16
// for K+M v K.
inline std::vector<format::Metric> rule_metrics_of(const Material& m) {
    std::vector<format::Metric> out{format::Metric::fmjd, format::Metric::ffjd};
    if (is_ffjd_carried(m)) out.push_back(format::Metric::ffjd16);
    return out;
}

// Every file dtb gen writes for a slice: DTC, DTW, the rule tables (variants with counting rules),
// and WDL last, the order they are written in (a slice is complete when its WDL is).
template <class R>
std::vector<format::Metric> slice_metrics_of(const Material& m) {
    std::vector<format::Metric> out{format::Metric::dtc, format::Metric::dtw};
    if constexpr (R::kCountingRules)
        for (auto metric : rule_metrics_of(m)) out.push_back(metric);
    out.push_back(format::Metric::wdl);
    return out;
}

// Rule tables of finished slices with class thresholds, in memory while later slices are solved.
template <class R>
class FinishedRuleTables {
  public:
    // cache: the one the tables' arrays map from; threads: of every parallel loop (0: all cores).
    FinishedRuleTables(std::filesystem::path dir, MappingCache& cache, int threads = 0)
        : dir_(std::move(dir)), cache_(&cache), threads_(threads) {}
    int threads() const { return threads_; }

    // Which slices load keeps: the generator needs class thresholds only; dtb verify --full
    // re-derives every table and reads them all.
    enum class Keep { class_thresholds, all };

    // Loads every rule table of m (once) if m has class thresholds, or always with Keep::all;
    // then also the tables of the slices m's captures lead to, from which the entries that m's
    // tables leave "don't care" are resolved (probe/rule_captures.hpp). Not thread-safe: call
    // before parallel passes.
    Expected<bool> load(const Material& m, Keep keep = Keep::class_thresholds) {
        if (keep == Keep::class_thresholds && !has_class_thresholds(m)) return true;
        if (slots_[slot_of(m, format::Metric::fmjd)] && slots_[slot_of(m, format::Metric::ffjd)]) return true;
        if (rule_captures_dont_care(m))
            for (const Material& x : capture_materials(m))
                if (auto r = load(x, Keep::all); !r) return r;
        for (format::Metric metric : rule_metrics_of(m)) {
            if (slots_[slot_of(m, metric)]) continue;
            const std::string name = format::file_name(m.name(), metric);
            auto reader = format::open_table_of<R>(dir_ / name, m, metric);
            if (!reader) return Error{reader.error()};
            if (reader->info().num_entries != SliceIndex<R>(m).size())
                return Error{"table " + name + " has the wrong number of entries"};
            auto values = read_table_values(*reader, *cache_, threads_);
            if (!values) return Error{values.error()};
            adopt(m, metric, std::move(*values));
        }
        if (rule_captures_dont_care(m)) resolve_captures(m);
        return true;
    }
    void adopt(const Material& m, format::Metric metric, BigArray<ValueCode> values) {
        slots_[slot_of(m, metric)] = std::make_unique<Slice>(Slice{SliceIndex<R>(m), std::move(values)});
    }
    std::size_t bytes_in_memory() const {
        std::size_t n = 0;
        for (const auto& s : slots_)
            if (s) n += s->value.size() * sizeof(ValueCode);
        return n;
    }
    void forget(const Material& m) {
        for (format::Metric metric : rule_metrics_of(m)) slots_[slot_of(m, metric)].reset();
    }
    // Code of a White-to-move position whose table was loaded. Safe from many threads.
    ValueCode code(format::Metric metric, const Position& p) const {
        const Slice& s = *slots_[slot_of(Material::of(p), metric)];
        return s.value[s.index.rank(p)];
    }

  private:
    struct Slice {
        SliceIndex<R> index;
        BigArray<ValueCode> value;
    };
    // Capture positions of a slice in no counting class, from its captures' fresh values.
    void resolve_captures(const Material& m) {
        Slice& fmjd = *slots_[slot_of(m, format::Metric::fmjd)];
        Slice& ffjd = *slots_[slot_of(m, format::Metric::ffjd)];
        parallel_for_positions(
            fmjd.index,
            [&](std::uint64_t i, const Position& p) {
                if (!has_capture<R>(p)) return;
                thread_local MoveList scratch;
                for (CountingRules rules : {CountingRules::fmjd, CountingRules::ffjd})
                    (rules == CountingRules::fmjd ? fmjd : ffjd).value[i] =
                        rule_code_from_captures<R>(p, scratch, [&](const Position& next) {
                            return fresh_value(code(rule_metric(rules), next), count_class(Material::of(next), rules));
                        });
            },
            {}, threads_);
    }
    static std::size_t slot_of(const Material& m, format::Metric metric) {
        const int material = ((m.wk * 10 + m.wm) * 10 + m.bk) * 10 + m.bm;
        return static_cast<std::size_t>(material) * 3 + (static_cast<std::size_t>(metric) - 3);
    }
    std::filesystem::path dir_;
    MappingCache* cache_;
    int threads_ = 0;
    std::array<std::unique_ptr<Slice>, 30000> slots_{};
};

// How one rule table of a material is computed (gen/rule_tables.hpp).
struct RuleTableKind {
    CountingRules rules = CountingRules::fmjd;
    CountClass cls = CountClass::none;  // the class whose budget the table counts (none: 25-move)
    bool carried = false;               // ffjd16: K+M v K under a carried 16-move limit
    bool ffjd_small() const { return cls == CountClass::ffjd_small; }
    // Class budgets do not restart on man moves; the 25-move budget does.
    bool man_moves_inside() const { return cls != CountClass::none; }
};
inline RuleTableKind rule_table_kind(const Material& m, format::Metric metric) {
    if (metric == format::Metric::ffjd16) return RuleTableKind{CountingRules::ffjd, CountClass::sixteen, true};
    const CountingRules rules = metric == format::Metric::ffjd ? CountingRules::ffjd : CountingRules::fmjd;
    return RuleTableKind{rules, count_class(m, rules), false};
}

// The value, for the side that moves, of a move that leaves the slice (a capture or a
// promotion; next: the position after it, colour-reversed, with a white piece) in a table of
// kind `g`. thresholds holds the class tables; fresh(rules, next) gives next's rule value with
// fresh counters (the generator keeps it with the theoretical value, the verifier derives it
// from the full tables). The generator and dtb verify --full both value exits here, so the
// counting rules live in one place.
template <class R, class Fresh>
ValueCode rule_exit_value(const FinishedRuleTables<R>& thresholds, const RuleTableKind& g, const Position& next,
                          const Fresh& fresh) {
    const Material x = Material::of(next);
    const CountClass cx = count_class(x, g.rules);
    if (g.cls != CountClass::none) {
        if (g.rules == CountingRules::fmjd) {
            if (cx == CountClass::sixteen || (cx == CountClass::five && g.cls == CountClass::five))
                return value_one_ply_before(thresholds.code(format::Metric::fmjd, next));
            if (cx == CountClass::five) {  // from the 16-move class: the smaller budget rules
                const ValueCode t = thresholds.code(format::Metric::fmjd, next);
                return value_one_ply_before(distance_of(t) <= kFiveMoveLimit ? t : kValueDraw);
            }
        } else {
            if (cx == CountClass::sixteen || cx == CountClass::ffjd_small)
                return value_one_ply_before(thresholds.code(format::Metric::ffjd, next));
            if (!g.carried && is_ffjd_carried(x))  // the 16-move limit stays in force
                return value_one_ply_before(thresholds.code(format::Metric::ffjd16, next));
        }
    }
    // Into material in no class (a class left behind, or the 25-move rule's fresh counters).
    return value_of_fresh_exit(fresh(g.rules, next));
}

}  // namespace dtb::gen
