// write_table: pack and compress blocks (in parallel), then write header, block table, blocks and
// trailer to a temporary file of this process beside it (temporary_path_of), fsync, rename into
// place, fsync the directory.
#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "dtb/format/layout.hpp"

namespace dtb::format {
namespace {

using namespace detail;

struct CompressedBlock {
    std::vector<unsigned char> bytes;
    std::uint64_t raw_hash = 0;
};

struct CCtxDeleter {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};

// Compresses the blocks of values, entries of the table from a block boundary on (only the
// table's last block may be short); workers take block numbers from a shared counter, so the
// result does not depend on the number of threads.
class BlockCompressor {
  public:
    BlockCompressor(const TableInfo& info, std::span<const std::uint16_t> values, int level)
        : info_(info), values_(values), level_(level), out_(blocks_for(values.size(), info.block_entries)) {}

    Status run(unsigned threads) {
        std::vector<std::thread> helpers;
        try {
            for (unsigned t = 1; t < threads; ++t) helpers.emplace_back([this] { work(); });
        } catch (const std::exception&) {
            // Fewer helpers than asked for: the blocks still all get done, by those that started.
        }
        work();
        for (auto& h : helpers) h.join();
        if (failed_) return Status(Error{error_});
        return {};
    }

    std::vector<CompressedBlock>& blocks() { return out_; }

  private:
    void work() {
        try {
            std::unique_ptr<ZSTD_CCtx, CCtxDeleter> cctx(ZSTD_createCCtx());
            if (!cctx) return fail("cannot allocate a zstd compression context");
            ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level_);
            ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_contentSizeFlag, 1);
            ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 0);  // we keep our own hashes
            ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_dictIDFlag, 0);
            std::vector<unsigned char> packed;
            for (;;) {
                const std::uint64_t b = next_.fetch_add(1);
                if (b >= out_.size() || failed_) return;
                const std::uint64_t first = b * info_.block_entries;
                const std::size_t n =
                    static_cast<std::size_t>(std::min<std::uint64_t>(info_.block_entries, values_.size() - first));
                const std::size_t raw = packed_bytes(n, info_.bits_per_entry);
                packed.resize(raw);
                pack(values_.data() + first, n, info_.bits_per_entry, packed.data());
                CompressedBlock& cb = out_[b];
                cb.raw_hash = xxh64(packed.data(), raw);
                cb.bytes.resize(ZSTD_compressBound(raw));
                const std::size_t size =
                    ZSTD_compress2(cctx.get(), cb.bytes.data(), cb.bytes.size(), packed.data(), raw);
                if (ZSTD_isError(size)) return fail(std::string("zstd compression failed: ") + ZSTD_getErrorName(size));
                cb.bytes.resize(size);
                cb.bytes.shrink_to_fit();
            }
        } catch (const std::exception& e) {
            fail(std::string("compression failed: ") + e.what());
        }
    }

    void fail(const std::string& message) {
        std::lock_guard lock(mutex_);
        if (!failed_) error_ = message;
        failed_ = true;
    }

    const TableInfo& info_;
    std::span<const std::uint16_t> values_;
    int level_;
    std::vector<CompressedBlock> out_;
    std::atomic<std::uint64_t> next_{0};
    std::atomic<bool> failed_{false};
    std::mutex mutex_;
    std::string error_;
};

// The temporary file: removed on destruction unless committed (renamed into place).
class TempFile {
  public:
    explicit TempFile(std::filesystem::path p) : path_(std::move(p)) {}
    ~TempFile() {
        if (fd_ >= 0) ::close(fd_);
        if (created_ && !committed_) ::unlink(path_.c_str());
    }
    Status create() {
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0)
            return Status(Error{"cannot create " + path_.string() + ": " + errno_text(errno), ErrorKind::system});
        created_ = true;
        return {};
    }
    Status write(const void* data, std::size_t n) {
        XXH64_update(hash_.get(), data, n);
        const auto* p = static_cast<const unsigned char*>(data);
        while (n > 0) {
            const ssize_t w = ::write(fd_, p, n);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0)
                return Status(Error{"cannot write " + path_.string() + ": " + errno_text(w < 0 ? errno : ENOSPC),
                                    ErrorKind::system});
            p += w;
            n -= static_cast<std::size_t>(w);
        }
        return {};
    }
    std::uint64_t hash() const { return XXH64_digest(hash_.get()); }
    Status sync_and_close() {
        if (::fsync(fd_) != 0)
            return Status(Error{"fsync " + path_.string() + ": " + errno_text(errno), ErrorKind::system});
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0)
            return Status(Error{"close " + path_.string() + ": " + errno_text(errno), ErrorKind::system});
        return {};
    }
    void committed() { committed_ = true; }

  private:
    struct StateDeleter {
        void operator()(XXH64_state_t* s) const { XXH64_freeState(s); }
    };
    std::filesystem::path path_;
    int fd_ = -1;
    bool created_ = false, committed_ = false;
    std::unique_ptr<XXH64_state_t, StateDeleter> hash_{[] {
        XXH64_state_t* s = XXH64_createState();
        if (!s) throw std::bad_alloc();
        XXH64_reset(s, 0);
        return s;
    }()};
};

}  // namespace

