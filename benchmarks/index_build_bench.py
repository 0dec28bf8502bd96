"""Index builds on Qdrant Edge (issue #29): a store fed one memory at a time against the
same data built in bulk, and how long the rest of the process waits for a build.

    python benchmarks/index_build_bench.py                 # 20k memories, one namespace (~3 min)
    python benchmarks/index_build_bench.py --n 5000        # quicker
    python benchmarks/index_build_bench.py --skip-store --incremental 500,2000

What it measures, in one process:

* **fed**: ``n`` memories written one at a time through ``MemoryStore.remember`` (the
  public write path, dedup on unless ``--no-dedup``) into one namespace; nothing else.
* **bulk**: the same memories through ``remember_many(dedup=False)`` (its automatic index
  builds every ``OPTIMIZE_AFTER``), then ``optimize()``.
* dense-query p50 on both, alternated query by query: through ``MemoryStore.search``
  (``mode="dense"``, top 20) and through the engine alone (the backend's ``query_batch``).
* a **ticker** thread that wakes every 10 ms while the writes and builds run: its longest
  gap is how long every other thread of the process (an event loop, a turn being served)
  waited. A gap far above 10 ms means something held the GIL.

``--incremental SIZES`` explores smaller segments at the engine level: the optimizer's
``indexing_threshold`` set so a segment is built every SIZE points, ``optimize()`` called
each time, and each build's GIL hold and the final query p50 reported (no store: the
store's shard config is fixed). ``--subprocess`` times building the index in a child
process on a copy of the shard, the route that leaves the GIL free, with the pauses a
swap would need (flush and copy, close and reopen).

Vectors are random, 384-d, L2-normalised, seeded (``--seed``); queries are stored vectors
plus noise, so each has near neighbours. Random vectors are the hardest case for HNSW and
the build time does not depend on the text. Absolute times depend on the machine's load:
read the ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any, Iterator

import numpy as np
from langchain_core.embeddings import Embeddings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langgraph_memory import MemoryStore  # noqa: E402
from langgraph_memory.store._reads import QueryVectors, live_where  # noqa: E402
from langgraph_memory.store.backends import DenseQuery, _two_step  # noqa: E402

DIM = 384
NAMESPACE = ("memories", "big-tenant")
TICK = 0.01


class TableEmbeddings(Embeddings):
    """Text ``"memory <i>"`` embeds to row ``i`` of a fixed table: no model in the loop."""

    model_name = "index-build-bench-random"

    def __init__(self, table: np.ndarray) -> None:
        self._table = table

    def _vector(self, text: str) -> list[float]:
        label, _, row = text.rpartition(" ")
        return self._table[int(row) if label == "memory" else 0].tolist()  # else: the store's size probe

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


class Ticker:
    """A thread that sleeps ``TICK`` and records how late it woke: another thread holding
    the GIL delays it by as long as it holds it."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        last = time.perf_counter()
        while not self._stop.is_set():
            time.sleep(TICK)
            now = time.perf_counter()
            self.gaps.append(now - last)
            last = now

    def __enter__(self) -> "Ticker":
        self._thread.start()
        time.sleep(3 * TICK)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    @property
    def max_ms(self) -> float:
        return max(self.gaps, default=0.0) * 1e3

    def over(self, ms: float) -> int:
        return sum(gap * 1e3 > ms for gap in self.gaps)


@contextmanager
def timed(label: str, results: dict[str, Any]) -> Iterator[Ticker]:
    start = time.perf_counter()
    with Ticker() as ticker:
        yield ticker
    results[label] = {"seconds": time.perf_counter() - start, "max_gap_ms": ticker.max_ms,
                      "gaps_over_100ms": ticker.over(100)}
    print(f"  {label}: {results[label]['seconds']:.1f} s, ticker max gap {ticker.max_ms:.0f} ms, "
          f"{ticker.over(100)} gaps > 100 ms", flush=True)


