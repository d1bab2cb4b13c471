// The generator's lock on its output folder: one `dtb gen` writes a folder at a time. The lock
// is an flock on "<dir>/.dtb-gen.lock", released by the kernel when the process ends however it
// ends, so a killed run never leaves the folder locked; the file holds the owner's pid for the
// message a second run gives.
#pragma once
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>

#include "dtb/rules/expected.hpp"

namespace dtb::gen {

class FolderLock {
  public:
    static constexpr const char* kFileName = ".dtb-gen.lock";

    // Takes the lock of `dir` (which must exist). When another process holds it: an error of
    // kind busy naming that process, or, with `wait`, `waiting` is called once and the lock
    // is waited for.
    static Expected<FolderLock> take(const std::filesystem::path& dir, bool wait,
                                     const std::function<void(const std::string&)>& waiting) {
        const std::filesystem::path path = dir / kFileName;
        const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0)
            return Error{"cannot open the lock file " + path.string() + ": " + std::strerror(errno), ErrorKind::system};
        FolderLock lock(fd);
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK)
                return Error{"cannot lock " + path.string() + ": " + std::strerror(errno), ErrorKind::system};
            const std::string holder = "another dtb gen (" + owner_of(fd) + ") is writing to " + dir.string();
            if (!wait) return Error{holder + "; wait for it to finish, or pass --wait", ErrorKind::busy};
            if (waiting) waiting(holder + "; waiting for it to finish");
            while (::flock(fd, LOCK_EX) != 0)
                if (errno != EINTR)
                    return Error{"cannot lock " + path.string() + ": " + std::strerror(errno), ErrorKind::system};
        }
        const std::string pid = std::to_string(::getpid()) + "\n";
        if (::ftruncate(fd, 0) == 0 && ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
            // The pid is only for messages: a lock file that cannot hold it still locks.
        }
        return lock;
    }

    FolderLock(FolderLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
    FolderLock& operator=(FolderLock&& o) noexcept {
        if (this != &o) {
            release();
            fd_ = std::exchange(o.fd_, -1);
        }
        return *this;
    }
    FolderLock(const FolderLock&) = delete;
    FolderLock& operator=(const FolderLock&) = delete;
    ~FolderLock() { release(); }

  private:
    explicit FolderLock(int fd) : fd_(fd) {}
    void release() {
        if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
        fd_ = -1;
    }
    static std::string owner_of(int fd) {
        char buf[32] = {};
        const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
        std::string pid(buf, n > 0 ? static_cast<std::size_t>(n) : 0);
        while (!pid.empty() && (pid.back() == '\n' || pid.back() == '\r')) pid.pop_back();
        const bool digits = !pid.empty() && pid.find_first_not_of("0123456789") == std::string::npos;
        return digits ? "pid " + pid : "pid unknown";
    }
    int fd_ = -1;
};

}  // namespace dtb::gen
