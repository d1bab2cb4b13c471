"""dtb: draughts endgame tablebases from Python.

Exact values (win/draw/loss, distance to win DTW, distance to conversion DTC) of international
(10x10) and Turkish (8x8) draughts endgames, read from the tables ``dtb gen`` writes; results
under the counting rules of international draughts; legal moves and perft.

    import dtb
    with dtb.Tablebase("data/tb/international") as tb:
        r = tb.probe("W:WK46,28:BK5")
        print(r.wdl, r.dtw, [m.move for m in r.moves])
        labels = tb.probe_many(fens)          # numpy int8: -1 loss, 0 draw, 1 win

The extension module is dtb._dtb; everything public is re-exported here.
"""

from ._dtb import (
    Adjudication,
    Move,
    MoveValue,
    Position,
    ProbeResult,
    RuleMove,
    Tablebase,
    TablebaseError,
    TableCorrupt,
    TablesMissing,
    Wdl,
    __version__,
    perft,
)

__all__ = [
    "Adjudication",
    "Move",
    "MoveValue",
    "Position",
    "ProbeResult",
    "RuleMove",
    "Tablebase",
    "TablebaseError",
    "TableCorrupt",
    "TablesMissing",
    "Wdl",
    "__version__",
    "perft",
]