def vectors(n: int, queries: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    table = rng.standard_normal((n, DIM)).astype(np.float32)
    table /= np.linalg.norm(table, axis=1, keepdims=True)
    picks = rng.integers(0, n, queries)
    qs = table[picks] + rng.normal(0, 0.03, (queries, DIM)).astype(np.float32)
    return table, qs / np.linalg.norm(qs, axis=1, keepdims=True)


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1e3


@contextmanager
def _one_step() -> Iterator[None]:
    saved = _two_step.TWO_STEP_FROM
    _two_step.TWO_STEP_FROM = 2**62
    try:
        yield
    finally:
        _two_step.TWO_STEP_FROM = saved


def bench_store(args: argparse.Namespace, table: np.ndarray, qs: np.ndarray, root: Path) -> dict[str, Any]:
    n = len(table)
    texts = [f"memory {i}" for i in range(n)]
    results: dict[str, Any] = {}
    embeddings = TableEmbeddings(table)
    fed = MemoryStore.open(root / "fed", embeddings=embeddings)
    bulk = MemoryStore.open(root / "bulk", embeddings=embeddings)
    fed.sparse_embeddings.embed_query("warm up")  # the BM25 encoder builds on first use
    write_times: list[float] = []
    print(f"fed: {n} memories one at a time (remember, dedup={args.dedup})", flush=True)
    with timed("fed writes", results):
        for i, text in enumerate(texts):
            t0 = time.perf_counter()
            fed.remember(text, namespace=NAMESPACE, dedup=args.dedup)
            write_times.append(time.perf_counter() - t0)
            if (i + 1) % 5000 == 0:
                print(f"    {i + 1} written", flush=True)
    results["fed write p50 ms"] = _median_ms(write_times)
    results["fed write p99 ms"] = float(np.percentile(write_times, 99) * 1e3)
    print(f"  write p50 {results['fed write p50 ms']:.2f} ms, p99 {results['fed write p99 ms']:.2f} ms")
    print("bulk: remember_many(dedup=False), then optimize()", flush=True)
    with timed("bulk writes with automatic builds", results):
        bulk.remember_many(texts, namespace=NAMESPACE, dedup=False)
    with timed("bulk optimize()", results):
        bulk.optimize()
    for name, store in (("fed", fed), ("bulk", bulk)):
        results[f"{name} shard"] = str(store._backend.shard.info()).split(", payload_schema")[0]
        print(f"  {name}: {results[f'{name} shard']}")
    timing: dict[str, list[float]] = {key: [] for key in (
        "fed search", "bulk search", "fed engine", "bulk engine", "fed engine, one step", "bulk engine, one step")}
    where = live_where(NAMESPACE)
    for k, q in enumerate(qs):
        qv = QueryVectors(f"query {k}", q.tolist(), ([], []))
        pairs = (("fed", fed), ("bulk", bulk)) if k % 2 == 0 else (("bulk", bulk), ("fed", fed))
        for name, store in pairs:
            t0 = time.perf_counter()
            store.search(qv, namespace=NAMESPACE, mode="dense", limit=20)
            timing[f"{name} search"].append(time.perf_counter() - t0)
            # The engine query as the store runs it, and the same in one step (as before
            # _two_step.py), the two in turn first: the first after a search runs slower.
            for one_step in ((False, True) if k % 4 < 2 else (True, False)):
                with _one_step() if one_step else nullcontext():
                    t0 = time.perf_counter()
                    store._backend.query_batch([DenseQuery(qv.dense, where, 20, payload=False)])
                    timing[f"{name} engine, one step" if one_step else f"{name} engine"].append(
                        time.perf_counter() - t0)
    for key, samples in timing.items():
        results[f"{key} p50 ms"] = _median_ms(samples)
    for what in ("search", "engine", "engine, one step"):
        ratio = results[f"fed {what} p50 ms"] / results[f"bulk {what} p50 ms"]
        results[f"fed/bulk {what}"] = ratio
        print(f"  dense query p50 ({what}): fed {results[f'fed {what} p50 ms']:.2f} ms, bulk "
              f"{results[f'bulk {what} p50 ms']:.2f} ms, fed/bulk {ratio:.2f} (target <= 2)")
    if args.optimize_fed:
        with timed("fed optimize()", results):
            fed.optimize()
    fed.close()
    bulk.close()
    return results


def _shard(path: Path, qe: Any, threshold_kb: int | None) -> Any:
    optimizers = None if threshold_kb is None else qe.EdgeOptimizersConfig(
        indexing_threshold=threshold_kb, max_segment_size=threshold_kb, default_segment_number=1_000)
    shard = qe.EdgeShard.create(str(path), qe.EdgeConfig(
        vectors={"dense": qe.EdgeVectorParams(size=DIM, distance=qe.Distance.Cosine)}, max_search_threads=1,
        optimizers=optimizers,
        hnsw_config=qe.HnswIndexConfig(m=16, ef_construct=100, full_scan_threshold=10 if threshold_kb else 10_000,
                                       payload_m=16)))
    shard.update(qe.UpdateOperation.create_field_index("namespace", qe.KeywordIndexParams(is_tenant=True)))
    return shard


def _query_p50(shard: Any, qe: Any, qs: np.ndarray) -> float:
    flt = qe.Filter(must=[qe.FieldCondition(key="namespace", match=qe.MatchValue("u"))])
    samples = []
    for q in qs:
        t0 = time.perf_counter()
        shard.query(qe.QueryRequest(limit=20, query=qe.Query.Nearest(q.tolist(), using="dense"), filter=flt))
        samples.append(time.perf_counter() - t0)
    return _median_ms(samples)


def _point(qe: Any, i: int, table: np.ndarray) -> Any:
    return qe.Point(i, {"dense": table[i].tolist()}, {"namespace": "u"})


def bench_incremental(sizes: list[int], table: np.ndarray, qs: np.ndarray, root: Path) -> dict[str, Any]:
    """Segments of ``size`` points, each built as soon as it fills: one optimize() per segment."""
    import qdrant_edge as qe

    results: dict[str, Any] = {}
    n = len(table)
    for size in sizes:
        threshold_kb = max(1, size * DIM * 4 // 1024)
        shard = _shard(root / f"incremental-{size}", qe, threshold_kb)
        holds: list[float] = []
        with Ticker() as ticker:
            for i in range(n):
                shard.update(qe.UpdateOperation.upsert_points([_point(qe, i, table)]))
                if (i + 1) % size == 0:
                    t0 = time.perf_counter()
                    shard.optimize()
                    holds.append(time.perf_counter() - t0)
        info = shard.info()
        p50 = _query_p50(shard, qe, qs)
        results[size] = {"builds": len(holds), "build p50 ms": _median_ms(holds), "build max ms": max(holds) * 1e3,
                         "ticker max gap ms": ticker.max_ms, "segments": info.segments_count,
                         "indexed": info.indexed_vectors_count, "query p50 ms": p50}
        print(f"  segments of {size}: {len(holds)} builds, build p50 {_median_ms(holds):.0f} ms, max "
              f"{max(holds) * 1e3:.0f} ms, ticker max gap {ticker.max_ms:.0f} ms; {info.segments_count} "
              f"segments, {info.indexed_vectors_count} indexed; dense query p50 {p50:.2f} ms", flush=True)
        shard.close()
    one = _shard(root / "one-segment", qe, None)
    for start in range(0, n, 1000):
        one.update(qe.UpdateOperation.upsert_points([_point(qe, i, table) for i in range(start, min(n, start + 1000))]))
    unindexed = _query_p50(one, qe, qs)
    with Ticker() as ticker:
        t0 = time.perf_counter()
        one.optimize()
        build = time.perf_counter() - t0
    indexed = _query_p50(one, qe, qs)
    results["bulk"] = {"unindexed query p50 ms": unindexed, "build s": build, "ticker max gap ms": ticker.max_ms,
                       "indexed query p50 ms": indexed}
    print(f"  one segment, unindexed: dense query p50 {unindexed:.2f} ms; one build {build:.1f} s "
          f"(ticker max gap {ticker.max_ms:.0f} ms); indexed p50 {indexed:.2f} ms", flush=True)
    one.close()
    return results


BUILD_CHILD = "import sys, qdrant_edge as qe; s = qe.EdgeShard.load(sys.argv[1]); s.optimize(); s.close()"


def bench_subprocess(table: np.ndarray, qs: np.ndarray, root: Path) -> dict[str, Any]:
    """The index built by a child process on a copy: what each step costs the parent."""
    import qdrant_edge as qe

    n = len(table)
    shard = _shard(root / "live", qe, None)
    for start in range(0, n, 1000):
        shard.update(qe.UpdateOperation.upsert_points([_point(qe, i, table) for i in range(start, min(n, start + 1000))]))
    results: dict[str, Any] = {}
    with Ticker() as ticker:
        t0 = time.perf_counter()
        shard.flush()
        shutil.copytree(root / "live", root / "building")
        t1 = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-c", BUILD_CHILD, str(root / "building")])
        during: list[float] = []
        while child.poll() is None:  # the parent keeps querying the live shard meanwhile
            q0 = time.perf_counter()
            _query_p50(shard, qe, qs[:1])
            during.append(time.perf_counter() - q0)
            time.sleep(0.005)
        t2 = time.perf_counter()
        shard.close()
        swapped = qe.EdgeShard.load(str(root / "building"))
        t3 = time.perf_counter()
    results = {"flush + copy ms": (t1 - t0) * 1e3, "child build s": t2 - t1, "close + load ms": (t3 - t2) * 1e3,
               "parent query p50 during build ms": _median_ms(during), "ticker max gap ms": ticker.max_ms,
               "indexed query p50 ms": _query_p50(swapped, qe, qs)}
    print(f"  flush + copy {results['flush + copy ms']:.0f} ms, child build {results['child build s']:.1f} s "
          f"(parent queries meanwhile: p50 {results['parent query p50 during build ms']:.2f} ms), close + load "
          f"{results['close + load ms']:.0f} ms; ticker max gap {ticker.max_ms:.0f} ms; after the swap dense "
          f"query p50 {results['indexed query p50 ms']:.2f} ms", flush=True)
    swapped.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=20_000, help="memories in the one namespace")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--no-dedup", dest="dedup", action="store_false",
                        help="feed with remember(dedup=False) (default: dedup on, the ordinary path)")
    parser.add_argument("--optimize-fed", action="store_true", help="also time optimize() on the fed store")
    parser.add_argument("--skip-store", action="store_true", help="skip the MemoryStore part")
    parser.add_argument("--incremental", default="", help="comma-separated segment sizes to explore")
    parser.add_argument("--subprocess", action="store_true", help="time a build in a child process on a copy")
    args = parser.parse_args()
    table, qs = vectors(args.n, args.queries, args.seed)
    with tempfile.TemporaryDirectory(prefix="lgm-index-bench-") as tmp:
        root = Path(tmp)
        if not args.skip_store:
            bench_store(args, table, qs, root)
        if args.incremental:
            print("incremental builds, engine only:", flush=True)
            bench_incremental([int(s) for s in args.incremental.split(",")], table, qs, root)
        if args.subprocess:
            print("a build in a child process on a copy, engine only:", flush=True)
            bench_subprocess(table, qs, root)


if __name__ == "__main__":
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    main()
