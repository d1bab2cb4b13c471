#!/usr/bin/env bash
# CI step: the explorer page in a real headless browser (tests/web/test_page.py: Debian's
# chromium driven by Selenium through chromium-driver), against dtb serve on the test fixture's
# tables (build/test-tables, both variants up to 4 pieces: scripts/test.sh made them). Installs
# what is missing. Screenshots go to build/web-screenshots.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
for p in chromium chromium-driver python3-selenium; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
tables=${DTB_TABLES:-build/test-tables}
log=$(mktemp)
build/tools/dtb serve --tables "$tables" --port 0 2>"$log" &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 200); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" | head -1 || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { echo "ci-browser: dtb serve did not start" >&2; cat "$log" >&2; exit 1; }
mkdir -p build/web-screenshots
DTB_URL=$url DTB_SCREENSHOTS=build/web-screenshots /usr/bin/python3 tests/web/test_page.py
kill $server
wait $server
