#!/usr/bin/env bash
# Regenerates data/reference: for each variant, the statistics (`dtb stats --json`) and the
# sha256 checksums (sorted by file name) of the default set, up to 4 pieces, generated with one
# thread into a temporary folder. Run it after a change that is meant to change the tables
# (format, generator, index, rules) and commit the result with that change;
# tests/gen/reference.cpp compares freshly generated tables with these files.
# Usage: scripts/update-reference.sh [DTB]   (default: build/tools/dtb)
set -euo pipefail
cd "$(dirname "$0")/.."
dtb=$(realpath "${1:-build/tools/dtb}")
pieces=4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p data/reference
for variant in international turkish; do
  echo "generating $variant up to $pieces pieces..." >&2
  "$dtb" gen --variant "$variant" --pieces "$pieces" --threads 1 --out "$tmp/$variant" 2>"$tmp/gen.log" ||
    { cat "$tmp/gen.log" >&2; exit 1; }
  "$dtb" stats --variant "$variant" --db "$tmp/$variant" --json >"data/reference/$variant-stats.json"
  (cd "$tmp/$variant" && find . -maxdepth 1 -type f \( -name '*.wdl' -o -name '*.dtw' -o -name '*.dtc' -o -name '*.fmjd' -o -name '*.ffjd' -o -name '*.ffjd16' \) \
     -printf '%f\n' | LC_ALL=C sort | xargs sha256sum --) >"data/reference/$variant-sha256.txt"
  echo "data/reference/$variant-stats.json, data/reference/$variant-sha256.txt:" \
       "$(wc -l <"data/reference/$variant-sha256.txt") files" >&2
done
