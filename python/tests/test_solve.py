# Tablebase.solve: `dtb solve` from Python, the object of `dtb solve --json`, searched from a
# folder of the 2-3 piece tables for 4-piece positions.
import pytest

import dtb

WIN4 = "W:WK1,K26,K30:B32"
DRAW4 = "W:WK46,K48:BK3,K1"


@pytest.fixture(scope="module")
def small(tables, tmp_path_factory):
    """The international tables of at most 3 pieces (links)."""
    d = tmp_path_factory.mktemp("small")
    for f in tables["international"].iterdir():
        name = f.name.split(".")[0]
        if "v" in name and len(name) - 1 <= 3:
            (d / f.name).symlink_to(f)
    return d


def test_solve_answers_as_the_cli(small, cli):
    with dtb.Tablebase(small) as tb:
        win = tb.solve(WIN4, nodes=100000)
        draw = tb.solve(DRAW4, nodes=100000)
    assert win["answer"] == "win" and win["source"] == "search" and win["best_move"]
    assert draw["answer"] == "draw" and draw["lower"] == "draw" and draw["upper"] == "draw"
    for fen, r in ((WIN4, win), (DRAW4, draw)):
        (c,) = cli(["solve", "--db", small, fen, "--nodes", "100000", "--json"])
        assert {k: r[k] for k in ("answer", "lower", "upper", "best_move", "pv", "nodes")} == {
            k: c[k] for k in ("answer", "lower", "upper", "best_move", "pv", "nodes")}


def test_solve_refusals(small):
    with dtb.Tablebase(small) as tb:
        with pytest.raises(ValueError):
            tb.solve("W:W31:Bxx")
        with pytest.raises(ValueError):
            tb.solve(WIN4, time=0)
        with pytest.raises(ValueError):
            tb.solve(WIN4, rules="fide")
