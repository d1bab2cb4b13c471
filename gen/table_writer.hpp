// Writes a pair's tables into the output folder through probe's format module: the header of
// every file, the compression settings of each metric, capture positions as "don't care"
// (gen/dont_care.hpp), and which side of a pair stores its WDL and which derives it.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/gen/big_array.hpp"
#include "dtb/gen/dont_care.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/gen/side_reader.hpp"
#include "dtb/gen/slice_solver.hpp"
#include "dtb/gen/wdl_storage.hpp"
#include "dtb/probe/derived_wdl.hpp"
#include "dtb/probe/open_table.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/expected.hpp"

namespace dtb::gen {

// How the tables of a run are written.
struct TableWriteSettings {
    std::filesystem::path out_dir;
    int zstd_level = 0;  // 0: the format module's default (WDL: kWdlZstdLevel)
    WdlStorage wdl = WdlStorage::balanced;
    std::uint64_t wdl_balanced_min_bytes = kBalancedMinBytes;
    int threads = 0;  // of the parallel loops preparing the values (0: all cores)
};

template <class R>
class TableWriter {
  public:
    explicit TableWriter(TableWriteSettings settings) : s_(std::move(settings)) {}

    const std::filesystem::path& out_dir() const { return s_.out_dir; }

    // residual: data are rule thresholds stored as exceptions to the slice's DTW and DTC, written
    // before with the same block size (write_options).
    Expected<std::uint64_t> write_table(const Material& m, format::Metric metric, std::span<const std::uint16_t> data,
                                        bool residual = false) const {
        format::TableInfo info = format::table_info_of<R>(m, metric);
        info.residual = residual;
        auto r =
            format::write_table(s_.out_dir / format::file_name(m.name(), metric), info, data, write_options(metric));
        if (!r) return Error{"writing " + m.name() + ": " + r.error(), r.error_kind()};
        return r->bytes;
    }

    // A table whose entries are read part by part in index order: read(first, out) fills out
    // with entries [first, first + out.size()), none above max_value. A part is kPartEntries
    // entries (a whole number of blocks of every metric), the last one shorter.
    using PartReader = std::function<void(std::uint64_t first, std::span<std::uint16_t> out)>;
    static constexpr std::uint64_t kPartEntries = kTablePartEntries;
    Expected<format::PreparedTable> prepare_streamed(const Material& m, format::Metric metric, std::uint64_t entries,
                                                     std::uint16_t max_value, const PartReader& read,
                                                     MappingCache& cache, bool residual = false) const {
        static_assert(kPartEntries % kWdlBlockEntries == 0 && kPartEntries % format::WriteOptions{}.block_entries == 0);
        format::TableInfo info = format::table_info_of<R>(m, metric);
        info.residual = residual;
        auto builder = format::TableBuilder::start(info, entries, max_value, write_options(metric));
        if (!builder) return Error{"writing " + m.name() + ": " + builder.error(), builder.error_kind()};
        BigArray<std::uint16_t> part(cache);
        part.resize(std::min(entries, kPartEntries));
        for (std::uint64_t first = 0; first < entries; first += kPartEntries) {
            const std::span<std::uint16_t> out(part.data(), std::min(kPartEntries, entries - first));
            read(first, out);
            if (format::Status st = builder->add(out); !st)
                return Error{"writing " + m.name() + ": " + st.error(), st.error_kind()};
        }
        auto prepared = builder->finish();
        if (!prepared) return Error{"writing " + m.name() + ": " + prepared.error(), prepared.error_kind()};
        return std::move(*prepared);
    }
    // The same table written to its file.
    Expected<std::uint64_t> write_streamed(const Material& m, format::Metric metric, std::uint64_t entries,
                                           std::uint16_t max_value, const PartReader& read, MappingCache& cache,
                                           bool residual = false) const {
        auto prepared = prepare_streamed(m, metric, entries, max_value, read, cache, residual);
        if (!prepared) return Error{prepared.error(), prepared.error_kind()};
        auto w = format::write_prepared(s_.out_dir / format::file_name(m.name(), metric), *prepared);
        if (!w) return Error{"writing " + m.name() + ": " + w.error(), w.error_kind()};
        return w->bytes;
    }

    // The DTC and DTW files of one side; the solver's seed pass flagged its capture positions.
    Expected<std::uint64_t> write_distances(const Material& m, std::span<const ValueCode> value,
                                            std::span<const std::uint16_t> dtc, std::span<const std::uint8_t> captures,
                                            MappingCache& cache) const {
        BigArray<std::uint16_t> out(dtc.size(), cache);  // written in parallel below
        parallel_for(
            out.size(), [&](std::uint64_t i) { out[i] = dtc[i]; }, {}, s_.threads);
        auto w = write_dtc(m, out, captures);
        if (!w) return w;
        auto w2 = write_dtw(m, value, captures, out);
        if (!w2) return w2;
        return *w + *w2;
    }
    // The DTC file of one side from its DTC, which becomes the file's entries (capture positions
    // filled as don't care).
    Expected<std::uint64_t> write_dtc(const Material& m, BigArray<std::uint16_t>& dtc,
                                      std::span<const std::uint8_t> captures) const {
        fill_dont_care(dtc, captures, std::nullopt, s_.threads);
        return write_table(m, format::Metric::dtc, dtc);
    }
    // The DTW file of one side from its values; out (as many entries) takes the file's entries.
    Expected<std::uint64_t> write_dtw(const Material& m, std::span<const ValueCode> value,
                                      std::span<const std::uint8_t> captures, BigArray<std::uint16_t>& out) const {
        parallel_for(
            out.size(), [&](std::uint64_t i) { out[i] = static_cast<std::uint16_t>(distance_of(value[i])); }, {},
            s_.threads);
        fill_dont_care(out, captures, std::nullopt, s_.threads);
        return write_table(m, format::Metric::dtw, out);
    }

