// The DTC, DTW and WDL tables of one side of a pair solved by blocks, streamed from the block
// store part by part in index order (gen/side_reader.hpp) instead of gathered whole. What a part
// needs from beyond itself is known first, from one scan of the side: the quiet entries nearest
// outside it (its don't-care runs are filled from them, gen/dont_care.hpp) and each table's
// largest entry (its header's width).
#pragma once
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "dtb/gen/big_array.hpp"
#include "dtb/gen/dont_care.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/side_reader.hpp"
#include "dtb/gen/solver_state.hpp"
#include "dtb/gen/table_writer.hpp"
#include "dtb/probe/value.hpp"

namespace dtb::gen {

template <class R>
class SideTables {
  public:
    using Kind = typename SolverBlocks<R>::Kind;
    static constexpr std::uint64_t kPart = TableWriter<R>::kPartEntries;

    // Scans side s of the blocks' store.
    SideTables(const SolverBlocks<R>& blocks, int side, const Material& m, std::uint64_t entries,
               const TableWriter<R>& writer, MappingCache& cache, int threads)
        : reader_(blocks.layout, blocks.store, side, entries, threads),
          m_(m),
          writer_(writer),
          cache_(cache),
          threads_(threads),
          capture_(cache) {
        capture_.resize(std::min(entries, kPart));
        scan();
    }

    Expected<std::uint64_t> write_dtc() {
        return writer_.write_streamed(
            m_, format::Metric::dtc, reader_.size(), max_dtc_,
            [&](std::uint64_t first, std::span<std::uint16_t> out) {
                const std::span<const std::uint8_t> capture = read_capture(first, out.size());
                reader_.read<std::uint16_t>(Kind::kDtc, first, out);
                const std::size_t p = part_of(first);
                fill_dont_care(out, capture, std::nullopt, threads_, dtc_of(before_[p]), dtc_of(after_[p]));
            },
            cache_);
    }
    Expected<std::uint64_t> write_dtw() {
        return writer_.write_streamed(
            m_, format::Metric::dtw, reader_.size(), max_distance_,
            [&](std::uint64_t first, std::span<std::uint16_t> out) { read_metric(first, out, distance_entry, {}); },
            cache_);
    }
    // The WDL table compressed, not written (the pair chooses which side it derives).
    Expected<format::PreparedTable> prepare_wdl() {
        return writer_.prepare_streamed(
            m_, format::Metric::wdl, reader_.size(), max_wdl_,
            [&](std::uint64_t first, std::span<std::uint16_t> out) {
                read_metric(first, out, wdl_entry, static_cast<std::uint16_t>(Wdl::draw));
            },
            cache_);
    }

  private:
    // A quiet entry's value and DTC.
    struct Quiet {
        ValueCode value;
        std::uint16_t dtc;
    };
    static std::uint16_t distance_entry(ValueCode v) { return static_cast<std::uint16_t>(distance_of(v)); }
    static std::uint16_t wdl_entry(ValueCode v) { return static_cast<std::uint16_t>(wdl_of(v)); }
    static std::optional<std::uint16_t> dtc_of(const std::optional<Quiet>& q) {
        return q ? std::optional<std::uint16_t>(q->dtc) : std::nullopt;
    }
    static std::size_t part_of(std::uint64_t first) { return static_cast<std::size_t>(first / kPart); }

    std::span<const std::uint8_t> read_capture(std::uint64_t first, std::size_t n) {
        const std::span<std::uint8_t> capture(capture_.data(), n);
        reader_.read<std::uint8_t>(Kind::kCapture, first, capture);
        return capture;
    }
    // A table of the values (entry(value) each), its don't-care runs filled.
    template <class Entry>
    void read_metric(std::uint64_t first, std::span<std::uint16_t> out, Entry entry,
                     std::optional<std::uint16_t> between) {
        const std::span<const std::uint8_t> capture = read_capture(first, out.size());
        reader_.read<ValueCode>(Kind::kValue, first, out);
        parallel_for(
            out.size(), [&](std::uint64_t i) { out[i] = entry(out[i]); }, {}, threads_);
        const std::size_t p = part_of(first);
        const auto outside = [&](const std::optional<Quiet>& q) {
            return q ? std::optional<std::uint16_t>(entry(q->value)) : std::nullopt;
        };
        fill_dont_care(out, capture, between, threads_, outside(before_[p]), outside(after_[p]));
    }

