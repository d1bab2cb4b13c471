#include "dtb/server/gzip.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>

namespace dtb::server {

std::optional<std::string> gzip(std::string_view data, int level) {
    z_stream z{};
    // 15 + 16: the largest window, written with a gzip header and trailer.
    if (deflateInit2(&z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return std::nullopt;
    std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    z.avail_in = static_cast<uInt>(data.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    const int rc = deflate(&z, Z_FINISH);
    const std::size_t written = out.size() - z.avail_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) return std::nullopt;
    out.resize(written);
    return out;
}

bool accepts_gzip(std::string_view accept_encoding) {
    std::string_view rest = accept_encoding;
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        const auto trim = [](std::string_view s) {
            while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
            while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
            return s;
        };
        const std::size_t semi = item.find(';');
        const std::string_view coding = trim(item.substr(0, semi));
        std::string lower(coding);
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        if (lower != "gzip" && lower != "x-gzip" && lower != "*") continue;
        if (semi == std::string_view::npos) return true;
        // A q of zero refuses the coding: "q=0", "q=0.0", "q=0.000".
        std::string_view q = trim(item.substr(semi + 1));
        if (q.size() < 2 || (q[0] != 'q' && q[0] != 'Q') || q[1] != '=') return true;
        q.remove_prefix(2);
        const bool zero = !q.empty() && q[0] == '0' &&
                          std::all_of(q.begin() + 1, q.end(), [](char c) { return c == '.' || c == '0'; });
        if (!zero) return true;
    }
    return false;
}

}  // namespace dtb::server
