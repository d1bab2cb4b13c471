// Forward re-derivation of stored values, independent of the generator's retrograde code: each
// position's WDL, DTW and DTC must follow from its successors by the definitions of RULES.md 3,
// with successors looked up in the tables themselves (this slice, its mirror, smaller slices).
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/positions.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/derived_wdl.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/verify/verify_report.hpp"

namespace dtb::verify {

// The generator's parallel loops, which the checks share.
using gen::ChunkProgress;
using gen::parallel_for;
using gen::parallel_for_positions;
using gen::pass_threads;

struct Mismatch {
    std::string slice;
    std::uint64_t index = 0;
    std::string fen;
    StoredValues stored, derived;
};

// The values a position must have, given its successors' stored values.
template <class R, class Lookup>
StoredValues derive_from_successors(const Position& p, MoveList& moves, Lookup&& lookup) {
    using G = typename R::Geometry;
    generate_moves<R>(p, moves);
    if (moves.empty()) return {Wdl::loss, 0, 0};
    int best_win_dtw = 1 << 30, best_win_dtc = 1 << 30, worst_loss_dtw = -1, worst_loss_dtc = -1;
    bool any_win = false, any_draw = false;
    for (const Move& m : moves) {
        const Position next = reversed<G>(make_move(p, m));
        const StoredValues after = next.of(Color::white) == 0 ? StoredValues{Wdl::loss, 0, 0} : lookup(next);
        const bool conversion = m.is_capture() || !m.by_king;
        if (after.wdl == Wdl::loss) {
            any_win = true;
            best_win_dtw = std::min(best_win_dtw, after.dtw + 1);
            best_win_dtc = std::min(best_win_dtc, conversion || after.dtw == 0 ? 1 : after.dtc + 1);
        } else if (after.wdl == Wdl::draw) {
            any_draw = true;
        } else {
            worst_loss_dtw = std::max(worst_loss_dtw, after.dtw + 1);
            worst_loss_dtc = std::max(worst_loss_dtc, conversion ? 1 : after.dtc + 1);
        }
    }
    if (any_win) return {Wdl::win, best_win_dtw, best_win_dtc};
    if (any_draw) return {Wdl::draw, 0, 0};
    return {Wdl::loss, worst_loss_dtw, worst_loss_dtc};
}

// Every material a move from m can lead to, colour-reversed (White to move), including m's mirror.
inline std::vector<Material> successor_materials(const Material& m) {
    std::vector<Material> out;
    for (int promoted = 0; promoted <= (m.wm > 0 ? 1 : 0); ++promoted)
        for (int kt = 0; kt <= m.bk; ++kt)
            for (int mt = 0; mt <= m.bm; ++mt)
                if (!(kt == m.bk && mt == m.bm))
                    out.push_back(Material{m.bk - kt, m.bm - mt, m.wk + promoted, m.wm - promoted});
    return out;
}

template <class R>
class FullTables {
  public:
    // threads: of its parallel loops (0: all cores).
    explicit FullTables(std::filesystem::path dir, int threads = 0) : dir_(std::move(dir)), threads_(threads) {}
    int threads() const { return threads_; }
    struct Slice {
        SliceIndex<R> index;
        std::vector<std::uint16_t> wdl, dtw, dtc;
    };
    // Loads a slice and the smaller slices its captures lead to; capture positions (stored as
    // "don't care") are resolved from their captures. Not thread-safe; load before parallel use.
    Expected<const Slice*> load(const Material& m) {
        auto& slot = slots_[code(m)];
        if (slot) return static_cast<const Slice*>(slot.get());
        for (const Material& x : successor_materials(m)) {
            if (x.pieces() >= m.pieces()) continue;
            auto r = load(x);
            if (!r) return Error{r.error()};
        }
        auto s = std::make_unique<Slice>(Slice{SliceIndex<R>(m), {}, {}, {}});
        bool derived = false;
        for (auto [metric, out] : {std::pair{format::Metric::wdl, &s->wdl}, std::pair{format::Metric::dtw, &s->dtw},
                                   std::pair{format::Metric::dtc, &s->dtc}}) {
            const auto path = dir_ / format::file_name(m.name(), metric);
            auto reader = format::TableReader::open(path, R::kId, rules_fingerprint<R>());
            if (!reader) return Error{reader.error()};
            if (reader->info().num_entries != s->index.size())
                return Error{path.string() + ": wrong number of entries"};
            if (reader->info().derived()) {  // filled from DTW below, once DTW is read
                if (auto why = derived_wdl_problem(dir_, m); !why.empty()) return Error{path.string() + ": " + why};
                derived = true;
                continue;
            }
            auto all = reader->read_all(pass_threads(threads_));
            if (!all) return Error{path.string() + ": " + all.error()};
            *out = std::move(*all);
        }
        if (derived) {
            // WDL from DTW's parity: re-derived from the successors like any stored value, so a
            // DTW whose parity is wrong shows as a WDL mismatch.
            s->wdl.resize(s->dtw.size());
            parallel_for(
                s->index.size(),
                [&](std::uint64_t i) {
                    s->wdl[i] =
                        static_cast<std::uint16_t>(wdl_from_dtw<R>(s->dtw[i], [&] { return s->index.unrank(i); }));
                },
                {}, threads_);
        }
        parallel_for_positions(
            s->index,
            [&](std::uint64_t i, const Position& p) {
                if (!has_capture<R>(p)) return;
                thread_local MoveList moves;
                const StoredValues v = derive_from_successors<R>(p, moves, [&](const Position& q) { return at(q); });
                s->wdl[i] = static_cast<std::uint16_t>(v.wdl);
                s->dtw[i] = static_cast<std::uint16_t>(v.dtw);
                s->dtc[i] = static_cast<std::uint16_t>(v.dtc);
            },
            {}, threads_);
        slot = std::move(s);
        return static_cast<const Slice*>(slot.get());
    }
    // Values of a White-to-move position whose slice is loaded.
    StoredValues at(const Position& p) const {
        const Slice& s = *slots_[code(Material::of(p))];
        const std::uint64_t i = s.index.rank(p);
        return {static_cast<Wdl>(s.wdl[i]), s.dtw[i], s.dtc[i]};
    }

