// A pair's slice line: its positions, its rate, where its time went (PartSeconds), its bytes,
// how the rule tables came from the game's DTC, and what went to files.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "dtb/gen/generate.hpp"
#include "dtb/gen/mapping_cache.hpp"
#include "dtb/gen/pair_memory.hpp"
#include "dtb/gen/pair_rule_tables.hpp"
#include "dtb/probe/counting_rules.hpp"

namespace dtb::gen {

// A solve's main kinds of pass (SliceSolver::pass_seconds), in slice-line order; "other" follows.
inline constexpr const char* kSolveKinds[] = {"seed", "dtw", "dtc seed", "dtc"};

// The main kinds of pass of a solve and "other", the rest summed with the serial work between
// passes.
inline PartSeconds solve_kinds(const std::vector<std::pair<std::string, double>>& passes, double total) {
    PartSeconds out;
    double shown = 0;
    for (const char* kind : kSolveKinds) {
        for (const auto& [name, secs] : passes) {
            if (name != kind) continue;
            out.emplace_back(kind, secs);
            shown += secs;
        }
    }
    out.emplace_back("other", std::max(total - shown, 0.0));
    return out;
}

// When each step of a pair ended, from its start.
struct PairClock {
    using Time = std::chrono::steady_clock::time_point;
    Time start, inputs_read, game_solved, distances_written, rule_tables_done, wdl_written;
    static double seconds(Time a, Time b) { return std::chrono::duration<double>(b - a).count(); }
};

// What the slice line tells of a pair.
struct PairFacts {
    Material m;
    std::uint64_t entries = 0, positions = 0, bytes = 0;
    bool spilled = false;
    CacheCounters cache_before, cache_after;
    // Solved by blocks: entries of its largest block, the peak bytes of the arrays and frontier
    // lists mapped beside the inputs held while it was solved and while its tables were written,
    // and the block store's compressed bytes.
    bool by_blocks = false;
    std::uint64_t largest_block = 0, solve_peak_bytes = 0, write_peak_bytes = 0, block_store_bytes = 0;
};

// The parts of the pair's time (PartSeconds), in slice-line order.
template <class R>
PartSeconds pair_parts(const PairClock& c, const std::vector<std::pair<std::string, double>>& pass_seconds,
                       const RuleTablesOutcome& rules) {
    const double solve = PairClock::seconds(c.inputs_read, c.game_solved);
    PartSeconds parts{{"inputs read", PairClock::seconds(c.start, c.inputs_read)}, {"solve", solve}};
    for (const auto& kind : solve_kinds(pass_seconds, solve)) parts.push_back(kind);
    parts.emplace_back("distances written", PairClock::seconds(c.game_solved, c.distances_written));
    if constexpr (R::kCountingRules) {
        parts.emplace_back("rule tables", PairClock::seconds(c.distances_written, c.rule_tables_done));
        parts.emplace_back("rule tables written", rules.written_seconds);
    }
    parts.emplace_back("WDL written", PairClock::seconds(c.rule_tables_done, c.wdl_written));
    return parts;
}

// How each rule set's phases came from the game's DTC: copied whole, repaired, or (a level whose
// repair would have grown too large) solved in full. k: 0 fmjd, 1 ffjd.
template <class R>
std::string rule_tables_from_dtc(const Material& m, std::uint64_t entries, const RuleTablesOutcome& rules, int k) {
    if constexpr (R::kCountingRules)
        if (count_class(m, k == 0 ? CountingRules::fmjd : CountingRules::ffjd) != CountClass::none)
            return "a counting class, solved in full";
    const auto share = [&](std::uint64_t n) { return 100.0 * static_cast<double>(n) / static_cast<double>(entries); };
    char part[96];
    std::snprintf(part, sizeof part, "from DTC: %.0f%% copied, %.1f%% repaired", share(rules.copied[k]),
                  share(rules.repaired[k]));
    std::string out = part;
    if (rules.in_full[k])
        out += ", " + std::to_string(rules.in_full[k]) + (rules.in_full[k] == 1 ? " level" : " levels") +
               " solved in full";
    return out;
}

template <class R>
std::string slice_line(const PairFacts& f, const PairClock& c, const PartSeconds& parts,
                       const RuleTablesOutcome& rules) {
    const double secs = PairClock::seconds(c.start, c.wdl_written);
    std::string rules_detail;
    if constexpr (R::kCountingRules)
        rules_detail = "; fmjd " + rule_tables_from_dtc<R>(f.m, f.entries, rules, 0) + "; ffjd " +
                       rule_tables_from_dtc<R>(f.m, f.entries, rules, 1);
    char head[256];
    std::snprintf(head, sizeof head, "%s: %llu positions%s in %.2f s (%.2f M/s; ", f.m.name().c_str(),
                  static_cast<unsigned long long>(f.positions),
                  f.positions != f.entries ? (" (" + std::to_string(f.entries) + " entries)").c_str() : "", secs,
                  f.positions / std::max(secs, 1e-9) / 1e6);
    std::string line = head + describe_parts(parts, rules_detail) + "), " + std::to_string(f.bytes) + " bytes";
    // What went to files (every array of 4 MB or more mapped from one, counted once each).
    if (f.spilled) {
        line += ", " + std::to_string((f.cache_after.spilled - f.cache_before.spilled) >> 20) + " MB of arrays spilled";
        // Of which in files kept from arrays freed before, pages and all (gen/mapping_cache.hpp).
        line += " (" + std::to_string((f.cache_after.reused_files - f.cache_before.reused_files) >> 20) +
                " MB in kept files)";
    }
    if (f.by_blocks) {
        char part[192];
        std::snprintf(
            part, sizeof part,
            ", by blocks: largest %llu entries; peak %llu MB of arrays solving (%.1f bytes per entry of it), "
            "%llu MB writing; store %llu MB",
            static_cast<unsigned long long>(f.largest_block), static_cast<unsigned long long>(f.solve_peak_bytes >> 20),
            static_cast<double>(f.solve_peak_bytes) / static_cast<double>(std::max<std::uint64_t>(1, f.largest_block)),
            static_cast<unsigned long long>(f.write_peak_bytes >> 20),
            static_cast<unsigned long long>(f.block_store_bytes >> 20));
        line += part;
    }
    if (const std::uint64_t overflow = f.cache_after.overflow - f.cache_before.overflow)
        line += ", " + std::to_string(overflow >> 20) + " MB mapped from files past the memory bound";
    return line;
}

}  // namespace dtb::gen
