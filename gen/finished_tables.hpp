// Finished tables of other slices, read back through probe's format module and held in memory
// while a slice is solved. Only WDL and DTW are needed: every move that leaves a slice is a
// conversion, so DTC of other slices never enters the computation. Capture positions are stored
// as "don't care"; loading resolves them from their captures (into smaller slices, loaded first).
#pragma once
#include <array>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "gen/big_array.hpp"
#include "gen/parallel.hpp"
#include "gen/retro.hpp"
#include "gen/slice_solver.hpp"
#include "index/slice_index.hpp"
#include "probe/format.hpp"
#include "probe/value.hpp"
#include "rules/expected.hpp"

namespace dtb::gen {

template <class R>
class FinishedTables {
public:
    explicit FinishedTables(std::filesystem::path dir) : dir_(std::move(dir)) {}

    struct Slice {
        SliceIndex<R> index;
        BigArray<ValueCode> value;
    };

    // Loads a slice's WDL and DTW tables (once), and the smaller slices its captures lead to.
    // Not thread-safe: call before the parallel passes.
    Expected<const Slice*> load(const Material& m) {
        auto& slot = slots_[code(m)];
        if (slot) return static_cast<const Slice*>(slot.get());
        for (const Material& x : capture_materials(m)) {
            auto r = load(x);
            if (!r) return Error{r.error()};
        }
        const std::string name = m.name();
        auto wdl = read_values(name, format::Metric::wdl);
        if (!wdl) return Error{wdl.error()};
        auto dtw = read_values(name, format::Metric::dtw);
        if (!dtw) return Error{dtw.error()};
        auto slice = std::make_unique<Slice>(Slice{SliceIndex<R>(m), {}});
        if (wdl->size() != slice->index.size() || dtw->size() != slice->index.size())
            return Error{"table " + name + " has the wrong number of entries"};
        slice->value.resize(wdl->size());
        for (std::size_t i = 0; i < wdl->size(); ++i)
            slice->value[i] = make_value(static_cast<Wdl>((*wdl)[i]), (*dtw)[i]);
        resolve_captures(*slice);
        slot = std::move(slice);
        return static_cast<const Slice*>(slot.get());
    }
    // Adds a slice solved in this run without reading it back.
    void adopt(const Material& m, BigArray<ValueCode> values) {
        slots_[code(m)] = std::make_unique<Slice>(Slice{SliceIndex<R>(m), std::move(values)});
    }
    void forget(const Material& m) { slots_[code(m)].reset(); }

    // Value of a White-to-move position whose slice was loaded. Safe from many threads.
    ValueCode value(const Position& p) const {
        const Material m = Material::of(p);
        const Slice& s = *slots_[code(m)];
        return s.value[s.index.rank(p)];
    }
    bool loaded(const Material& m) const { return slots_[code(m)] != nullptr; }
    std::size_t bytes_in_memory() const {
        std::size_t n = 0;
        for (const auto& s : slots_)
            if (s) n += s->value.size() * sizeof(ValueCode);
        return n;
    }

    // Materials (White to move) reached by White's captures from m: fewer pieces.
    static std::vector<Material> capture_materials(const Material& m) {
        std::vector<Material> out;
        for (int promoted = 0; promoted <= (m.wm > 0 ? 1 : 0); ++promoted)
            for (int kt = 0; kt <= m.bk; ++kt)
                for (int mt = 0; mt <= m.bm; ++mt)
                    if (kt + mt > 0 && !(kt == m.bk && mt == m.bm))
                        out.push_back(Material{m.bk - kt, m.bm - mt, m.wk + promoted, m.wm - promoted});
        return out;
    }

private:
    void resolve_captures(Slice& s) const {
        using G = typename R::Geometry;
        parallel_for(s.index.size(), [&](std::uint64_t i) {
            const Position p = s.index.unrank(i);
            if (!has_capture<R>(p)) return;
            thread_local MoveList moves;
            generate_moves<R>(p, moves);
            const Position rp = reversed<G>(p);
            ValueCode best = kValueUnknown;
            for (const Move& m : moves) {
                const Position next = reversed_after<G>(rp, m);
                const ValueCode after = next.of(Color::white) == 0 ? loss_in(0) : value(next);
                best = better(best, value_one_ply_before(after));
            }
            s.value[i] = best;
        });
    }

    static int code(const Material& m) { return ((m.wk * 10 + m.wm) * 10 + m.bk) * 10 + m.bm; }

    Expected<std::vector<std::uint16_t>> read_values(const std::string& name, format::Metric metric) const {
        auto reader = format::TableReader::open(dir_ / format::file_name(name, metric), R::kId, rules_fingerprint<R>());
        if (!reader) return Error{reader.error()};
        return reader->read_all();
    }

    std::filesystem::path dir_;
    std::array<std::unique_ptr<Slice>, 10000> slots_{};
};

}  // namespace dtb::gen
