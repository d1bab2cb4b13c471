#!/usr/bin/env bash
# The same generation as one process with T threads and as `mpirun -np N` with one thread per rank:
# wall time, and peak memory of the process and of each rank (/usr/bin/time -v). Each run starts
# from an empty folder with the page cache dropped (when allowed); the tables of both runs are
# compared byte for byte. Usage:
#   bench/mpi_gen_bench.sh VARIANT PIECES [RANKS] [THREADS]     (defaults: 2 ranks, 2 threads)
# RANKS_ONLY=1 skips the one-process run. COMPARE=DIR also compares the tables with those in DIR (a set made by another build).
set -euo pipefail
cd "$(dirname "$0")/.."
variant=${1:?variant}; pieces=${2:?pieces}; ranks=${3:-2}; threads=${4:-2}
dtb=$(realpath "${DTB:-build/tools/dtb}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
drop_caches() { sync; echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true; }
peak_mb() { awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$1"; }
wall_of() { awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$1"; }

if [ -z "${RANKS_ONLY:-}" ]; then
drop_caches
/usr/bin/time -v -o "$work/one.time" "$dtb" gen --variant "$variant" --pieces "$pieces" --threads "$threads" \
    --out "$work/one" 2> "$work/one.log"
echo "one process, $threads threads: wall $(wall_of "$work/one.time"), peak $(peak_mb "$work/one.time") MB"
grep -E '^(done|time by part):' "$work/one.log"
fi

drop_caches
start=$(date +%s%N)
mpirun --oversubscribe -np "$ranks" sh -c "exec /usr/bin/time -v -o $work/rank\$OMPI_COMM_WORLD_RANK.time \
    $dtb gen --variant $variant --pieces $pieces --threads 1 --out $work/ranks" 2> "$work/ranks.log"
end=$(date +%s%N)
ms=$(((end - start) / 1000000))
printf 'mpirun -np %s, 1 thread each: wall %d.%01d s' "$ranks" $((ms / 1000)) $((ms % 1000 / 100))
for ((r = 0; r < ranks; r++)); do printf ', rank %d peak %s MB' "$r" "$(peak_mb "$work/rank$r.time")"; done
echo
grep -E '^(done|time by part):' "$work/ranks.log"
# Where the ranks' time went: each rank's summed slice times against the wall time.
awk '/^rank [0-9]+: .* in [0-9.]+ s/ { r = $2; sub(":", "", r); for (i = 1; i <= NF; i++) if ($i == "in") { t[r] += $(i + 1); break } }
     END { for (r in t) printf "rank %s: %.1f s in slice lines\n", r, t[r] }' "$work/ranks.log" | sort
if [ -z "${RANKS_ONLY:-}" ]; then
    if diff -r -q -x '.dtb-gen*' "$work/one" "$work/ranks" > /dev/null; then
        echo "tables: identical ($(ls "$work/one" | wc -l) files)"
    else
        echo "tables: DIFFERENT"; exit 1
    fi
fi
if [ -n "${COMPARE:-}" ]; then
    if diff -r -q -x '.dtb-gen*' "$work/ranks" "$COMPARE" > /dev/null; then
        echo "tables: identical to $COMPARE"
    else
        echo "tables: DIFFERENT from $COMPARE"; exit 1
    fi
fi
