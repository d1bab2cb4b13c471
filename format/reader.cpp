// TableReader: open and check a table, read blocks with pread (safe from many threads at once),
// verify the file's checksums.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "dtb/format/layout.hpp"
#include "dtb/format/regular_file.hpp"

namespace dtb::format {
namespace {

using namespace detail;

struct DCtxDeleter {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

// Per-thread decompression state, so that const readers can be shared between threads; it grows
// to the largest block read and is reused afterwards.
struct ThreadBuffers {
    std::unique_ptr<ZSTD_DCtx, DCtxDeleter> dctx{ZSTD_createDCtx()};
    std::vector<unsigned char> compressed;
    std::vector<unsigned char> packed;
};

ThreadBuffers& thread_buffers() {
    thread_local ThreadBuffers buffers;
    return buffers;
}

}  // namespace

TableReader::TableReader(TableReader&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)),
      path_(std::move(o.path_)),
      info_(o.info_),
      file_bytes_(o.file_bytes_),
      blocks_(std::move(o.blocks_)),
      bases_(std::move(o.bases_)),
      value_bits_(o.value_bits_) {}

TableReader& TableReader::operator=(TableReader&& o) noexcept {
    if (this != &o) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = std::exchange(o.fd_, -1);
        path_ = std::move(o.path_);
        info_ = o.info_;
        file_bytes_ = o.file_bytes_;
        blocks_ = std::move(o.blocks_);
        bases_ = std::move(o.bases_);
        value_bits_ = o.value_bits_;
    }
    return *this;
}

TableReader::~TableReader() {
    if (fd_ >= 0) ::close(fd_);
}

Status TableReader::read_exact(std::uint64_t offset, void* out, std::size_t n) const {
    auto* p = static_cast<unsigned char*>(out);
    while (n > 0) {
        const ssize_t r = ::pread(fd_, p, n, static_cast<off_t>(offset));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return Status(Error{path_.string() + ": read error: " + errno_text(errno)});
        if (r == 0) return Status(Error{path_.string() + ": corrupt: file shorter than expected"});
        p += r;
        n -= static_cast<std::size_t>(r);
        offset += static_cast<std::uint64_t>(r);
    }
    return {};
}

Expected<TableReader> TableReader::open(const std::filesystem::path& path, VariantId expected_variant,
                                        std::uint64_t expected_fingerprint) try {
    const std::string what = path.string();
    TableReader r;
    r.path_ = path;
    auto fd = open_regular_file(path);
    if (!fd) return Error{fd.error(), fd.error_kind()};
    r.fd_ = *fd;
    struct stat st {};
    if (::fstat(r.fd_, &st) != 0) return Error{what + ": cannot stat: " + errno_text(errno)};
    r.file_bytes_ = static_cast<std::uint64_t>(st.st_size);
    if (r.file_bytes_ < kHeaderBytes + kTrailerBytes)
        return Error{what + ": corrupt: too short (" + std::to_string(r.file_bytes_) + " bytes)"};

    unsigned char header[kHeaderBytes];
    if (Status s = r.read_exact(0, header, sizeof header); !s) return Error{s.error()};
    std::uint64_t table_hash = 0;
    if (Status s = decode_header(header, what, r.info_, table_hash); !s) return Error{s.error()};
    const TableInfo& info = r.info_;
    if (info.variant != expected_variant)
        return Error{what + ": a table of " + std::string(variant_name(info.variant)) + " draughts, not " +
                         std::string(variant_name(expected_variant)) + " (--variant " +
                         std::string(variant_name(info.variant)) + " reads it)",
                     ErrorKind::tables};
    if (info.rules_fingerprint != expected_fingerprint)
        return Error{what + ": table was computed under other rules (fingerprint mismatch)"};

    const std::uint64_t payload = r.file_bytes_ - kHeaderBytes - kTrailerBytes;
    if (info.num_blocks > payload / kBlockEntryBytes)
        return Error{what + ": corrupt: block table longer than the file"};
    std::vector<unsigned char> table(static_cast<std::size_t>(info.num_blocks) * kBlockEntryBytes);
    if (Status s = r.read_exact(kHeaderBytes, table.data(), table.size()); !s) return Error{s.error()};
    if (xxh64(table.data(), table.size()) != table_hash)
        return Error{what + ": corrupt: block table checksum mismatch"};

    r.blocks_.resize(static_cast<std::size_t>(info.num_blocks));
    std::uint64_t offset = kHeaderBytes + table.size();
    for (std::uint64_t b = 0; b < info.num_blocks; ++b) {
        const unsigned char* e = table.data() + b * kBlockEntryBytes;
        Block& blk = r.blocks_[b];
        blk.offset = offset;
        blk.compressed_size = get_u32(e);
        blk.compressed_hash = get_u64(e + 4);
        blk.raw_hash = get_u64(e + 12);
        const std::size_t raw = packed_bytes(r.entries_in_block(b), info.bits_per_entry);
        if (blk.compressed_size == 0 || blk.compressed_size > ZSTD_compressBound(raw))
            return Error{what + ": corrupt: block " + std::to_string(b) + " has an impossible size"};
        offset += blk.compressed_size;
    }
    if (offset + kTrailerBytes != r.file_bytes_)
        return Error{what + ": corrupt: block sizes add up to " + std::to_string(offset + kTrailerBytes) +
                     " bytes, the file has " + std::to_string(r.file_bytes_)};
    unsigned char end_magic[8];
    if (Status s = r.read_exact(r.file_bytes_ - 8, end_magic, 8); !s) return Error{s.error()};
    if (std::memcmp(end_magic, kEndMagic, 8) != 0) return Error{what + ": corrupt: bad end magic"};
    r.value_bits_ = info.bits_per_entry;
    if (info.residual) {
        // Its DTW and DTC tables, beside it: the entries are exceptions to their conversion code.
        for (const Metric want : {Metric::dtw, Metric::dtc}) {
            std::filesystem::path base_path = path;
            base_path.replace_extension(std::string(".") + std::string(metric_name(want)));
            auto base = TableReader::open(base_path, expected_variant, expected_fingerprint);
            if (!base)
                return Error{what + ": stored as exceptions to " + base_path.filename().string() + ": " + base.error()};
            const TableInfo& b = base->info();
            if (b.metric != want || b.residual || b.wk != info.wk || b.wm != info.wm || b.bk != info.bk ||
                b.bm != info.bm || b.index_scheme != info.index_scheme || b.num_entries != info.num_entries ||
                b.block_entries != info.block_entries)
                return Error{what + ": stored as exceptions to " + base_path.string() +
                             ", which is not the same slice's " + std::string(metric_name(want)) +
                             " table with the same entries and block size"};
            r.bases_.push_back(std::move(base.value()));
        }
        // A threshold is an exception (an entry less one) or a conversion code of DTC.
        r.value_bits_ =
            bits_for(std::max<std::uint64_t>(info.max_value, 2 * std::uint64_t{r.bases_[1].info().max_value} + 2));
    }
    return r;
} catch (const std::exception& e) {
    return Error{path.string() + ": " + e.what()};
}

