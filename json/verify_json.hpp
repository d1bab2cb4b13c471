// The `dtb verify --json` object (verify/verify_report.hpp).
#pragma once
#include <nlohmann/json.hpp>

#include "dtb/verify/verify_report.hpp"

namespace dtb::json {

// One entry of "problems": {"slice", "problem", "file"?} for an unreadable file or slice; with
// "file", "index", "fen", "stored" and "derived" for a mismatch (WDL, DTW and DTC, or a rule
// table's WDL and threshold).
nlohmann::json finding_json(const verify::Finding& f);

// {"variant", "db", "files", "slices", "full", "positions_checked", "entries_checked",
// "mismatches", "ok", "problems", "not_checked"} (docs/CLI.md, "dtb verify").
nlohmann::json verify_report_json(const verify::FolderReport& r);

}  // namespace dtb::json
