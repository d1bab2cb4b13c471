#!/usr/bin/env bash
# Load on dtb serve's probe route with wrk (Debian's wrk): quiet 5-piece international positions
# (no capture for the side to move), tables hot. Usage:
#   bench/serve_bench.sh TABLES_DIR [SECONDS] [CONNECTIONS]
# TABLES_DIR holds international/ with the 2-5 tables (dtb gen --pieces 5). The positions are
# drawn at random (fixed seed) and kept when the server answers 200 with no capturing move.
set -euo pipefail
cd "$(dirname "$0")/.."
tables=${1:?tables folder}; seconds=${2:-20}; connections=${3:-8}
dtb=${DTB:-build/tools/dtb}
port=${PORT:-18097}
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT
$dtb serve --tables "$tables" --port "$port" --threads "${THREADS:-2}" 2>"$work/serve.log" &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/v1/status" >/dev/null && break; sleep 0.1; done
/usr/bin/python3 - "$port" "$work/fens" <<'PY'
import json, random, sys, urllib.parse, urllib.request
port, out = sys.argv[1], sys.argv[2]
random.seed(5)
materials = ["KKvKM", "KMvKK", "KKKvM", "KMvKM", "KKvMM", "KMMvK", "KKMvK", "MMvKM", "KMvMM", "KKvKK"]
kept = []
while len(kept) < 2000:
    m = random.choice(materials)
    white, black = m.split("v")
    squares = random.sample(range(1, 51), len(white) + len(black))
    def pieces(kinds, sqs, promotion_row):
        out = []
        for kind, sq in zip(kinds, sqs):
            if kind == "M" and sq in promotion_row: return None
            out.append(("K" if kind == "K" else "") + str(sq))
        return out
    w = pieces(white, squares[:len(white)], range(1, 6))
    b = pieces(black, squares[len(white):], range(46, 51))
    if w is None or b is None: continue
    fen = "W:W" + ",".join(w) + ":B" + ",".join(b)
    url = "http://127.0.0.1:%s/api/v1/international?fen=%s" % (port, urllib.parse.quote(fen))
    try:
        answer = json.load(urllib.request.urlopen(url))
    except Exception:
        continue
    if any(move["captures"] > 0 for move in answer["moves"]): continue
    kept.append(urllib.parse.quote(fen))
open(out, "w").write("\n".join(kept) + "\n")
PY
# Warm: every position once.
DTB_FENS="$work/fens" wrk -t1 -c1 -d3s -s bench/serve_probe.lua "http://127.0.0.1:$port" >/dev/null
DTB_FENS="$work/fens" wrk -t2 -c"$connections" -d"${seconds}s" --latency -s bench/serve_probe.lua "http://127.0.0.1:$port"
