// The table format refuses damaged or foreign files, and never returns a wrong value.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "dtb/format/format.hpp"
#include "tests/support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace dtb;
using namespace dtb::format;
using dtb::test::TempDir;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void spit(const fs::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A small table with several blocks of each kind of content, and its values.
struct SampleTable {
    std::vector<std::uint16_t> values;
    fs::path path;
};

SampleTable make_sample(const fs::path& dir, std::uint32_t limit) {
    SampleTable s;
    std::mt19937_64 rng(limit);
    s.values.resize(1500);
    for (std::size_t i = 0; i < s.values.size(); ++i)
        s.values[i] = static_cast<std::uint16_t>(i % 97 < 60 ? 1 % limit : rng() % limit);
    s.path = dir / "sample.wdl";
    TableInfo info;
    info.variant = VariantId::international;
    info.rules_fingerprint = rules_fingerprint<International>();
    info.wk = 1;
    info.bk = 1;
    info.wm = 1;
    WriteOptions opt;
    opt.block_entries = 256;
    opt.zstd_level = 3;
    REQUIRE(write_table(s.path, info, s.values, opt).ok());
    return s;
}

Expected<TableReader> open_intl(const fs::path& p) {
    return TableReader::open(p, VariantId::international, rules_fingerprint<International>());
}

// Opens `p` and reads everything it can; true when some layer reported the damage. Every value a
// successful read returns must equal the original.
bool damage_detected(const fs::path& p, const std::vector<std::uint16_t>& values) {
    auto reader = open_intl(p);
    if (!reader.ok()) return true;
    bool detected = !reader->verify_checksums().ok();
    const TableInfo& info = reader->info();
    for (std::uint64_t b = 0; b < info.num_blocks; ++b) {
        auto block = reader->read_block(b);
        if (!block.ok()) {
            detected = true;
            continue;
        }
        REQUIRE(block->size() == reader->entries_in_block(b));
        REQUIRE(std::equal(block->begin(), block->end(), values.begin() + b * info.block_entries));
    }
    for (std::uint64_t i = 0; i < info.num_entries; i += 37) {
        auto v = reader->get(i);
        if (v.ok()) REQUIRE(*v == values[i]);
    }
    return detected;
}

}  // namespace

TEST_CASE("format: missing, empty and foreign files are refused", "[probe][format]") {
    TempDir dir("refuse");
    const SampleTable s = make_sample(dir.path, 3);
    REQUIRE(open_intl(s.path).ok());

    auto missing = open_intl(dir.path / "missing.wdl");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().find("missing") != std::string::npos);

    spit(dir.path / "empty.wdl", "");
    CHECK_FALSE(open_intl(dir.path / "empty.wdl").ok());
    spit(dir.path / "text.wdl", std::string(200, 'x'));
    CHECK_FALSE(open_intl(dir.path / "text.wdl").ok());
    CHECK_FALSE(open_intl(dir.path).ok());  // a directory

    auto turkish = TableReader::open(s.path, VariantId::turkish, rules_fingerprint<International>());
    REQUIRE_FALSE(turkish.ok());
    CHECK(turkish.error().find("variant") != std::string::npos);
    auto other_rules = TableReader::open(s.path, VariantId::international, rules_fingerprint<Turkish>());
    REQUIRE_FALSE(other_rules.ok());
    CHECK(other_rules.error().find("fingerprint") != std::string::npos);

    std::string bytes = slurp(s.path);
    spit(dir.path / "longer.wdl", bytes + "x");
    CHECK_FALSE(open_intl(dir.path / "longer.wdl").ok());

    // An older or a future format version is refused by version, not by hash.
    for (char version : {1, 3}) {
        bytes[8] = version;
        spit(dir.path / "other_version.wdl", bytes);
        auto other = open_intl(dir.path / "other_version.wdl");
        REQUIRE_FALSE(other.ok());
        CHECK(other.error().find("format version " + std::to_string(version) + ", this reader reads version 2") !=
              std::string::npos);
    }
}

