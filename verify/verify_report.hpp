// What `dtb verify` finds in a folder of tables (verify/verify_folder.hpp): plain structs, so that
// every front end reports them alike (the text lines here, the JSON in json/verify_json.hpp).
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "dtb/probe/value.hpp"

namespace dtb::verify {

// A position's WDL, DTW and DTC, as stored or as re-derived from its successors.
struct StoredValues {
    Wdl wdl = Wdl::draw;
    int dtw = 0;
    int dtc = 0;
    bool operator==(const StoredValues&) const = default;
};

// One thing found wrong, or left unchecked.
struct Finding {
    enum class Kind {
        unreadable,      // a file or slice that cannot be read or is not sound: `problem` says why
        not_checked,     // --full: a slice not re-derived, as it or a slice it needs is missing or invalid
        value_mismatch,  // a stored WDL/DTW/DTC that its successors contradict
        rule_mismatch,   // a stored rule-table threshold that its successors contradict
    };
    Kind kind = Kind::unreadable;
    std::string slice;    // the slice concerned, e.g. "KKMvK"
    std::string file;     // the file's path, when one is named
    std::string problem;  // unreadable: why
    // The mismatches: the position (its index in the slice and its FEN) and both values.
    std::uint64_t index = 0;
    std::string fen;
    StoredValues stored, derived;                 // value_mismatch
    ValueCode stored_rule = 0, derived_rule = 0;  // rule_mismatch (WDL and threshold)
};

// The whole run's outcome.
struct FolderReport {
    std::string variant;
    std::string db;
    int files = 0;
    std::size_t slices = 0;
    bool full = false;
    // Re-derived by --full: entries, and the positions they stand for (the same in international;
    // an entry of a Turkish mirror index stands for a position and its mirror).
    std::uint64_t positions = 0, entries = 0;
    std::uint64_t mismatches = 0;   // every mismatch, also those past the first 100 kept below
    std::vector<Finding> problems;  // unreadable files and slices, and the first 100 mismatches
    std::vector<std::string> not_checked;
    bool ok() const { return problems.empty() && mismatches == 0; }
};

// A finding as `dtb verify` prints it: "FAIL ..." or "SKIP ..." (a rule table is named by its file
// name, e.g. "KKMvK.fmjd").
inline std::string finding_line(const Finding& f) {
    switch (f.kind) {
        case Finding::Kind::unreadable:
            return "FAIL " + (f.file.empty() ? f.slice : f.file) + ": " + f.problem;
        case Finding::Kind::not_checked:
            return "SKIP " + f.slice + ": not re-derived, as it or a slice it needs is missing or invalid";
        case Finding::Kind::value_mismatch:
            return "FAIL " + f.slice + " index " + std::to_string(f.index) + " " + f.fen + ": stored " +
                   std::string(to_string(f.stored.wdl)) + " dtw " + std::to_string(f.stored.dtw) + " dtc " +
                   std::to_string(f.stored.dtc) + ", derived " + std::string(to_string(f.derived.wdl)) + " dtw " +
                   std::to_string(f.derived.dtw) + " dtc " + std::to_string(f.derived.dtc);
        case Finding::Kind::rule_mismatch:
            return "FAIL " + std::filesystem::path(f.file).filename().string() + " index " + std::to_string(f.index) +
                   " " + f.fen + ": stored " + std::string(to_string(wdl_of(f.stored_rule))) + " threshold " +
                   std::to_string(distance_of(f.stored_rule)) + ", derived " +
                   std::string(to_string(wdl_of(f.derived_rule))) + " threshold " +
                   std::to_string(distance_of(f.derived_rule));
    }
    return {};
}

// The summary line: "OK: 427 files, 85 slices[, N positions re-derived[ (E entries)], M mismatches]".
inline std::string summary_line(const FolderReport& r) {
    std::string line = std::string(r.ok() ? "OK" : "FAILED") + ": " + std::to_string(r.files) + " files, " +
                       std::to_string(r.slices) + " slices";
    if (r.full) {
        line += ", " + std::to_string(r.positions) + " positions re-derived";
        if (r.entries != r.positions) line += " (" + std::to_string(r.entries) + " entries)";
        line += ", " + std::to_string(r.mismatches) + " mismatches";
    }
    return line;
}

}  // namespace dtb::verify
