# One Tablebase shared by many Python threads: the same answers as one thread gives.
import concurrent.futures
import threading

import dtb
from positions import random_positions


def test_threads_share_one_handle(tables):
    with dtb.Tablebase(tables["international"], cache_mb=1) as tb:
        positions = random_positions("international", 200, tb.max_pieces, seed=7)
        fens = [p.fen() for p in positions]
        want = [tb.probe(f).to_dict() for f in fens]
        want_wdl = tb.probe_many(fens).tolist()
        start = threading.Barrier(8)

        def work(k):
            start.wait()
            for i in range(len(fens)):
                j = (i * 7 + k * 31) % len(fens)
                assert tb.probe(fens[j]).to_dict() == want[j]
                assert int(tb.wdl(fens[j])) == want_wdl[j]
            return tb.probe_many(fens).tolist()

        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            for result in pool.map(work, range(8)):
                assert result == want_wdl


# Eight threads whose first probe_many starts at once, in a fresh interpreter each time (the first
# call is where numpy used to be imported lazily, with the GIL released: a deadlock). Each run
# must finish; a hang is caught by the timeout.
FIRST_CALLS = r"""
import sys, threading
import dtb
tb = dtb.Tablebase(sys.argv[1])
fens = ["W:WK2,6:BK50", "W:W33:B18", "B:WK46:B5"] * 20
start = threading.Barrier(8)
out = []
def work():
    start.wait()
    out.append(tb.probe_many(fens).tolist())
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
assert len(out) == 8 and all(o == out[0] for o in out), out
print("ok")
"""


def test_first_calls_at_once_in_fresh_interpreters(tables):
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    for _ in range(10):
        r = subprocess.run([sys.executable, "-c", FIRST_CALLS, str(tables["international"])],
                           capture_output=True, text=True, timeout=30, env=env)
        assert r.returncode == 0, r.stderr
        assert r.stdout.strip() == "ok"
