#!/usr/bin/env bash
# Checks that C and C++ sources follow .clang-format: those changed since BASE (default: the
# previous commit), or every source with --all. Exit 1 and the offending files when some differ;
# `clang-format -i FILE` mends them.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  echo "check-format: clang-format is not installed (apt-get install clang-format)" >&2
  exit 2
fi
sources() { grep -E '\.(c|cpp|h|hpp)$' | grep -vE '^(fuzz/corpus|tests/data)/' || true; }
if [ "${1:-}" = "--all" ]; then
  files=$(git ls-files | sources)
else
  base=${BASE:-HEAD~1}
  if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
    files=$(git ls-files | sources)  # no earlier commit: check everything
  else
    files=$(git diff --name-only --diff-filter=d "$base" HEAD | sources)
  fi
fi
bad=()
for f in $files; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  echo "check-format: ${#bad[@]} file(s) do not follow .clang-format:" >&2
  printf '  %s\n' "${bad[@]}" >&2
  exit 1
fi
echo "check-format: $(echo "$files" | grep -c . || true) file(s) checked, all formatted"
