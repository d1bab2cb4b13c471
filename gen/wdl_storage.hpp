// Which side of a pair of slices, if any, gets a derived WDL table (probe/derived_wdl.hpp): a
// header without values, the side's WDL found at probe time by one ply of search into the other
// side's table. Deriving a side saves its bytes and costs its probes a one-ply search of table
// reads instead of one read (BENCHMARKS.md, "Derived WDL").
#pragma once
#include <array>
#include <cstdint>

namespace dtb::gen {

enum class WdlStorage {
    // Both sides stored: every WDL probe is one table read.
    both_sides,
    // The default. A side is derived only where that removes most of a large pair's bytes: its
    // table is at least kBalancedMinBytes and at least twice its mirror's, so deriving it cuts
    // the pair's WDL by two thirds or more. Where the sides compress alike, deriving would save
    // at most half of the pair for the same probe cost; where the table is small, the bytes saved
    // are not worth any probe cost (BENCHMARKS.md, "Balanced WDL").
    balanced,
    // Of every pair, the side whose table is larger, wherever allowed: the smallest set.
    compact,
};

// A table below this is never derived under `balanced` (every 2-4 piece WDL table of both
// variants is smaller; the largest 5-piece ones are 1.7-3.6 MB).
inline constexpr std::uint64_t kBalancedMinBytes = std::uint64_t{1} << 20;

// The side (0 or 1) whose WDL table to derive, or -1 for none. bytes: each side's compressed
// file size with its values stored; derivable: whether each side may be derived at all
// (Driver::wdl_derivable). min_bytes: kBalancedMinBytes except in tests.
inline int side_to_derive(WdlStorage storage, std::array<std::uint64_t, 2> bytes, std::array<bool, 2> derivable,
                          std::uint64_t min_bytes = kBalancedMinBytes) {
    switch (storage) {
        case WdlStorage::both_sides:
            return -1;
        case WdlStorage::compact: {
            int derived = -1;
            for (int s = 0; s < 2; ++s)
                if (derivable[s] && (derived < 0 || bytes[s] > bytes[derived])) derived = s;
            return derived;
        }
        case WdlStorage::balanced: {
            const int larger = bytes[1] > bytes[0] ? 1 : 0;
            const std::uint64_t big = bytes[larger], small = bytes[1 - larger];
            if (!derivable[larger] || big < min_bytes || big / 2 < small) return -1;
            return larger;
        }
    }
    return -1;
}

}  // namespace dtb::gen
