// FullTables and the re-derivation of a slice (verify_slice.hpp), compiled once for each variant.
#include "dtb/verify/verify_slice.hpp"

#include <mutex>

namespace dtb::verify {

using gen::parallel_for;
using gen::parallel_for_positions;
using gen::pass_threads;

std::vector<Material> successor_materials(const Material& m) {
    std::vector<Material> out;
    for (int promoted = 0; promoted <= (m.wm > 0 ? 1 : 0); ++promoted)
        for (int kt = 0; kt <= m.bk; ++kt)
            for (int mt = 0; mt <= m.bm; ++mt)
                if (!(kt == m.bk && mt == m.bm))
                    out.push_back(Material{m.bk - kt, m.bm - mt, m.wk + promoted, m.wm - promoted});
    return out;
}

template <class R>
Expected<const typename FullTables<R>::Slice*> FullTables<R>::load(const Material& m) {
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
        if (reader->info().num_entries != s->index.size()) return Error{path.string() + ": wrong number of entries"};
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
                s->wdl[i] = static_cast<std::uint16_t>(wdl_from_dtw<R>(s->dtw[i], [&] { return s->index.unrank(i); }));
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

template <class R>
Expected<std::uint64_t> verify_slice_full(FullTables<R>& tables, const Material& m,
                                          const std::function<void(const Mismatch&)>& on_mismatch,
                                          std::atomic<std::uint64_t>& mismatches, const ChunkProgress& progress) {
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

template class FullTables<International>;
template class FullTables<Turkish>;
template Expected<std::uint64_t> verify_slice_full<International>(FullTables<International>&, const Material&,
                                                                  const std::function<void(const Mismatch&)>&,
                                                                  std::atomic<std::uint64_t>&, const ChunkProgress&);
template Expected<std::uint64_t> verify_slice_full<Turkish>(FullTables<Turkish>&, const Material&,
                                                            const std::function<void(const Mismatch&)>&,
                                                            std::atomic<std::uint64_t>&, const ChunkProgress&);

}  // namespace dtb::verify
