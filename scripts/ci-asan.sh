#!/usr/bin/env bash
# CI step: AddressSanitizer + UndefinedBehaviorSanitizer build (build-asan/; clang when present,
# else g++) and the fast part of the test suite under it. Left out: the fixture that generates the 4-piece default
# set and every test that reads it (they run in the plain build, scripts/test.sh), and tests too
# slow under the sanitizers; [.slow] Catch tests are never registered with ctest.
# Environment: JOBS (build and test parallelism, default 2), ASAN_EXCLUDE (ctest -E regex).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
build=build-asan
# Left out, each for a reason:
# - faults injected with LD_PRELOAD (tests/fault_injection.c): ASan's runtime must come first;
# - the explorer's and Python's tests: they read the 4-piece fixture (the request handling runs
#   under ASan in fuzz_request);
# - tests that need the 4-piece tables (adjudication among them; "3-piece adjudication" runs) and
#   tests too slow under the sanitizers;
# - the find_package consumer: an outside project built without the sanitizer flags cannot link
#   the sanitized library;
# - three exhaustive 3-piece checks, slow under the sanitizers (BENCHMARKS.md, "Build and CI"):
#   the code they walk runs here anyway through the Turkish probe check and the generation tests,
#   and the plain build runs them in full.
# The fixture itself is named too: -E keeps it out of the selection, -FS keeps ctest from adding
# it back as the setup of the selected tests.
exclude=${ASAN_EXCLUDE:-"^fixture:|^server:|^python:|injected|a full disk while|4 pieces|default set|kings-only counts|longest wins|4-piece|5-piece|depths 1-8|8 threads|consumer_project|adjudication:|dtb adjudicate|probed values equal the derived ones for every position up to 3 pieces .international|outside the counting classes a capture position is worth|predecessor ranks equal un-moves ranked from scratch"}
start=$(date +%s)
# Compiler: clang when present (.ci/run installs it, with libomp for OpenMP), else the default.
# With ASan+UBSan, clang compiles in about half g++'s time, every check kept (g++'s UBSan null,
# alignment and pointer-overflow checks make the difference; BENCHMARKS.md, "Build and CI"). A
# second compiler also reads the code: clang refused a declaration g++ took.
# Environment: CXX (the C++ compiler, default clang++ when found).
cxx=${CXX:-}
if [ -z "$cxx" ]; then
  for c in clang++ clang++-14 g++; do
    if command -v "$c" >/dev/null; then cxx=$c; break; fi
  done
fi
case "$cxx" in *clang++*) cc=${cxx/clang++/clang} ;; *g++*) cc=${cxx/g++/gcc} ;; *) cc=cc ;; esac
# -O1 (NDEBUG as in the release build): what the sanitizer documentation recommends for speed,
# at much less compile time than -O2. No debug information: it makes the build about a third
# slower, and the build is most of this step; reports still name the functions of their stack
# (the symbol table), and a local build with -g gives lines.
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
