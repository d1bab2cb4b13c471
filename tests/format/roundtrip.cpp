// The table format: what is written is read back, by value and by block, from many threads.
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <thread>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "dtb/format/format.hpp"
#include "tests/support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace dtb;
using namespace dtb::format;
using dtb::test::TempDir;

namespace {

constexpr std::uint16_t win_code(int dtc) {
    return static_cast<std::uint16_t>(2 * dtc - 1);
}
constexpr std::uint16_t loss_code(int dtc) {
    return static_cast<std::uint16_t>(2 * dtc + 2);
}

// A fresh directory per test, removed afterwards.
// Values below `limit` in runs of random length, like a table ordered by piece squares.
std::vector<std::uint16_t> runs(std::size_t n, std::uint32_t limit, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint16_t> v(n);
    std::size_t i = 0;
    while (i < n) {
        const auto value = static_cast<std::uint16_t>(rng() % limit);
        const std::size_t len = 1 + rng() % 40;
        for (std::size_t k = 0; k < len && i < n; ++k) v[i++] = value;
    }
    if (n > 0) v[n / 2] = static_cast<std::uint16_t>(limit - 1);  // max_value is exactly limit-1
    return v;
}

TableInfo sample_info(Metric metric = Metric::dtw) {
    TableInfo info;
    info.variant = VariantId::turkish;
    info.rules_fingerprint = rules_fingerprint<Turkish>();
    info.wk = 2;
    info.wm = 1;
    info.bk = 1;
    info.bm = 0;
    info.metric = metric;
    info.index_scheme = 7;
    return info;
}

Expected<TableReader> open_turkish(const fs::path& p) {
    return TableReader::open(p, VariantId::turkish, rules_fingerprint<Turkish>());
}

// Rewrites header byte `at` and the header hash (so that only the field checks can refuse), as a
// forger, or an older writer, would.
void forge(const fs::path& p, std::size_t at, unsigned char value) {
    std::string bytes;
    {
        std::ifstream in(p, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    bytes[at] = static_cast<char>(value);
    const std::uint64_t h = XXH64(bytes.data(), 64, 0);
    for (int k = 0; k < 8; ++k) bytes[64 + k] = static_cast<char>(h >> (8 * k));
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

TEST_CASE("format: round trip for every width, block size and awkward length", "[probe][format]") {
    TempDir dir("roundtrip");
    const std::pair<std::uint32_t, int> widths[] = {{1, 2},  {4, 2},   {5, 4},    {16, 4},
                                                    {17, 8}, {256, 8}, {257, 16}, {65536, 16}};
    for (auto [limit, bits] : widths) {
        for (std::size_t n :
             {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{1000}, std::size_t{4097}}) {
            for (std::uint32_t block : {64u, 192u, 1024u}) {
                CAPTURE(limit, bits, n, block);
                const auto values = runs(n, limit, limit * 31 + n);
                const fs::path p = dir.path / "t.dtw";
                WriteOptions opt;
                opt.block_entries = block;
                opt.zstd_level = 3;
                auto written = write_table(p, sample_info(), values, opt);
                REQUIRE(written.ok());
                CHECK(written->bytes == fs::file_size(p));
                CHECK_FALSE(fs::exists(dir.path / "t.dtw.tmp"));

                auto reader = open_turkish(p);
                REQUIRE(reader.ok());
                const TableInfo& info = reader->info();
                CHECK(info.num_entries == n);
                CHECK(info.bits_per_entry == (n == 0 ? 2 : bits));
                CHECK(info.block_entries == block);
                CHECK(info.num_blocks == (n + block - 1) / block);
                CHECK(info.max_value == (n == 0 ? 0 : limit - 1));
                CHECK(info.variant == VariantId::turkish);
                CHECK(info.metric == Metric::dtw);
                CHECK(info.index_scheme == 7);
                CHECK((info.wk == 2 && info.wm == 1 && info.bk == 1 && info.bm == 0));
                CHECK(reader->file_bytes() == written->bytes);
                auto all = reader->read_all();
                REQUIRE(all.ok());
                CHECK(*all == values);
                CHECK(reader->verify_checksums().ok());
            }
        }
    }
}

TEST_CASE("format: get() and read_block agree with the input", "[probe][format]") {
    TempDir dir("get");
    const auto values = runs(100'003, 300, 42);
    const fs::path p = dir.path / "KKMvK.dtw";
    WriteOptions opt;
    opt.block_entries = 4096;
    REQUIRE(write_table(p, sample_info(), values, opt).ok());
    auto reader = open_turkish(p);
    REQUIRE(reader.ok());
    std::mt19937_64 rng(1);
    for (int k = 0; k < 2000; ++k) {
        const std::uint64_t i = rng() % values.size();
        auto v = reader->get(i);
        REQUIRE(v.ok());
        REQUIRE(*v == values[i]);
    }
    CHECK(reader->get(values.size() - 1).ok());
    CHECK_FALSE(reader->get(values.size()).ok());
    CHECK_FALSE(reader->read_block(reader->info().num_blocks).ok());
    auto last = reader->read_block(reader->info().num_blocks - 1);
    REQUIRE(last.ok());
    CHECK(last->size() == values.size() % 4096);
    std::vector<std::uint16_t> buf(4096);
    REQUIRE(reader->read_block_into(3, buf.data()).ok());
    CHECK(std::equal(buf.begin(), buf.end(), values.begin() + 3 * 4096));
}

TEST_CASE("format: the file does not depend on the number of threads", "[probe][format]") {
    TempDir dir("threads");
    const auto values = runs(50'000, 3, 9);
    WriteOptions one, many;
    one.block_entries = many.block_entries = 1024;
    one.threads = 1;
    many.threads = 4;
    REQUIRE(write_table(dir.path / "a", sample_info(Metric::wdl), values, one).ok());
    REQUIRE(write_table(dir.path / "b", sample_info(Metric::wdl), values, many).ok());
    auto slurp = [](const fs::path& p) {
        std::ifstream in(p, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    CHECK(slurp(dir.path / "a") == slurp(dir.path / "b"));
}

TEST_CASE("format: write errors are reported, never half a file", "[probe][format]") {
    TempDir dir("errors");
    const auto values = runs(1000, 10, 3);
    SECTION("missing directory") {
        auto r = write_table(dir.path / "no" / "such" / "dir" / "x.wdl", sample_info(), values);
        CHECK_FALSE(r.ok());
        CHECK_FALSE(r.error().empty());
    }
    SECTION("invalid options") {
        WriteOptions opt;
        opt.block_entries = 100;  // not a multiple of 64
        CHECK_FALSE(write_table(dir.path / "x", sample_info(), values, opt).ok());
        opt.block_entries = 1024;
        opt.zstd_level = 0;
        CHECK_FALSE(write_table(dir.path / "x", sample_info(), values, opt).ok());
        TableInfo bad = sample_info();
        bad.wk = 300;
        CHECK_FALSE(write_table(dir.path / "x", bad, values).ok());
        CHECK(fs::is_empty(dir.path));
    }
    SECTION("a failing write (file size limit) keeps the old file and removes the .tmp") {
        const fs::path p = dir.path / "KvK.dtw";
        REQUIRE(write_table(p, sample_info(), values).ok());
        std::vector<std::uint16_t> noise(50'000);
        std::mt19937 rng(5);
        for (auto& v : noise) v = static_cast<std::uint16_t>(rng());
        rlimit old_limit{};
        REQUIRE(::getrlimit(RLIMIT_FSIZE, &old_limit) == 0);
        auto old_handler = ::signal(SIGXFSZ, SIG_IGN);  // write() then fails with EFBIG
        rlimit small = old_limit;
        small.rlim_cur = 8192;
        REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
        auto r = write_table(p, sample_info(), noise);
        ::setrlimit(RLIMIT_FSIZE, &old_limit);
        ::signal(SIGXFSZ, old_handler);
        CHECK_FALSE(r.ok());
        CHECK_FALSE(fs::exists(dir.path / "KvK.dtw.tmp"));
        auto reader = open_turkish(p);
        REQUIRE(reader.ok());
        auto all = reader->read_all();
        REQUIRE(all.ok());
        CHECK(*all == values);
    }
    SECTION("read_all_into fills exactly the table's entries, or refuses") {
        const fs::path p = dir.path / "KvK.dtw";
        REQUIRE(write_table(p, sample_info(), values).ok());
        auto reader = open_turkish(p);
        REQUIRE(reader.ok());
        std::vector<std::uint16_t> into(values.size(), 0xABCD);
        REQUIRE(reader->read_all_into(into, 2).ok());
        CHECK(into == values);
        std::vector<std::uint16_t> short_by_one(values.size() - 1);
        const auto refused = reader->read_all_into(short_by_one);
        CHECK_FALSE(refused.ok());
        CHECK(refused.error().find("room for " + std::to_string(values.size() - 1) + " values") != std::string::npos);
    }
    SECTION("overwriting a complete file replaces it") {
        const fs::path p = dir.path / "KvK.dtw";
        REQUIRE(write_table(p, sample_info(), values).ok());
        const auto other = runs(777, 1000, 4);
        REQUIRE(write_table(p, sample_info(), other).ok());
        auto all = open_turkish(p)->read_all();
        REQUIRE(all.ok());
        CHECK(*all == other);
        CHECK_FALSE(fs::exists(dir.path / "KvK.dtw.tmp"));
    }
}

TEST_CASE("format: four threads reading one reader agree with the input", "[probe][format]") {
    TempDir dir("concurrent");
    const auto values = runs(200 * 1024 - 17, 1000, 77);
    const fs::path p = dir.path / "t";
    WriteOptions opt;
    opt.block_entries = 1024;
    opt.zstd_level = 3;
    REQUIRE(write_table(p, sample_info(), values, opt).ok());
    auto opened = open_turkish(p);
    REQUIRE(opened.ok());
    const TableReader reader = std::move(opened.value());
    std::atomic<int> failures{0}, mismatches{0}, reads{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&, t] {
            std::mt19937_64 rng(t);
            std::vector<std::uint16_t> buf(1024);
            for (int k = 0; k < 400; ++k) {
                const std::uint64_t b = rng() % reader.info().num_blocks;
                if (k % 2 == 0) {
                    auto block = reader.read_block(b);
                    if (!block.ok())
                        ++failures;
                    else if (!std::equal(block->begin(), block->end(), values.begin() + b * 1024))
                        ++mismatches;
                } else {
                    if (!reader.read_block_into(b, buf.data()).ok())
                        ++failures;
                    else if (!std::equal(buf.begin(), buf.begin() + reader.entries_in_block(b),
                                         values.begin() + b * 1024))
                        ++mismatches;
                }
                if (k % 100 == 0 && !reader.verify_checksums().ok()) ++failures;
                ++reads;
            }
        });
    }
    for (auto& t : threads) t.join();
    CHECK(reads == 1600);
    CHECK(failures == 0);
    CHECK(mismatches == 0);
}

TEST_CASE("format: read_all gives the same values on 1 to 8 threads", "[probe][format][plain-build]") {
    TempDir dir("read-all-threads");
    // 37 blocks of 1024 and a short one: more blocks than threads, and fewer (a 1-block table).
    const auto values = runs(37 * 1024 + 5, 300, 11);
    WriteOptions opt;
    opt.block_entries = 1024;
    opt.zstd_level = 3;
    const fs::path p = dir.path / "t";
    REQUIRE(write_table(p, sample_info(), values, opt).ok());
    const std::vector<std::uint16_t> small(values.begin(), values.begin() + 700);
    const fs::path q = dir.path / "small";
    REQUIRE(write_table(q, sample_info(), small, opt).ok());
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
        INFO(threads);
        auto all = open_turkish(p)->read_all(threads);
        REQUIRE(all.ok());
        CHECK(*all == values);
        auto one = open_turkish(q)->read_all(threads);
        REQUIRE(one.ok());
        CHECK(*one == small);
    }
}

TEST_CASE("format: readers move, names and header peeking", "[probe][format]") {
    TempDir dir("misc");
    CHECK(file_name("KKMvK", Metric::wdl) == "KKMvK.wdl");
    CHECK(file_name("KKMvK", Metric::dtw) == "KKMvK.dtw");
    CHECK(file_name("KKMvK", Metric::dtc) == "KKMvK.dtc");
    const auto values = runs(5000, 4, 8);
    const fs::path p = dir.path / file_name("KMvK", Metric::wdl);
    auto written = write_table(p, sample_info(Metric::wdl), values);
    REQUIRE(written.ok());
    CHECK(written->info.bits_per_entry == 2);
    CHECK(written->seconds >= 0);

    auto peek = read_table_info(p);
    REQUIRE(peek.ok());
    CHECK(peek->metric == Metric::wdl);
    CHECK(peek->num_entries == 5000);
    CHECK_FALSE(read_table_info(dir.path / "nothing").ok());

    auto a = open_turkish(p);
    REQUIRE(a.ok());
    TableReader b = std::move(a.value());
    CHECK_FALSE(a->read_block(0).ok());  // moved-from: an error, not a crash
    TableReader c = std::move(b);
    b = std::move(c);
    auto all = b.read_all();
    REQUIRE(all.ok());
    CHECK(*all == values);
}

TEST_CASE("format: a prepared table is written exactly as write_table writes it", "[probe][format]") {
    TempDir dir("prepared");
    const auto values = runs(300000, 3, 11);
    WriteOptions wo;
    wo.block_entries = 1u << 16;
    auto prepared = prepare_table(sample_info(Metric::wdl), values, wo);
    REQUIRE(prepared.ok());
    CHECK(prepared->info.num_blocks == 5);
    const fs::path a = dir.path / "a.wdl", b = dir.path / "b.wdl";
    auto wa = write_prepared(a, *prepared);
    auto wb = write_table(b, sample_info(Metric::wdl), values, wo);
    REQUIRE(wa.ok());
    REQUIRE(wb.ok());
    CHECK(wa->bytes == prepared->file_bytes());
    CHECK(fs::file_size(a) == prepared->file_bytes());
    std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
    CHECK(std::string(std::istreambuf_iterator<char>(fa), {}) == std::string(std::istreambuf_iterator<char>(fb), {}));
    auto back = open_turkish(a);
    REQUIRE(back.ok());
    CHECK(*back->read_all() == values);
    // A prepared table whose blocks do not match its header is not written.
    PreparedTable broken = *prepared;
    broken.blocks.pop_back();
    CHECK_FALSE(write_prepared(dir.path / "c.wdl", broken).ok());
    CHECK_FALSE(fs::exists(dir.path / "c.wdl"));
}

TEST_CASE("format: a table built part by part is prepare_table's, byte for byte", "[probe][format]") {
    TempDir dir("builder");
    WriteOptions wo;
    wo.block_entries = 1u << 12;
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{4096}, std::size_t{70001}}) {
        const auto values = runs(n, n ? 700 : 1, 29 + n);
        const std::uint16_t max = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
        auto whole = prepare_table(sample_info(), values, wo);
        REQUIRE(whole.ok());
        // Parts of 0, 1, 3 and 17 blocks, the rest in one.
        auto builder = TableBuilder::start(sample_info(), n, max, wo);
        REQUIRE(builder.ok());
        std::size_t at = 0;
        for (std::size_t blocks : {0, 1, 3, 17}) {
            const std::size_t len = std::min(n - at, blocks * wo.block_entries);
            REQUIRE(builder->add(std::span<const std::uint16_t>(values.data() + at, len)).ok());
            at += len;
        }
        REQUIRE(builder->add(std::span<const std::uint16_t>(values.data() + at, n - at)).ok());
        auto built = builder->finish();
        REQUIRE(built.ok());
        const fs::path a = dir.path / "a.dtw", b = dir.path / "b.dtw";
        REQUIRE(write_prepared(a, *whole).ok());
        REQUIRE(write_prepared(b, *built).ok());
        std::ifstream fa(a, std::ios::binary), fb(b, std::ios::binary);
        CHECK(std::string(std::istreambuf_iterator<char>(fa), {}) ==
              std::string(std::istreambuf_iterator<char>(fb), {}));
    }
}

TEST_CASE("format: a table built part by part refuses what would make it wrong", "[probe][format]") {
    WriteOptions wo;
    wo.block_entries = 1u << 12;
    const auto values = runs(10000, 300, 5);
    const auto max = *std::max_element(values.begin(), values.end());
    const auto part = [&](std::size_t from, std::size_t len) {
        return std::span<const std::uint16_t>(values.data() + from, len);
    };
    SECTION("an entry above the largest announced") {
        auto b = TableBuilder::start(sample_info(), values.size(), static_cast<std::uint16_t>(max - 1), wo);
        REQUIRE(b.ok());
        CHECK_FALSE(b->add(part(0, values.size())).ok());
    }
    SECTION("a part after one that did not end a block") {
        auto b = TableBuilder::start(sample_info(), values.size(), max, wo);
        REQUIRE(b.ok());
        REQUIRE(b->add(part(0, 100)).ok());
        CHECK_FALSE(b->add(part(100, 100)).ok());
    }
    SECTION("more entries than announced, or fewer") {
        auto b = TableBuilder::start(sample_info(), 5000, max, wo);
        REQUIRE(b.ok());
        CHECK_FALSE(b->add(part(0, 8192)).ok());
        REQUIRE(b->add(part(0, 4096)).ok());
        CHECK_FALSE(b->finish().ok());
    }
    SECTION("options the format cannot hold") {
        WriteOptions bad = wo;
        bad.block_entries = 100;
        CHECK_FALSE(TableBuilder::start(sample_info(), values.size(), max, bad).ok());
    }
}

TEST_CASE("format: a derived WDL table stores no values and says so", "[probe][format]") {
    TempDir dir("derived");
    const fs::path p = dir.path / "KKMvK.wdl";
    auto written = write_derived_table(p, sample_info(Metric::wdl), 123457);
    REQUIRE(written.ok());
    CHECK(written->bytes == 88);  // header, no block table, trailer
    CHECK(fs::file_size(p) == 88);
    CHECK(written->info.derived());

    auto peek = read_table_info(p);
    REQUIRE(peek.ok());
    CHECK(peek->derived());
    CHECK(peek->num_entries == 123457);
    CHECK(peek->num_blocks == 0);
    CHECK(peek->max_value == 0);

    auto reader = open_turkish(p);
    REQUIRE(reader.ok());
    CHECK(reader->info().derived());
    CHECK(reader->verify_checksums().ok());
    // No reader may take the absent values for zeros.
    CHECK_FALSE(reader->read_all().ok());
    CHECK_FALSE(reader->get(0).ok());
    CHECK_FALSE(reader->read_block(0).ok());
    std::vector<std::uint16_t> out(1u << 15);
    CHECK_FALSE(reader->read_block_into(0, out.data()).ok());

    // Only WDL can be derived; a stored table never reads as derived.
    CHECK_FALSE(write_derived_table(dir.path / "KKMvK.dtw", sample_info(Metric::dtw), 10).ok());
    CHECK_FALSE(fs::exists(dir.path / "KKMvK.dtw"));
    auto stored = write_table(dir.path / "KMvK.wdl", sample_info(Metric::wdl), runs(1000, 3, 2));
    REQUIRE(stored.ok());
    CHECK_FALSE(stored->info.derived());
}

TEST_CASE("format: forged derived headers are refused", "[probe][format]") {
    TempDir dir("forged");
    const fs::path derived = dir.path / "a.wdl";
    REQUIRE(write_derived_table(derived, sample_info(Metric::wdl), 5000).ok());
    REQUIRE(open_turkish(derived).ok());
    forge(derived, 14, static_cast<unsigned char>(Metric::dtw));  // a derived DTW table
    CHECK_FALSE(open_turkish(derived).ok());
    CHECK_FALSE(read_table_info(derived).ok());

    // A stored WDL table whose width is forged to 0, or whose encoding says derived, still has
    // blocks: refused.
    const fs::path stored = dir.path / "b.wdl";
    REQUIRE(write_table(stored, sample_info(Metric::wdl), runs(5000, 3, 5)).ok());
    forge(stored, 54, 0);
    CHECK_FALSE(open_turkish(stored).ok());
    REQUIRE(write_table(stored, sample_info(Metric::wdl), runs(5000, 3, 5)).ok());
    forge(stored, 15, static_cast<unsigned char>(Encoding::derived));
    CHECK_FALSE(open_turkish(stored).ok());

    // A derived table claiming a max value: refused.
    const fs::path maxed = dir.path / "c.wdl";
    REQUIRE(write_derived_table(maxed, sample_info(Metric::wdl), 5000).ok());
    forge(maxed, 52, 2);
    CHECK_FALSE(open_turkish(maxed).ok());
}

TEST_CASE("format: the header names the metric in byte 14 and the encoding in byte 15", "[probe][format]") {
    TempDir dir("metric-encoding-bytes");
    const auto header_byte = [](const fs::path& p, std::size_t at) {
        std::ifstream in(p, std::ios::binary);
        in.seekg(static_cast<std::streamoff>(at));
        return static_cast<unsigned>(in.get());
    };
    const std::vector<std::uint16_t> values = runs(5000, 90, 11);
    const std::pair<Metric, unsigned> cases[] = {{Metric::wdl, 0},  {Metric::dtw, 1},  {Metric::dtc, 2},
                                                 {Metric::fmjd, 3}, {Metric::ffjd, 4}, {Metric::ffjd16, 5}};
    for (const auto& [metric, byte] : cases) {
        INFO(metric_name(metric));
        CHECK(metric_of_byte(static_cast<std::uint8_t>(byte)) == metric);
        const fs::path p = dir.path / file_name("KKMvK", metric);
        REQUIRE(write_table(p, sample_info(metric), metric == Metric::wdl ? runs(5000, 3, 11) : values).ok());
        CHECK(header_byte(p, 14) == byte);
        CHECK(header_byte(p, 15) == static_cast<unsigned>(Encoding::values));
        auto r = open_turkish(p);
        REQUIRE(r.ok());
        CHECK(r->info().metric == metric);
        CHECK_FALSE(r->info().residual);
    }
    const fs::path derived = dir.path / "KMvK.wdl";
    REQUIRE(write_derived_table(derived, sample_info(Metric::wdl), 5000).ok());
    CHECK(header_byte(derived, 15) == static_cast<unsigned>(Encoding::derived));
    CHECK(header_byte(derived, 54) == 0);

    // Unknown metrics and encodings, exceptions in a table other than FMJD or FFJD, and a
    // reserved byte not zero are refused.
    const fs::path p = dir.path / file_name("KKMvK", Metric::dtw);
    for (unsigned unknown : {6u, 8u, 9u, 255u}) {
        CHECK_FALSE(metric_of_byte(static_cast<std::uint8_t>(unknown)).has_value());
        REQUIRE(write_table(p, sample_info(Metric::dtw), values).ok());
        forge(p, 14, static_cast<unsigned char>(unknown));
        CHECK_FALSE(open_turkish(p).ok());
    }
    for (unsigned encoding : {2u, 3u, 255u}) {
        REQUIRE(write_table(p, sample_info(Metric::dtw), values).ok());
        forge(p, 15, static_cast<unsigned char>(encoding));
        CHECK_FALSE(open_turkish(p).ok());
    }
    REQUIRE(write_table(p, sample_info(Metric::dtw), values).ok());
    forge(p, 55, 1);
    auto reserved = open_turkish(p);
    REQUIRE_FALSE(reserved.ok());
    CHECK(reserved.error().find("reserved") != std::string::npos);
}

// Rule tables stored as exceptions to the conversion code of the slice's DTW and DTC (metric
// bytes 8 and 9): read back as the thresholds they stand for, block by block, from a folder that
// holds the DTW and DTC tables beside them; refused without them, or with those of another slice.
TEST_CASE("format: rule tables stored as exceptions read back as thresholds", "[probe][format]") {
    TempDir dir("rule-residual");
    const std::size_t n = 70000;  // three blocks of 32K, the last one short
    std::mt19937_64 rng(5);
    std::vector<std::uint16_t> dtw(n), dtc(n), thresholds(n), entries(n);
    for (std::size_t i = 0; i < n; ++i) {
        // A position drawn, won or lost, with a DTC no longer than its DTW; one in 50 has a
        // threshold other than its conversion code (a draw by the counting rules, or slower).
        const unsigned kind = rng() % 3;
        dtc[i] = kind == 0 ? 0 : static_cast<std::uint16_t>(1 + rng() % 30);
        dtw[i] = kind == 0 ? 0 : static_cast<std::uint16_t>(2 * (dtc[i] + rng() % 20) + (kind == 1 ? 1 : 0));
        const std::uint16_t code = kind == 0 ? 0 : kind == 1 ? win_code(dtc[i]) : loss_code(dtc[i]);
        CHECK(conversion_base(dtw[i], dtc[i]) == code);
        thresholds[i] = rng() % 50 == 0 ? static_cast<std::uint16_t>(rng() % 100) : code;
        entries[i] = residual_entry(thresholds[i], dtw[i], dtc[i]);
        CHECK(threshold_of_entry(entries[i], dtw[i], dtc[i]) == thresholds[i]);
    }
    // A position lost at once (DTW 0, DTC 0) is an exception: DTW 0 reads as a draw.
    CHECK(conversion_base(0, 0) == 0);
    CHECK(residual_entry(loss_code(0), 0, 0) == loss_code(0) + 1);
    REQUIRE(write_table(dir.path / "KKMvK.dtw", sample_info(Metric::dtw), dtw).ok());
    REQUIRE(write_table(dir.path / "KKMvK.dtc", sample_info(Metric::dtc), dtc).ok());
    for (Metric metric : {Metric::fmjd, Metric::ffjd}) {
        INFO(metric_name(metric));
        TableInfo info = sample_info(metric);
        info.residual = true;
        const fs::path p = dir.path / file_name("KKMvK", metric);
        REQUIRE(write_table(p, info, entries).ok());
        auto r = open_turkish(p);
        REQUIRE(r.ok());
        CHECK(r->info().metric == metric);
        CHECK(r->info().residual);
        // Exceptions up to 99 and conversion codes up to 2 * 30 + 2 = 62: 8 bits.
        CHECK(r->value_bits() == 8);
        auto all = r->read_all();
        REQUIRE(all.ok());
        CHECK(*all == thresholds);
        auto all_by_two = r->read_all(2);  // each thread decodes its blocks of DTW and DTC too
        REQUIRE(all_by_two.ok());
        CHECK(*all_by_two == thresholds);
        auto block = r->read_block(2);
        REQUIRE(block.ok());
        CHECK(std::equal(block->begin(), block->end(), thresholds.begin() + 2 * 32768));
        CHECK(r->get(12345).value() == thresholds[12345]);
    }
    // Only rule tables may be stored so.
    TableInfo wrong = sample_info(Metric::dtw);
    wrong.residual = true;
    CHECK_FALSE(write_table(dir.path / "KKMvK.x", wrong, entries).ok());
    // Its DTC of another slice, then missing: refused at open, naming what is wrong.
    TableInfo other = sample_info(Metric::dtc);
    other.wk = 3;
    REQUIRE(write_table(dir.path / "KKMvK.dtc", other, dtc).ok());
    auto mismatched = open_turkish(dir.path / "KKMvK.fmjd");
    REQUIRE_FALSE(mismatched.ok());
    CHECK(mismatched.error().find("KKMvK.dtc") != std::string::npos);
    fs::remove(dir.path / "KKMvK.dtc");
    auto missing = open_turkish(dir.path / "KKMvK.fmjd");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().find("missing") != std::string::npos);
}
