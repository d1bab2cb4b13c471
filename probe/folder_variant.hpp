// The variant of the tables in a folder, read from their headers: a folder of one variant's
// tables (as dtb gen writes it) says which variant it is, so that a reader need not be told.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "dtb/format/format.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::format {

// The variant of the first table (by name) in `dir` whose header reads; nullopt when the folder
// is missing or holds no readable table. Only regular files are opened.
inline std::optional<VariantId> folder_variant(const std::filesystem::path& dir) {
    std::error_code ec;
    std::optional<std::string> best;
    std::optional<VariantId> variant;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() != ".wdl" || !entry.is_regular_file(ec)) continue;
        if (best && name >= *best) continue;
        auto info = read_table_info(entry.path());
        if (!info) continue;
        best = name;
        variant = info->variant;
    }
    return variant;
}

}  // namespace dtb::format
