// The block store: the finished blocks of the pair being solved (gen/block_arrays.hpp), each
// array of each block kept compressed (zstd, a fast level) in chunks of kChunkEntries entries, in
// a file of the run's folder (or in memory), so that a pair holds in memory only the blocks it is
// solving and reading, uncompressed. The writers read a side back from it in index order
// (gen/side_reader.hpp).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "dtb/gen/parallel.hpp"

namespace dtb::gen {

// The bytes compressed at a fast zstd level (throws std::runtime_error when zstd fails).
std::vector<unsigned char> compress_bytes(std::span<const unsigned char> raw);
// Decompresses what compress_bytes made into out, whose size is the raw size (throws
// std::runtime_error when the sizes or the data disagree).
void decompress_bytes(std::span<const unsigned char> compressed, std::span<unsigned char> out);

class BlockStore {
  public:
    static constexpr std::uint64_t kChunkEntries = std::uint64_t{1} << 20;

    // In memory until keep_in.
    BlockStore() = default;
    ~BlockStore();
    // From now on (nothing kept yet), the chunks go to an unnamed file in dir, read back with
    // pread through the page cache: the store takes disk rather than memory. An empty dir: they
    // stay in memory. Throws std::runtime_error when the file cannot be made.
    void keep_in(const std::filesystem::path& dir);
    BlockStore(const BlockStore&) = delete;
    BlockStore& operator=(const BlockStore&) = delete;

    // Keeps entries, array `kind` of block `block`, compressed (replacing what was kept for them).
    // Throws std::runtime_error when the file cannot take them.
    template <class T>
    void put(int kind, std::size_t block, std::span<const T> entries, int threads) {
        const std::uint64_t chunks = (entries.size() + kChunkEntries - 1) / kChunkEntries;
        std::vector<std::vector<unsigned char>> out(chunks);
        parallel_for_tasks(
            chunks,
            [&](std::uint64_t c) {
                const std::uint64_t begin = c * kChunkEntries;
                const std::uint64_t n = std::min<std::uint64_t>(kChunkEntries, entries.size() - begin);
                const auto* raw = reinterpret_cast<const unsigned char*>(entries.data() + begin);
                out[c] = compress_bytes(std::span<const unsigned char>(raw, n * sizeof(T)));
            },
            threads);
        keep(kind, block, entries.size(), std::move(out));
    }
    // Entries [c * kChunkEntries, ...) of array `kind` of block `block`, into out (resized).
    template <class T>
    void read_chunk(int kind, std::size_t block, std::uint64_t c, std::vector<T>& out) const {
        const Kept& k = kept_.at({kind, block});
        out.resize(chunk_entries(k, c));
        decompress_chunk(k, c, out.data());
    }
    // Every entry of array `kind` of block `block`, into out (as many entries), chunks in parallel.
    template <class T>
    void read(int kind, std::size_t block, std::span<T> out, int threads) const {
        const Kept& k = kept_.at({kind, block});
        if (k.entries != out.size()) throw std::runtime_error("block store: a block read into a span of another size");
        parallel_for_tasks(
            k.chunks.size(), [&](std::uint64_t c) { decompress_chunk(k, c, out.data() + c * kChunkEntries); }, threads);
    }
    // Forgets array `kind` of block `block`.
    void erase(int kind, std::size_t block);
    // Entries kept of array `kind` of block `block` (0: none).
    std::uint64_t entries(int kind, std::size_t block) const {
        const auto it = kept_.find({kind, block});
        return it == kept_.end() ? 0 : it->second.entries;
    }
    std::uint64_t chunks(int kind, std::size_t block) const {
        return (entries(kind, block) + kChunkEntries - 1) / kChunkEntries;
    }
    // Compressed bytes kept (in the file, or in memory).
    std::uint64_t bytes() const { return bytes_; }
    // Whether the chunks go to a file.
    bool on_disk() const { return fd_ >= 0; }
    void clear();

  private:
    // A compressed chunk: its bytes in memory, or where they are in the file.
    struct Chunk {
        std::vector<unsigned char> bytes;
        std::uint64_t offset = 0, size = 0;
    };
    struct Kept {
        std::uint64_t entries = 0, bytes = 0;
        std::vector<Chunk> chunks;
    };
    void keep(int kind, std::size_t block, std::uint64_t entries, std::vector<std::vector<unsigned char>> chunks);
    // Gives the file space of k's chunks back (the file system's holes).
    void release(const Kept& k);
    static std::uint64_t chunk_entries(const Kept& k, std::uint64_t c) {
        return std::min<std::uint64_t>(kChunkEntries, k.entries - c * kChunkEntries);
    }
    // Chunk c of k into out (its entries).
    template <class T>
    void decompress_chunk(const Kept& k, std::uint64_t c, T* out) const {
        const std::span<unsigned char> raw(reinterpret_cast<unsigned char*>(out), chunk_entries(k, c) * sizeof(T));
        const Chunk& chunk = k.chunks.at(c);
        if (fd_ < 0) return decompress_bytes(chunk.bytes, raw);
        thread_local std::vector<unsigned char> compressed;
        read_file(chunk, compressed);
        decompress_bytes(compressed, raw);
    }
    // A chunk's bytes from the file, into out (resized).
    void read_file(const Chunk& chunk, std::vector<unsigned char>& out) const;

    std::map<std::pair<int, std::size_t>, Kept> kept_;
    std::uint64_t bytes_ = 0;
    int fd_ = -1;
    std::uint64_t end_ = 0;  // of what was written to the file
};

}  // namespace dtb::gen
