// Where tables are (docs/CLI.md, "Tables"): a tables root holds one folder per variant,
// international/ and turkish/, as dtb gen writes them. The root is the one given, else the
// environment's DTB_TABLES, else data/tb. What a folder holds (its largest piece count) and the
// sentence that tells a user a position is beyond it, for every front end alike.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include "dtb/index/material.hpp"
#include "dtb/probe/probe.hpp"
#include "dtb/rules/position.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::probe {

inline constexpr const char* kTablesRootVariable = "DTB_TABLES";
inline constexpr const char* kDefaultTablesRoot = "data/tb";

// The tables root: `given` when not empty, else $DTB_TABLES when set and not empty, else data/tb.
inline std::filesystem::path tables_root(const std::filesystem::path& given = {}) {
    if (!given.empty()) return given;
    if (const char* env = std::getenv(kTablesRootVariable); env && *env) return env;
    return kDefaultTablesRoot;
}

// One variant's folder under a tables root.
inline std::filesystem::path variant_folder(const std::filesystem::path& root, VariantId v) {
    return root / std::string(variant_name(v));
}

// Whether `dir` looks like a tables root (it has an international/ or turkish/ folder) rather
// than one variant's folder.
inline bool is_tables_root(const std::filesystem::path& dir) {
    std::error_code ec;
    return std::filesystem::is_directory(dir / "international", ec) ||
           std::filesystem::is_directory(dir / "turkish", ec);
}

// The slices whose WDL table is in a folder: how many, and the most pieces of one (0 and 0 for
// a folder missing or without tables).
struct FolderSlices {
    int slices = 0;
    int largest_pieces = 0;
};
inline FolderSlices slices_in(const std::filesystem::path& dir) {
    FolderSlices f;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        if (e.path().extension() != ".wdl") continue;
        if (const auto m = Material::parse(e.path().stem().string())) {
            ++f.slices;
            f.largest_pieces = std::max(f.largest_pieces, m->pieces());
        }
    }
    return f;
}

// When a failed probe of `p` is beyond the tables (a table missing, and more pieces than the
// largest slice present): "beyond the tables: <shown> holds international tables up to 4 pieces
// and the position has 5 (dtb gen --variant international --pieces 5 makes them)", `shown` naming
// the folder as the front end may show it; nullopt for any other failure.
inline std::optional<std::string> beyond_tables(VariantId v, const std::string& shown, int largest, const Position& p,
                                                const Result& r) {
    const int pieces = std::popcount(p.occupied());
    if (r.status != Status::missing || pieces <= largest) return std::nullopt;
    const std::string name(variant_name(v));
    return "beyond the tables: " + shown + " holds " + name + " tables up to " + std::to_string(largest) +
           " pieces and the position has " + std::to_string(pieces) + " (dtb gen --variant " + name + " --pieces " +
           std::to_string(pieces) + " makes them)";
}

}  // namespace dtb::probe