TEST_CASE("format: every truncation is refused at open", "[probe][format]") {
    TempDir dir("truncate");
    for (std::uint32_t limit : {3u, 200u, 40000u}) {
        const SampleTable s = make_sample(dir.path, limit);
        const std::string bytes = slurp(s.path);
        const fs::path cut = dir.path / "cut.wdl";
        spit(cut, bytes);
        // Every length near either end, every 7th in between; shrinking in place, longest first.
        for (std::size_t len = bytes.size(); len-- > 0;) {
            if (len >= 200 && len + 40 <= bytes.size() && len % 7 != 0) continue;
            CAPTURE(limit, len, bytes.size());
            fs::resize_file(cut, len);
            REQUIRE_FALSE(open_intl(cut).ok());
        }
    }
}

TEST_CASE("format: a flipped byte anywhere is detected, never a wrong value", "[probe][format]") {
    TempDir dir("flip");
    for (std::uint32_t limit : {3u, 12u, 200u, 40000u}) {
        const SampleTable s = make_sample(dir.path, limit);
        const std::string bytes = slurp(s.path);
        REQUIRE_FALSE(damage_detected(s.path, s.values));
        const fs::path bad = dir.path / "bad.wdl";
        spit(bad, bytes);
        const int fd = ::open(bad.c_str(), O_RDWR);
        REQUIRE(fd >= 0);
        std::mt19937 rng(limit);
        // Every byte position, each with a random nonzero xor mask, flipped in place and restored.
        for (std::size_t pos = 0; pos < bytes.size(); ++pos) {
            CAPTURE(limit, pos, bytes.size());
            const auto flipped = static_cast<char>(bytes[pos] ^ (1 + rng() % 255));
            REQUIRE(::pwrite(fd, &flipped, 1, static_cast<off_t>(pos)) == 1);
            REQUIRE(damage_detected(bad, s.values));
            REQUIRE(::pwrite(fd, &bytes[pos], 1, static_cast<off_t>(pos)) == 1);
        }
        ::close(fd);
        REQUIRE_FALSE(damage_detected(bad, s.values));
    }
}

namespace {
// A sample table with a byte of its last block's payload flipped (the payload ends 16 bytes, the
// trailer, before the end of the file): its path and the table's number of blocks.
struct DamagedLastBlock {
    fs::path path;
    std::uint64_t blocks = 0;
};
DamagedLastBlock damage_last_block(const fs::path& dir) {
    const SampleTable s = make_sample(dir, 200);
    auto reader = open_intl(s.path);
    REQUIRE(reader.ok());
    DamagedLastBlock d{dir / "bad.wdl", reader->info().num_blocks};
    REQUIRE(d.blocks >= 3);
    std::string bytes = slurp(s.path);
    bytes[bytes.size() - 16 - 3] ^= 0x40;
    spit(d.path, bytes);
    return d;
}
}  // namespace

TEST_CASE("format: a damaged block fails alone, the others still read", "[probe][format]") {
    TempDir dir("one-block");
    const DamagedLastBlock d = damage_last_block(dir.path);
    auto damaged = open_intl(d.path);
    REQUIRE(damaged.ok());
    CHECK_FALSE(damaged->verify_checksums().ok());
    auto last = damaged->read_block(d.blocks - 1);
    REQUIRE_FALSE(last.ok());
    CHECK(last.error().find("corrupt") != std::string::npos);
    for (std::uint64_t b = 0; b + 1 < d.blocks; ++b) CHECK(damaged->read_block(b).ok());
    CHECK_FALSE(damaged->read_all().ok());
}

TEST_CASE("format: read_all on several threads names the damaged block", "[probe][format]") {
    TempDir dir("one-block-threads");
    const DamagedLastBlock d = damage_last_block(dir.path);
    auto damaged = open_intl(d.path);
    REQUIRE(damaged.ok());
    for (unsigned threads : {1u, 2u, 4u}) {
        INFO(threads);
        auto all = damaged->read_all(threads);
        REQUIRE_FALSE(all.ok());
        CHECK(all.error().find("block " + std::to_string(d.blocks - 1) + ": corrupt") != std::string::npos);
    }
}
