// Compression experiments behind the WriteOptions defaults (BENCHMARKS.md, "Table format"):
// `format_study [name...]` runs the named studies (all without a name) and prints markdown
// tables to stdout.
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "dtb/format/format.hpp"

namespace fs = std::filesystem;
using namespace dtb;
using namespace dtb::format;

namespace {

// A study stops at the first failure: its figures would be meaningless.
void require(bool ok, const char* what) {
    if (!ok) {
        std::fprintf(stderr, "format_study: %s failed\n", what);
        std::exit(1);
    }
}
#define REQUIRE(x) require(static_cast<bool>(x), #x)
#define REQUIRE_FALSE(x) require(!(x), "not " #x)

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

struct Square {
    int row, col;
};
Square square(int s) {  // the 50 dark squares of the 10x10 board, row 0 = White's promotion row
    const int r = s / 5;
    return {r, 2 * (s % 5) + (r % 2 == 0 ? 1 : 0)};
}
int chebyshev(Square a, Square b) {
    return std::max(std::abs(a.row - b.row), std::abs(a.col - b.col));
}

// A synthetic but structured 20.25M-entry slice: 4 sub-slices x white man (45 squares) x white
// king (50) x black king (50) x black man (45), the last piece varying fastest, as in an index
// over piece squares. Outcomes depend on geometry (a man close to promotion and not stopped, the
// defending king's distance), plus 1% "tactical" noise; impossible placements (two pieces on
// one square) are filled with the majority value, as a generator fills don't-care entries.
// wdl: 0 loss, 1 draw, 2 win. dtw: plies to the win/loss, 0 for draws.
void synthetic_slice(std::vector<std::uint16_t>& wdl, std::vector<std::uint16_t>& dtw) {
    const std::size_t n = 4ull * 45 * 50 * 50 * 45;
    wdl.assign(n, 1);
    dtw.assign(n, 0);
    std::size_t i = 0;
    for (int phase = 0; phase < 4; ++phase)
        for (int s0 = 5; s0 < 50; ++s0)
            for (int s1 = 0; s1 < 50; ++s1)
                for (int s2 = 0; s2 < 50; ++s2)
                    for (int s3 = 0; s3 < 45; ++s3, ++i) {
                        if (s0 == s1 || s0 == s2 || s0 == s3 || s1 == s2 || s1 == s3 || s2 == s3) continue;
                        const Square wm = square(s0), wk = square(s1), bk = square(s2), bm = square(s3);
                        const std::uint64_t h = mix(i);
                        int value = 1, plies = 0;
                        const bool runs_home =
                            wm.row <= 1 + phase / 3 && std::abs(bk.col - wm.col) > wm.row - bk.row + 3;
                        const bool black_runs = bm.row >= 8 && chebyshev(wk, bm) > 6 - phase;
                        if (runs_home) {
                            value = 2;
                            plies = 2 * wm.row + 1 + chebyshev(wk, bk) / 3 + static_cast<int>(h % 3);
                        } else if (black_runs) {
                            value = 0;
                            plies = 2 * (9 - bm.row) + 2 + chebyshev(wk, bk) / 2;
                        }
                        if (h % 100 == 0) {  // tactics the geometry does not predict
                            value = static_cast<int>((h >> 8) % 3);
                            plies = value == 1 ? 0 : 5 + static_cast<int>((h >> 16) % 60);
                        }
                        wdl[i] = static_cast<std::uint16_t>(value);
                        dtw[i] = static_cast<std::uint16_t>(plies);
                    }
}

TableInfo bench_info(Metric m) {
    TableInfo info;
    info.rules_fingerprint = rules_fingerprint<International>();
    info.wk = info.wm = info.bk = info.bm = 1;
    info.metric = m;
    return info;
}

struct Measurement {
    std::uint64_t bytes;
    double write_seconds, block_micros;
};

Measurement measure(const fs::path& p, Metric m, const std::vector<std::uint16_t>& values, std::uint32_t block,
                    int level, unsigned threads) {
    WriteOptions opt;
    opt.block_entries = block;
    opt.zstd_level = level;
    opt.threads = threads;
    auto w = write_table(p, bench_info(m), values, opt);
    REQUIRE(w.ok());
    auto r = TableReader::open(p, VariantId::international, rules_fingerprint<International>());
    REQUIRE(r.ok());
    std::vector<std::uint16_t> buf(block);
    std::mt19937_64 rng(1);
    const int reads = static_cast<int>(std::clamp<std::uint64_t>((64u << 20) / block, 64, 4096));
    const auto t = Clock::now();
    for (int k = 0; k < reads; ++k) REQUIRE(r->read_block_into(rng() % r->info().num_blocks, buf.data()).ok());
    return {w->bytes, w->seconds, since(t) / reads * 1e6};
}

void describe(const std::vector<std::uint16_t>& wdl, const std::vector<std::uint16_t>& dtw) {
    std::array<std::size_t, 3> counts{};
    for (auto v : wdl) ++counts[v];
    std::printf("synthetic slice: %zu entries, loss %.1f%% draw %.1f%% win %.1f%%, max dtw %u\n", wdl.size(),
                100.0 * counts[0] / wdl.size(), 100.0 * counts[1] / wdl.size(), 100.0 * counts[2] / wdl.size(),
                *std::max_element(dtw.begin(), dtw.end()));
}

fs::path bench_dir() {
    const fs::path dir = fs::temp_directory_path() / ("dtb_format_study_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir;
}

void study_1() {  // zstd levels at 16K and 64K entries per block
    std::vector<std::uint16_t> wdl, dtw;
    synthetic_slice(wdl, dtw);
    describe(wdl, dtw);
    const fs::path dir = bench_dir();
    std::printf(
        "\n| metric | entries/block | level | file bytes | bits/entry | write s (2 threads) | "
        "decode us/block |\n|---|---|---|---|---|---|---|\n");
    for (auto [m, values] : {std::pair{Metric::wdl, &wdl}, std::pair{Metric::dtw, &dtw}})
        for (std::uint32_t block : {1u << 14, 1u << 15, 1u << 16, 1u << 17})
            for (int level : {3, 5, 7, 9, 11, 13, 15, 17}) {
                const Measurement r = measure(dir / "t", m, *values, block, level, 2);
                std::printf("| %s | %uK | %d | %llu | %.3f | %.2f | %.1f |\n", std::string(metric_name(m)).c_str(),
                            block >> 10, level, static_cast<unsigned long long>(r.bytes),
                            8.0 * r.bytes / values->size(), r.write_seconds, r.block_micros);
                std::fflush(stdout);
            }
    fs::remove_all(dir);
}

void study_2() {  // block size x zstd level
    std::vector<std::uint16_t> wdl, dtw;
    synthetic_slice(wdl, dtw);
    describe(wdl, dtw);
    const fs::path dir = bench_dir();
    for (auto [m, values] : {std::pair{Metric::wdl, &wdl}, std::pair{Metric::dtw, &dtw}}) {
        std::printf(
            "\n%s, %zu entries: file bytes (bits/entry), write seconds (2 threads), "
            "decode microseconds per random block\n\n",
            std::string(metric_name(m)).c_str(), values->size());
        std::printf("| entries/block | level 1 | level 3 | level 9 | level 19 |\n|---|---|---|---|---|\n");
        for (std::uint32_t block : {1u << 12, 1u << 14, 1u << 16, 1u << 18, 1u << 20}) {
            std::printf("| %uK |", block >> 10);
            for (int level : {1, 3, 9, 19}) {
                const Measurement r = measure(dir / "t", m, *values, block, level, 2);
                std::printf(" %llu (%.3f), %.2fs, %.0fus |", static_cast<unsigned long long>(r.bytes),
                            8.0 * r.bytes / values->size(), r.write_seconds, r.block_micros);
                std::fflush(stdout);
            }
            std::printf("\n");
        }
    }
    fs::remove_all(dir);
}

void study_3() {  // WDL packing and long-distance matching
    std::vector<std::uint16_t> wdl, dtw;
    synthetic_slice(wdl, dtw);
    auto compressed_size = [](const std::vector<unsigned char>& raw, std::size_t block_bytes, int level, bool ldm) {
        ZSTD_CCtx* c = ZSTD_createCCtx();
        ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
        if (ldm) {
            ZSTD_CCtx_setParameter(c, ZSTD_c_enableLongDistanceMatching, 1);
            ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, 27);
        }
        std::vector<unsigned char> out(ZSTD_compressBound(block_bytes));
        std::size_t total = 0;
        for (std::size_t off = 0; off < raw.size(); off += block_bytes) {
            const std::size_t n = std::min(block_bytes, raw.size() - off);
            const std::size_t r = ZSTD_compress2(c, out.data(), out.size(), raw.data() + off, n);
            REQUIRE_FALSE(ZSTD_isError(r));
            total += r;
        }
        ZSTD_freeCCtx(c);
        return total;
    };
    std::vector<unsigned char> bytes(wdl.begin(), wdl.end()), packed((wdl.size() + 3) / 4);
    for (std::size_t i = 0; i < wdl.size(); ++i) packed[i / 4] |= static_cast<unsigned char>(wdl[i] << (2 * (i % 4)));
    std::printf("\nWDL, same entries per block: 2-bit packed vs one byte per entry (bytes)\n\n");
    std::printf(
        "| entries/block | level | 2-bit packed | 8-bit | 2-bit, long mode, window 2^27 "
        "|\n|---|---|---|---|---|\n");
    for (std::size_t block : {std::size_t{1} << 14, std::size_t{1} << 16, std::size_t{1} << 20}) {
        for (int level : {3, 9}) {
            std::printf("| %zuK | %d | %zu | %zu | %zu |\n", block >> 10, level,
                        compressed_size(packed, block / 4, level, false), compressed_size(bytes, block, level, false),
                        compressed_size(packed, block / 4, level, true));
            std::fflush(stdout);
        }
    }
}

void study_4() {  // decode latency per block
    std::vector<std::uint16_t> wdl, dtw;
    synthetic_slice(wdl, dtw);
    const fs::path dir = bench_dir();
    std::printf(
        "\nread_block_into, level 9, file in page cache: best of 7 rounds of random blocks, "
        "microseconds per block (per 1K entries)\n\n| entries/block | wdl | dtw "
        "|\n|---|---|---|\n");
    for (std::uint32_t block : {1u << 12, 1u << 14, 1u << 15, 1u << 16, 1u << 18}) {
        std::printf("| %uK |", block >> 10);
        for (auto [m, values] : {std::pair{Metric::wdl, &wdl}, std::pair{Metric::dtw, &dtw}}) {
            WriteOptions opt;
            opt.block_entries = block;
            opt.zstd_level = 9;
            REQUIRE(write_table(dir / "t", bench_info(m), *values, opt).ok());
            auto r = TableReader::open(dir / "t", VariantId::international, rules_fingerprint<International>());
            REQUIRE(r.ok());
            std::vector<std::uint16_t> buf(block);
            std::mt19937_64 rng(2);
            const int reads = static_cast<int>(std::clamp<std::uint64_t>((16u << 20) / block, 32, 2048));
            double best = 1e9;
            for (int round = 0; round < 7; ++round) {
                const auto t = Clock::now();
                for (int k = 0; k < reads; ++k)
                    REQUIRE(r->read_block_into(rng() % r->info().num_blocks, buf.data()).ok());
                best = std::min(best, since(t) / reads * 1e6);
            }
            std::printf(" %.1f (%.2f) |", best, best * 1024 / block);
            std::fflush(stdout);
        }
        std::printf("\n");
    }
    fs::remove_all(dir);
}

void study_5() {  // the defaults
    std::vector<std::uint16_t> wdl, dtw;
    synthetic_slice(wdl, dtw);
    const fs::path dir = bench_dir();
    std::printf(
        "\ndefaults (%u entries/block, level %d), best of 3 writes\n\n| metric | threads | file "
        "bytes | "
        "bits/entry | write wall s | write CPU s |\n|---|---|---|---|---|---|\n",
        WriteOptions{}.block_entries, WriteOptions{}.zstd_level);
    for (auto [m, values] : {std::pair{Metric::wdl, &wdl}, std::pair{Metric::dtw, &dtw}})
        for (unsigned threads : {1u, 2u}) {
            WriteOptions opt;
            opt.threads = threads;
            double wall = 1e9, cpu = 1e9;
            std::uint64_t bytes = 0;
            for (int round = 0; round < 3; ++round) {
                const std::clock_t c = std::clock();
                auto w = write_table(dir / "t", bench_info(m), *values, opt);
                REQUIRE(w.ok());
                cpu = std::min(cpu, double(std::clock() - c) / CLOCKS_PER_SEC);
                wall = std::min(wall, w->seconds);
                bytes = w->bytes;
            }
            std::printf("| %s | %u | %llu | %.3f | %.2f | %.2f |\n", std::string(metric_name(m)).c_str(), threads,
                        static_cast<unsigned long long>(bytes), 8.0 * bytes / values->size(), wall, cpu);
        }
    fs::remove_all(dir);
}

}  // namespace

int main(int argc, char** argv) {
    const std::vector<std::pair<std::string, std::function<void()>>> studies = {
        {"zstd levels at 16K and 64K entries per block", study_1},
        {"block size x zstd level", study_2},
        {"WDL packing and long-distance matching", study_3},
        {"decode latency per block", study_4},
        {"the defaults", study_5},
    };
    for (const auto& [name, run] : studies) {
        bool wanted = argc == 1;
        for (int i = 1; i < argc; ++i) wanted |= name.find(argv[i]) != std::string::npos;
        if (!wanted) continue;
        std::cout << "## " << name << "\n\n";
        run();
        std::cout << "\n";
    }
}
