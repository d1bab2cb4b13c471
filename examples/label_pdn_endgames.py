#!/usr/bin/python3
"""Label the endgame positions of a PDN collection with exact tablebase values, and plot the value
along one game.

    PYTHONPATH=build/python /usr/bin/python3 examples/label_pdn_endgames.py \\
        data/tb/international games.pdn --csv labels.csv --plot game.png --game 0

For every game: the moves are replayed from the start position (or the game's FEN tag); each
position the tables reach (no more pieces than their largest slice) gets its WDL for the side to
move (one probe_many call per game) and, when decided, its DTW. The CSV has one row per labelled
position, the training-data form: game, ply, fen, side to move, wdl, dtw, white's score (+1 White
wins, 0 draw, -1 Black wins). The plot shows White's score and the plies to the end along a game.

The PDN reading here is deliberately small (tags, move tokens, comments skipped); international
games only. `dtb adjudicate --pdn` (Tablebase.adjudicate_pdn) judges whole games under the rules.
"""
import argparse
import csv
import re
import sys

import dtb

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')
MOVE = re.compile(r"^\d+(?:[-x]\d+)+$")


def read_games(text):
    """[(tags, [move texts])] of a PDN text."""
    games, tags, moves = [], {}, []
    text = re.sub(r"\{[^}]*\}", " ", text)  # comments
    for line in text.splitlines():
        m = TAG.match(line.strip())
        if m:
            if moves:  # a tag after moves starts the next game
                games.append((tags, moves))
                tags, moves = {}, []
            tags[m.group(1)] = m.group(2)
            continue
        for token in line.split():
            if token in ("2-0", "0-2", "1-1", "0-0", "*"):  # a result ends the game
                games.append((tags, moves))
                tags, moves = {}, []
                continue
            token = re.sub(r"^\d+\.+", "", token).rstrip("!?*")  # "12." or "12.32-28"
            if MOVE.match(token):
                moves.append(token)
    if tags or moves:
        games.append((tags, moves))
    return games


def replay(tags, moves):
    """The positions of a game, from its FEN tag or the start; stops at a move that is not legal."""
    position = dtb.Position(tags["FEN"]) if "FEN" in tags else dtb.Position()
    positions = [position]
    for move in moves:
        try:
            position = position.play(move)
        except ValueError as e:
            print(f"{tags.get('Event', '?')}: {e}", file=sys.stderr)
            break
        positions.append(position)
    return positions


def label(tb, positions):
    """Rows (ply, position, wdl, dtw) of the positions the tables reach."""
    reachable = [(ply, p) for ply, p in enumerate(positions) if p.pieces <= tb.max_pieces]
    wdls = tb.probe_many([p for _, p in reachable])
    return [(ply, p, dtb.Wdl(int(w)), tb.dtw(p)) for (ply, p), w in zip(reachable, wdls)]


def white_score(position, wdl):
    return int(wdl) if position.side_to_move == "white" else -int(wdl)


def plot(rows, title, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plies = [ply for ply, *_ in rows]
    fig, value_axis = plt.subplots(figsize=(8, 4))
    value_axis.step(plies, [white_score(p, w) for _, p, w, _ in rows], where="post", color="tab:blue")
    value_axis.set_ylim(-1.2, 1.2)
    value_axis.set_yticks([-1, 0, 1], ["Black wins", "draw", "White wins"])
    value_axis.set_xlabel("ply")
    distance_axis = value_axis.twinx()
    distance_axis.plot(plies, [d if d is not None else float("nan") for *_, d in rows], "o--", color="tab:orange")
    distance_axis.set_ylabel("plies to the end (DTW)", color="tab:orange")
    value_axis.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tables", help="folder of international tables")
    ap.add_argument("pdn", help="PDN file")
    ap.add_argument("--csv", default="-", help="labels out (default: standard output)")
    ap.add_argument("--plot", help="PNG of the value along a game")
    ap.add_argument("--game", type=int, help="the game plotted (index; default the first with a label)")
    a = ap.parse_args()

    with open(a.pdn, encoding="utf-8", errors="replace") as f:
        games = read_games(f.read())
    out = sys.stdout if a.csv == "-" else open(a.csv, "w", newline="")
    writer = csv.writer(out)
    writer.writerow(["game", "ply", "fen", "side_to_move", "wdl", "dtw", "white_score"])
    labelled = {}
    with dtb.Tablebase(a.tables) as tb:
        for index, (tags, moves) in enumerate(games):
            rows = label(tb, replay(tags, moves))
            labelled[index] = (tags, rows)
            for ply, p, wdl, dtw in rows:
                writer.writerow([index, ply, p.fen(), p.side_to_move, str(wdl), dtw, white_score(p, wdl)])
    if out is not sys.stdout:
        out.close()
    print(f"{len(games)} games, {sum(len(r) for _, r in labelled.values())} positions labelled", file=sys.stderr)
    if a.plot:
        index = a.game if a.game is not None else next((i for i, (_, r) in labelled.items() if r), None)
        if index is None or index not in labelled or not labelled[index][1]:
            sys.exit("no labelled position in the game to plot")
        tags, rows = labelled[index]
        plot(rows, f"game {index}: {tags.get('Event', '')}", a.plot)


if __name__ == "__main__":
    main()
