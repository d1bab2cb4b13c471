// The quick check of a folder of tables (dtb verify without --full): every file's header, size
// and checksums, and the folder whole: every slice that a present slice depends on (its mirror,
// and the slices its captures and promotions lead to, recursively) must be present and valid.
// A folder may hold part of a set (a run with --only), but never a slice without what it needs.
#pragma once
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "dtb/index/material.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::verify {

struct FolderProblem {
    std::string slice;
    std::string file;  // empty for a problem of a whole slice
    std::string problem;
};

struct FolderCheck {
    std::vector<Material> slices;  // every material with a file in the folder, generation order
    int files = 0;                 // files checked
    std::vector<FolderProblem> problems;
    // The slices whose files are valid, with every slice they depend on: the ones a probe (or
    // dtb verify --full) can answer in whole.
    std::set<Material> complete;
};

// The folder's slices, files and problems (the slices of R up to max_pieces). Compiled for
// International and Turkish (folder_check.cpp).
template <class R>
FolderCheck check_folder(const std::filesystem::path& dir, int max_pieces = 12);

extern template FolderCheck check_folder<International>(const std::filesystem::path&, int);
extern template FolderCheck check_folder<Turkish>(const std::filesystem::path&, int);

}  // namespace dtb::verify
