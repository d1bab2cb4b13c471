// Every value of a finished table, read into the generator's own memory (a BigArray, which the
// mapping cache bounds: gen/mapping_cache.hpp) rather than a std::vector, which would add a
// 6-piece input's GBs to the work memory uncounted.
#pragma once
#include <cstddef>
#include <cstdint>

#include "dtb/format/format.hpp"
#include "dtb/gen/big_array.hpp"
#include "dtb/gen/parallel.hpp"
#include "dtb/rules/expected.hpp"

namespace dtb::gen {

inline Expected<BigArray<std::uint16_t>> read_table_values(const format::TableReader& reader, MappingCache& cache,
                                                           int threads = 0) {
    BigArray<std::uint16_t> values(static_cast<std::size_t>(reader.info().num_entries), cache);
    if (format::Status s = reader.read_all_into(values, pass_threads(threads)); !s) return Error{s.error()};
    return values;
}

}  // namespace dtb::gen
