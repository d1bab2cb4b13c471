// libFuzzer target: the table reader (format/format.hpp) on arbitrary file contents:
// TableReader::open, then read_all (or a few blocks of a large table), get, verify_checksums.
//
// The input is the whole file, kept in memory: a memfd opened through /proc/self/fd, since the
// reader takes a path. Every input is tried twice: as it is, and with its checksums recomputed
// (header hash, block table hash, each block's compressed and raw hash, file hash, end magic),
// so that mutations get past the checksums and reach the field checks, zstd and the unpacking.
// Beyond "never crash": what the reader accepts is self-consistent (get(i) equals read_all()[i],
// a value fits the declared width).
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dtb/format/format.hpp"

namespace {

using Bytes = std::vector<unsigned char>;

// Offsets of the layout specified in docs/FORMAT.md.
constexpr std::size_t kHeader = 72, kEntry = 20, kTrailer = 16;

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "fuzz_table: %s\n", what);
    std::abort();
}

std::uint64_t get_u64(const unsigned char* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}
std::uint32_t get_u32(const unsigned char* p) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}
void put_u64(unsigned char* p, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

// The same bytes with every checksum the reader checks made right again.
Bytes with_fixed_checksums(Bytes b) {
    if (b.size() < kHeader + kTrailer) return b;
    const std::size_t end = b.size() - kTrailer;
    const std::uint64_t num_blocks = get_u64(&b[40]);
    if (num_blocks <= (end - kHeader) / kEntry) {
        std::size_t offset = kHeader + static_cast<std::size_t>(num_blocks) * kEntry;
        for (std::uint64_t k = 0; k < num_blocks; ++k) {
            unsigned char* e = &b[kHeader + k * kEntry];
            const std::uint32_t n = get_u32(e);
            if (n == 0 || n > end - offset) break;
            put_u64(e + 4, XXH64(&b[offset], n, 0));
            const unsigned long long raw = ZSTD_getFrameContentSize(&b[offset], n);
            if (raw <= (1u << 23)) {
                Bytes out(static_cast<std::size_t>(raw) + 1);
                const std::size_t got = ZSTD_decompress(out.data(), out.size(), &b[offset], n);
                if (!ZSTD_isError(got)) put_u64(e + 12, XXH64(out.data(), got, 0));
            }
            offset += n;
        }
        put_u64(&b[56], XXH64(&b[kHeader], static_cast<std::size_t>(num_blocks) * kEntry, 0));
    }
    put_u64(&b[64], XXH64(b.data(), 64, 0));
    put_u64(&b[end], XXH64(b.data(), end, 0));
    const char magic[] = "ENDTABLE";
    std::copy(magic, magic + 8, &b[end + 8]);
    return b;
}

int memory_file() {
    static const int fd = memfd_create("dtb_fuzz_table", MFD_CLOEXEC);
    if (fd < 0) fail("memfd_create failed");
    return fd;
}

void put_file(const Bytes& b) {
    const int fd = memory_file();
    if (ftruncate(fd, 0) != 0 || (b.size() && pwrite(fd, b.data(), b.size(), 0) != static_cast<ssize_t>(b.size())))
        fail("cannot write the memory file");
}

template <class R>
void read(const std::string& path) {
    using namespace dtb;
    auto reader = format::TableReader::open(path, R::kId, rules_fingerprint<R>());
    if (!reader) {
        if (reader.error().empty()) fail("error without a message");
        return;
    }
    const format::TableInfo& info = reader->info();
    const std::uint64_t n = info.num_entries;
    const auto limit = (1u << info.bits_per_entry) - 1;
    (void)reader->verify_checksums();
    if (n == 0) return;
    // A tiny file may declare a huge table of all-equal blocks (zstd compresses those to a few
    // bytes); decode it only when its values fit comfortably in memory.
    if (n <= (1u << 22)) {
        auto all = reader->read_all();
        if (!all) return;
        if (all->size() != n) fail("read_all returned another number of values");
        for (std::uint64_t i : {std::uint64_t{0}, n / 2, n - 1}) {
            auto v = reader->get(i);
            if (!v || *v != (*all)[i]) fail("get disagrees with read_all");
        }
        for (std::uint16_t v : *all)
            if (v > limit) fail("a value wider than bits_per_entry");
    } else {
        for (std::uint64_t block : {std::uint64_t{0}, info.num_blocks - 1}) (void)reader->read_block(block);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = "/proc/self/fd/" + std::to_string(memory_file());
    const Bytes raw(data, data + size);
    for (const Bytes& b : {raw, with_fixed_checksums(raw)}) {
        put_file(b);
        read<dtb::International>(path);
        read<dtb::Turkish>(path);
    }
    return 0;
}
