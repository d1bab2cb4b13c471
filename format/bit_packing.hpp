// Values packed at 2, 4, 8 or 16 bits each: the layout of a table block once decompressed
// (docs/FORMAT.md, "Blocks") and of a block held in the probe library's cache. Entry j takes
// bits (j * bits) mod 8 upwards of byte floor(j * bits / 8), least significant first; 16-bit
// values are little-endian. Unused high bits of the last byte are zero.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace dtb::format {

inline bool valid_bits(int bits) {
    return bits == 2 || bits == 4 || bits == 8 || bits == 16;
}

// The narrowest valid width that holds max_value (16 at most: values are 16-bit).
inline int bits_for(std::uint64_t max_value) {
    int bits = 2;
    while (bits < 16 && (max_value >> bits) != 0) bits *= 2;
    return bits;
}

// Bytes that n values packed at `bits` take.
inline std::size_t packed_bytes(std::uint64_t n, int bits) {
    return static_cast<std::size_t>((n * static_cast<unsigned>(bits) + 7) / 8);
}

namespace detail {

// One output byte per 8 / Bits values, so that the compiler can vectorise the loop. Each value
// is masked to Bits bits.
template <int Bits>
void pack_narrow(const std::uint16_t* values, std::size_t n, unsigned char* out) {
    constexpr std::size_t kPerByte = 8 / Bits;
    constexpr unsigned kMask = (1u << Bits) - 1;
    const std::size_t full = n / kPerByte;
    for (std::size_t k = 0; k < full; ++k) {
        unsigned byte = 0;
        for (std::size_t t = 0; t < kPerByte; ++t) byte |= (values[k * kPerByte + t] & kMask) << (t * Bits);
        out[k] = static_cast<unsigned char>(byte);
    }
    if (const std::size_t rest = n - full * kPerByte; rest > 0) {
        unsigned byte = 0;
        for (std::size_t t = 0; t < rest; ++t) byte |= (values[full * kPerByte + t] & kMask) << (t * Bits);
        out[full] = static_cast<unsigned char>(byte);
    }
}

// Byte -> the 8 / Bits values it packs: unpacking one byte is one copy.
template <int Bits>
struct UnpackTable {
    static constexpr std::size_t kPerByte = 8 / Bits;
    std::array<std::array<std::uint16_t, kPerByte>, 256> values{};
    constexpr UnpackTable() {
        for (unsigned b = 0; b < 256; ++b)
            for (std::size_t k = 0; k < kPerByte; ++k)
                values[b][k] = static_cast<std::uint16_t>((b >> (k * Bits)) & ((1u << Bits) - 1));
    }
};

template <int Bits>
void unpack_narrow(const unsigned char* in, std::size_t n, std::uint16_t* out) {
    static constexpr UnpackTable<Bits> table;
    constexpr std::size_t kPerByte = UnpackTable<Bits>::kPerByte;
    const std::size_t whole = n / kPerByte;
    for (std::size_t b = 0; b < whole; ++b)
        std::memcpy(out + b * kPerByte, table.values[in[b]].data(), sizeof(std::uint16_t) * kPerByte);
    for (std::size_t i = whole * kPerByte; i < n; ++i) out[i] = table.values[in[whole]][i - whole * kPerByte];
}

}  // namespace detail

// Packs values[0..n) at `bits` (a valid width) into out, packed_bytes(n, bits) bytes, all written.
inline void pack(const std::uint16_t* values, std::size_t n, int bits, unsigned char* out) {
    switch (bits) {
        case 2:
            return detail::pack_narrow<2>(values, n, out);
        case 4:
            return detail::pack_narrow<4>(values, n, out);
        case 8:
            return detail::pack_narrow<8>(values, n, out);
        default:
            for (std::size_t j = 0; j < n; ++j) {
                out[2 * j] = static_cast<unsigned char>(values[j]);
                out[2 * j + 1] = static_cast<unsigned char>(values[j] >> 8);
            }
    }
}

// The n values packed at `bits` in `in`, into out[0..n).
inline void unpack(const unsigned char* in, std::size_t n, int bits, std::uint16_t* out) {
    switch (bits) {
        case 2:
            return detail::unpack_narrow<2>(in, n, out);
        case 4:
            return detail::unpack_narrow<4>(in, n, out);
        case 8:
            for (std::size_t i = 0; i < n; ++i) out[i] = in[i];
            return;
        default:
            for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint16_t>(in[2 * i] | (in[2 * i + 1] << 8));
    }
}

// Entry j of values packed at `bits`.
inline std::uint16_t packed_entry(const unsigned char* bytes, int bits, std::size_t j) {
    if (bits == 16) return static_cast<std::uint16_t>(bytes[2 * j] | (bytes[2 * j + 1] << 8));
    const std::size_t bit = j * static_cast<std::size_t>(bits);
    return static_cast<std::uint16_t>((bytes[bit >> 3] >> (bit & 7)) & ((1u << bits) - 1));
}

}  // namespace dtb::format
