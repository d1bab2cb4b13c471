// Version of the index formula (index/slice_index.hpp). Written into every table header; a table
// built with another index scheme is refused. Bump it whenever rank/unrank change.
#pragma once
#include <cstdint>

namespace dtb {
inline constexpr std::uint32_t kIndexSchemeVersion = 1;
}
