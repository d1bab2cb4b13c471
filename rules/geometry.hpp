// Board geometry, apart from any rule: which squares exist, how they are named, where each one
// sits, and which square neighbours which in each of the eight directions. Everything is computed
// at compile time from a Layout, and the rest of the program sees only bitboards.
//
// Bit layouts are chosen so that a step in one direction is one constant shift:
//  - International 10x10: the 50 dark squares, numbered 1..50 from the top-left (RULES.md 1).
//    Square n (dense index d = n-1) sits at bit d + d/10, which leaves a "ghost" bit after every
//    two rows (bits 10, 21, 32, 43); the diagonal steps are then -6 (NW), -5 (NE), +5 (SW), +6 (SE).
//  - Full 8x8 (Turkish): all 64 squares, bit = rank*8 + file, steps +-8 (N/S) and +-1 (E/W).
// "Dense" indices 0..N-1 number the playable squares without holes; index/ works on them.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "bitboard.hpp"
#include "direction.hpp"

namespace dtb {

struct Coord {
    int rank;  // 0 = White's back row (bottom as White sees the board)
    int file;  // 0 = left as White sees the board
};

enum class SquareNaming : std::uint8_t { numeric, algebraic };

// International draughts board (RULES.md 1, "Board and notation").
struct International10x10Layout {
    static constexpr int kWidth = 10;
    static constexpr int kHeight = 10;
    static constexpr int kNumSquares = 50;
    static constexpr SquareNaming kNaming = SquareNaming::numeric;
    static constexpr Coord coord(int dense) {
        const int row_from_top = dense / 5;  // rows 1,3,5.. (0-based even) use columns 2,4,..,10
        return {kHeight - 1 - row_from_top, 2 * (dense % 5) + (row_from_top % 2 == 0 ? 1 : 0)};
    }
    static constexpr int bit_of(int dense) { return dense + dense / 10; }
};

// Full 8x8 board with all squares used (RULES.md 2, "Board and notation").
struct Full8x8Layout {
    static constexpr int kWidth = 8;
    static constexpr int kHeight = 8;
    static constexpr int kNumSquares = 64;
    static constexpr SquareNaming kNaming = SquareNaming::algebraic;
    static constexpr Coord coord(int dense) { return {dense / 8, dense % 8}; }
    static constexpr int bit_of(int dense) { return dense; }
};

template <class Layout>
struct BoardGeometry {
    static constexpr int kWidth = Layout::kWidth;
    static constexpr int kHeight = Layout::kHeight;
    static constexpr int kNumSquares = Layout::kNumSquares;
    static constexpr SquareNaming kNaming = Layout::kNaming;

    struct Tables {
        std::array<int, 64> dense_of_bit{};
        std::array<int, 64> bit_of_dense{};
        std::array<int, 64> rank_of_bit{};
        std::array<int, 64> file_of_bit{};
        std::array<std::array<int, 64>, kNumDirs> neighbor{};
        std::array<Bitboard, kNumDirs> has_neighbor{};
        std::array<std::array<Bitboard, 64>, kNumDirs> ray{};
        std::array<int, kNumDirs> shift{};
        std::array<Bitboard, 16> rank_mask{};
        Bitboard playable = 0;
        int max_bit = 0;
        bool shifts_are_constant = true;
        bool rotation_is_reversal = true;
        bool mirror_is_byte_reversal = true;
    };

