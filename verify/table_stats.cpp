// The statistics of a folder (table_stats.hpp), compiled once for each variant.
#include "dtb/verify/table_stats.hpp"

#include <omp.h>

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include "dtb/format/format.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/open_table.hpp"
#include "dtb/probe/value.hpp"
#include "dtb/rules/fen.hpp"
#include "dtb/rules/movegen.hpp"
#include "dtb/verify/verify_slice.hpp"

namespace dtb::verify {

namespace {

// Per-thread sums of one pass; padded so that threads do not share a cache line.
struct alignas(64) Sums {
    std::array<std::array<std::uint64_t, 3>, 2> count{}, quiet{};  // [view][wdl]; view 1 = reversed
    Longest dtw_win, dtw_loss, dtc_win, dtc_loss;
};

// Checks the three files of m without decoding them (header against the name, index scheme,
// size, checksums) and returns their bytes on disk.
template <class R>
Expected<std::uint64_t> check_files(const std::filesystem::path& dir, const Material& m) {
    std::uint64_t bytes = 0;
    const std::uint64_t size = SliceIndex<R>(m).size();
    for (auto metric : {format::Metric::wdl, format::Metric::dtw, format::Metric::dtc}) {
        const auto path = dir / format::file_name(m.name(), metric);
        auto reader = format::open_table_of<R>(path, m, metric, size);
        if (!reader) return Error{reader.error()};
        if (auto st = reader->verify_checksums(); !st.ok()) return Error{path.string() + ": " + st.error()};
        bytes += reader->file_bytes();
    }
    return bytes;
}

// One pass over the (resolved) table of T: slot 0 gets (T, White), slot 1 (mirror(T), Black).
template <class R>
std::array<SliceStats, 2> scan(const typename verify::FullTables<R>::Slice& t, std::uint64_t bytes, int threads) {
    using G = typename R::Geometry;
    const SliceIndex<R>& index = t.index;
    std::vector<Sums> sums(static_cast<std::size_t>(gen::team_size(threads)));
    gen::parallel_for(
        index.size(),
        [&](std::uint64_t i) {
            Sums& s = sums[static_cast<std::size_t>(omp_get_thread_num())];
            const Position p = index.unrank(i);
            const int w = t.wdl[i];
            const bool capture[2] = {has_capture<R>(p), has_capture<R>(reversed<G>(p))};
            // An entry of a mirror-symmetric index stands for a position and its mirror (two
            // positions of equal value), unless the position is symmetric (SliceIndex::is_symmetric).
            const std::uint64_t positions = SliceIndex<R>::kMirror && !SliceIndex<R>::is_symmetric(p) ? 2 : 1;
            for (int view = 0; view < 2; ++view) {
                s.count[view][w] += positions;
                if (!capture[view]) s.quiet[view][w] += positions;
            }
            if (w == static_cast<int>(Wdl::win)) {
                s.dtw_win.offer(t.dtw[i], i);
                s.dtc_win.offer(t.dtc[i], i);
            } else if (w == static_cast<int>(Wdl::loss)) {
                s.dtw_loss.offer(t.dtw[i], i);
                s.dtc_loss.offer(t.dtc[i], i);
            }
        },
        {}, threads);
    Sums total;
    for (const Sums& s : sums) {
        for (int view = 0; view < 2; ++view)
            for (int w = 0; w < 3; ++w) {
                total.count[view][w] += s.count[view][w];
                total.quiet[view][w] += s.quiet[view][w];
            }
        total.dtw_win.merge(s.dtw_win);
        total.dtw_loss.merge(s.dtw_loss);
        total.dtc_win.merge(s.dtc_win);
        total.dtc_loss.merge(s.dtc_loss);
    }
    std::array<SliceStats, 2> out;
    for (int view = 0; view < 2; ++view) {
        SliceStats& x = out[view];
        x.material = view == 0 ? index.material() : index.material().mirrored();
        x.side_to_move = view == 0 ? Color::white : Color::black;
        x.positions = total.count[view][0] + total.count[view][1] + total.count[view][2];
        x.count = total.count[view];
        x.quiet = total.quiet[view];
        x.bytes = bytes;
        for (auto [to, from] : {std::pair{&x.dtw_win, &total.dtw_win}, std::pair{&x.dtw_loss, &total.dtw_loss},
                                std::pair{&x.dtc_win, &total.dtc_win}, std::pair{&x.dtc_loss, &total.dtc_loss}}) {
            *to = *from;
            if (to->plies < 0) continue;
            const Position p = index.unrank(to->index);
            to->fen = to_fen<R>(view == 0 ? p : reversed<G>(p));
        }
    }
    return out;
}

}  // namespace

template <class R>
Expected<std::vector<SliceStats>> table_stats(const std::filesystem::path& dir, int threads) {
    namespace fs = std::filesystem;
    if (!fs::is_directory(dir)) return Error{"no table folder " + dir.string()};
    auto any_file = [&](const Material& m) {
        for (auto metric : {format::Metric::wdl, format::Metric::dtw, format::Metric::dtc})
            if (fs::exists(dir / format::file_name(m.name(), metric))) return true;
        return false;
    };
    std::vector<Material> slices;
    for (const Material& m : all_materials<R>(kStatsMaxPieces))
        if (any_file(m) || any_file(m.mirrored())) slices.push_back(m);
    if (slices.empty()) return Error{"no tables of " + std::string(R::kName) + " in " + dir.string()};
    std::map<Material, std::uint64_t> bytes;
    for (const Material& m : slices) {
        auto b = check_files<R>(dir, m);
        if (!b) return Error{"slice " + m.name() + ": " + b.error()};
        bytes[m] = *b;
    }
    // Slices come with fewer pieces first, so the smaller slices that resolve the capture
    // positions of a slice are checked before it.
    verify::FullTables<R> tables(dir, threads);
    std::map<std::pair<Material, int>, SliceStats> found;  // (slice, side to move) -> stats
    for (const Material& m : slices) {
        auto t = tables.load(m);
        if (!t) return Error{"slice " + m.name() + ": " + t.error()};
        for (SliceStats& s : scan<R>(**t, bytes.at(m), threads))
            found[{s.material, static_cast<int>(s.side_to_move)}] = std::move(s);
    }
    std::vector<SliceStats> out;
    for (const Material& m : slices)
        for (Color c : {Color::white, Color::black}) out.push_back(std::move(found.at({m, static_cast<int>(c)})));
    return out;
}

template Expected<std::vector<SliceStats>> table_stats<International>(const std::filesystem::path&, int);
template Expected<std::vector<SliceStats>> table_stats<Turkish>(const std::filesystem::path&, int);

}  // namespace dtb::verify
