#include "dtb/json/verify_json.hpp"

#include <string>

namespace dtb::json {

namespace {

nlohmann::json values_json(const verify::StoredValues& v) {
    return {{"wdl", std::string(to_string(v.wdl))}, {"dtw", v.dtw}, {"dtc", v.dtc}};
}

nlohmann::json rule_value_json(ValueCode v) {
    return {{"wdl", std::string(to_string(wdl_of(v)))}, {"threshold", distance_of(v)}};
}

}  // namespace

nlohmann::json finding_json(const verify::Finding& f) {
    using Kind = verify::Finding::Kind;
    if (f.kind == Kind::unreadable || f.kind == Kind::not_checked) {
        nlohmann::json j{{"slice", f.slice}, {"problem", f.problem}};
        if (!f.file.empty()) j["file"] = f.file;
        return j;
    }
    const bool rule = f.kind == Kind::rule_mismatch;
    return {{"slice", f.slice},
            {"file", f.file},
            {"index", f.index},
            {"fen", f.fen},
            {"stored", rule ? rule_value_json(f.stored_rule) : values_json(f.stored)},
            {"derived", rule ? rule_value_json(f.derived_rule) : values_json(f.derived)}};
}

nlohmann::json verify_report_json(const verify::FolderReport& r) {
    nlohmann::json problems = nlohmann::json::array();
    for (const verify::Finding& f : r.problems) problems.push_back(finding_json(f));
    nlohmann::json not_checked = nlohmann::json::array();
    for (const std::string& name : r.not_checked) not_checked.push_back(name);
    return {{"variant", r.variant},
            {"db", r.db},
            {"files", r.files},
            {"slices", r.slices},
            {"full", r.full},
            {"positions_checked", r.positions},
            {"entries_checked", r.entries},
            {"mismatches", r.mismatches},
            {"ok", r.ok()},
            {"problems", problems},
            {"not_checked", not_checked}};
}

}  // namespace dtb::json
