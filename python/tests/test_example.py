# examples/label_pdn_endgames.py runs: labels as the tables give them, and a PNG plot.
import csv
import os
import pathlib
import subprocess
import sys

import pytest

import dtb

REPO = pathlib.Path(__file__).resolve().parents[2]


def test_label_pdn_endgames(tables, tmp_path):
    pytest.importorskip("matplotlib")
    labels, png = tmp_path / "labels.csv", tmp_path / "game.png"
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(dtb.__file__)))
    r = subprocess.run([sys.executable, str(REPO / "examples" / "label_pdn_endgames.py"), str(tables["international"]),
                        str(REPO / "tests" / "data" / "adjudicate.pdn"), "--csv", str(labels), "--plot", str(png),
                        "--game", "4"], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rows = list(csv.DictReader(labels.open()))
    game = [row for row in rows if row["game"] == "4"]
    assert game[0]["fen"] == "W:WK2,6:BK50" and len(game) == 10  # "A win played out": 9 plies
    with dtb.Tablebase(tables["international"]) as tb:
        for row in rows[:40] + game:
            assert row["wdl"] == str(tb.wdl(row["fen"]))
            assert row["dtw"] == ("" if tb.dtw(row["fen"]) is None else str(tb.dtw(row["fen"])))
