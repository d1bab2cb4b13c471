// The table file format: the one module that writes and reads tablebase files. The generator
// writes through write_table(), the probe library and `dtb verify` read through TableReader.
// docs/FORMAT.md is the specification, every byte of it: one file per (material slice, metric)
// holding one value per position index with White to move; a 72-byte header, a block table,
// independently zstd-compressed blocks with an xxh64 each, a 16-byte trailer. A reader reports a
// flipped or missing byte as corrupt and never returns a wrong value.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dtb/rules/expected.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::format {

// The header's format_version; readers refuse any other.
inline constexpr std::uint32_t kFormatVersion = 2;

// fmjd / ffjd: per position, the rule-aware value under that rule set as a threshold value code
// (probe/value.hpp encoding: win_in(t) = wins when at least t plies of budget remain, loss_in(t)
// likewise, 0 = draw at every budget); ffjd16: K+M v K under ffjd with a 16-move limit carried
// in. Written for international only (docs/ADJUDICATION.md).
enum class Metric : std::uint8_t { wdl = 0, dtw = 1, dtc = 2, fmjd = 3, ffjd = 4, ffjd16 = 5 };
inline constexpr int kNumMetrics = 6;
// The metric of a header's metric byte (nullopt: unknown).
std::optional<Metric> metric_of_byte(std::uint8_t);
std::string_view metric_name(Metric);  // "wdl", "dtw", "dtc", "fmjd", "ffjd", "ffjd16"

struct TableInfo {
    VariantId variant = VariantId::international;
    std::uint64_t rules_fingerprint = 0;
    int wk = 0, wm = 0, bk = 0, bm = 0;
    Metric metric = Metric::wdl;
    std::uint32_t index_scheme = 0;
    // The fields below are computed by write_table from the values and options (what the caller
    // puts there is ignored); TableReader::info() reports them from the file.
    std::uint64_t num_entries = 0;
    int bits_per_entry = 0;
    std::uint32_t block_entries = 0;
    std::uint64_t num_blocks = 0;
    std::uint32_t max_value = 0;
    // A derived table (WDL only): no values stored (docs/FORMAT.md, "Derived WDL tables").
    bool derived() const { return bits_per_entry == 0; }
    // FMJD or FFJD only: entries stored as exceptions to the conversion code of the slice's DTW
    // and DTC (encoding 2; docs/FORMAT.md, "Rule-aware tables"). A writer stores the entries it
    // is given (residual_entry of each threshold); a reader returns thresholds.
    bool residual = false;
};

// The header's encoding byte: how a table stores its values.
enum class Encoding : std::uint8_t { values = 0, derived = 1, exceptions = 2 };
inline Encoding encoding_of(const TableInfo& info) {
    return info.derived() ? Encoding::derived : info.residual ? Encoding::exceptions : Encoding::values;
}

// The threshold a rule table stored as exceptions takes where its entry is 0: the conversion
// code of a position whose DTW and DTC entries are dtw and dtc (a win's DTW is odd, a loss's
// even; 0 reads as a draw, so a position lost at once is an exception). A win with DTC 0, which
// only a don't-care pair of entries can show, reads as a draw too.
constexpr std::uint16_t conversion_base(std::uint16_t dtw, std::uint16_t dtc) {
    if (dtw == 0 || ((dtw & 1) != 0 && dtc == 0)) return 0;
    return (dtw & 1) != 0 ? static_cast<std::uint16_t>(2 * dtc - 1) : static_cast<std::uint16_t>(2 * dtc + 2);
}
// The stored entry of threshold `code` at a position with those DTW and DTC entries.
constexpr std::uint16_t residual_entry(std::uint16_t code, std::uint16_t dtw, std::uint16_t dtc) {
    return code == conversion_base(dtw, dtc) ? 0 : static_cast<std::uint16_t>(code + 1);
}
// The threshold of a stored entry.
constexpr std::uint16_t threshold_of_entry(std::uint16_t entry, std::uint16_t dtw, std::uint16_t dtc) {
    return entry == 0 ? conversion_base(dtw, dtc) : static_cast<std::uint16_t>(entry - 1);
}

struct WriteOptions {
    // Defaults from the measurements in BENCHMARKS.md, "Table format": a block small enough that
    // a probe's cache miss decodes quickly, large enough to compress almost as well as larger
    // ones; a level that compresses well at a cost the generator can afford.
    std::uint32_t block_entries = 1u << 15;  // a multiple of 64 in [64, 2^22]
    int zstd_level = 9;                      // 1..ZSTD_maxCLevel() (22)
    unsigned threads = 0;                    // compression threads; 0 = hardware concurrency
};

struct WriteStats {
    std::uint64_t bytes = 0;  // size of the file written
    double seconds = 0;       // wall time of write_table, fsyncs included
    TableInfo info;           // the header as written (computed fields filled in)
};

// Ok, or an error with a message: what functions that have no value to return give back.
class Status {
  public:
    Status() = default;
    Status(Error e) : ok_(false), kind_(e.kind), message_(std::move(e.message)) {}
    bool ok() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const std::string& error() const { return message_; }
    ErrorKind error_kind() const { return kind_; }
    Error as_error() const { return Error{message_, kind_}; }

  private:
    bool ok_ = true;
    ErrorKind kind_ = ErrorKind::unspecified;
    std::string message_;
};

// The temporary file write_table writes before renaming it to `path`: "<path>.<pid>.tmp", so
// that two processes never write the same file.
std::filesystem::path temporary_path_of(const std::filesystem::path& path);
// Whether a file name in a table folder is such a temporary file (or the older "<table>.tmp"):
// a generator that holds the folder's lock removes them, as what a killed run left.
bool is_temporary_name(const std::string& name);

