#!/usr/bin/env bash
# The main job: install what is missing, build, generate the default set of tables (both
# variants, up to 4 pieces) into data/tb/<variant>, and probe a few positions.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
dtb=build/tools/dtb
$dtb perft --variant international --depth 6
$dtb perft --variant turkish --depth 6 --captures paths
$dtb gen --variant international --pieces "${DTB_PIECES:-4}"
$dtb gen --variant turkish --pieces "${DTB_PIECES:-4}"
if $dtb probe --help >/dev/null 2>&1; then
  $dtb probe --variant international "W:WK2,6:BK50" "W:WK40,K45,50:BK11" "W:W33:B2"
  $dtb probe --variant turkish "W:Wd4:Bd6"
fi
$dtb adjudicate --fen "W:WK40,K45,50:BK11" --endgame 1
$dtb adjudicate --fen "W:WK40,K45,50:BK11" --endgame 2
$dtb adjudicate --fen "W:WK6,K22,K27:BK49" --reversible 38
echo "Explorer: run '$dtb serve' and open http://127.0.0.1:8080/ in a browser (docs/API.md for the JSON API)."