    // The WDL tables of the pair's sides, compressed first so that the side that would cost more
    // on disk can be the one derived (when allowed). Deterministic: the compressed sizes do not
    // depend on the number of threads.
    Expected<std::uint64_t> write_wdl(const SliceSolver<R>& solver) const {
        std::vector<SideWdl> sides;
        for (int s = 0; s < solver.num_sides(); ++s) {
            const auto& sd = solver.side(s);
            auto p = prepare_wdl(sd.index.material(), sd.value, sd.capture, sd.value.flat().get_allocator());
            if (!p) return Error{p.error(), p.error_kind()};
            sides.push_back({sd.index.material(), sd.value.size(), std::move(*p)});
        }
        return write_wdl(std::move(sides));
    }
    // One side's WDL, compressed, before the pair's choice of the side to derive.
    struct SideWdl {
        Material m;
        std::uint64_t entries;
        format::PreparedTable prepared;
    };
    Expected<format::PreparedTable> prepare_wdl(const Material& m, std::span<const ValueCode> value,
                                                std::span<const std::uint8_t> captures,
                                                HugePageAllocator<std::uint16_t> allocator) const {
        BigArray<std::uint16_t> wdl(value.size(), allocator);  // written in parallel below
        parallel_for(
            wdl.size(), [&](std::uint64_t i) { wdl[i] = static_cast<std::uint16_t>(wdl_of(value[i])); }, {},
            s_.threads);
        fill_dont_care(wdl, captures, static_cast<std::uint16_t>(Wdl::draw), s_.threads);
        auto p = format::prepare_table(format::table_info_of<R>(m, format::Metric::wdl), wdl,
                                       write_options(format::Metric::wdl));
        if (!p) return Error{"writing " + m.name() + ": " + p.error(), p.error_kind()};
        return std::move(*p);
    }

    // The WDL files of a pair's sides (one or two) prepared by prepare_wdl.
    Expected<std::uint64_t> write_wdl(std::vector<SideWdl> sides) const {
        int derived = -1;
        if (s_.wdl != WdlStorage::both_sides && sides.size() == 2)
            derived = side_to_derive(s_.wdl, {sides[0].prepared.file_bytes(), sides[1].prepared.file_bytes()},
                                     {wdl_derivable(sides[0].m), wdl_derivable(sides[1].m)}, s_.wdl_balanced_min_bytes);
        // The stored side first: however the run stops, at most one side of the pair is derived.
        std::uint64_t bytes = 0;
        std::vector<int> order;
        for (int s = 0; s < static_cast<int>(sides.size()); ++s)
            if (s != derived) order.push_back(s);
        if (derived >= 0) order.push_back(derived);
        for (int s : order) {
            const Material m = sides[static_cast<std::size_t>(s)].m;
            const auto path = s_.out_dir / format::file_name(m.name(), format::Metric::wdl);
            auto w = s == derived ? format::write_derived_table(path, format::table_info_of<R>(m, format::Metric::wdl),
                                                                sides[static_cast<std::size_t>(s)].entries,
                                                                write_options(format::Metric::wdl))
                                  : format::write_prepared(path, sides[static_cast<std::size_t>(s)].prepared);
            if (!w) return Error{"writing " + m.name() + ": " + w.error(), w.error_kind()};
            bytes += w->bytes;
        }
        return bytes;
    }

  private:
    // How WDL tables are written (the distance and rule tables keep format::WriteOptions' defaults).
    static constexpr std::uint32_t kWdlBlockEntries = 1u << 18;
    static constexpr int kWdlZstdLevel = 15;

    format::WriteOptions write_options(format::Metric metric) const {
        format::WriteOptions wo;
        if (metric == format::Metric::wdl) {
            // WDL is what engines load and what must stay small: larger blocks at a higher level
            // make it about a fifth smaller, for a slower decode of a block on a probe's cache miss
            // (BENCHMARKS.md, "Generator").
            wo.block_entries = kWdlBlockEntries;
            wo.zstd_level = kWdlZstdLevel;
        }
        if (s_.zstd_level) wo.zstd_level = s_.zstd_level;
        return wo;
    }

    // Whether m's WDL may be derived: every slice its quiet moves reach stores its WDL, and no
    // derived table on disk rests on m's. The mirror is the other side of the same pair (stored,
    // since at most one side is derived); a promotion slice was finished before m, so its WDL
    // file tells; the slice that promotes into m comes later, but a resumed or repaired folder
    // may hold it already.
    bool wdl_derivable(const Material& m) const {
        if (!may_derive_wdl(m)) return false;
        const auto wdl_info = [&](const Material& x) {
            return format::read_table_info(s_.out_dir / format::file_name(x.name(), format::Metric::wdl));
        };
        for (const Material& x : quiet_successor_materials(m)) {
            if (x == m.mirrored()) continue;
            auto info = wdl_info(x);
            if (!info || info->derived()) return false;
        }
        for (const Material& y : quiet_predecessor_materials(m)) {
            if (y == m.mirrored()) continue;
            if (auto info = wdl_info(y); info && info->derived()) return false;
        }
        return true;
    }

    TableWriteSettings s_;
};

}  // namespace dtb::gen
