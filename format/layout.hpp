// Internal to the format module: byte layout constants, header encoding and checking, value
// packing (format/bit_packing.hpp). The layout is specified once, in docs/FORMAT.md.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "dtb/format/bit_packing.hpp"
#include "dtb/format/format.hpp"

namespace dtb::format::detail {

inline constexpr char kMagic[8] = {'D', 'T', 'B', 'T', 'A', 'B', 'L', 'E'};
inline constexpr char kEndMagic[8] = {'E', 'N', 'D', 'T', 'A', 'B', 'L', 'E'};
inline constexpr std::size_t kHeaderBytes = 72;
inline constexpr std::size_t kHeaderHashedBytes = 64;  // header_hash covers bytes 0..63
inline constexpr std::size_t kBlockEntryBytes = 20;
inline constexpr std::size_t kTrailerBytes = 16;
inline constexpr std::uint32_t kMinBlockEntries = 64;
inline constexpr std::uint32_t kMaxBlockEntries = 1u << 22;

inline void put_u16(unsigned char* p, std::uint16_t v) {
    p[0] = static_cast<unsigned char>(v);
    p[1] = static_cast<unsigned char>(v >> 8);
}
inline std::uint16_t get_u16(const unsigned char* p) {
    return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}
inline void put_u32(unsigned char* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
inline void put_u64(unsigned char* p, std::uint64_t v) {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
inline std::uint32_t get_u32(const unsigned char* p) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}
inline std::uint64_t get_u64(const unsigned char* p) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

inline std::uint64_t blocks_for(std::uint64_t entries, std::uint32_t block_entries) {
    return entries / block_entries + (entries % block_entries != 0);
}

std::uint64_t xxh64(const void* data, std::size_t n);

// Fills 72 header bytes, header_hash included.
void encode_header(const TableInfo& info, std::uint64_t block_table_hash, unsigned char* out);

// Checks magic, version, header hash and field ranges; on success fills info and table hash.
// `what` names the file in messages.
Status decode_header(const unsigned char* in, const std::string& what, TableInfo& info,
                     std::uint64_t& block_table_hash);

// The system's message for an errno value, for the reader's and writer's errors.
std::string errno_text(int err);

}  // namespace dtb::format::detail
