"""Minimal reproduction: ``qdrant_edge.EdgeShard.optimize()`` holds the GIL for the whole
index build, so every other Python thread of the process stops until it returns.

    python benchmarks/edge_gil_repro.py            # 20,000 random 384-d points (~20 s)
    python benchmarks/edge_gil_repro.py --n 5000

Needs only ``qdrant-edge-py`` and ``numpy``. The build runs in a worker thread; the main
thread sleeps 10 ms in a loop and records how late it wakes. If the binding released the
GIL (pyo3's ``py.detach`` / ``allow_threads``) around the build, the longest gap would stay
near 10 ms; it is as long as the build. For comparison the same is timed around a batch
upsert of 1,000 points and around one query on the unindexed shard (both short, so their
gaps matter less). See ``docs/upstream/qdrant-edge-gil.md``.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from typing import Any, Callable

import numpy as np
import qdrant_edge as qe


def longest_gap(work: Callable[[], Any]) -> tuple[float, float]:
    """Run ``work`` in a thread; (its seconds, the main thread's longest 10 ms-sleep gap)."""
    done = threading.Event()
    took: list[float] = []

    def run() -> None:
        start = time.perf_counter()
        work()
        took.append(time.perf_counter() - start)
        done.set()

    worker = threading.Thread(target=run)
    gaps = []
    last = time.perf_counter()
    worker.start()
    while not done.is_set():
        time.sleep(0.01)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    worker.join()
    return took[0], max(gaps)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=20_000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    vectors = rng.standard_normal((args.n, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    with tempfile.TemporaryDirectory() as tmp:
        shard = qe.EdgeShard.create(f"{tmp}/shard", qe.EdgeConfig(
            vectors={"dense": qe.EdgeVectorParams(size=384, distance=qe.Distance.Cosine)}))
        batches = [[qe.Point(i, {"dense": vectors[i].tolist()}, {"n": i}) for i in range(s, min(args.n, s + 1000))]
                   for s in range(0, args.n, 1000)]
        for batch in batches[:-1]:
            shard.update(qe.UpdateOperation.upsert_points(batch))
        seconds, gap = longest_gap(lambda: shard.update(qe.UpdateOperation.upsert_points(batches[-1])))
        print(f"upsert of {len(batches[-1])} points: {seconds * 1e3:.0f} ms, main thread's longest gap {gap * 1e3:.0f} ms")
        request = qe.QueryRequest(limit=10, query=qe.Query.Nearest(vectors[0].tolist(), using="dense"))
        seconds, gap = longest_gap(lambda: [shard.query(request) for _ in range(100)])
        print(f"100 queries, unindexed: {seconds * 1e3:.0f} ms, main thread's longest gap {gap * 1e3:.0f} ms")
        seconds, gap = longest_gap(shard.optimize)
        print(f"optimize() over {args.n} points: {seconds:.2f} s, main thread's longest gap {gap:.2f} s")
        shard.close()


if __name__ == "__main__":
    main()
