#!/usr/bin/env bash
# CI step: AddressSanitizer + UndefinedBehaviorSanitizer build (build-asan/; clang when present,
# else g++) and the fast part of the test suite under it (what is left out: below; [.slow] Catch
# tests are never registered with ctest).
# Environment: JOBS (build and test parallelism, default 2), ASAN_EXCLUDE (ctest -E regex).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
build=build-asan
# Left out, each for a reason: Catch tests tagged [plain-build] (tests/CMakeLists.txt: faults
# injected with LD_PRELOAD, whose shim ASan's runtime must precede; readers of the 4-piece
# fixture; exhaustive checks too slow under the sanitizers), and here by name: the fixture itself
# (-E keeps it out, -FS keeps ctest from adding it back as a setup), the explorer's and Python's
# suites (they read the fixture; fuzz_request runs the request handling under ASan), and the
# find_package consumer (a project built without the sanitizer flags cannot link the library).
exclude=${ASAN_EXCLUDE:-"^fixture:|^server:|^python:|consumer_project"}
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