  private:
    static int code(const Material& m) { return m.slot(); }
    std::filesystem::path dir_;
    int threads_ = 0;
    std::array<std::unique_ptr<Slice>, Material::kSlots> slots_{};
};

// Re-derives every stored value of slice m. Returns the number of positions checked, or an
// error when a needed table cannot be read. Mismatches go to on_mismatch (from many threads,
// serialised by a mutex); at most max_reported are reported.
template <class R>
Expected<std::uint64_t> verify_slice_full(FullTables<R>& tables, const Material& m,
                                          const std::function<void(const Mismatch&)>& on_mismatch,
                                          std::atomic<std::uint64_t>& mismatches, const ChunkProgress& progress = {}) {
    auto self = tables.load(m);
    if (!self) return Error{self.error()};
    for (const Material& x : successor_materials(m)) {
        auto r = tables.load(x);
        if (!r) return Error{"slice " + m.name() + " needs " + x.name() + ": " + r.error()};
    }
    const auto* slice = *self;
    std::mutex report_mutex;
    parallel_for_positions(
        slice->index,
        [&](std::uint64_t i, const Position& p) {
            thread_local MoveList moves;
            const StoredValues stored{static_cast<Wdl>(slice->wdl[i]), slice->dtw[i], slice->dtc[i]};
            const StoredValues derived =
                derive_from_successors<R>(p, moves, [&](const Position& q) { return tables.at(q); });
            if (stored == derived) return;
            mismatches.fetch_add(1);
            std::lock_guard lock(report_mutex);
            if (on_mismatch) on_mismatch(Mismatch{m.name(), i, to_fen<R>(p), stored, derived});
        },
        progress, tables.threads());
    return slice->index.size();
}

}  // namespace dtb::verify
