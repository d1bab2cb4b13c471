// dtb verify over one folder: the checksums and soundness of every table (verify/folder_check.hpp)
// and, when full, every stored value re-derived from its successors (verify/verify_slice.hpp) and
// every rule-table threshold from its successors' (verify/verify_rules.hpp). Front ends print
// the findings as they come (events) and the report at the end.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "dtb/rules/expected.hpp"
#include "dtb/rules/variant.hpp"
#include "dtb/verify/verify_report.hpp"

namespace dtb::verify {

struct VerifyRequest {
    std::filesystem::path dir;
    bool full = false;  // re-derive every value, not only the checksums
    int threads = 0;    // of the re-derivation's parallel loops (0: all cores)
    // Slice names (like KKMvK): only these and their mirrors are checked (empty: every slice).
    std::vector<std::string> only;
};

// What the re-derivation of a slice is checking.
enum class VerifyStage {
    values,       // its WDL, DTW and DTC (done of total entries: at its start, then every half second)
    rule_tables,  // its rule tables (at their start)
};

struct VerifyEvents {
    // Each finding as it is made (the first 100 mismatches only), from one thread at a time.
    std::function<void(const Finding&)> found;
    std::function<void(const std::string& slice, VerifyStage stage, std::uint64_t done, std::uint64_t total)> progress;
    // The whole --full run: entries of the values re-derived so far, of all its slices.
    std::function<void(std::uint64_t done, std::uint64_t total)> overall;
};

// Mismatches kept in the report and told to events.found; the rest are only counted.
inline constexpr std::size_t kMaxReportedProblems = 100;

// Checks the folder; an error (kind tables) when it is not a folder or holds no table of R.
// Compiled for International and Turkish (verify_folder.cpp).
template <class R>
Expected<FolderReport> verify_folder(const VerifyRequest& request, const VerifyEvents& events = {});

extern template Expected<FolderReport> verify_folder<International>(const VerifyRequest&, const VerifyEvents&);
extern template Expected<FolderReport> verify_folder<Turkish>(const VerifyRequest&, const VerifyEvents&);

}  // namespace dtb::verify
