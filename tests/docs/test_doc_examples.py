# The examples of README.md, docs/API.md and python/README.md against what the programs answer
# today, on the test fixture's tables (both variants up to 4 pieces): a stale example fails the
# build. Run by ctest as docs:examples (environment: DTB_EXE, DTB_TEST_TABLES, PYTHONPATH).
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
DTB = os.environ.get("DTB_EXE", str(REPO / "build" / "tools" / "dtb"))
TABLES = pathlib.Path(os.environ.get("DTB_TEST_TABLES", REPO / "build" / "test-tables"))


def dtb(*args, expected=(0, 1)):
    r = subprocess.run([DTB, *map(str, args)], capture_output=True, text=True, timeout=300)
    assert r.returncode in expected, f"dtb {' '.join(map(str, args))}: {r.returncode}\n{r.stderr}"
    return r.stdout


def fenced_blocks(text, lang):
    """(the heading above, the block's text) for each fenced block of language `lang` ("" none)."""
    out, heading, block, inside = [], "", [], None
    for line in text.split("\n"):
        if inside is None:
            if line.startswith("## "):
                heading = line[3:]
            elif line.startswith("```"):
                inside, block = line[3:].strip(), []
        elif line.startswith("```"):
            if inside == lang:
                out.append((heading, "\n".join(block) + "\n"))
            inside = None
        else:
            block.append(line)
    return out


README = (REPO / "README.md").read_text()
API = (REPO / "docs" / "API.md").read_text()
PYTHON_README = (REPO / "python" / "README.md").read_text()


def test_readme_probe_output():
    block = next(b for before, b in fenced_blocks(README, "") if b.startswith("W:WK2,6:BK50"))
    got = dtb("probe", "--tables", TABLES, "W:WK2,6:BK50").splitlines()
    shown = [line for line in block.splitlines() if line.strip() != "..."]
    at = 0
    for line in shown:
        assert line in got[at:], f"README shows {line!r}; dtb probe prints:\n" + "\n".join(got)
        at = got.index(line, at) + 1


def test_readme_tour_adjudications():
    tour = next(b for before, b in fenced_blocks(README, "sh") if "dtb adjudicate --fen" in b)
    checked = 0
    for line in tour.splitlines():
        if not line.startswith("build/tools/dtb adjudicate --fen"):
            continue
        command, _, comment = line.partition("#")
        args = shlex.split(command)[1:]
        out = dtb(*args, "--tables", TABLES)
        if m := re.search(r"lost in (\d+) plies", comment):
            assert f"loss in {m.group(1)} plies" in out, (line, out)
        elif m := re.search(r"drawn by the (\S+) rule", comment):
            assert f"draw by the {m.group(1)} rule" in out, (line, out)
        elif "wins" in comment:
            assert "to move: win" in out, (line, out)
        else:
            pytest.fail(f"README tour line with a comment this test cannot read: {line}")
        checked += 1
    assert checked >= 3


def api_objects():
    """The JSON examples of docs/API.md that parse: (section heading, object)."""
    out = []
    for heading, text in fenced_blocks(API, "json"):
        try:
            out.append((heading, json.loads(text)))
        except json.JSONDecodeError:
            # Several objects (the games route's positions), read one after the other; an object
            # with "..." elides and ends the reading.
            decoder, at = json.JSONDecoder(), 0
            while True:
                while at < len(text) and text[at].isspace():
                    at += 1
                if at >= len(text):
                    break
                try:
                    obj, at = decoder.raw_decode(text, at)
                except json.JSONDecodeError:
                    break
                out.append((heading, obj))
    return out


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A real `dtb serve` on the fixture's tables: its base URL."""
    log = tmp_path_factory.mktemp("serve") / "serve.log"
    with open(log, "w") as err:
        proc = subprocess.Popen([DTB, "serve", "--tables", str(TABLES), "--port", "0"], stderr=err)
    try:
        for _ in range(200):
            m = re.search(r"listening on (http://127\.0\.0\.1:\d+/)", log.read_text())
            if m:
                break
            time.sleep(0.05)
        assert m, log.read_text()
        yield m.group(1)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.loads(r.read())


