#!/usr/bin/env bash
# The solver's figures in BENCHMARKS.md, "Solver": per 5-piece slice of both variants, the share
# resolved from the 2-4 tables within node budgets (every answer checked against the 5-piece
# tables), won and lost positions with DTC <= 8 within 10 s, random 6-piece international
# positions from the 2-5 tables, and perft's rate for comparison.
# Usage: bench/solve_bench.sh [BUILD_DIR] [TABLES_ROOT]   (defaults: build, data/tb; the 2-5
# sets from `dtb gen --variant V --pieces 5`).
set -euo pipefail
build=${1:-build}
tables=${2:-data/tb}
bench=$build/bench/solve_bench
for variant in international turkish; do
  for nodes in 100000 1000000; do
    echo "## $variant, 5 pieces from 2-4, $nodes nodes per position"
    $bench --tables "$tables/$variant" --pieces 5 --per-slice 10 --nodes $nodes --time 0
  done
  echo "## $variant, 5 pieces from 2-4, won and lost with DTC <= 8, 10 s per position"
  $bench --tables "$tables/$variant" --pieces 5 --per-slice 10 --max-dtc 8 --time 10
done
echo "## international, 6 pieces from 2-5, 2 s per position"
$bench --tables "$tables/international" --pieces 6 --per-slice 2 --time 2
echo "## perft for comparison"
$build/tools/dtb perft --fen "W:W31,32,K33:BK18,19" --depth 7
