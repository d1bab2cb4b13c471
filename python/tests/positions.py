# Random legal positions of a few pieces, for comparisons with the CLI (seeded: the same each run).
import random

import dtb

_SQUARES = {
    "international": [str(s) for s in range(1, 51)],
    "turkish": [f + r for r in "12345678" for f in "abcdefgh"],
}


def _man_allowed(variant, square, white):
    if variant == "international":
        n = int(square)
        return n > 5 if white else n < 46
    row = square[1]
    return row not in "18"


def random_positions(variant, count, max_pieces, seed=49):
    """`count` distinct legal positions (both sides with a piece) that Position accepts."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        pieces = rng.randint(2, max_pieces)
        squares = rng.sample(_SQUARES[variant], pieces)
        white_n = rng.randint(1, pieces - 1)
        lists = {True: [], False: []}
        for i, sq in enumerate(squares):
            white = i < white_n
            king = rng.random() < 0.5 or not _man_allowed(variant, sq, white)
            lists[white].append(("K" if king else "") + sq)
        fen = f"{rng.choice('WB')}:W{','.join(lists[True])}:B{','.join(lists[False])}"
        position = dtb.Position.from_fen(fen, variant)
        if position.legal_moves() and position not in found:
            found.append(position)
    return found