def test_api_examples_are_the_answers(server):
    checked = 0
    for heading, obj in api_objects():
        if "GET /api/v1/status" in heading and "variants" in obj:
            got = get_json(server + "api/v1/status")
        elif "moves" in obj and "counters" in obj:
            query = {"fen": obj["fen"], "rules": obj["rules"]}
            query.update({k: v for k, v in obj["counters"].items() if v is not None})
            got = get_json(server + "api/v1/international?" + urllib.parse.urlencode(query))
        elif "GET /api/v1/{variant}?fen=FEN" in heading and "moves" in obj:
            got = json.loads(dtb("probe", "--json", "--tables", TABLES, obj["fen"]))
        elif "adjudicate" in heading and "rules" in obj:
            args = ["adjudicate", "--json", "--tables", TABLES, obj["fen"], "--rules", obj["rules"],
                    "--reversible", obj["reversible"]]
            for name in ("endgame", "small"):
                if obj.get(name) is not None and heading.count(name):
                    args += ["--" + name, obj[name]]
            got = json.loads(dtb(*args))
            got = {k: got[k] for k in obj}
        elif "solve" in heading and "answer" in obj:
            # The search's time is the machine's: the rest is the same on every run.
            query = urllib.parse.urlencode({"fen": obj["fen"]})
            got = get_json(server + f"api/v1/{obj['variant']}/solve?{query}")
            got["seconds"] = obj["seconds"]
        elif "games" in heading and "ply" in obj:
            pdn = REPO / "tests" / "data" / "pdn" / "numbers_results.pdn"
            report = json.loads(dtb("adjudicate", "--json", "--tables", TABLES, "--pdn", pdn))
            candidates = [g["positions"][obj["ply"]] for g in report["games"]
                          if len(g["positions"]) > obj["ply"] and g["positions"][0]["fen"] == "W:WK2,6:BK50"]
            assert obj in candidates, f"docs/API.md shows {obj}; the games give {candidates}"
            checked += 1
            continue
        else:
            continue
        assert got == obj, f"docs/API.md ({heading}) shows\n{obj}\nthe answer is\n{got}"
        checked += 1
    assert checked >= 8


def test_python_readme_probe():
    line = next(line for line in PYTHON_README.splitlines() if "print(r.wdl, r.dtw, r.dtc, r.pv)" in line)
    shown = line.split("#", 1)[1].strip()
    code = ("import dtb, sys\n"
            "with dtb.Tablebase(sys.argv[1]) as tb:\n"
            "    r = tb.probe('W:WK46,28:BK5')\n"
            "    print(r.wdl, r.dtw, r.dtc, r.pv)\n")
    r = subprocess.run([sys.executable, "-c", code, str(TABLES / "international")], capture_output=True, text=True,
                       env=dict(os.environ), timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == shown


CLI_MD = (REPO / "docs" / "CLI.md").read_text()


def test_cli_md_commands_run():
    """Every `build/tools/dtb ...` line of docs/CLI.md runs on the fixture's tables (data/tb read as
    the fixture's root) and exits 0; a line piped into `cmp - FILE` prints exactly that file."""
    checked = 0
    for _, block in fenced_blocks(CLI_MD, "sh"):
        for line in block.splitlines():
            if not line.startswith("build/tools/dtb "):
                continue
            command = line.split("  #", 1)[0].strip().replace("data/tb", str(TABLES))
            command, _, compare = command.partition("| cmp - ")
            args = shlex.split(command)[1:]
            if "--db" not in args and "--tables" not in args and args[0] in ("stats", "verify"):
                args += ["--tables", str(TABLES)]
            r = subprocess.run([DTB, *args], capture_output=True, text=True, timeout=600)
            assert r.returncode == 0, f"docs/CLI.md: {line}\n{r.stderr}"
            if compare:
                want = (REPO / compare.strip().replace(str(TABLES), "data/tb")).read_text()
                assert r.stdout == want, f"docs/CLI.md: {line}: the output differs from {compare.strip()}"
            checked += 1
    assert checked >= 4
