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
