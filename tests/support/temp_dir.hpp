// Temporary folders for tests: fresh and empty, unique to the process, under the system's
// temporary directory.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace dtb::test {

// A fresh, empty folder "dtb_<name>_<pid>" (an older one of that name is removed first).
inline std::filesystem::path fresh_dir(const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path d = fs::temp_directory_path() / ("dtb_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// A fresh folder removed with the object (at exit for a function-local static).
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name) : path(fresh_dir(name)) {}
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
};

}  // namespace dtb::test
