#!/usr/bin/env bash
# Checks the explorer page's JavaScript (web/*.js): ESLint's recommended rules for browser ES
# modules, and Prettier's formatting (scripts/js-lint: their configs, versions pinned by its
# package-lock.json). Installs what is missing: Debian's nodejs and npm, then the locked packages
# (npm ci, again whenever the lockfile changes). Exit 1 when either finds a problem;
# `scripts/js-lint/node_modules/.bin/prettier --config scripts/js-lint/prettier.config.js -w web/*.js`
# mends the formatting.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
lint=scripts/js-lint
# The lockfile npm ci last installed, kept beside the packages: none or another means install.
if ! cmp -s "$lint/package-lock.json" "$lint/node_modules/.installed-lock.json"; then
  (cd "$lint" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
  cp "$lint/package-lock.json" "$lint/node_modules/.installed-lock.json"
fi
files=(web/*.js)
failed=()
"$lint/node_modules/.bin/eslint" --config "$lint/eslint.config.js" --max-warnings 0 "${files[@]}" || failed+=(eslint)
"$lint/node_modules/.bin/prettier" --config "$lint/prettier.config.js" --check --log-level warn "${files[@]}" ||
  failed+=("prettier --check")
if ((${#failed[@]})); then
  echo "check-js: ${failed[*]} found problems in web/*.js (above)" >&2
  exit 1
fi
echo "check-js: ${#files[@]} file(s) checked, no lint problem, all formatted"
