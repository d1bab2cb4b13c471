#!/usr/bin/env bash
# Every source file compiles on its own, not only inside a unity batch: each C++ source and header
# changed since BASE (default: the previous commit), or every one with --all, is compiled alone
# (-fsyntax-only) with the flags of its target in a build without unity batches. That build is
# only configured (build-standalone/), never built. Exit 1 and the files that fail.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${STANDALONE_DIR:-build-standalone}
# CMAKE_ARGS: more configure arguments (e.g. -DCMAKE_CXX_COMPILER=clang++ to read the files with
# the sanitizer build's compiler).
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  ${CMAKE_ARGS:-} >/dev/null
sources() { grep -E '\.(cpp|hpp)$' | grep -vE '^(fuzz/corpus|tests/data|tests/consumer_project|tests/probe_c_consumer)/' || true; }
if [ "${1:-}" = "--all" ]; then
  files=$(git ls-files | sources)
else
  base=${BASE:-HEAD~1}
  if ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
    files=$(git ls-files | sources)
  else
    files=$(git diff --name-only --diff-filter=d "$base" HEAD | sources)
  fi
fi
if [ -z "$files" ]; then
  echo "check-standalone: no C++ file changed"
  exit 0
fi
# One compile command per file: a source's own; a header gets the flags of a source that includes
# it, one of its own folder first (its module's target), else of a source of its folder; compiled
# as C++ with nothing before it.
echo "$files" > "$dir/standalone-files.txt"
/usr/bin/python3 - "$dir/compile_commands.json" "$PWD" "$dir/standalone-files.txt" > "$dir/standalone-commands.txt" <<'PY'
import json, os, shlex, sys
entries = json.load(open(sys.argv[1]))
root = sys.argv[2]
by_file = {os.path.realpath(e["file"]): e for e in entries}
# A header takes the flags of the source of its folder that sees the most (include paths and
# definitions): a folder's sources may belong to targets of fewer dependencies.
by_dir = {}
def reach(e):
    args = shlex.split(e["command"]) if "command" in e else e["arguments"]
    return sum(a.startswith(("-I", "-isystem", "-D")) for a in args)
for e in entries:
    d = os.path.dirname(os.path.realpath(e["file"]))
    if d not in by_dir or reach(e) > reach(by_dir[d]):
        by_dir[d] = e
# A header's includers: the sources that name it as "<path>" or "dtb/<path>". tests/support/ holds
# helpers whose folder's only source (catch_main.cpp) sees none of the libraries they use, and a
# header-only module's folder holds no source at all.
texts = {}
def includers(rel):
    names = ('"' + rel + '"', '<' + rel + '>', '"dtb/' + rel + '"', '<dtb/' + rel + '>')
    found = []
    for e in entries:
        f = os.path.join(e["directory"], e["file"])
        if f not in texts:
            try:
                texts[f] = open(f, errors="replace").read()
            except OSError:
                texts[f] = ""
        if any("#include " + n in texts[f] for n in names):
            found.append(e)
    return found
def flags(e):
    args = shlex.split(e["command"]) if "command" in e else list(e["arguments"])
    out, skip = [], False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in ("-o", "-c", "-MF", "-MT", "-MQ"):
            skip = a != "-c"
            continue
        if a.endswith((".cpp", ".cxx", ".c")) and os.path.isabs(a) or a == e["file"]:
            continue
        if a in ("-MD", "-MMD"):
            continue
        out.append(a)
    return args[0], out, e["directory"]
for f in open(sys.argv[3]).read().split():
    path = os.path.realpath(os.path.join(root, f))
    e = by_file.get(path)
    header = f.endswith(".hpp")
    if e is None and header:
        users = includers(os.path.relpath(path, root))
        near = [u for u in users if os.path.dirname(os.path.realpath(u["file"])) == os.path.dirname(path)]
        if near or users:
            e = max(near or users, key=reach)
    if e is None:
        d = os.path.dirname(path)
        while d.startswith(root) and d not in by_dir:
            d = os.path.dirname(d)
        e = by_dir.get(d)
    if e is None:
        print("skip\t" + f)
        continue
    cc, fl, cwd = flags(e)
    cmd = [cc] + fl + ["-fsyntax-only"] + (["-x", "c++"] if header else []) + [path]
    print(cwd + "\t" + f + "\t" + shlex.join(cmd))
PY
failed="$dir/standalone-failed.txt"
: > "$failed"
{ grep -v '^skip' "$dir/standalone-commands.txt" || true; } | tr '\n' '\0' |
  xargs -0 -P "$(nproc)" -I{} bash -c '
    IFS=$'"'"'\t'"'"' read -r cwd file cmd <<< "$1"
    if ! (cd "$cwd" && eval "$cmd") > "$2.$$.log" 2>&1; then
      { echo "== $file"; head -20 "$2.$$.log"; } >> "$2"
    fi
    rm -f "$2.$$.log"' _ {} "$failed"
checked=$(grep -vc '^skip' "$dir/standalone-commands.txt" || true)
if [ -s "$failed" ]; then
  cat "$failed" >&2
  echo "check-standalone: $(grep -c '^== ' "$failed") of $checked file(s) do not compile on their own" >&2
  exit 1
fi
echo "check-standalone: $checked file(s) compile on their own"