std::filesystem::path temporary_path_of(const std::filesystem::path& path) {
    std::filesystem::path tmp = path;
    tmp += "." + std::to_string(::getpid()) + ".tmp";
    return tmp;
}

bool is_temporary_name(const std::string& name) {
    // NAME.<metric>.<digits>.tmp, and NAME.<metric>.tmp as written before names carried the process.
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".tmp") != 0) return false;
    std::string stem = name.substr(0, name.size() - 4);
    if (const auto dot = stem.rfind('.'); dot != std::string::npos && dot + 1 < stem.size() &&
                                          std::all_of(stem.begin() + static_cast<std::ptrdiff_t>(dot) + 1, stem.end(),
                                                      [](char c) { return c >= '0' && c <= '9'; }))
        stem.resize(dot);
    for (int m = 0; m < kNumMetrics; ++m) {
        const std::string ext = "." + std::string(metric_name(static_cast<Metric>(m)));
        if (stem.size() > ext.size() && stem.compare(stem.size() - ext.size(), ext.size(), ext) == 0) return true;
    }
    return false;
}

namespace {

Status sync_directory(const std::filesystem::path& file) {
    std::filesystem::path dir = file.parent_path();
    if (dir.empty()) dir = ".";
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return Status(Error{"cannot open directory " + dir.string() + ": " + errno_text(errno), ErrorKind::system});
    const int rc = ::fsync(fd);
    const int err = errno;
    ::close(fd);
    // Some file systems cannot fsync a directory (EINVAL): nothing more can be done there.
    if (rc != 0 && err != EINVAL)
        return Status(Error{"fsync directory " + dir.string() + ": " + errno_text(err), ErrorKind::system});
    return {};
}

Status check_request(const TableInfo& info, const WriteOptions& options) {
    if (static_cast<unsigned>(info.variant) > static_cast<unsigned>(VariantId::turkish))
        return Status(Error{"unknown variant id"});
    if (static_cast<int>(info.metric) >= kNumMetrics) return Status(Error{"unknown metric"});
    if (info.residual && info.metric != Metric::fmjd && info.metric != Metric::ffjd)
        return Status(Error{"only fmjd and ffjd tables can be stored as exceptions"});
    for (int count : {info.wk, info.wm, info.bk, info.bm})
        if (count < 0 || count > 255) return Status(Error{"piece count out of range"});
    if (options.block_entries < kMinBlockEntries || options.block_entries > kMaxBlockEntries ||
        options.block_entries % kMinBlockEntries != 0)
        return Status(Error{"entries per block must be a multiple of 64 in [64, 2^22]"});
    if (options.zstd_level < 1 || options.zstd_level > ZSTD_maxCLevel())
        return Status(Error{"zstd level must be in [1, " + std::to_string(ZSTD_maxCLevel()) + "]"});
    return {};
}

// Compresses values (entries of table.info from a block boundary on) and appends their blocks.
Status compress_into(PreparedTable& table, std::span<const std::uint16_t> values, int zstd_level, unsigned threads) {
    if (values.empty()) return {};
    BlockCompressor compressor(table.info, values, zstd_level);
    if (threads == 0) threads = std::thread::hardware_concurrency();
    threads = static_cast<unsigned>(
        std::clamp<std::uint64_t>(blocks_for(values.size(), table.info.block_entries), 1, std::max(threads, 1u)));
    if (Status s = compressor.run(threads); !s) return s;
    for (CompressedBlock& cb : compressor.blocks()) {
        table.blocks.push_back(std::move(cb.bytes));
        table.raw_hashes.push_back(cb.raw_hash);
    }
    return {};
}

// A whole table: the builder's, handed every entry at once.
Expected<PreparedTable> prepare_impl(TableInfo info, std::span<const std::uint16_t> values,
                                     const WriteOptions& options) {
    const std::uint16_t max_value = values.empty() ? 0 : *std::max_element(values.begin(), values.end());
    auto builder = TableBuilder::start(info, values.size(), max_value, options);
    if (!builder) return Error{builder.error(), builder.error_kind()};
    if (Status s = builder->add(values); !s) return s.as_error();
    return builder->finish();
}

Expected<WriteStats> write_prepared_impl(const std::filesystem::path& path, const PreparedTable& prepared) {
    const auto start = std::chrono::steady_clock::now();
    const TableInfo& info = prepared.info;
    const auto& blocks = prepared.blocks;
    if (blocks.size() != info.num_blocks || prepared.raw_hashes.size() != blocks.size())
        return Error{path.string() + ": a prepared table whose block count does not match its header"};
    std::vector<unsigned char> table(blocks.size() * kBlockEntryBytes);
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        unsigned char* e = table.data() + b * kBlockEntryBytes;
        put_u32(e, static_cast<std::uint32_t>(blocks[b].size()));
        put_u64(e + 4, xxh64(blocks[b].data(), blocks[b].size()));
        put_u64(e + 12, prepared.raw_hashes[b]);
    }
    unsigned char header[kHeaderBytes];
    encode_header(info, xxh64(table.data(), table.size()), header);

