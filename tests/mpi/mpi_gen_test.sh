#!/usr/bin/env bash
# `mpirun dtb gen` against data/reference: both variants up to 4 pieces over 3 ranks, the same after
# one rank is killed mid-run and the job rerun, the same by blocks with one thread per rank, a pair that fits no rank refused before anything is
# written, and a rank's failure stopping the job with the pair and the rank named.
# Usage: mpi_gen_test.sh <dtb executable> <data/reference folder> <scratch folder>
set -uo pipefail
dtb=$1 reference=$2 scratch=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(mpirun --oversubscribe -np 3)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Every file of the reference list present with its checksum, and no other table file.
matches_reference() {
    local dir=$1 variant=$2
    (cd "$dir" && sha256sum --quiet -c "$reference/$variant-sha256.txt") || return 1
    local tables listed
    tables=$(cd "$dir" && ls | grep -vc '^\.') listed=$(wc -l < "$reference/$variant-sha256.txt")
    [ "$tables" = "$listed" ] || { echo "$tables files in $dir, $listed in the reference"; return 1; }
}

rm -rf "$scratch" && mkdir -p "$scratch"
for variant in international turkish; do
    out=$scratch/$variant
    if ! "${mpirun[@]}" "$dtb" gen --variant $variant --pieces 4 --out "$out" 2> "$out.log"; then
        fail "$variant: mpirun -np 3 dtb gen failed"; cat "$out.log"; continue
    fi
    matches_reference "$out" $variant || fail "$variant: the tables differ from data/reference"
    grep -q '^run: 23 of 23 pairs done.*in flight: rank 0 idle, rank 1 idle, rank 2 idle' "$out.log" ||
        fail "$variant: no final run line with the ranks"
    grep -q '^rank [12]: ' "$out.log" || fail "$variant: ranks 1 and 2 solved no pair"

    # Kill rank 1 once ten pairs are done; the job stops, naming what was in flight; a rerun completes.
    killed=$scratch/$variant-killed
    "${mpirun[@]}" "$dtb" gen --variant $variant --pieces 4 --out "$killed" 2> "$killed.log" &
    job=$!
    for _ in $(seq 1 600); do
        [ "$(grep -c '^run:' "$killed.log")" -ge 10 ] && break
        sleep 0.1
    done
    victim=
    for pid in $(pgrep -x dtb); do
        rank=$(tr '\0' '\n' < /proc/$pid/environ 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p')
        dir=$(tr '\0' '\n' < /proc/$pid/cmdline 2>/dev/null | grep -Fx -- "$killed")
        [ "$rank" = 1 ] && [ -n "$dir" ] && victim=$pid
    done
    if [ -z "$victim" ]; then
        fail "$variant: rank 1 not found to kill (the run may have ended)"; wait $job
    else
        kill -9 "$victim"
        wait $job && fail "$variant: the job went on after rank 1 was killed"
        # Rank 0 names the pairs in flight per rank; mpirun names the rank that died.
        grep -q 'dtb gen: the job was stopped; in flight: rank 0 .*, rank 1 .*, rank 2 ' "$killed.log" ||
            { fail "$variant: the stopped job did not name the pairs in flight"; cat "$killed.log"; }
        grep -q 'process rank 1 .*exited on signal 9' "$killed.log" ||
            { fail "$variant: the rank that died is not named"; cat "$killed.log"; }
        if ! "${mpirun[@]}" "$dtb" gen --variant $variant --pieces 4 --out "$killed" 2> "$killed-rerun.log"; then
            fail "$variant: the rerun failed"; cat "$killed-rerun.log"
        fi
        grep -q 'the last distributed run in this folder stopped with: rank 0' "$killed-rerun.log" ||
            fail "$variant: the rerun did not say what the stopped run had in flight"
        grep -Eq 'pairs to solve over 3 ranks \([1-9][0-9]* present\)' "$killed-rerun.log" ||
            fail "$variant: the rerun solved everything again"
        matches_reference "$killed" $variant || fail "$variant: after the kill and rerun, the tables differ"
    fi
done

# Every pair with men solved by blocks (the rule tables too, where they follow the blocks), one
# thread per rank: the same tables.
blocks=$scratch/international-blocks
if "${mpirun[@]}" "$dtb" gen --variant international --pieces 4 --blocks --threads 1 --out "$blocks" 2> "$blocks.log"; then
    matches_reference "$blocks" international || fail "--blocks --threads 1: the tables differ from data/reference"
    grep -q 'KMvKM: solved by blocks' "$blocks.log" || fail "--blocks: KMvKM was not solved by blocks"
else
    fail "mpirun -np 3 dtb gen --blocks --threads 1 failed"; cat "$blocks.log"
fi

# A pair that fits no rank: refused with exit 2 before any table is written.
small=$scratch/small
"${mpirun[@]}" "$dtb" gen --pieces 4 --memory 1 --out "$small" 2> "$small.log"
rc=$?
[ $rc = 2 ] || fail "--memory 1: exit $rc, not 2"
grep -q 'dtb gen: pair .* needs about .* MB solved whole, more than the largest worker' "$small.log" ||
    fail "--memory 1: no message naming the pair"
[ -z "$(ls "$small")" ] || fail "--memory 1: files were written: $(ls "$small")"

# A rank that fails (its pair's inputs are missing): the job stops, exit 3, pair and rank named.
broken=$scratch/broken
"${mpirun[@]}" "$dtb" gen --pieces 4 --only KMvKK --out "$broken" 2> "$broken.log"
rc=$?
[ $rc = 3 ] || fail "missing inputs: exit $rc, not 3"
grep -q 'dtb gen: rank [0-2], pair KMvKK: slice KMvKK needs' "$broken.log" ||
    { fail "missing inputs: the rank and the pair are not named"; cat "$broken.log"; }
[ -z "$(ls "$broken")" ] || fail "missing inputs: files were written: $(ls "$broken")"

[ $failures = 0 ] && echo "mpirun dtb gen: all checks passed"
exit $((failures > 0))
