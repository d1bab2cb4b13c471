#!/usr/bin/env bash
# The test command: install what is missing, build, run the whole test suite (ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir build --output-on-failure -j2 --timeout 1200