    static constexpr Tables make_tables() {
        Tables t{};
        for (auto& x : t.dense_of_bit) x = -1;
        for (auto& x : t.rank_of_bit) x = -1;
        for (auto& x : t.file_of_bit) x = -1;
        std::array<std::array<int, 16>, 16> bit_at{};
        for (auto& row : bit_at)
            for (auto& x : row) x = -1;
        for (int d = 0; d < kNumSquares; ++d) {
            const int b = Layout::bit_of(d);
            const Coord c = Layout::coord(d);
            t.dense_of_bit[b] = d;
            t.bit_of_dense[d] = b;
            t.rank_of_bit[b] = c.rank;
            t.file_of_bit[b] = c.file;
            t.playable |= bit(b);
            t.rank_mask[c.rank] |= bit(b);
            bit_at[c.rank][c.file] = b;
            if (b > t.max_bit) t.max_bit = b;
        }
        for (int di = 0; di < kNumDirs; ++di) {
            const Dir dir = static_cast<Dir>(di);
            bool shift_known = false;
            for (auto& x : t.neighbor[di]) x = -1;
            for (int d = 0; d < kNumSquares; ++d) {
                const int b = Layout::bit_of(d);
                const Coord c = Layout::coord(d);
                const int r = c.rank + dir_rank_step(dir), f = c.file + dir_file_step(dir);
                if (r < 0 || r >= kHeight || f < 0 || f >= kWidth) continue;
                const int nb = bit_at[r][f];
                if (nb < 0) continue;
                t.neighbor[di][b] = nb;
                t.has_neighbor[di] |= bit(b);
                if (!shift_known) {
                    t.shift[di] = nb - b;
                    shift_known = true;
                } else if (t.shift[di] != nb - b) {
                    t.shifts_are_constant = false;
                }
            }
        }
        for (int di = 0; di < kNumDirs; ++di)
            for (int d = 0; d < kNumSquares; ++d) {
                const int b = Layout::bit_of(d);
                for (int s = t.neighbor[di][b]; s >= 0; s = t.neighbor[di][s]) t.ray[di][b] |= bit(s);
            }
        for (int d = 0; d < kNumSquares; ++d) {
            const Coord c = Layout::coord(d);
            const int rotated = bit_at[kHeight - 1 - c.rank][kWidth - 1 - c.file];
            if (rotated != t.max_bit - Layout::bit_of(d)) t.rotation_is_reversal = false;
            const int mirrored = bit_at[c.rank][kWidth - 1 - c.file];
            const int b = Layout::bit_of(d);
            if (mirrored != ((b & ~7) | (7 - (b & 7)))) t.mirror_is_byte_reversal = false;
        }
        return t;
    }
    static constexpr Tables kT = make_tables();
    static_assert(kT.shifts_are_constant, "every step must be one constant shift in this layout");
    static_assert(kT.rotation_is_reversal, "turning the board must reverse the bit order");

    static constexpr Bitboard kPlayable = kT.playable;

    static constexpr int dense(int b) { return kT.dense_of_bit[b]; }
    static constexpr int bit_of_dense(int d) { return kT.bit_of_dense[d]; }
    static constexpr int rank(int b) { return kT.rank_of_bit[b]; }
    static constexpr int file(int b) { return kT.file_of_bit[b]; }
    static constexpr int neighbor(int b, Dir d) { return kT.neighbor[static_cast<int>(d)][b]; }
    static constexpr Bitboard rank_mask(int r) { return kT.rank_mask[r]; }
    // All squares one step from `b` in direction d (squares without such a neighbour drop out).
    static constexpr Bitboard step(Bitboard b, Dir d) {
        const int di = static_cast<int>(d);
        const Bitboard src = b & kT.has_neighbor[di];
        const int s = kT.shift[di];
        return s >= 0 ? src << s : src >> -s;
    }
    // Squares whose neighbour in direction d is in `b` (the inverse step).
    static constexpr Bitboard step_back(Bitboard b, Dir d) { return step(b, opposite(d)); }
    // The squares beyond `b` in direction d up to the edge, `b` excluded: a flying piece slides
    // along it, and its first blocker is the nearest bit of `ray & occupied` (no square-by-square
    // walk).
    static constexpr Bitboard ray(int b, Dir d) { return kT.ray[static_cast<int>(d)][b]; }
    // The square of `on_ray` (a non-empty subset of one ray in direction d) nearest to the ray's
    // origin: a step in d raises the bit index or lowers it in every layout (constant shifts).
    static constexpr int nearest(Bitboard on_ray, Dir d) {
        return kT.shift[static_cast<int>(d)] > 0 ? lowest_bit(on_ray) : highest_bit(on_ray);
    }

