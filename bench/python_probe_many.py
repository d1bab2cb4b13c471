#!/usr/bin/python3
"""Throughput of dtb from Python on quiet 5-piece positions with hot tables (BENCHMARKS.md).

    PYTHONPATH=build/python /usr/bin/python3 bench/python_probe_many.py /work/tb5/international

Positions as bench/probe_bench.cpp draws them: a 5-piece material uniformly, its pieces on random
squares, either side to move, only positions whose side to move has no capture. Figures:
  probe_many(fens)       WDL of a list of FEN strings (parsing included), per position;
  probe_many(positions)  the same positions as dtb.Position objects (no parsing): the C++ probe
                         loop with the batch's own cost, the baseline the per-call overhead is
                         measured against;
  wdl(fen) / wdl(pos)    one call per position from a Python loop.
Every timing is the best of `--repeat` runs after one warm-up pass over the same positions, as
wall time and as the process's CPU time (the two differ when other processes share the cores).
"""
import argparse
import random
import sys
import time

import dtb


def quiet_positions(n, seed):
    rng = random.Random(seed)
    materials = [(wk, wm, bk, bm) for wk in range(6) for wm in range(6) for bk in range(6) for bm in range(6)
                 if wk + wm + bk + bm == 5 and wk + wm >= 1 and bk + bm >= 1]
    out = []
    while len(out) < n:
        wk, wm, bk, bm = rng.choice(materials)
        white_men = rng.sample(range(6, 51), wm)
        black_men = rng.sample([s for s in range(1, 46) if s not in white_men], bm)
        free = [s for s in range(1, 51) if s not in white_men and s not in black_men]
        kings = rng.sample(free, wk + bk)
        white = [f"K{s}" for s in kings[:wk]] + [str(s) for s in white_men]
        black = [f"K{s}" for s in kings[wk:]] + [str(s) for s in black_men]
        p = dtb.Position(f"{rng.choice('WB')}:W{','.join(white)}:B{','.join(black)}")
        if not any(m.is_capture for m in p.legal_moves()):
            out.append(p)
    return out


def best(repeat, f):
    """(wall, CPU) seconds of the fastest of `repeat` runs: on a shared machine the CPU time is
    what one core spent, the wall time includes the time other processes took."""
    times = []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        f()
        times.append((time.perf_counter() - t0, time.process_time() - c0))
    return min(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tables", help="folder of international tables with every 5-piece slice")
    ap.add_argument("--positions", type=int, default=1 << 20, help="distinct positions (default 1M)")
    ap.add_argument("--small-pool", type=int, default=4096, help="the small pool, repeated to --positions")
    ap.add_argument("--calls", type=int, default=200_000, help="single wdl() calls timed")
    ap.add_argument("--cache-mb", type=int, default=4096)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()

    t0 = time.perf_counter()
    positions = quiet_positions(a.positions, seed=1)
    fens = [p.fen() for p in positions]
    print(f"{len(fens):,} quiet 5-piece positions drawn in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    small = fens[: a.small_pool] * (a.positions // a.small_pool)
    small_positions = positions[: a.small_pool] * (a.positions // a.small_pool)

    with dtb.Tablebase(a.tables, cache_mb=a.cache_mb) as tb:
        rows = []

        def batch(name, items):
            tb.probe_many(items)  # warm-up: every block read once
            t = best(a.repeat, lambda: tb.probe_many(items))
            rows.append((name, len(items), t))

        batch(f"probe_many(fens), {a.small_pool:,} distinct", small)
        batch(f"probe_many(positions), {a.small_pool:,} distinct", small_positions)
        batch(f"probe_many(fens), {len(fens):,} distinct", fens)
        batch(f"probe_many(positions), {len(fens):,} distinct", positions)

        calls = small[: a.calls] if a.calls <= len(small) else small
        call_positions = small_positions[: len(calls)]
        wdl = tb.wdl
        rows.append((f"wdl(fen) loop, {a.small_pool:,} distinct", len(calls),
                     best(a.repeat, lambda: [wdl(f) for f in calls])))
        rows.append((f"wdl(position) loop, {a.small_pool:,} distinct", len(calls),
                     best(a.repeat, lambda: [wdl(p) for p in call_positions])))
        rows.append(("empty Python loop with a list (baseline)", len(calls),
                     best(a.repeat, lambda: [f for f in calls])))

    print("| measure | positions | M/s (wall) | ns per position (wall) | M/s (CPU) | ns per position (CPU) |")
    print("|---|---|---|---|---|---|")
    for name, n, (wall, cpu) in rows:
        print(f"| {name} | {n:,} | {n / wall / 1e6:.2f} | {wall / n * 1e9:,.0f} | {n / cpu / 1e6:.2f} | {cpu / n * 1e9:,.0f} |")


if __name__ == "__main__":
    main()