    // Each part's first and last quiet entries, and the largest entries of the tables: those of
    // the quiet entries, which the don't-care runs copy (the WDL's draw between a win and a loss
    // is below the win), or, with no quiet entry at all, of every entry (then left as they are).
    void scan() {
        const std::uint64_t n = reader_.size();
        const std::size_t parts = static_cast<std::size_t>((n + kPart - 1) / kPart);
        std::vector<std::optional<Quiet>> first_quiet(parts), last_quiet(parts);
        BigArray<ValueCode> value(cache_);
        BigArray<std::uint16_t> dtc(cache_);
        value.resize(std::min(n, kPart));
        dtc.resize(std::min(n, kPart));
        Maxima quiet, all;
        for (std::size_t p = 0; p < parts; ++p) {
            const std::uint64_t first = p * kPart, len = std::min(kPart, n - first);
            const std::span<const std::uint8_t> capture = read_capture(first, len);
            reader_.read<ValueCode>(Kind::kValue, first, std::span<ValueCode>(value.data(), len));
            reader_.read<std::uint16_t>(Kind::kDtc, first, std::span<std::uint16_t>(dtc.data(), len));
            // In tasks of consecutive entries, merged in order.
            const std::uint64_t tasks = std::min<std::uint64_t>(len, 64);
            std::vector<PartScan> scans(tasks);
            parallel_for_tasks(
                tasks,
                [&](std::uint64_t t) {
                    PartScan& sc = scans[t];
                    for (std::uint64_t i = len * t / tasks; i < len * (t + 1) / tasks; ++i) {
                        const Quiet q{value[i], dtc[i]};
                        sc.all.add(q);
                        if (capture[i]) continue;
                        sc.quiet.add(q);
                        if (!sc.first) sc.first = q;
                        sc.last = q;
                    }
                },
                threads_);
            for (const PartScan& sc : scans) {
                quiet.merge(sc.quiet);
                all.merge(sc.all);
                if (!first_quiet[p]) first_quiet[p] = sc.first;
                if (sc.last) last_quiet[p] = sc.last;
            }
        }
        const Maxima& m = quiet.any ? quiet : all;
        max_dtc_ = m.dtc;
        max_distance_ = m.distance;
        max_wdl_ = m.wdl;
        before_.assign(parts, std::nullopt);
        after_.assign(parts, std::nullopt);
        for (std::size_t p = 1; p < parts; ++p) before_[p] = last_quiet[p - 1] ? last_quiet[p - 1] : before_[p - 1];
        for (std::size_t p = parts; p-- > 1;) after_[p - 1] = first_quiet[p] ? first_quiet[p] : after_[p];
    }
    struct Maxima {
        bool any = false;
        std::uint16_t dtc = 0, distance = 0, wdl = 0;
        void add(const Quiet& q) {
            any = true;
            dtc = std::max(dtc, q.dtc);
            distance = std::max(distance, distance_entry(q.value));
            wdl = std::max(wdl, wdl_entry(q.value));
        }
        void merge(const Maxima& o) {
            if (!o.any) return;
            any = true;
            dtc = std::max(dtc, o.dtc);
            distance = std::max(distance, o.distance);
            wdl = std::max(wdl, o.wdl);
        }
    };
    struct PartScan {
        Maxima quiet, all;
        std::optional<Quiet> first, last;
    };
    static_assert(Wdl::loss < Wdl::draw && Wdl::draw < Wdl::win);

    SideReader reader_;
    Material m_;
    const TableWriter<R>& writer_;
    MappingCache& cache_;
    int threads_;
    BigArray<std::uint8_t> capture_;  // a part's capture flags
    std::uint16_t max_dtc_ = 0, max_distance_ = 0, max_wdl_ = 0;
    std::vector<std::optional<Quiet>> before_, after_;  // per part: the nearest quiet entry outside
};

}  // namespace dtb::gen
