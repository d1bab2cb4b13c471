// Shared by the probe API tests that need no generator: synthetic tables with the right sizes and
// headers but made-up values (a hash of the index), written through the format module into a
// temporary folder that is removed again. Values are consistent per position, not with the game:
// good for testing the machinery (lookup, reversal, cache, errors, threads), not game values.
#pragma once
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "dtb/format/format.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/probe/open_table.hpp"
#include "dtb/probe/probe.hpp"
#include "tests/support/file_compare_support.hpp"
#include "tests/support/temp_dir.hpp"

namespace dtb::test {

namespace fs = std::filesystem;

// A fresh folder "dtb_probe_api_<name>_<pid>", removed with the object (tests/support/temp_dir.hpp).
struct ScratchDir : TempDir {
    explicit ScratchDir(const std::string& name) : TempDir("probe_api_" + name) {}
};

inline std::uint64_t synthetic_hash(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

// The synthetic values of entry i of slice m: WDL 0..2, DTW/DTC 1..60 (0 for draws).
struct SyntheticValue {
    int wdl, dtw, dtc;
};
inline SyntheticValue synthetic_value(const Material& m, std::uint64_t i) {
    const std::uint64_t h =
        synthetic_hash(i * 131 + static_cast<std::uint64_t>(m.wk * 1000 + m.wm * 100 + m.bk * 10 + m.bm));
    const int wdl = static_cast<int>(h % 3);
    if (wdl == 1) return {1, 0, 0};
    return {wdl, 1 + static_cast<int>((h >> 8) % 60), 1 + static_cast<int>((h >> 16) % 30)};
}

// Writes the three tables of every slice of R up to `pieces` into dir, in small blocks.
template <class R>
void write_synthetic_tables(const fs::path& dir, int pieces, std::uint32_t block_entries = 1024) {
    fs::create_directories(dir);
    for (const Material& m : all_materials<R>(pieces)) {
        const SliceIndex<R> index(m);
        std::vector<std::uint16_t> v[3];
        for (auto& x : v) x.resize(index.size());
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const SyntheticValue s = synthetic_value(m, i);
            v[0][i] = static_cast<std::uint16_t>(s.wdl);
            v[1][i] = static_cast<std::uint16_t>(s.dtw);
            v[2][i] = static_cast<std::uint16_t>(s.dtc);
        }
        for (int metric = 0; metric < 3; ++metric) {
            const format::TableInfo info = format::table_info_of<R>(m, static_cast<format::Metric>(metric));
            format::WriteOptions o;
            o.block_entries = block_entries;
            o.zstd_level = 1;
            o.threads = 1;
            auto r = format::write_table(dir / format::file_name(m.name(), info.metric), info, v[metric], o);
            if (!r) throw std::runtime_error(r.error());
        }
    }
}

inline void spit(const fs::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

inline probe::Options options_for(const fs::path& dir, VariantId v, std::size_t cache_bytes = 8u << 20,
                                  unsigned metrics = probe::kAllMetrics) {
    probe::Options o;
    o.directories = {dir};
    o.variant = v;
    o.cache_bytes = cache_bytes;
    o.metrics = metrics;
    return o;
}

}  // namespace dtb::test
