#!/usr/bin/env bash
# CI step: builds the libFuzzer targets (fuzz/) with clang in build-fuzz/ and runs each for a
# bounded time, starting from the committed corpus fuzz/corpus/<target>. New inputs go to a
# scratch folder, never into the committed corpus. Exits non-zero when a target crashes, leaks,
# times out or finds a property violation; the reproducer is kept in build-fuzz/artifacts/.
# Environment: FUZZ_SECONDS (per target, default 30), CXX (default clang++, else clang++-14),
# JOBS (build parallelism, default 2), FUZZ_PARALLEL (targets run at once, default JOBS).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}
jobs=${JOBS:-2}
cxx=${CXX:-}
if [ -z "$cxx" ]; then
  for c in clang++ clang++-14 clang++-15 clang++-16; do
    if command -v "$c" >/dev/null; then cxx=$c; break; fi
  done
fi
case "$cxx" in *clang*) ;; *) echo "ci-fuzz: needs clang++ (libFuzzer); found '${cxx}'" >&2; exit 2 ;; esac
cc=${cxx/clang++/clang}

build=build-fuzz
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  -DDTB_FUZZ=ON -DDTB_SANITIZE=ON -DDTB_BUILD_TESTS=OFF -DDTB_BUILD_BENCH=OFF -DDTB_NATIVE=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link" >/dev/null
targets=(fuzz_fen fuzz_move fuzz_pdn fuzz_table fuzz_args fuzz_request)
cmake --build "$build" -j"$jobs" --target "${targets[@]}"

artifacts=$build/artifacts
mkdir -p "$artifacts"
# One target: its status is its exit code, its summary goes to its own file (printed in order
# below), so that two targets can run at once: each fuzzer uses one core.
run_target() {
  local t=$1 scratch=$build/corpus-scratch/$1 summary=$build/$1.summary
  mkdir -p "$scratch"
  # Inputs are kept small (max_len) and slow ones reported (timeout) so that one target cannot
  # use up the time budget; the logs are kept quiet unless something is found.
  if ! "$build/fuzz/$t" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=8192 \
       -print_final_stats=1 -artifact_prefix="$artifacts/$t-" "$scratch" "fuzz/corpus/$t" \
       >"$build/$t.log" 2>&1; then
    { echo "ci-fuzz: $t FAILED; log $build/$t.log, reproducer in $artifacts/:"
      grep -E "ERROR|SUMMARY|fuzz_[a-z]+:|Test unit written" "$build/$t.log" | head -20 || true; } >"$summary"
    return 1
  fi
  grep -E "stat::number_of_executed_units|cov:" "$build/$t.log" | tail -2 >"$summary" || true
}

status=0
parallel=${FUZZ_PARALLEL:-$jobs}
for ((i = 0; i < ${#targets[@]}; i += parallel)); do
  batch=("${targets[@]:i:parallel}")
  pids=()
  for t in "${batch[@]}"; do
    echo "== $t: ${seconds} s" >&2
    run_target "$t" &
    pids+=($!)
  done
  for k in "${!batch[@]}"; do
    wait "${pids[$k]}" || status=1
    cat "$build/${batch[$k]}.summary" >&2
  done
done
exit $status
