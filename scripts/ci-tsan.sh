#!/usr/bin/env bash
# CI step: ThreadSanitizer build (build-tsan/) of the probe library and its tests, and the tests
# that share a handle or a table reader between std::threads: the probe concurrency test (one
# handle, 8 threads, blocks evicted and freed under lock-free readers) and the format tests with
# threads. They read synthetic tables they write themselves, so no generation runs here. Nothing
# OpenMP-based runs under TSan (gcc's libgomp is not instrumented: TSan reports false races
# inside it), which is why only probe_tests is built. Any report fails the step.
# Environment: JOBS (build parallelism, default 2), TSAN_PROBE_TESTS and TSAN_FORMAT_TESTS (Catch test specs, defaults below).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
build=build-tsan
probe_tests=${TSAN_PROBE_TESTS:-"[concurrency]"}
format_tests=${TSAN_FORMAT_TESTS:-"format: four threads reading one reader agree with the input,format: the file does not depend on the number of threads,format: read_all gives the same values on 1 to 8 threads,format: read_all on several threads names the damaged block"}
start=$(date +%s)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDTB_TSAN=ON -DDTB_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j"$jobs" --target probe_tests format_tests
built=$(date +%s)
# halt_on_error: the first report ends the run with exitcode (66), so the step fails.
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:exitcode=66:second_deadlock_stack=1}
# TSan's runtime maps its shadow at fixed addresses; on kernels with more mmap randomisation than
# it knows ("unexpected memory mapping"), run without address randomisation.
no_aslr=()
if command -v setarch >/dev/null && setarch "$(uname -m)" -R true 2>/dev/null; then
  no_aslr=(setarch "$(uname -m)" -R)
fi
"${no_aslr[@]}" "$build/tests/probe_tests" "$probe_tests"
"${no_aslr[@]}" "$build/tests/format_tests" "$format_tests"
echo "ci-tsan: build $((built - start)) s, tests $(($(date +%s) - built)) s" >&2
