#!/usr/bin/env bash
# Configures and builds dtb (Release) in build/. Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
# Unity build, four sources per unit: the headers (Catch, CLI11, nlohmann-json, the project's
# templates) are parsed once per unit instead of once per file, which takes a clean build about a
# third less time (BENCHMARKS.md, "Build and CI"). -DCMAKE_UNITY_BUILD=OFF as an argument turns it
# off (quicker for incremental work on one file).
# -DDTB_NATIVE=ON: tuned for this machine, which generates and benchmarks; an installed package is
# built without it (the CMake default), to run on any x86-64 machine.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=4 \
  -DDTB_NATIVE=ON "$@" >/dev/null
cmake --build build -j"$(nproc)"
