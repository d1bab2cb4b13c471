// zstd for the block store (gen/block_store.hpp): a fast level, since a block is compressed once
// and read back once or twice, by the generator itself.
#include "dtb/gen/block_store.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace dtb::gen {
namespace {
constexpr int kStoreZstdLevel = 1;
}

std::vector<unsigned char> compress_bytes(std::span<const unsigned char> raw) {
    std::vector<unsigned char> out(ZSTD_compressBound(raw.size()));
    const std::size_t n = ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), kStoreZstdLevel);
    if (ZSTD_isError(n)) throw std::runtime_error(std::string("block store: ") + ZSTD_getErrorName(n));
    out.resize(n);
    out.shrink_to_fit();
    return out;
}

void decompress_bytes(std::span<const unsigned char> compressed, std::span<unsigned char> out) {
    const std::size_t n = ZSTD_decompress(out.data(), out.size(), compressed.data(), compressed.size());
    if (ZSTD_isError(n)) throw std::runtime_error(std::string("block store: ") + ZSTD_getErrorName(n));
    if (n != out.size()) throw std::runtime_error("block store: a chunk of the wrong size");
}

namespace {
[[noreturn]] void fail(const std::string& what, int error) {
    throw std::runtime_error("block store: " + what + ": " + std::strerror(error));
}
}  // namespace

void BlockStore::keep_in(const std::filesystem::path& dir) {
    if (dir.empty() || fd_ >= 0 || !kept_.empty()) return;
    // An unnamed file (O_TMPFILE); where the file system lacks it, a named one unlinked at once.
    fd_ = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd_ < 0) {
        std::string name = (dir / "dtb-blocks-XXXXXX").string();
        fd_ = ::mkostemp(name.data(), O_CLOEXEC);
        if (fd_ < 0) fail("cannot make a file in " + dir.string(), errno);
        ::unlink(name.c_str());
    }
}

BlockStore::~BlockStore() {
    if (fd_ >= 0) ::close(fd_);
}

void BlockStore::keep(int kind, std::size_t block, std::uint64_t entries,
                      std::vector<std::vector<unsigned char>> chunks) {
    Kept fresh;
    fresh.entries = entries;
    fresh.chunks.resize(chunks.size());
    for (std::size_t c = 0; c < chunks.size(); ++c) {
        Chunk& chunk = fresh.chunks[c];
        chunk.size = chunks[c].size();
        fresh.bytes += chunk.size;
        if (fd_ < 0) {
            chunk.bytes = std::move(chunks[c]);
            continue;
        }
        chunk.offset = end_;
        for (std::uint64_t done = 0; done < chunk.size;) {
            const ssize_t w =
                ::pwrite(fd_, chunks[c].data() + done, chunk.size - done, static_cast<off_t>(chunk.offset + done));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) fail("cannot write its file", w < 0 ? errno : ENOSPC);
            done += static_cast<std::uint64_t>(w);
        }
        end_ += chunk.size;
        std::vector<unsigned char>().swap(chunks[c]);
    }
    Kept& k = kept_[{kind, block}];
    release(k);
    bytes_ -= k.bytes;
    k = std::move(fresh);
    bytes_ += k.bytes;
}

void BlockStore::erase(int kind, std::size_t block) {
    const auto it = kept_.find({kind, block});
    if (it == kept_.end()) return;
    release(it->second);
    bytes_ -= it->second.bytes;
    kept_.erase(it);
}

void BlockStore::clear() {
    kept_.clear();
    bytes_ = 0;
    if (fd_ >= 0 && ::ftruncate(fd_, 0) == 0) end_ = 0;
}

void BlockStore::release(const Kept& k) {
    if (fd_ < 0) return;
    // Best effort: a file system without holes keeps the space until the store is cleared.
    for (const Chunk& chunk : k.chunks)
        if (chunk.size)
            ::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(chunk.offset),
                        static_cast<off_t>(chunk.size));
}

void BlockStore::read_file(const Chunk& chunk, std::vector<unsigned char>& out) const {
    out.resize(chunk.size);
    for (std::uint64_t done = 0; done < chunk.size;) {
        const ssize_t r = ::pread(fd_, out.data() + done, chunk.size - done, static_cast<off_t>(chunk.offset + done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) fail("cannot read its file", r < 0 ? errno : EIO);
        done += static_cast<std::uint64_t>(r);
    }
}

}  // namespace dtb::gen
