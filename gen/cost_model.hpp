// The seconds a pair takes on a node, from rates measured on this project's runs: what `dtb plan`
// simulates a distributed generation with (docs/SCALING.md, "Cost model"). A model, not a
// measurement: its check against the measured runs is in BENCHMARKS.md, "Plan model".
#pragma once
#include "dtb/gen/pair_figures.hpp"
#include "dtb/gen/pair_schedule.hpp"
#include "dtb/index/material.hpp"
#include "dtb/rules/variant.hpp"

namespace dtb::gen {

// Kinds of material, whose positions cost differently: flying kings have many moves each, men few.
enum class MaterialKind : unsigned char { kings_only, men_only, mixed };
MaterialKind kind_of(const Material& m);
const char* kind_name(MaterialKind k);

// How much faster `cores` cores solve a pair than the 2 cores the rates were measured on
// (Amdahl's law with the serial share the measured run left idle).
double speedup_over_measured(int cores);

// Seconds pair f of variant v takes on a node of `cores` cores, solved in mode.
double pair_seconds(VariantId v, const PairFigures& f, int cores, SolveMode mode);

}  // namespace dtb::gen
