// Version of the index formula (index/slice_index.hpp), per variant. Written into every table
// header; a table built with another index scheme is refused. Bump it whenever rank/unrank change.
//   1  the formula of slice_index.hpp over every placement.
//   2  the same over the men configurations the file mirror leaves canonical (variants whose
//      rules are mirror-symmetric: Turkish); a position with other men is stored as its mirror.
//   3  scheme 2, and slices without men quotiented by the mirror too: their kings ranked as men
//      are, one entry for a position and its mirror unless the king sets are their own mirror.
#pragma once
#include <cstdint>

#include "dtb/rules/variant.hpp"

namespace dtb {
template <class R>
constexpr std::uint32_t index_scheme_version() {
    return has_mirror_symmetry<R>() ? 3 : 1;
}
}  // namespace dtb
