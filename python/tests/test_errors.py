# Every failure is a Python exception, never a crash: ValueError for input, TablesMissing /
# TableCorrupt for tables.
import shutil

import pytest

import dtb


def test_bad_input(tables):
    with dtb.Tablebase(tables["international"]) as tb:
        for method in (tb.probe, tb.wdl, tb.dtw, tb.adjudicate):
            with pytest.raises(ValueError, match="unknown square '51'"):
                method("W:WK51:BK5")
        with pytest.raises(ValueError, match=r"fens\[1\]: FEN 'nonsense'"):
            tb.probe_many(["W:WK46:BK5", "nonsense"])
        with pytest.raises(ValueError, match="its promotion row"):
            tb.wdl("W:W3:BK5")
        with pytest.raises(ValueError, match="a turkish position"):
            tb.wdl(dtb.Position(variant="turkish"))
        with pytest.raises(TypeError):
            tb.wdl(42)
        with pytest.raises(ValueError, match="rules must be"):
            tb.adjudicate("W:WK2,6:BK50", rules="fide")
        with pytest.raises(ValueError, match="reversible must be a whole number from 0"):
            tb.adjudicate("W:WK2,6:BK50", reversible=-1)
        with pytest.raises(ValueError, match="missing must fit"):
            tb.probe_many([], missing=1000)


def test_missing_tables(tables, tmp_path):
    with pytest.raises(dtb.TablesMissing):
        dtb.Tablebase(tmp_path / "absent")
    with pytest.raises(dtb.TablesMissing):
        dtb.Tablebase(tmp_path)  # a folder without tables
    with pytest.raises(ValueError, match="variant must be"):
        dtb.Tablebase(tables["international"], variant="brazilian")
    with dtb.Tablebase(tables["international"]) as tb:
        with pytest.raises(dtb.TablesMissing) as e:
            tb.probe("W:W31-50:B1-20")
        assert e.value.slice is not None and isinstance(e.value, dtb.TablebaseError)
    # One slice removed: the probe names it.
    copy = tmp_path / "copy"
    shutil.copytree(tables["international"], copy)
    (copy / "KKvK.wdl").unlink()
    with dtb.Tablebase(copy) as tb:
        with pytest.raises(dtb.TablesMissing, match="KKvK") as e:
            tb.wdl("W:WK1,K3:BK50")
        assert e.value.slice == "KKvK" and e.value.file == "KKvK.wdl"


def test_corrupt_table(tables, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(tables["international"], copy)
    data = bytearray((copy / "KKvK.wdl").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (copy / "KKvK.wdl").write_bytes(bytes(data))
    with dtb.Tablebase(copy) as tb:
        with pytest.raises(dtb.TableCorrupt, match="KKvK") as e:
            tb.probe_many(["W:WK1,K3:BK50"] + [f"W:WK{a},K{b}:BK50" for a in range(1, 46) for b in range(a + 1, 46)])
        assert e.value.slice == "KKvK" and e.value.file == "KKvK.wdl"
        assert tb.wdl("W:WK1:BK50") is not None  # other slices still answer


def test_wrong_variant(tables):
    # Turkish tables opened as international (and the other way): no value, an exception.
    for folder, variant in ((tables["turkish"], "international"), (tables["international"], "turkish")):
        with dtb.Tablebase(folder, variant=variant) as tb:
            fen = "W:WK1:BK50" if variant == "international" else "W:Wa1:Bh8"
            fen = fen if variant == "international" else "W:WKa1:BKh8"
            with pytest.raises(dtb.TablebaseError):
                tb.wdl(fen)
    with dtb.Tablebase(tables["turkish"], variant="turkish") as tb:
        with pytest.raises(ValueError):
            tb.adjudicate("W:WKa1,Kb1:BKh8")


def test_closed_handle(tables):
    tb = dtb.Tablebase(tables["international"])
    with tb:
        assert not tb.closed
    assert tb.closed and "closed" in repr(tb)
    with pytest.raises(ValueError, match="closed"):
        tb.wdl("W:WK1:BK50")
    tb.close()  # twice is fine


def test_hostile_arguments(tables, tmp_path):
    import pathlib
    folder = tables["international"]
    with dtb.Tablebase(folder) as tb:
        # A lone surrogate has no UTF-8 form: ValueError, not a crash or a TypeError.
        with pytest.raises(ValueError, match="surrogate"):
            tb.probe("W:WK2,6:BK50\udc80")
        # One str where an iterable of FENs belongs: TypeError, not 12 one-letter FENs.
        with pytest.raises(TypeError, match="not one str"):
            tb.probe_many("W:WK2,6:BK50")
        # Counters beyond the CLI's limits.
        with pytest.raises(ValueError, match="whole number from 0"):
            tb.adjudicate("W:WK2,6:BK50", reversible=10**6 + 1)
        with pytest.raises(ValueError, match="whole number from 0"):
            tb.adjudicate("W:WK2,6:BK50", endgame=-1)
    # A NUL in a path.
    with pytest.raises(ValueError, match="NUL"):
        dtb.Tablebase(str(folder) + "\0/x")
    # A dangling symbolic link is a folder without tables.
    link = tmp_path / "dangling"
    link.symlink_to(tmp_path / "nowhere")
    with pytest.raises(dtb.TablesMissing):
        dtb.Tablebase(link)
    with pytest.raises(dtb.TablesMissing):
        dtb.Tablebase(pathlib.Path(tmp_path / "absent"))