    // The board turned 180 degrees (colour reversal maps a position onto its rotated mirror).
    static constexpr int rotate_bit(int b) { return kT.max_bit - b; }
    static constexpr Bitboard rotate(Bitboard bb) {
        Bitboard r = 0;
        // Reverse the 64 bits, then drop the unused top: bit b moves to max_bit - b.
        bb = ((bb >> 1) & 0x5555555555555555ULL) | ((bb & 0x5555555555555555ULL) << 1);
        bb = ((bb >> 2) & 0x3333333333333333ULL) | ((bb & 0x3333333333333333ULL) << 2);
        bb = ((bb >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((bb & 0x0F0F0F0F0F0F0F0FULL) << 4);
        r = __builtin_bswap64(bb);
        return r >> (63 - kT.max_bit);
    }

    // The mirror of the files (a <-> h), where it maps the board onto itself. On the full 8x8
    // board (bit = rank*8 + file) it reverses the bits of each byte. The 10x10 board has none:
    // the mirror of a dark square is a light one.
    static constexpr bool kHasFileMirror = kT.mirror_is_byte_reversal;
    static constexpr Bitboard mirror_files(Bitboard bb) {
        static_assert(kHasFileMirror, "this board has no file mirror");
        bb = ((bb >> 1) & 0x5555555555555555ULL) | ((bb & 0x5555555555555555ULL) << 1);
        bb = ((bb >> 2) & 0x3333333333333333ULL) | ((bb & 0x3333333333333333ULL) << 2);
        return ((bb >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((bb & 0x0F0F0F0F0F0F0F0FULL) << 4);
    }

    static std::string square_name(int b) {
        if constexpr (kNaming == SquareNaming::numeric) {
            return std::to_string(dense(b) + 1);
        } else {
            std::string s;
            s += static_cast<char>('a' + file(b));
            s += std::to_string(rank(b) + 1);
            return s;
        }
    }
    // Parses a square name; returns its bit, or nullopt when no such square exists here.
    static std::optional<int> parse_square(std::string_view s) {
        if (s.empty()) return std::nullopt;
        if constexpr (kNaming == SquareNaming::numeric) {
            if (s.size() > 3) return std::nullopt;
            int n = 0;
            for (char c : s) {
                if (c < '0' || c > '9') return std::nullopt;
                n = n * 10 + (c - '0');
            }
            if (n < 1 || n > kNumSquares) return std::nullopt;
            return bit_of_dense(n - 1);
        } else {
            if (s.size() < 2 || s.size() > 3) return std::nullopt;
            const int f = s[0] >= 'a' && s[0] <= 'z' ? s[0] - 'a' : (s[0] >= 'A' && s[0] <= 'Z' ? s[0] - 'A' : -1);
            int r = 0;
            for (char c : s.substr(1)) {
                if (c < '0' || c > '9') return std::nullopt;
                r = r * 10 + (c - '0');
            }
            r -= 1;
            if (f < 0 || f >= kWidth || r < 0 || r >= kHeight) return std::nullopt;
            for (int d = 0; d < kNumSquares; ++d) {
                const Coord c = Layout::coord(d);
                if (c.rank == r && c.file == f) return bit_of_dense(d);
            }
            return std::nullopt;
        }
    }
};

using International10x10 = BoardGeometry<International10x10Layout>;
using Full8x8 = BoardGeometry<Full8x8Layout>;

// Compile-time checks of the geometry against RULES.md.
static_assert(International10x10::bit_of_dense(45) ==
                  International10x10::neighbor(International10x10::bit_of_dense(40), Dir::SW),
              "46 is south-west of 41 on the long diagonal");
static_assert(International10x10::rank(International10x10::bit_of_dense(45)) == 0 &&
                  International10x10::file(International10x10::bit_of_dense(45)) == 0,
              "46 is the bottom-left corner");
static_assert(International10x10::neighbor(International10x10::bit_of_dense(4), Dir::NE) == -1, "5 is on the top row");
static_assert(International10x10::neighbor(International10x10::bit_of_dense(4), Dir::SW) ==
                  International10x10::bit_of_dense(9),
              "5 neighbours 10");
static_assert(International10x10::rotate_bit(International10x10::bit_of_dense(0)) ==
                  International10x10::bit_of_dense(49),
              "turning the board maps 1 onto 50");
static_assert(popcount(International10x10::ray(International10x10::bit_of_dense(45), Dir::NE)) == 9,
              "the long diagonal runs from 46 through 41 to 5");
static_assert(International10x10::nearest(International10x10::ray(International10x10::bit_of_dense(45), Dir::NE),
                                          Dir::NE) == International10x10::bit_of_dense(40),
              "the nearest square of the long diagonal beyond 46 is 41");
static_assert(Full8x8::ray(0, Dir::N) == 0x0101010101010100ULL, "a file is a ray");
static_assert(Full8x8::nearest(Full8x8::ray(63, Dir::S), Dir::S) == 55, "h7 is nearest to h8");
static_assert(Full8x8::kHasFileMirror && !International10x10::kHasFileMirror, "only the 8x8 board has a file mirror");
static_assert(Full8x8::mirror_files(bit(0) | bit(9)) == (bit(7) | bit(14)), "a1 <-> h1, b2 <-> g2");
static_assert(Full8x8::neighbor(0, Dir::W) == -1 && Full8x8::neighbor(7, Dir::E) == -1, "no wrap-around");

}  // namespace dtb
