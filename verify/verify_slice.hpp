// Forward re-derivation of stored values, independent of the generator's retrograde code: each
// position's WDL, DTW and DTC must follow from its successors by the definitions of RULES.md 3,
// with successors looked up in the tables themselves (this slice, its mirror, smaller slices).
#pragma once
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/positions.hpp"
#include "dtb/index/material.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/derived_wdl.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/rules/variant.hpp"
#include "dtb/verify/verify_report.hpp"

namespace dtb::verify {

// The generator's progress callback, which the checks share.
using gen::ChunkProgress;

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
std::vector<Material> successor_materials(const Material& m);

// Every stored value of a folder's slices, loaded on demand, with capture positions resolved.
// Compiled for International and Turkish (verify_slice.cpp).
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
    Expected<const Slice*> load(const Material& m);
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
// error when a needed table cannot be read. Each mismatch goes to on_mismatch (from many
// threads, serialised by a mutex) and is counted in mismatches.
template <class R>
Expected<std::uint64_t> verify_slice_full(FullTables<R>& tables, const Material& m,
                                          const std::function<void(const Mismatch&)>& on_mismatch,
                                          std::atomic<std::uint64_t>& mismatches, const ChunkProgress& progress = {});

extern template class FullTables<International>;
extern template class FullTables<Turkish>;
extern template Expected<std::uint64_t> verify_slice_full<International>(FullTables<International>&, const Material&,
                                                                         const std::function<void(const Mismatch&)>&,
                                                                         std::atomic<std::uint64_t>&,
                                                                         const ChunkProgress&);
extern template Expected<std::uint64_t> verify_slice_full<Turkish>(FullTables<Turkish>&, const Material&,
                                                                   const std::function<void(const Mismatch&)>&,
                                                                   std::atomic<std::uint64_t>&, const ChunkProgress&);

}  // namespace dtb::verify
