// The eight compass directions as White sees the board: North is towards White's promotion row.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace dtb {

enum class Dir : std::uint8_t { N, S, E, W, NE, NW, SE, SW };
inline constexpr int kNumDirs = 8;

constexpr int dir_rank_step(Dir d) {
    switch (d) {
        case Dir::N:
        case Dir::NE:
        case Dir::NW:
            return 1;
        case Dir::S:
        case Dir::SE:
        case Dir::SW:
            return -1;
        default:
            return 0;
    }
}
constexpr int dir_file_step(Dir d) {
    switch (d) {
        case Dir::E:
        case Dir::NE:
        case Dir::SE:
            return 1;
        case Dir::W:
        case Dir::NW:
        case Dir::SW:
            return -1;
        default:
            return 0;
    }
}
constexpr Dir opposite(Dir d) {
    switch (d) {
        case Dir::N:
            return Dir::S;
        case Dir::S:
            return Dir::N;
        case Dir::E:
            return Dir::W;
        case Dir::W:
            return Dir::E;
        case Dir::NE:
            return Dir::SW;
        case Dir::SW:
            return Dir::NE;
        case Dir::NW:
            return Dir::SE;
        case Dir::SE:
            return Dir::NW;
    }
    return d;
}
// The same direction seen from the other side of the board (the board turned 180 degrees).
constexpr Dir rotated(Dir d) {
    return opposite(d);
}
// The direction in the board mirrored left to right (files reversed, ranks kept).
constexpr Dir mirrored(Dir d) {
    switch (d) {
        case Dir::E:
            return Dir::W;
        case Dir::W:
            return Dir::E;
        case Dir::NE:
            return Dir::NW;
        case Dir::NW:
            return Dir::NE;
        case Dir::SE:
            return Dir::SW;
        case Dir::SW:
            return Dir::SE;
        default:
            return d;
    }
}

inline constexpr std::array<Dir, 4> kDiagonals{Dir::NE, Dir::NW, Dir::SE, Dir::SW};
inline constexpr std::array<Dir, 4> kOrthogonals{Dir::N, Dir::S, Dir::E, Dir::W};

// Calls f.template operator()<d>() for each d of the direction list `Dirs`, in order. Each d is a
// constant, so a step in it compiles to one constant shift and a ray lookup to one load; a loop
// over a runtime Dir would index the shift table and shift by a variable instead.
template <auto Dirs, class F>
constexpr void for_each_dir(F&& f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        (f.template operator()<Dirs[I]>(), ...);
    }
    (std::make_index_sequence<Dirs.size()>{});
}
// As for_each_dir, stopping at the first d for which f returns true; returns whether one did.
template <auto Dirs, class F>
constexpr bool any_dir(F&& f) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
        return (f.template operator()<Dirs[I]>() || ...);
    }
    (std::make_index_sequence<Dirs.size()>{});
}

}  // namespace dtb