std::uint32_t TableReader::entries_in_block(std::uint64_t block) const {
    const std::uint64_t first = block * info_.block_entries;
    if (first >= info_.num_entries) return 0;
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(info_.block_entries, info_.num_entries - first));
}

Status TableReader::read_block_into(std::uint64_t block, std::uint16_t* out) const try {
    const std::string where = path_.string() + ": block " + std::to_string(block);
    if (fd_ < 0) return Status(Error{"read from a moved-from or closed table"});
    if (info_.derived())
        return Status(Error{path_.string() + ": a derived table stores no values (one ply of search gives them)"});
    if (block >= blocks_.size())
        return Status(Error{where + ": out of range (" + std::to_string(blocks_.size()) + " blocks)"});
    const Block& blk = blocks_[block];
    ThreadBuffers& tb = thread_buffers();
    if (!tb.dctx) return Status(Error{"cannot allocate a zstd decompression context"});
    tb.compressed.resize(blk.compressed_size);
    if (Status s = read_exact(blk.offset, tb.compressed.data(), blk.compressed_size); !s) return s;
    if (xxh64(tb.compressed.data(), blk.compressed_size) != blk.compressed_hash)
        return Status(Error{where + ": corrupt: compressed checksum mismatch"});
    const std::uint32_t n = entries_in_block(block);
    const std::size_t raw = packed_bytes(n, info_.bits_per_entry);
    tb.packed.resize(raw);
    const std::size_t got =
        ZSTD_decompressDCtx(tb.dctx.get(), tb.packed.data(), raw, tb.compressed.data(), blk.compressed_size);
    if (ZSTD_isError(got)) return Status(Error{where + ": corrupt: " + ZSTD_getErrorName(got)});
    if (got != raw || xxh64(tb.packed.data(), raw) != blk.raw_hash)
        return Status(Error{where + ": corrupt: decompressed checksum mismatch"});
    unpack(tb.packed.data(), n, info_.bits_per_entry, out);
    if (info_.residual) {  // the same block of DTW and DTC, then each entry's threshold
        thread_local std::vector<std::uint16_t> dtw, dtc;
        dtw.resize(n);
        dtc.resize(n);
        if (Status s = bases_[0].read_block_into(block, dtw.data()); !s) return s;
        if (Status s = bases_[1].read_block_into(block, dtc.data()); !s) return s;
        for (std::uint32_t i = 0; i < n; ++i) out[i] = threshold_of_entry(out[i], dtw[i], dtc[i]);
    }
    return {};
} catch (const std::exception& e) {
    return Status(Error{path_.string() + ": " + e.what()});
}

Expected<std::vector<std::uint16_t>> TableReader::read_block(std::uint64_t block) const try {
    std::vector<std::uint16_t> values(block < blocks_.size() ? entries_in_block(block) : 0);
    if (Status s = read_block_into(block, values.data()); !s) return Error{s.error()};
    return values;
} catch (const std::exception& e) {
    return Error{path_.string() + ": " + e.what()};
}

