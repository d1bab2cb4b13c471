#include "dtb/format/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

namespace dtb::format {

namespace {
const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISSOCK(mode)) return "a socket";
    return "a special file";
}
}  // namespace

Expected<int> open_regular_file(const std::filesystem::path& path) {
    const std::string what = path.string();
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        if (err == ENOENT) return Error{what + ": missing (no such file)", ErrorKind::tables};
        return Error{what + ": cannot open: " + std::strerror(err), ErrorKind::tables};
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return Error{what + ": cannot stat: " + std::strerror(err), ErrorKind::tables};
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return Error{what + ": not a regular file (" + kind_of(st.st_mode) + ")", ErrorKind::tables};
    }
    // Reads of a regular file block as usual; clear the flag so that nothing depends on it.
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

Expected<std::string> read_file_bounded(const std::filesystem::path& path, std::size_t max_bytes) {
    const std::string what = path.string();
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) return Error{what + " is a folder, not a file", ErrorKind::bad_input};
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        const int err = errno;
        if (err == ENOENT) return Error{what + ": no such file", ErrorKind::bad_input};
        return Error{"cannot read " + what + ": " + std::strerror(err), ErrorKind::bad_input};
    }
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            return Error{"cannot read " + what + ": " + std::strerror(err), ErrorKind::bad_input};
        }
        if (n == 0) break;
        if (text.size() + static_cast<std::size_t>(n) > max_bytes) {
            ::close(fd);
            return Error{what + " is larger than the " + std::to_string(max_bytes >> 20) + " MiB a file may have here",
                         ErrorKind::bad_input};
        }
        text.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return text;
}

}  // namespace dtb::format
