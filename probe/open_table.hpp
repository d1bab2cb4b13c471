// The one check of a table's header against what a reader of this build expects (and the header
// a writer of this build gives a table), for every reader: the generator's loaders (a table of another index scheme is
// regenerated rather than read in the wrong order), the probe library, `dtb verify` and `dtb stats`.
#pragma once
#include <filesystem>
#include <string>

#include "dtb/format/format.hpp"
#include "dtb/index/material.hpp"
#include "dtb/index/scheme_version.hpp"
#include "dtb/index/slice_index.hpp"
#include "dtb/rules/expected.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::format {

// Why the header of a table opened for slice m and `metric` is not what a reader of this build
// expects (empty when it is): the metric and slice its name says (a file copied under another
// name can have the right size and valid checksums), the index scheme of
// index/scheme_version.hpp (Turkish tables of an older scheme have the same entry count for
// most slices), the slice's number of entries, and WDL values in range. Variant and rule
// fingerprint are TableReader::open's checks. `entries` is SliceIndex<R>(m).size(), which the
// caller usually has.
template <class R>
std::string header_problem(const TableInfo& info, const Material& m, Metric metric, std::uint64_t entries) {
    if (info.metric != metric)
        return "holds metric " + std::string(metric_name(info.metric)) + ", its name says " +
               std::string(metric_name(metric));
    if (info.wk != m.wk || info.wm != m.wm || info.bk != m.bk || info.bm != m.bm)
        return "holds another slice than its name says";
    if (info.index_scheme != index_scheme_version<R>())
        return "index scheme " + std::to_string(info.index_scheme) + ", expected " +
               std::to_string(index_scheme_version<R>());
    if (info.num_entries != entries)
        return "holds " + std::to_string(info.num_entries) + " entries, the slice has " + std::to_string(entries);
    if (metric == Metric::wdl && info.max_value > 2)
        return "WDL value " + std::to_string(info.max_value) + " out of range";
    return {};
}

// The header fields a table of slice m and `metric` written by this build carries (the writer
// fills in the rest: entries, encoding, block layout): what header_problem checks.
template <class R>
TableInfo table_info_of(const Material& m, Metric metric) {
    TableInfo info{};
    info.variant = R::kId;
    info.rules_fingerprint = rules_fingerprint<R>();
    info.wk = m.wk;
    info.wm = m.wm;
    info.bk = m.bk;
    info.bm = m.bm;
    info.metric = metric;
    info.index_scheme = index_scheme_version<R>();
    return info;
}

// Opens the table and checks its header (header_problem): an error names the file and the
// problem.
template <class R>
Expected<TableReader> open_table_of(const std::filesystem::path& path, const Material& m, Metric metric,
                                    std::uint64_t entries) {
    auto reader = TableReader::open(path, R::kId, rules_fingerprint<R>());
    if (!reader) return Error{reader.error()};
    if (std::string problem = header_problem<R>(reader->info(), m, metric, entries); !problem.empty())
        return Error{path.string() + ": " + problem};
    return reader;
}
template <class R>
Expected<TableReader> open_table_of(const std::filesystem::path& path, const Material& m, Metric metric) {
    return open_table_of<R>(path, m, metric, SliceIndex<R>(m).size());
}

}  // namespace dtb::format
