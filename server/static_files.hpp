// The explorer page's files (web/), compiled into the binary: no file beside it to install, no
// request path that reaches the disk. cmake/embed_files.cmake writes their table.
#pragma once
#include <string_view>

namespace dtb::server {

struct StaticFile {
    std::string_view path;          // "/", "/app.js", ...
    std::string_view content_type;  // "text/html; charset=utf-8", ...
    std::string_view content;
};

// The file served at `path` ("/" is web/index.html), or nullptr.
const StaticFile* find_static_file(std::string_view path);

}  // namespace dtb::server
