// zstd for the block store (gen/block_store.hpp): a fast level, since a block is compressed once
// and read back once or twice, by the generator itself.
#include "dtb/gen/block_store.hpp"

#include <zstd.h>

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

}  // namespace dtb::gen
