// The state a proof search stores: the position, its counters (under counting rules; the
// counters decide the value there) and which side the search tries to prove a win for.
#pragma once
#include <cstdint>
#include <optional>

#include "dtb/adjudicate/adjudicator.hpp"
#include "dtb/rules/position.hpp"

namespace dtb::solve {

inline constexpr std::uint32_t kNoCounter = 0xFFFFFFFF;

struct StateKey {
    Bitboard white = 0, black = 0, kings = 0;
    std::uint32_t reversible = kNoCounter, endgame = kNoCounter, small = kNoCounter;
    std::uint8_t side = 0;      // Color of the side to move
    std::uint8_t attacker = 0;  // Color the search proves a win for
    bool operator==(const StateKey&) const = default;
};

inline std::uint32_t counter_key(const std::optional<int>& c) {
    return c ? static_cast<std::uint32_t>(*c) : kNoCounter;
}

// with_counters false (no counting rules): the counters are not part of the state.
inline StateKey make_key(const Position& p, const adjudicate::Counters& c, bool with_counters, Color attacker) {
    StateKey k;
    k.white = p.pieces[0];
    k.black = p.pieces[1];
    k.kings = p.kings;
    if (with_counters) {
        k.reversible = static_cast<std::uint32_t>(c.reversible);
        k.endgame = counter_key(c.endgame);
        k.small = counter_key(c.small);
    }
    k.side = static_cast<std::uint8_t>(idx(p.side_to_move));
    k.attacker = static_cast<std::uint8_t>(idx(attacker));
    return k;
}

inline std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

inline std::uint64_t hash_of(const StateKey& k) {
    std::uint64_t h = mix(k.white + 0x9E3779B97F4A7C15ULL);
    h = mix(h ^ k.black);
    h = mix(h ^ k.kings);
    h = mix(h ^ (std::uint64_t{k.reversible} << 32 | k.endgame));
    return mix(h ^ (std::uint64_t{k.small} << 16 | std::uint64_t{k.side} << 8 | k.attacker));
}

}  // namespace dtb::solve
