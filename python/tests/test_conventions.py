# One value convention per language, the same values (docs/API.md, "Values"): C and C++ 0 loss,
# 1 draw, 2 win (DTB_LOSS/DRAW/WIN, dtb::Wdl); Python -1, 0, 1 (dtb.Wdl, an IntEnum); JSON the
# words "loss", "draw", "win". Distances are plies in all, absent for a draw (-1 in C, None in
# Python, null in JSON).
import os
import subprocess

import pytest

import dtb
from positions import random_positions

C_TO_WORD = {0: "loss", 1: "draw", 2: "win"}
PY_TO_WORD = {-1: "loss", 0: "draw", 1: "win"}


@pytest.mark.parametrize("variant", ["international", "turkish"])
def test_c_python_and_json_agree(tables, cli, variant):
    c_probe = os.environ.get("DTB_C_PROBE")
    if not c_probe:
        pytest.skip("the C program (probe_c_fens) is built by ctest")
    folder = tables[variant]
    with dtb.Tablebase(folder) as tb:
        fens = [p.fen() for p in random_positions(variant, 60, tb.max_pieces, seed=3)]
        python = [(PY_TO_WORD[int(tb.probe(f).wdl)], tb.probe(f).dtw) for f in fens]
    code = {"international": "0", "turkish": "1"}[variant]
    out = subprocess.run([c_probe, str(folder), code], input="\n".join(fens) + "\n", capture_output=True,
                         text=True, check=True).stdout.split("\n")
    c = []
    for line in out[: len(fens)]:
        wdl, dtw = map(int, line.split())
        c.append((C_TO_WORD[wdl], None if dtw < 0 else dtw))
    js = [(j["wdl"], j["dtw"]) for j in cli(["probe", "--json", "--db", folder, *fens])]
    assert python == c == js
