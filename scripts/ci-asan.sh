#!/usr/bin/env bash
# CI step: AddressSanitizer + UndefinedBehaviorSanitizer build (build-asan/, gcc is fine) and the
# fast part of the test suite under it. Left out: the fixture that generates the 4-piece default
# set and every test that reads it (they run in the plain build, scripts/test.sh), and tests too
# slow under the sanitizers; [.slow] Catch tests are never registered with ctest.
# Environment: JOBS (build and test parallelism, default 2), ASAN_EXCLUDE (ctest -E regex).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
build=build-asan
# Faults injected with LD_PRELOAD (tests/fault_injection.c) cannot run under ASan, whose runtime
# must come first. The explorer's tests read the 4-piece fixture (its request handling runs under
# ASan in fuzz_request). Tests that need the 4-piece tables (adjudication among them: "3-piece adjudication" runs), sanitizer-slow ones, and the find_package consumer (an
# outside project built without the sanitizer flags cannot link the sanitized library).
# Also left to the plain build: three exhaustive 3-piece checks that took 96-160 s each under the
# sanitizers (395 of the step's 782 core-seconds in the last CI run); the code they walk runs here anyway through the
# Turkish probe check and the generation tests, and the plain build runs them in full.
# The fixture itself is named too: -E keeps it out of the selection, -FS keeps ctest from adding
# it back as the setup of the selected tests.
exclude=${ASAN_EXCLUDE:-"^fixture:|^server:|^python:|injected|a full disk while|4 pieces|default set|kings-only counts|longest wins|4-piece|5-piece|depths 1-8|8 threads|consumer_project|adjudication:|dtb adjudicate|probed values equal the derived ones for every position up to 3 pieces .international|outside the counting classes a capture position is worth|predecessor ranks equal un-moves ranked from scratch"}
start=$(date +%s)
# Compiler: clang when present (.ci/run installs it, with libomp for OpenMP), else the default.
# Measured on this VM (session 20): gen/generate.cpp at -O1 with ASan+UBSan took 75 s with g++
# 12 and 39 s with clang 14 (g++ with ASan alone: 34 s; its UBSan null, alignment and
# pointer-overflow checks make the difference), and the whole step 516 s with clang file by file
# (build 300 s), 398 s as units (build 215 s), against 664-732 s with g++ in session 19, every
# check kept (BENCHMARKS.md, "Build and CI"). A second compiler also reads the code: clang
# refused a declaration g++ took (tests/gen_reference.cpp, `own{...}`).
# Environment: CXX (the C++ compiler, default clang++ when found).
cxx=${CXX:-}
if [ -z "$cxx" ]; then
  for c in clang++ clang++-14 g++; do
    if command -v "$c" >/dev/null; then cxx=$c; break; fi
  done
fi
case "$cxx" in *clang++*) cc=${cxx/clang++/clang} ;; *g++*) cc=${cxx/g++/gcc} ;; *) cc=cc ;; esac
# -O1 (NDEBUG as in the release build): what the sanitizer documentation recommends for speed,
# at much less compile time than -O2. No debug information: -g1 made the build 35% slower
# (gen/generate.cpp 57.5 s against 42.7 s), and the build is most of this step; reports still
# name the functions of their stack (the symbol table), and a local build with -g gives lines.
cmake -S . -B "$build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g0 -DNDEBUG" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g0 -DNDEBUG" \
  -DDTB_SANITIZE=ON -DDTB_BUILD_BENCH=OFF \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=4 >/dev/null  # as scripts/build.sh
cmake --build "$build" -j"$jobs"
built=$(date +%s)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" --output-on-failure -j"$jobs" --timeout 600 -E "$exclude" -FS test_tables
echo "ci-asan: build $((built - start)) s, tests $(($(date +%s) - built)) s" >&2