    const std::filesystem::path tmp_path = temporary_path_of(path);
    TempFile tmp(tmp_path);
    if (Status s = tmp.create(); !s) return s.as_error();
    if (Status s = tmp.write(header, sizeof header); !s) return s.as_error();
    if (Status s = tmp.write(table.data(), table.size()); !s) return s.as_error();
    std::uint64_t bytes = sizeof header + table.size() + kTrailerBytes;
    for (const auto& block : blocks) {
        if (Status s = tmp.write(block.data(), block.size()); !s) return s.as_error();
        bytes += block.size();
    }
    unsigned char trailer[kTrailerBytes];
    put_u64(trailer, tmp.hash());
    std::memcpy(trailer + 8, kEndMagic, 8);
    if (Status s = tmp.write(trailer, sizeof trailer); !s) return s.as_error();
    if (Status s = tmp.sync_and_close(); !s) return s.as_error();
    if (::rename(tmp_path.c_str(), path.c_str()) != 0)
        return Error{"cannot rename " + tmp_path.string() + " to " + path.string() + ": " + errno_text(errno),
                     ErrorKind::system};
    tmp.committed();
    if (Status s = sync_directory(path); !s) return s.as_error();

    WriteStats stats;
    stats.bytes = bytes;
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    stats.info = info;
    return stats;
}

}  // namespace

std::uint64_t PreparedTable::file_bytes() const {
    std::uint64_t bytes = kHeaderBytes + blocks.size() * kBlockEntryBytes + kTrailerBytes;
    for (const auto& block : blocks) bytes += block.size();
    return bytes;
}

Expected<PreparedTable> prepare_table(TableInfo info, std::span<const std::uint16_t> values,
                                      const WriteOptions& options) {
    try {
        return prepare_impl(info, values, options);
    } catch (const std::exception& e) {
        return Error{std::string("compressing a table: ") + e.what()};
    }
}

Expected<WriteStats> write_prepared(const std::filesystem::path& path, const PreparedTable& table) {
    try {
        return write_prepared_impl(path, table);
    } catch (const std::exception& e) {  // allocation failure: the temporary file is removed
        return Error{path.string() + ": " + e.what()};
    }
}

Expected<WriteStats> write_table(const std::filesystem::path& path, TableInfo info,
                                 std::span<const std::uint16_t> values, const WriteOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    auto prepared = prepare_table(info, values, options);
    if (!prepared) return Error{path.string() + ": " + prepared.error()};
    auto written = write_prepared(path, *prepared);
    if (!written) return written;
    WriteStats stats = *written;
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return stats;
}

Expected<TableBuilder> TableBuilder::start(TableInfo info, std::uint64_t num_entries, std::uint16_t max_value,
                                           const WriteOptions& options) {
    if (Status s = check_request(info, options); !s) return s.as_error();
    TableBuilder b;
    b.table_.info = info;
    b.table_.info.num_entries = num_entries;
    b.table_.info.block_entries = options.block_entries;
    b.table_.info.num_blocks = blocks_for(num_entries, options.block_entries);
    b.table_.info.max_value = max_value;
    b.table_.info.bits_per_entry = bits_for(max_value);
    b.zstd_level_ = options.zstd_level;
    b.threads_ = options.threads;
    return b;
}

Status TableBuilder::add(std::span<const std::uint16_t> values) {
    const TableInfo& info = table_.info;
    if (values.empty()) return {};
    if (values.size() > info.num_entries - added_)
        return Status(Error{"a streamed table given more entries than its " + std::to_string(info.num_entries)});
    if (added_ % info.block_entries != 0)
        return Status(Error{"a streamed table given entries after a part that did not end a block"});
    if (*std::max_element(values.begin(), values.end()) > info.max_value)
        return Status(Error{"a streamed table given an entry above its largest, " + std::to_string(info.max_value)});
    try {
        if (Status s = compress_into(table_, values, zstd_level_, threads_); !s) return s;
    } catch (const std::exception& e) {
        return Status(Error{std::string("compressing a table: ") + e.what()});
    }
    added_ += values.size();
    return {};
}

Expected<PreparedTable> TableBuilder::finish() {
    if (added_ != table_.info.num_entries)
        return Error{"a streamed table given " + std::to_string(added_) + " of its " +
                     std::to_string(table_.info.num_entries) + " entries"};
    return std::move(table_);
}

Expected<WriteStats> write_derived_table(const std::filesystem::path& path, TableInfo info, std::uint64_t num_entries,
                                         const WriteOptions& options) {
    if (info.metric != Metric::wdl) return Error{path.string() + ": only WDL tables can be derived"};
    if (Status s = check_request(info, options); !s) return Error{path.string() + ": " + s.error()};
    PreparedTable table;
    table.info = info;
    table.info.num_entries = num_entries;
    table.info.block_entries = options.block_entries;
    table.info.num_blocks = 0;
    table.info.max_value = 0;
    table.info.bits_per_entry = 0;
    return write_prepared(path, table);
}

}  // namespace dtb::format
