// Proof and disproof numbers (Allis; df-pn after Nagai) and the value of a search node. A node
// is proven (pn 0, dn infinite: the attacker wins) or disproven (pn infinite, dn 0: the attacker
// does not win), or open with finite numbers. Sums saturate below infinity, so that only a
// proven or disproven node ever carries kInfinity.
#pragma once
#include <algorithm>
#include <climits>
#include <cstdint>

namespace dtb::solve {

using ProofNumber = std::uint32_t;
inline constexpr ProofNumber kInfinity = 0x7FFFFFFF;
inline constexpr ProofNumber kLargest = kInfinity - 1;  // the largest number of an open node

inline ProofNumber add_capped(ProofNumber a, ProofNumber b) {
    if (a == kInfinity || b == kInfinity) return kInfinity;
    return static_cast<ProofNumber>(std::min<std::uint64_t>(std::uint64_t{a} + b, kLargest));
}

// A disproof that rests on a repetition holds only below the position repeated: `repetition` is
// the ply (from the root) of the earliest position of the path the disproof needs repeated
// (kClean: none). -1 marks a disproof forced by the depth limit, which holds nowhere.
inline constexpr int kClean = INT_MAX;
inline constexpr int kDepthLimited = -1;

// A proven or disproven node also carries its distance: the height of the proof (or disproof)
// tree found below it, 0 at a leaf. A proof read off along falling distances never walks into a
// repetition of its own line (a win is never proven through a cycle).
struct NodeValue {
    ProofNumber pn = 1;
    ProofNumber dn = 1;
    int repetition = kClean;
    std::uint32_t distance = 0;

    bool proven() const { return pn == 0; }
    bool disproven() const { return dn == 0; }
    bool final() const { return pn == 0 || dn == 0; }
    static NodeValue win() { return {0, kInfinity, kClean, 0}; }
    static NodeValue no_win(int repetition = kClean) { return {kInfinity, 0, repetition, 0}; }
};

}  // namespace dtb::solve
