// Header encoding and checking, value packing, names: shared by the writer and the reader.
#include "dtb/format/layout.hpp"

#include <xxhash.h>

#include <algorithm>
#include <array>
#include <system_error>

namespace dtb::format {

std::string_view metric_name(Metric m) {
    switch (m) {
        case Metric::wdl:
            return "wdl";
        case Metric::dtw:
            return "dtw";
        case Metric::dtc:
            return "dtc";
        case Metric::fmjd:
            return "fmjd";
        case Metric::ffjd:
            return "ffjd";
        case Metric::ffjd16:
            return "ffjd16";
    }
    return "unknown";
}

std::optional<Metric> metric_of_byte(std::uint8_t b) {
    if (b >= kNumMetrics) return std::nullopt;
    return static_cast<Metric>(b);
}

std::string file_name(const std::string& slice_name, Metric metric) {
    return slice_name + "." + std::string(metric_name(metric));
}

namespace detail {

std::uint64_t xxh64(const void* data, std::size_t n) {
    return XXH64(data, n, 0);
}

void encode_header(const TableInfo& info, std::uint64_t block_table_hash, unsigned char* out) {
    std::memset(out, 0, kHeaderBytes);
    std::memcpy(out, kMagic, 8);
    put_u32(out + 8, kFormatVersion);
    out[12] = static_cast<unsigned char>(info.variant);
    out[13] = 0;  // side to move: White
    out[14] = static_cast<unsigned char>(info.metric);
    out[15] = static_cast<unsigned char>(encoding_of(info));
    out[16] = static_cast<unsigned char>(info.wk);
    out[17] = static_cast<unsigned char>(info.wm);
    out[18] = static_cast<unsigned char>(info.bk);
    out[19] = static_cast<unsigned char>(info.bm);
    put_u32(out + 20, info.index_scheme);
    put_u64(out + 24, info.rules_fingerprint);
    put_u64(out + 32, info.num_entries);
    put_u64(out + 40, info.num_blocks);
    put_u32(out + 48, info.block_entries);
    put_u16(out + 52, static_cast<std::uint16_t>(info.max_value));
    out[54] = static_cast<unsigned char>(info.bits_per_entry);
    out[55] = 0;  // reserved
    put_u64(out + 56, block_table_hash);
    put_u64(out + 64, xxh64(out, kHeaderHashedBytes));
}

Status decode_header(const unsigned char* in, const std::string& what, TableInfo& info,
                     std::uint64_t& block_table_hash) {
    auto fail = [&](const std::string& why) { return Status(Error{what + ": " + why}); };
    if (std::memcmp(in, kMagic, 8) != 0) return fail("not a dtb table (bad magic)");
    const std::uint32_t version = get_u32(in + 8);
    if (version != kFormatVersion)
        return fail("format version " + std::to_string(version) + ", this reader reads version " +
                    std::to_string(kFormatVersion));
    if (get_u64(in + 64) != xxh64(in, kHeaderHashedBytes)) return fail("corrupt: header checksum mismatch");
    if (in[12] > static_cast<unsigned>(VariantId::turkish)) return fail("unknown variant id " + std::to_string(in[12]));
    if (in[13] != 0) return fail("side to move " + std::to_string(in[13]) + " (only 0 = White)");
    const std::optional<Metric> metric = metric_of_byte(in[14]);
    if (!metric) return fail("unknown metric " + std::to_string(in[14]));
    if (in[15] > static_cast<unsigned>(Encoding::exceptions)) return fail("unknown encoding " + std::to_string(in[15]));
    const auto encoding = static_cast<Encoding>(in[15]);
    const bool derived = encoding == Encoding::derived;
    if (derived && *metric != Metric::wdl)
        return fail("a derived table of metric " + std::string(metric_name(*metric)));
    if (encoding == Encoding::exceptions && *metric != Metric::fmjd && *metric != Metric::ffjd)
        return fail("exceptions to DTW and DTC in a table of metric " + std::string(metric_name(*metric)));
    const int bits = in[54];
    if (derived ? bits != 0 : !valid_bits(bits)) return fail("invalid bits per entry " + std::to_string(bits));
    if (in[55] != 0) return fail("reserved header byte 55 is " + std::to_string(in[55]));
    TableInfo t;
    t.variant = static_cast<VariantId>(in[12]);
    t.metric = *metric;
    t.residual = encoding == Encoding::exceptions;
    t.bits_per_entry = bits;
    t.wk = in[16];
    t.wm = in[17];
    t.bk = in[18];
    t.bm = in[19];
    t.index_scheme = get_u32(in + 20);
    t.rules_fingerprint = get_u64(in + 24);
    t.num_entries = get_u64(in + 32);
    t.num_blocks = get_u64(in + 40);
    t.block_entries = get_u32(in + 48);
    t.max_value = get_u16(in + 52);
    if (t.block_entries < kMinBlockEntries || t.block_entries > kMaxBlockEntries ||
        t.block_entries % kMinBlockEntries != 0)
        return fail("invalid entries per block " + std::to_string(t.block_entries));
    if (derived && (t.num_blocks != 0 || t.max_value != 0))
        return fail("a derived table with " + std::to_string(t.num_blocks) + " blocks and max value " +
                    std::to_string(t.max_value));
    if (!derived && t.num_blocks != blocks_for(t.num_entries, t.block_entries))
        return fail("block count " + std::to_string(t.num_blocks) + " does not match " + std::to_string(t.num_entries) +
                    " entries");
    if (!derived && (t.max_value >> t.bits_per_entry) != 0)
        return fail("max value " + std::to_string(t.max_value) + " does not fit in " +
                    std::to_string(t.bits_per_entry) + " bits");
    info = t;
    block_table_hash = get_u64(in + 56);
    return {};
}

std::string errno_text(int err) {
    return std::error_code(err, std::generic_category()).message();
}

}  // namespace detail
}  // namespace dtb::format
