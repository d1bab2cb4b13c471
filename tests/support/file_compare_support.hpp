// Files read whole and folders of tables compared byte for byte (generator and tools tests).
#pragma once
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace dtb::test {

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

// Whether a folder entry is a table file: not the generator's lock (".dtb-gen.lock", which
// holds the pid of the run that wrote the folder) or another hidden file.
inline bool is_table_entry(const std::filesystem::directory_entry& e) {
    return e.path().filename().string().rfind('.', 0) != 0;
}

// Checks that every table file of a equals its namesake in b and that b holds no other; returns
// how many files a holds.
inline int check_same_files(const std::filesystem::path& a, const std::filesystem::path& b) {
    namespace fs = std::filesystem;
    int files = 0;
    for (const auto& e : fs::directory_iterator(a)) {
        if (!is_table_entry(e)) continue;
        INFO(e.path().filename().string());
        CHECK(slurp(e.path()) == slurp(b / e.path().filename()));
        ++files;
    }
    CHECK(files ==
          static_cast<int>(std::count_if(fs::directory_iterator(b), fs::directory_iterator{}, is_table_entry)));
    return files;
}

}  // namespace dtb::test