Expected<std::uint16_t> TableReader::get(std::uint64_t index) const {
    if (index >= info_.num_entries) return Error{path_.string() + ": index " + std::to_string(index) + " out of range"};
    auto block = read_block(index / info_.block_entries);
    if (!block) return Error{block.error()};
    return block.value()[index % info_.block_entries];
}

Expected<std::vector<std::uint16_t>> TableReader::read_all(unsigned threads) const try {
    std::vector<std::uint16_t> values(info_.derived() ? 0 : static_cast<std::size_t>(info_.num_entries));
    if (Status s = read_all_into(values, threads); !s) return Error{s.error()};
    return values;
} catch (const std::exception& e) {
    return Error{path_.string() + ": " + e.what()};
}

Status TableReader::read_all_into(std::span<std::uint16_t> values, unsigned threads) const try {
    if (info_.derived())
        return Error{path_.string() + ": a derived table stores no values (one ply of search gives them)"};
    if (values.size() != info_.num_entries)
        return Error{path_.string() + ": room for " + std::to_string(values.size()) + " values, not the table's " +
                     std::to_string(info_.num_entries)};
    // Workers take block numbers from a shared counter; on an error the others stop, and the
    // error of the lowest failing block is reported (the one a single thread would meet first
    // among those read).
    std::atomic<std::uint64_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mutex;
    std::uint64_t error_block = blocks_.size();
    std::string error;
    const auto work = [&] {
        for (;;) {
            const std::uint64_t b = next.fetch_add(1);
            if (b >= blocks_.size() || failed) return;
            if (Status s = read_block_into(b, values.data() + b * info_.block_entries); !s) {
                std::lock_guard lock(mutex);
                if (b < error_block) {
                    error_block = b;
                    error = s.error();
                }
                failed = true;
            }
        }
    };
    std::vector<std::thread> helpers;
    try {
        for (unsigned t = 1; t < threads && t < blocks_.size(); ++t) helpers.emplace_back(work);
    } catch (const std::exception&) {
        // Fewer helpers than asked for: the blocks still all get read, by those that started.
    }
    work();
    for (auto& h : helpers) h.join();
    if (failed) return Error{error};
    return Status{};
} catch (const std::exception& e) {
    return Error{path_.string() + ": " + e.what()};
}

Status TableReader::verify_checksums() const try {
    if (fd_ < 0) return Status(Error{"verify of a moved-from or closed table"});
    struct StateDeleter {
        void operator()(XXH64_state_t* s) const { XXH64_freeState(s); }
    };
    std::unique_ptr<XXH64_state_t, StateDeleter> state(XXH64_createState());
    if (!state) return Status(Error{"cannot allocate a hash state"});
    XXH64_reset(state.get(), 0);
    const std::uint64_t data_start = kHeaderBytes + blocks_.size() * kBlockEntryBytes;
    std::vector<unsigned char> buffer(static_cast<std::size_t>(data_start));
    if (Status s = read_exact(0, buffer.data(), buffer.size()); !s) return s;
    XXH64_update(state.get(), buffer.data(), buffer.size());
    for (std::uint64_t b = 0; b < blocks_.size(); ++b) {
        const Block& blk = blocks_[b];
        buffer.resize(blk.compressed_size);
        if (Status s = read_exact(blk.offset, buffer.data(), buffer.size()); !s) return s;
        if (xxh64(buffer.data(), buffer.size()) != blk.compressed_hash)
            return Status(
                Error{path_.string() + ": block " + std::to_string(b) + ": corrupt: compressed checksum mismatch"});
        XXH64_update(state.get(), buffer.data(), buffer.size());
    }
    unsigned char trailer[kTrailerBytes];
    if (Status s = read_exact(file_bytes_ - kTrailerBytes, trailer, sizeof trailer); !s) return s;
    if (get_u64(trailer) != XXH64_digest(state.get()))
        return Status(Error{path_.string() + ": corrupt: file checksum mismatch"});
    if (std::memcmp(trailer + 8, kEndMagic, 8) != 0) return Status(Error{path_.string() + ": corrupt: bad end magic"});
    return {};
} catch (const std::exception& e) {
    return Status(Error{path_.string() + ": " + e.what()});
}

Expected<TableInfo> read_table_info(const std::filesystem::path& path) try {
    const std::string what = path.string();
    auto opened = open_regular_file(path);
    if (!opened) return Error{opened.error(), opened.error_kind()};
    const int fd = *opened;
    unsigned char header[kHeaderBytes];
    std::size_t have = 0;
    while (have < sizeof header) {
        const ssize_t r = ::pread(fd, header + have, sizeof header - have, static_cast<off_t>(have));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        have += static_cast<std::size_t>(r);
    }
    ::close(fd);
    if (have < sizeof header) return Error{what + ": corrupt: too short"};
    TableInfo info;
    std::uint64_t table_hash = 0;
    if (Status s = decode_header(header, what, info, table_hash); !s) return Error{s.error()};
    return info;
} catch (const std::exception& e) {
    return Error{path.string() + ": " + e.what()};
}

}  // namespace dtb::format
