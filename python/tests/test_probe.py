# Tablebase.probe / wdl / dtw / probe_many give what `dtb probe --json` gives.
import numpy as np
import pytest

import dtb
from positions import random_positions


@pytest.mark.parametrize("variant", ["international", "turkish"])
def test_probe_equals_cli(tables, cli, variant):
    folder = tables[variant]
    with dtb.Tablebase(folder, variant=variant) as tb:
        positions = random_positions(variant, 60, tb.max_pieces)
        fens = [p.fen() for p in positions]
        expected = cli(["probe", "--db", folder, "--variant", variant, "--json", *fens])
        assert len(expected) == len(fens)
        for position, want in zip(positions, expected):
            got = tb.probe(position.fen())
            assert got.to_dict() == want
            assert str(got.wdl) == want["wdl"] and got.dtw == want["dtw"] and got.dtc == want["dtc"]
            assert [m.move for m in got.moves] == [m["move"] for m in want["moves"]]
            assert got.pv == want["pv"]
            assert tb.wdl(position) == got.wdl
            assert tb.dtw(position.fen()) == got.dtw
            for m in got.moves:
                after = position.play(m.move)
                assert m.fen == after.fen()
                legal = {x.text: x for x in position.legal_moves()}[m.move]
                assert (m.captures, m.promotes) == (legal.captures, legal.promotes)
                # The move's value is the negation of the value after it.
                assert tb.wdl(after) == -m.wdl
        labels = tb.probe_many(fens)
        assert labels.dtype == np.int8 and labels.shape == (len(fens),)
        assert labels.tolist() == [int(dtb.Wdl[w["wdl"].upper()]) for w in expected]
        assert tb.probe_many(positions).tolist() == labels.tolist()


def test_probe_result_fields(tables):
    with dtb.Tablebase(str(tables["international"])) as tb:
        r = tb.probe("W:WK46,28:BK5")
        assert r.wdl is dtb.Wdl.WIN and r.wdl == 1 and str(r.wdl) == "win"
        assert r.fen == "W:W28,K46:BK5" and r.variant == "international"
        assert r.best_move.move == r.moves[0].move == r.pv[0] and r.dtw == len(r.pv) == 3
        assert [(m.move, m.captures, m.promotes) for m in r.moves][:2] == [("28-22", 0, False), ("28-23", 0, False)]
        assert r.moves[0].fen == "B:W22,K46:BK5" and r.moves[0].to_dict() == r.to_dict()["moves"][0]
        assert r.moves[0].path == ["28", "22"] and tb.probe("B:W28,K46:BK5").moves[0].path[0] == "5"
        draw = tb.probe("W:WK1,K3:BK50")
        assert draw.wdl is dtb.Wdl.DRAW and draw.dtw is None and draw.dtc is None and draw.pv == []
        assert tb.dtw("W:WK1,K3:BK50") is None
        lost = tb.probe("B:W28,K46:BK5")
        assert lost.wdl == dtb.Wdl.LOSS and lost.dtw == 2 and lost.moves[0].captures == 1


def test_probe_many_inputs(tables):
    with dtb.Tablebase(tables["international"]) as tb:
        assert tb.probe_many([]).tolist() == []
        gen = (f for f in ["W:WK46,28:BK5", "B:WK46,28:BK5"])
        assert tb.probe_many(gen).tolist() == [1, -1]
        too_many = "W:W31-50:B1-20"
        assert tb.probe_many(["W:WK46,28:BK5", too_many], missing=-128).tolist() == [1, -128]
        with pytest.raises(dtb.TablesMissing, match=r"fens\[1\]"):
            tb.probe_many(["W:WK46,28:BK5", too_many])
