# Position, Move and perft against the rules (and `dtb perft --json`).
import pytest

import dtb


def test_fen_round_trip():
    p = dtb.Position.from_fen("W:W31-33,K46:B1,K5")
    assert p.fen() == "W:W31,32,33,K46:B1,K5" and str(p) == p.fen()
    assert p.variant == "international" and p.side_to_move == "white" and p.pieces == 6
    assert dtb.Position(p.fen()) == p and hash(dtb.Position(p.fen())) == hash(p)
    t = dtb.Position.from_fen("B:Wa2,Kd4:Bh7", "turkish")
    assert t.fen() == "B:Wa2,Kd4:Bh7" and t.variant == "turkish" and t.side_to_move == "black"
    assert dtb.Position() == dtb.Position.start()
    assert dtb.Position(variant="turkish").fen() == "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"


def test_legal_moves_and_play():
    p = dtb.Position.from_fen("W:W28:B22,23,13")
    moves = p.legal_moves()
    assert [(m.text, m.path, m.captures, m.is_capture) for m in moves] == [("28x8", "28x19x8", 2, True)]
    m = moves[0]
    assert (m.from_square, m.to_square, repr(m), str(m)) == ("28", "8", "Move('28x8')", "28x8")
    after = p.play(m)
    assert after == p.play(m.text) == p.play("28x19x8") and after.fen() == "B:W8:B22"
    start = dtb.Position()
    assert sorted(m.text for m in start.legal_moves()) == ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29",
                                                           "34-29", "34-30", "35-30"]
    q = start.play("32-28")
    assert q.fen().startswith("B:W28,31,33")
    promo = dtb.Position.from_fen("W:W7:B40").legal_moves()
    assert [(m.text, m.promotes) for m in promo] == [("7-1", True), ("7-2", True)]


def test_perft_equals_cli(cli):
    for variant, depth in (("international", 4), ("turkish", 4)):
        want = cli(["perft", "--variant", variant, "--depth", depth, "--json"])[0]["depths"][-1]["nodes"]
        assert dtb.perft(None, depth, variant=variant) == want
        assert dtb.perft(dtb.Position.start(variant), depth) == want
    assert dtb.perft("W:W31-50:B1-20", 5) == 27117
    assert dtb.perft(None, 0) == 1


def test_errors():
    with pytest.raises(ValueError, match="must start with the side to move"):
        dtb.Position.from_fen("X:W31:B1")
    with pytest.raises(ValueError, match="unknown square '51'"):
        dtb.Position.from_fen("W:W51:B1")
    with pytest.raises(ValueError, match="variant must be"):
        dtb.Position.from_fen("W:W31:B1", "chess")
    p = dtb.Position()
    with pytest.raises(ValueError, match="illegal move '32-27x'|not a move of the form"):
        p.play("32-27x")
    with pytest.raises(ValueError, match="illegal move '46-41'"):
        p.play("46-41")
    with pytest.raises(ValueError, match="is not a move of"):
        p.play(p.play("32-28").legal_moves()[0])
    with pytest.raises(TypeError):
        p.play(3228)
    with pytest.raises(ValueError, match="depth"):
        dtb.perft(None, -1)
    with pytest.raises(ValueError, match="captures"):
        dtb.perft(None, 1, captures="all")


TRICKY_FENS = [
    ("W:W28,K46:BK5", "international"), ("B:WK46,28:B5,K1", "international"), ("W:W:BK5", "international"),
    ("W:WK46:B", "international"), ("W:W28,28:B5", "international"), ("W:W3:B5", "international"),
    ("W:W28:B48", "international"), ("W:W28,:B5", "international"), ("W:W28:B5,", "international"),
    ("W:W28:B5:W1", "international"), ("W:B5:W28", "international"), ("w:w28:b5", "international"),
    ("W:W31-35:B1-3", "international"), (" W:W28:B5.", "international"), ("W:W0:B5", "international"),
    ("W:W007:B5", "international"), ("W:WK51:B5", "international"), ("W:W28:B5 ", "international"),
    ("W:W6-26:B1", "international"), ("W:W6-50:B1", "international"), ("X:W28:B5", "international"),
    ("W:Wa2,Kd4:Bh7", "turkish"), ("W:Wa1:Bh7", "turkish"), ("W:Wa8:Bh7", "turkish"), ("B:Wa2:Bh1", "turkish"),
    ("W:Wka2:Bh7", "turkish"), ("W:Wi2:Bh7", "turkish"), ("W:WA2:Bh7", "turkish"), ("W:Wa2-h2:Bh7", "turkish"),
]


def test_fen_reading_equals_cli(cli):
    # Position reads the canonical form itself (fast) and anything else through the library's
    # parser: both must agree with the CLI's reading, and refuse what it refuses.
    for fen, variant in TRICKY_FENS:
        try:
            got = dtb.Position.from_fen(fen, variant).fen()
        except ValueError:
            got = None
        out = cli(["perft", "--variant", variant, "--depth", 0, "--json", "--fen", fen],
                  expected_exit=2 if got is None else 0)
        assert got is None or out[0]["fen"] == got, fen
