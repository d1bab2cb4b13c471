#!/usr/bin/env bash
# The checksums of the large sets, too slow to generate in the test suite (5 and 6 pieces):
# data/reference/VARIANT-PIECES-sha256.txt holds the sha256 of every table file of that piece
# count (sorted by file name), made by the generator of the commit that recorded it. A rewrite of
# the generator must keep them (tests/gen/reference.cpp checks the 2-4 piece files the same way).
#   scripts/reference-checksums.sh record DIR VARIANT PIECES   writes the list from DIR
#   scripts/reference-checksums.sh check DIR VARIANT PIECES    compares DIR with it (exit 1: differ)
#   scripts/reference-checksums.sh check-listed DIR VARIANT PIECES
#       compares only the files the list names, each of which DIR must hold: for a list recorded
#       part by part (a set whose generation spans runs; record then lists what DIR holds)
# DIR is a folder of VARIANT's tables (for example data/tb/international).
set -euo pipefail
usage() { echo "usage: $0 record|check|check-listed DIR international|turkish PIECES" >&2; exit 2; }
[ $# -eq 4 ] || usage
action=$1 dir=$2 variant=$3 pieces=$4
case "$action" in record | check | check-listed) ;; *) usage ;; esac
case "$variant" in international | turkish) ;; *) usage ;; esac
[[ "$pieces" =~ ^[2-9]$ ]] || usage
[ -d "$dir" ] || { echo "$0: no folder $dir" >&2; exit 2; }
list="$(cd "$(dirname "$0")/.." && pwd)/data/reference/$variant-$pieces-sha256.txt"

# The table files of DIR whose slice has PIECES pieces (the name less "v" and the extension).
files_of_count() {
  (cd "$dir" && find . -maxdepth 1 -type f \( -name '*.wdl' -o -name '*.dtw' -o -name '*.dtc' \
     -o -name '*.fmjd' -o -name '*.ffjd' -o -name '*.ffjd16' \) -printf '%f\n') |
    awk -v n="$pieces" '{ s = $0; sub(/\..*$/, "", s); gsub(/v/, "", s); if (length(s) == n) print }' |
    LC_ALL=C sort
}

mapfile -t files < <(files_of_count)
[ ${#files[@]} -gt 0 ] || { echo "$0: no $pieces-piece table in $dir" >&2; exit 3; }
if [ "$action" = record ]; then
  (cd "$dir" && sha256sum -- "${files[@]}") >"$list"
  echo "$list: ${#files[@]} files" >&2
  exit 0
fi
[ -f "$list" ] || { echo "$0: no reference list $list" >&2; exit 3; }
if [ "$action" = check-listed ]; then
  if (cd "$dir" && sha256sum --quiet -c "$list"); then
    echo "$dir: the $(wc -l <"$list") files of $list equal" >&2
    exit 0
  fi
  echo "$0: tables differ from $list, or are missing" >&2
  exit 1
fi
want=$(awk '{print $2}' "$list")
have=$(printf '%s\n' "${files[@]}")
if [ "$want" != "$have" ]; then
  echo "$0: the $pieces-piece files of $dir are not the reference's:" >&2
  diff <(echo "$want") <(echo "$have") >&2 || true
  exit 1
fi
if (cd "$dir" && sha256sum --quiet -c "$list"); then
  echo "$dir: ${#files[@]} $pieces-piece files equal to $list" >&2
else
  echo "$0: tables differ from $list" >&2
  exit 1
fi
