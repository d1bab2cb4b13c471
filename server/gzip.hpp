// Answers compressed for clients that accept gzip (zlib): the page's files once, large JSON
// answers as they are made.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace dtb::server {

// The gzip stream of `data`; nullopt when zlib fails (the answer then goes uncompressed).
std::optional<std::string> gzip(std::string_view data, int level);

// Whether an Accept-Encoding header value takes gzip ("gzip", "gzip;q=0.5", "*"; not "gzip;q=0").
bool accepts_gzip(std::string_view accept_encoding);

}  // namespace dtb::server
