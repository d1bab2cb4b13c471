# Tablebase.adjudicate / adjudicate_pdn give what `dtb adjudicate --json` gives.
import json
import pathlib
import shutil
import subprocess

import pytest

import dtb
from conftest import dtb_exe

PDN = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "adjudicate.pdn"

CASES = [
    ("W:WK2,6:BK50", "fmjd", 0, None, None),
    ("W:WK2,6:BK50", "fmjd", 0, None, 2),
    ("W:WK2,6:BK50", "ffjd", 0, None, None),
    ("W:WK2,6:BK50", "none", 0, None, None),
    ("B:WK40,K45,50:BK7", "fmjd", 0, 0, None),
    ("B:WK40,K45,50:BK7", "fmjd", 0, 1, None),
    ("B:WK40,K45,50:BK7", "none", 0, 1, None),
    ("W:WK1,K3:BK50", "fmjd", 20, None, None),
    ("W:WK1,K3:BK50", "ffjd", 0, None, None),
    ("W:WK10,K20,K30,K40,K45,K46,K49:BK1", "fmjd", 50, None, None),
    ("W:W6,16:B1,7,11,17", "fmjd", 0, None, None),
]


@pytest.mark.parametrize("fen,rules,reversible,endgame,small", CASES)
def test_adjudicate_equals_cli(tables, cli, fen, rules, reversible, endgame, small):
    folder = tables["international"]
    args = ["adjudicate", "--db", folder, "--json", "--fen", fen, "--rules", rules, "--reversible", reversible]
    if endgame is not None:
        args += ["--endgame", endgame]
    if small is not None:
        args += ["--small", small]
    with dtb.Tablebase(folder) as tb:
        if dtb.Position(fen).pieces > tb.max_pieces and fen.count("K") < 7 and "W6,16" not in fen:
            pytest.skip("beyond this folder")
        want = cli(args)[0]
        got = tb.adjudicate(fen, rules=rules, reversible=reversible, endgame=endgame, small=small)
        assert got.to_dict() == want
        assert str(got.result) == want["result"] and got.plies == want["plies"] and got.rule == want["rule"]
        assert [m.move for m in got.moves] == [m["move"] for m in want["moves"]]
        assert (got.reversible, got.endgame, got.small) == (want["reversible"], want["endgame"], want["small"])
        assert (None if got.theoretical is None else str(got.theoretical)) == want["theoretical"]
        for m in got.moves:
            assert m.fen == dtb.Position(fen).play(m.move).fen()


@pytest.mark.parametrize("rules", ["fmjd", "ffjd"])
def test_adjudicate_pdn_equals_cli(tables, cli, rules):
    folder = tables["international"]
    if not (folder / "KKKvK.wdl").exists():
        pytest.skip("the games reach 4 pieces")
    want = cli(["adjudicate", "--db", folder, "--json", "--pdn", PDN, "--rules", rules], expected_exit=1)[0]
    with dtb.Tablebase(folder) as tb:
        assert tb.adjudicate_pdn(PDN, rules=rules) == want
        assert tb.adjudicate_pdn_file(str(PDN), rules=rules) == want
        assert tb.adjudicate_pdn_file(PDN, rules=rules) == want
        assert tb.adjudicate_pdn(PDN.read_text(), rules=rules) == want
        assert tb.adjudicate_pdn(PDN.read_bytes(), rules=rules) == want


def test_adjudicate_pdn_bad_records(tables, cli, tmp_path):
    pdn = tmp_path / "bad.pdn"
    pdn.write_text('[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 99-98 *\n\n[FEN "W:W99:B1"]\n1. 32-28 *\n')
    want = cli(["adjudicate", "--db", tables["international"], "--json", "--pdn", pdn], expected_exit=2)[0]
    with dtb.Tablebase(tables["international"]) as tb:
        got = tb.adjudicate_pdn(pdn)
        assert got == want
        assert [g["judged"] for g in got["games"]] == [g["judged"] for g in want["games"]]
        problem = next(g["problems"][0] for g in want["games"] if not g["judged"])
        with pytest.raises(ValueError) as e:
            tb.adjudicate_pdn(pdn, strict=True)
        assert str(e.value) == problem
        with pytest.raises(ValueError, match="no game"):
            tb.adjudicate_pdn("")
        with pytest.raises(FileNotFoundError):
            tb.adjudicate_pdn(tmp_path / "absent.pdn")
        with pytest.raises(FileNotFoundError):
            tb.adjudicate_pdn_file(str(tmp_path / "absent.pdn"))
        # A str is PDN text, never a file's name: no guess from what exists on disk.
        with pytest.raises(ValueError, match="pathlib.Path"):
            tb.adjudicate_pdn(str(pdn))


TURKISH_PDN = PDN.parent / "pdn" / "turkish.pdn"


def cli_games(tables, pdn):
    """`dtb adjudicate --pdn --json` over the two folders side by side, whatever its exit code."""
    r = subprocess.run([dtb_exe(), "adjudicate", "--db", str(tables["international"]), "--turkish-db",
                        str(tables["turkish"]), "--json", "--pdn", str(pdn)], capture_output=True, text=True)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def test_adjudicate_pdn_turkish_equals_cli(tables):
    # Issue 61: Turkish games were judged by the CLI and the server, refused by Python. One
    # library function now judges them for every front end: a handle of either variant reads
    # the other variant's tables beside its folder, as the CLI does.
    want = cli_games(tables, TURKISH_PDN)
    assert [g["variant"] for g in want["games"]] == ["turkish"] * 3
    for variant in ("international", "turkish"):
        with dtb.Tablebase(tables[variant]) as tb:
            got = tb.adjudicate_pdn(TURKISH_PDN)
            assert got["games"] == want["games"]


def test_adjudicate_pdn_table_errors_are_typed(tables, tmp_path):
    # The exception class follows the kind of failure (a probe status), never the message's text.
    alone = tmp_path / "alone" / "international"
    shutil.copytree(tables["international"], alone)
    with dtb.Tablebase(alone) as tb:
        with pytest.raises(dtb.TablesMissing, match="turkish"):
            tb.adjudicate_pdn(TURKISH_PDN)
    broken = tmp_path / "broken"
    for variant in ("international", "turkish"):
        shutil.copytree(tables[variant], broken / variant)
    for table in (broken / "international").iterdir():
        if table.name.startswith(("KKvK.", "KvKK.")) and table.stat().st_size > 200:
            data = bytearray(table.read_bytes())
            data[len(data) // 2] ^= 0xFF
            table.write_bytes(bytes(data))
    with dtb.Tablebase(broken / "international") as tb:
        with pytest.raises(dtb.TableCorrupt):
            tb.adjudicate_pdn('[FEN "W:WK1,K3:BK50"]\n1. 1-7 *\n', rules="none")


def test_adjudicate_pdn_tag_not_utf8(tables):
    # A tag in a legacy encoding reaches the JSON the module parses: written as text, not an error.
    pdn = b'[Event "caf\xe9 \xff"]\n[FEN "W:WK2,6:BK50"]\n1. 2-11 *\n'
    with dtb.Tablebase(tables["international"]) as tb:
        got = tb.adjudicate_pdn(pdn)
    assert got["games"][0]["tags"]["Event"].startswith("caf")