// Writes atomically: to temporary_path_of(path), fsync, rename to path, fsync the directory. On any error
// (disk full, missing directory, invalid info or options) removes the temporary file and returns
// an error; an existing complete file at `path` is never left half-written. (Should only the
// final fsync of the directory fail, the new, complete file is in place but an error is returned.)
Expected<WriteStats> write_table(const std::filesystem::path& path, TableInfo info,
                                 std::span<const std::uint16_t> values, const WriteOptions& options = {});

// A table compressed in memory and not yet written: lets a caller see what a table would cost on
// disk (file_bytes) before deciding to write it.
struct PreparedTable {
    TableInfo info;                                  // computed fields filled in
    std::vector<std::vector<unsigned char>> blocks;  // one zstd frame per block
    std::vector<std::uint64_t> raw_hashes;           // xxh64 of each block's packed bytes
    std::uint64_t file_bytes() const;
};
Expected<PreparedTable> prepare_table(TableInfo info, std::span<const std::uint16_t> values,
                                      const WriteOptions& options = {});
// The same table prepared from its entries handed over in index order, a part at a time, so
// that a caller need not hold them all (the generator reads them back from its block store).
// The largest entry must be known first (the header's width depends on it): an entry above it,
// a part that does not end on a block boundary before the last, or too many or too few entries
// in all are refused. The result is prepare_table's for the same entries, byte for byte.
class TableBuilder {
  public:
    static Expected<TableBuilder> start(TableInfo info, std::uint64_t num_entries, std::uint16_t max_value,
                                        const WriteOptions& options = {});
    // The next entries (a whole number of blocks, except for the last part).
    Status add(std::span<const std::uint16_t> values);
    std::uint64_t entries_added() const { return added_; }
    // The table, once every entry was added.
    Expected<PreparedTable> finish();

  private:
    TableBuilder() = default;
    PreparedTable table_;
    std::uint64_t added_ = 0;
    int zstd_level_ = 0;
    unsigned threads_ = 0;
};
// Writes a prepared table, atomically as write_table does (which is prepare_table + this).
Expected<WriteStats> write_prepared(const std::filesystem::path& path, const PreparedTable& table);
// Writes a derived WDL table of num_entries entries (info.metric must be WDL): no values.
Expected<WriteStats> write_derived_table(const std::filesystem::path& path, TableInfo info, std::uint64_t num_entries,
                                         const WriteOptions& options = {});

// A table opened for reading. Thread-safe after open: any number of threads may call the const
// members of one reader at once (reads use pread; decompression state is per thread).
class TableReader {
  public:
    // Refuses: missing file, too short, bad magic/version, header or block table hash mismatch,
    // header fields out of range, other variant or rules fingerprint, block table inconsistent
    // with the file size, bad end magic.
    static Expected<TableReader> open(const std::filesystem::path& path, VariantId expected_variant,
                                      std::uint64_t expected_fingerprint);

    TableReader(TableReader&&) noexcept;
    TableReader& operator=(TableReader&&) noexcept;
    TableReader(const TableReader&) = delete;
    TableReader& operator=(const TableReader&) = delete;
    ~TableReader();

    const TableInfo& info() const { return info_; }
    std::uint64_t file_bytes() const { return file_bytes_; }
    const std::filesystem::path& path() const { return path_; }
    // Entries in block b: block_entries, except for the last block.
    std::uint32_t entries_in_block(std::uint64_t block) const;
    // The width that holds every value this reader returns: bits_per_entry, except for a rule
    // table stored as exceptions, whose thresholds may be wider than its stored entries.
    int value_bits() const { return value_bits_; }

    // Decompresses block `block`, checking both of its hashes; an error on any mismatch (and for
    // a derived table, which has no blocks).
    Expected<std::vector<std::uint16_t>> read_block(std::uint64_t block) const;
    // Same into `out`, which has room for info().block_entries values; no allocation once the
    // calling thread's buffers have grown to the block size.
    Status read_block_into(std::uint64_t block, std::uint16_t* out) const;
    // One value (decodes its whole block: the probe library caches blocks).
    Expected<std::uint16_t> get(std::uint64_t index) const;
    // Every value, the blocks decoded by `threads` threads (std::thread; 1: the caller's alone).
    Expected<std::vector<std::uint16_t>> read_all(unsigned threads = 1) const;
    // Same into `out`, of exactly info().num_entries values (the generator's own memory, which it
    // bounds: gen/mapping_cache.hpp).
    Status read_all_into(std::span<std::uint16_t> out, unsigned threads = 1) const;
    // File hash and every block's compressed hash, without decompressing: one sequential read.
    Status verify_checksums() const;

  private:
    struct Block {
        std::uint64_t offset;
        std::uint32_t compressed_size;
        std::uint64_t compressed_hash;
        std::uint64_t raw_hash;
    };
    TableReader() = default;
    Status read_exact(std::uint64_t offset, void* out, std::size_t n) const;

    int fd_ = -1;
    std::filesystem::path path_;
    TableInfo info_;
    std::uint64_t file_bytes_ = 0;
    std::vector<Block> blocks_;
    // A table stored as exceptions (info_.residual): the slice's DTW and DTC tables, read with it.
    std::vector<TableReader> bases_;
    int value_bits_ = 0;
};

// Reads and checks only the header (magic, version, hash, field ranges), accepting any variant
// and fingerprint: for tools that list or describe tables.
Expected<TableInfo> read_table_info(const std::filesystem::path& path);

// "<slice>.<metric>", e.g. file_name("KKMvK", Metric::dtw) == "KKMvK.dtw".
std::string file_name(const std::string& slice_name, Metric metric);

}  // namespace dtb::format
