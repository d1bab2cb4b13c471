// Opens the table of one slice and metric and checks that its header is the one a reader of this
// build expects: variant and rule fingerprint (TableReader::open), the slice and metric its name
// says, the index scheme of index/scheme_version.hpp and the slice's number of entries. The
// generator's loaders use it, so that a table of another index scheme (Turkish tables written
// before the mirror index) is regenerated rather than read with the wrong order.
#pragma once
#include <filesystem>
#include <string>

#include "index/material.hpp"
#include "index/scheme_version.hpp"
#include "index/slice_index.hpp"
#include "probe/format.hpp"
#include "rules/expected.hpp"
#include "rules/variant.hpp"

namespace dtb::format {

template <class R>
Expected<TableReader> open_table_of(const std::filesystem::path& path, const Material& m, Metric metric) {
    auto reader = TableReader::open(path, R::kId, rules_fingerprint<R>());
    if (!reader) return Error{reader.error()};
    const TableInfo& info = reader->info();
    std::string problem;
    if (info.metric != metric || info.wk != m.wk || info.wm != m.wm || info.bk != m.bk || info.bm != m.bm)
        problem = "the header describes another table";
    else if (info.index_scheme != index_scheme_version<R>())
        problem = "index scheme " + std::to_string(info.index_scheme) + ", expected " +
                  std::to_string(index_scheme_version<R>());
    else if (info.num_entries != SliceIndex<R>(m).size())
        problem = "holds " + std::to_string(info.num_entries) + " entries, the slice has " +
                  std::to_string(SliceIndex<R>(m).size());
    if (!problem.empty()) return Error{path.string() + ": " + problem};
    return reader;
}

}  // namespace dtb::format
