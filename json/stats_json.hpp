// The `dtb stats --json` object of a folder's statistics (verify/table_stats.hpp).
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "dtb/probe/value.hpp"
#include "dtb/verify/slice_stats.hpp"

namespace dtb::json {

// {"slices":[{"name":..,"wk":..,..}]}: the fields in the order docs/CLI.md lists them.
nlohmann::ordered_json stats_json(const std::vector<verify::SliceStats>& stats);

}  // namespace dtb::json
