#!/usr/bin/env bash
# The solver's figures in BENCHMARKS.md, "Solver": per 5-piece slice of both variants, the share
# resolved from the 2-4 tables within node budgets (every answer checked against the 5-piece
# tables), won and lost positions with DTC <= 8 within 10 s, 6-piece international positions
# from the 2-5 tables, and perft's rate for comparison.
# Usage: bench/solve_bench.sh [BUILD_DIR] [TABLES_ROOT] [SIX_LIST]   (defaults: build, data/tb,
# data/reference/international-6-sha256.txt; the 2-5 sets from `dtb gen --variant V --pieces 5`).
# 6 pieces: the 6-piece tables named in SIX_LIST (a sha256sum list: only finished tables, checked
# here) are linked with the 2-5 tables into a temporary folder; the 6-piece positions of those
# slices are solved from the 2-5 tables and compared with them. Without any, 6-piece positions of
# every slice are solved and their proofs checked instead.
set -euo pipefail
build=${1:-build}
tables=${2:-data/tb}
six_list=${3:-data/reference/international-6-sha256.txt}
bench=$build/bench/solve_bench
[ -f "$six_list" ] && six_list=$(realpath "$six_list")
six=$(mktemp -d)
trap 'rm -rf "$six"' EXIT
for f in "$tables"/international/*; do
  name=$(basename "$f")
  pieces=$(printf '%s' "${name%%.*}" | tr -cd 'KM' | wc -c)
  if [ "$pieces" -le 5 ]; then ln -s "$(realpath "$f")" "$six/$name"; fi
done
six_ok=0
if [ -f "$six_list" ] && (cd "$tables/international" && sha256sum --quiet -c "$six_list"); then
  awk '{print $2}' "$six_list" | while read -r name; do ln -s "$(realpath "$tables/international/$name")" "$six/$name"; done
  six_ok=1
fi
# International from the folder of links (2-5 and the finished 6-piece tables): the generator may
# be writing others in the tables' own folder.
for variant in international turkish; do
  dir="$tables/$variant"
  [ "$variant" = international ] && dir="$six"
  for nodes in 100000 1000000; do
    echo "## $variant, 5 pieces from 2-4, $nodes nodes per position"
    $bench --tables "$dir" --pieces 5 --per-slice 10 --nodes $nodes --time 0
  done
  echo "## $variant, 5 pieces from 2-4, won and lost with DTC <= 8, 10 s per position"
  $bench --tables "$dir" --pieces 5 --per-slice 10 --max-dtc 8 --time 10
done
if [ "$six_ok" = 1 ]; then
  echo "## international, 6 pieces from 2-5, won and lost with DTC <= 8, 10 s per position"
  $bench --tables "$six" --pieces 6 --per-slice 100 --max-dtc 8 --time 10
  echo "## international, 6 pieces from 2-5, won and lost with DTC 5 to 8, 10 s per position"
  $bench --tables "$six" --pieces 6 --per-slice 20 --min-dtc 5 --max-dtc 8 --time 10
  echo "## international, 6 pieces from 2-5, random positions, 10 s per position"
  $bench --tables "$six" --pieces 6 --per-slice 50 --time 10
else
  echo "## international, 6 pieces from 2-5, 2 s per position, proofs checked"
  $bench --tables "$six" --pieces 6 --per-slice 5 --time 2 --check-proofs on
fi
echo "## perft for comparison"
$build/tools/dtb perft --fen "W:W31,32,K33:BK18,19" --depth 7
