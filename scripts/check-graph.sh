#!/usr/bin/env bash
# Checks that docs/DESIGN.md's graph of the libraries ("Dependencies": one row per dtb_* library,
# the libraries it is "on") is CMake's. CMake's graph comes from `cmake --graphviz` over a
# configured build with the tools (GRAPH_DIR, default build/, configured here when it is not).
# Both graphs are compared reduced (an edge implied by others dropped), so CMake may name a
# dependency twice; the table must not. A library the table says is "built when" something is
# found or asked for, and this configuration does not build (dtb_mpi without an MPI), is left out
# of both. Exit 1 and the differences when they differ; 2 for a build of the probe library alone.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${GRAPH_DIR:-build}
mkdir -p "$dir/graphviz"
cmake -S . -B "$dir" --graphviz="$dir/graphviz/dtb.dot" >/dev/null
if grep -q '^DTB_BUILD_TOOLS:BOOL=OFF' "$dir/CMakeCache.txt"; then
  echo "check-graph: $dir builds the probe library alone (-DDTB_BUILD_TOOLS=OFF); the graph needs the tools" >&2
  exit 2
fi
/usr/bin/python3 - "$dir/graphviz/dtb.dot" docs/DESIGN.md <<'PY'
import re, sys

def cmake_graph(path):
    """The dtb_* libraries and their links, from the dot file of `cmake --graphviz`."""
    text = open(path).read()
    label = {}
    for node, name, shape in re.findall(r'"(node\d+)" \[ label = "([^"]+)", shape = (\w+) \]', text):
        name = name.split("\\n")[0]  # "dtb_library\n(dtb::dtb)": the target, then its alias
        if name.startswith("dtb_") and shape != "egg":  # egg: an executable
            label[node] = name
    graph = {name: set() for name in label.values()}
    for a, b in re.findall(r'"(node\d+)" -> "(node\d+)"', text):
        if a in label and b in label:
            graph[label[a]].add(label[b])
    return graph

def design_graph(path):
    """The table under DESIGN.md's "## Dependencies": `library` | folder | `on`, ... | what."""
    text = open(path).read()
    section = text.split("\n## Dependencies\n", 1)[1].split("\n## ", 1)[0]
    graph, optional = {}, set()
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 3 and re.fullmatch(r"`dtb_\w+`", cells[0]):
            graph[cells[0].strip("`")] = set(re.findall(r"`(dtb_\w+)`", cells[2]))
            if len(cells) >= 4 and "built when" in cells[3]:
                optional.add(cells[0].strip("`"))
    return graph, optional

def reach(graph, a):
    seen, todo = set(), list(graph[a])
    while todo:
        b = todo.pop()
        if b not in seen:
            seen.add(b)
            todo.extend(graph.get(b, ()))
    return seen

def reduced(graph):
    """Each library's links without those another of its links already brings."""
    out = {}
    for a, links in graph.items():
        out[a] = {b for b in links if not any(b in reach(graph, c) for c in links if c != b)}
    return out

cmake = cmake_graph(sys.argv[1])
design, optional = design_graph(sys.argv[2])
problems = []
for a in sorted(set(design) - set(cmake) - optional):
    problems.append(f"{a}: in DESIGN.md's table, not a library of the build (nor \"built when\" ...)")
for a in sorted(set(cmake) - set(design)):
    problems.append(f"{a}: a library of the build that DESIGN.md's table does not list")
for a in sorted(design):
    for b in sorted(design[a] - set(design)):
        problems.append(f"{a}: on {b}, which the table does not list")
for a in sorted(cmake):
    if a in reach(cmake, a):
        problems.append(f"{a}: depends on itself through a circle")
if not problems:
    absent = set(design) - set(cmake)  # not built in this configuration
    # A library not built is left out: what it linked, its dependants reach through it.
    kept = {a: set() for a in design if a not in absent}
    for a in kept:
        todo = list(design[a])
        while todo:
            b = todo.pop()
            if b in absent:
                todo.extend(design[b])
            else:
                kept[a].add(b)
    if reduced(design) != design:
        for a in sorted(design):
            for b in sorted(design[a] - reduced(design)[a]):
                problems.append(f"{a}: on {b} in the table, which another library it is on brings")
    want, have = reduced(cmake), reduced(kept)
    for a in sorted(want):
        for b in sorted(want[a] - have[a]):
            problems.append(f"{a}: on {b} in CMake, not in DESIGN.md's table")
        for b in sorted(have[a] - want[a]):
            problems.append(f"{a}: on {b} in DESIGN.md's table, not in CMake")
    if absent:
        print("check-graph: not built here, left out: " + ", ".join(sorted(absent)))
if problems:
    print("check-graph: docs/DESIGN.md (\"Dependencies\") and CMake's graph differ:", file=sys.stderr)
    for p in problems:
        print("  " + p, file=sys.stderr)
    sys.exit(1)
print(f"check-graph: {len(cmake)} libraries, DESIGN.md's graph is CMake's")
PY
