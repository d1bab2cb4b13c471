// Opening a file that must be a regular file (a table) without ever blocking: a FIFO, a device or
// a socket named like a table would otherwise hang the open or the reads. And reading a text
// input (a game record) with a bound on its size.
#pragma once
#include <cstddef>
#include <filesystem>
#include <string>

#include "dtb/rules/expected.hpp"

namespace dtb::format {

// A read-only descriptor (close-on-exec, blocking reads) of `path`, or an error that names the
// file: missing, not a regular file (FIFO, folder, device, socket), or the open's errno. The
// open is non-blocking, so a FIFO without a writer is refused instead of waited for.
Expected<int> open_regular_file(const std::filesystem::path& path);

// The whole content of a text input (a PDN file) of at most `max_bytes`: a regular file, or a
// pipe or device read until its end, never past max_bytes (so /dev/zero is refused, not read
// forever). Errors (kind bad_input) name the file: missing, a folder, unreadable, too large.
Expected<std::string> read_file_bounded(const std::filesystem::path& path, std::size_t max_bytes);

}  // namespace dtb::format
