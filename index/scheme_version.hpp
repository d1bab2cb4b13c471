// Version of the index formula (index/slice_index.hpp), per variant. Written into every table
// header; a table built with another index scheme is refused. Bump it whenever rank/unrank change.
//   1  the formula of slice_index.hpp over every placement.
//   2  the same over the men configurations the file mirror leaves canonical (variants whose
//      rules are mirror-symmetric: Turkish); a position with other men is stored as its mirror.
#pragma once
#include <cstdint>

#include "rules/variant.hpp"

namespace dtb {
template <class R>
constexpr std::uint32_t index_scheme_version() {
    return has_mirror_symmetry<R>() ? 2 : 1;
}
}  // namespace dtb
