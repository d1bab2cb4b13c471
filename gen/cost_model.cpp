#include "dtb/gen/cost_model.hpp"

#include <algorithm>
#include <cmath>

namespace dtb::gen {

namespace {

// Every constant of the model, and where it comes from (the sums and fits: docs/SCALING.md,
// "Cost model"; the runs: BENCHMARKS.md).
//
// Nanoseconds of slice time per position on the machine of BENCHMARKS.md, by kind of material and
// how the pair was solved: the slice lines of the international 6-piece run ("6 pieces
// (international)"), summed per kind and divided by the kind's positions. No kings-only or
// men-only pair can be solved by levels.
constexpr double kNanosPerPosition[3] = {311.5, 453.8, 278.9};  // by MaterialKind, whole
constexpr double kByLevelsNanosPerPosition = 454.6;             // mixed, by levels
// A pair of P pieces costs kPerPiece^(P - 6) as much per position as a 6-piece pair of its kind:
// fitted, with kPairSeconds, to the international 2-5 and 2-4 runs ("2-5 pieces from scratch")
// against the 6-piece rates above.
constexpr double kPerPiece = 1.8;
// What every pair costs besides its positions: files opened, written, fsynced.
constexpr double kPairSeconds = 0.2;
// Turkish: no 6-piece run. Its entries (a position and its left-right mirror are one) cost the
// international rate times this factor, fitted to the Turkish 2-5 run.
constexpr double kTurkishFactor = 1.74;
// The serial share of Amdahl's law: what the international 2-5 run left of its 2 cores idle (its
// user + system time over its wall time was 1.955 cores).
constexpr double kSerialShare = 2.0 / 1.955 - 1.0;

double amdahl(int cores) {
    const double c = std::max(1, cores);
    return c / (1.0 + kSerialShare * (c - 1.0));
}

}  // namespace

MaterialKind kind_of(const Material& m) {
    if (m.men() == 0) return MaterialKind::kings_only;
    if (m.wk + m.bk == 0) return MaterialKind::men_only;
    return MaterialKind::mixed;
}

const char* kind_name(MaterialKind k) {
    switch (k) {
        case MaterialKind::kings_only:
            return "kings";
        case MaterialKind::men_only:
            return "men";
        case MaterialKind::mixed:
            break;
    }
    return "mixed";
}

double speedup_over_measured(int cores) {
    return amdahl(cores) / amdahl(2);
}

double pair_seconds(VariantId v, const PairFigures& f, int cores, SolveMode mode) {
    const MaterialKind kind = kind_of(f.material);
    double nanos = kNanosPerPosition[static_cast<int>(kind)];
    // By levels, a pair costs what a mixed pair by levels costs more than one solved whole.
    if (mode == SolveMode::by_levels) nanos *= kByLevelsNanosPerPosition / kNanosPerPosition[2];
    nanos *= std::pow(kPerPiece, f.material.pieces() - 6);
    const bool turkish = v == VariantId::turkish;
    const double units = static_cast<double>(turkish ? f.entries : f.positions);
    const double seconds = units * nanos * 1e-9 * (turkish ? kTurkishFactor : 1.0) + kPairSeconds;
    return seconds / speedup_over_measured(cores);
}

}  // namespace dtb::gen
