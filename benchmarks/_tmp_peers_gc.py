"""Our retrieval and BaseStore face against the stores LangGraph users already have.

One process, systems alternated call by call (the order rotating), medians; the machine
is shared and noisy, so read the ratios, not the milliseconds::

    python benchmarks/peers_bench.py --data ../shared/bench/locomo/locomo_dev.json
    python benchmarks/peers_bench.py --sizes 100 1000 10000 --users 9 --calls 200 --face-items 2000

**Retrieval** (``--sizes``: memories per user, ``--users`` users, fewer where ``--users``
times the size passes ``--max-memories``, so the 10k row loads 30k memories): LoCoMo's turns and
observation facts, embedded once with the offline MiniLM (cached in ``--vectors``, an
``.npz``; the embedding is never timed), LoCoMo's questions as queries:

* ``prehook``: our pre-hook's selection (``select_memories``, default ``InjectionConfig``,
  one ``VectorCache`` across calls) on Qdrant Edge, the query already embedded;
* ``sqlite-vec``: LangGraph's ``SqliteStore`` with its sqlite-vec index, ``search(limit=20)``
  (its query embedding is a dictionary lookup here);
* ``inmemory``: LangGraph's ``InMemoryStore``, ``search(limit=20)``, same lookup embedder;
* ``numpy``: brute-force top 20 of the user's vectors (a float32 matrix product and an
  ``argpartition``): the floor under any exact retrieval.

``--access``: after each pre-hook call, untimed, the injected memories' access is recorded
as the post-hook records it (``record_access(injected=True)``, a payload write), so each
turn reads a namespace written since its last turn, as in an app.

**BaseStore face** (``--face-items`` items over 100 namespaces, no index): ``put``, ``get``,
``search`` (one namespace, no query, limit 10), ``list_namespaces`` and ``delete`` on our
``QdrantStore`` (Qdrant Edge), ``InMemoryStore`` and ``SqliteStore`` (in a temporary file).

SqliteStore's vector index needs an sqlite3 that loads extensions. Many Python builds
(this project's venv among them) compile it without ``enable_load_extension``; then::

    pip install sqlite-vec pysqlite3-binary   # both in the dev extra; pysqlite3-binary: Linux x86-64 wheels

and this script hands ``SqliteStore`` a ``pysqlite3`` connection (it takes any DB-API
connection). Without either, the sqlite rows are left out and the script says so.
"""

from __future__ import annotations

import argparse

import os
GCMODE = os.environ.get("GCMODE", "")
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

if __package__ in (None, ""):  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from benchmarks._locomo_data import DEFAULT_DATA, CachedEmbeddings

TOP_K = 20


def sqlite_connection(path: str) -> Any | None:
    """A connection that can load sqlite-vec, or ``None``."""
    import sqlite3

    for connect in (sqlite3.connect, _pysqlite3_connect):
        if connect is None:
            continue
        conn = connect(path, check_same_thread=False, isolation_level=None)
        if hasattr(conn, "enable_load_extension"):
            return conn
        conn.close()
    return None


try:
    from pysqlite3.dbapi2 import connect as _pysqlite3_connect
except ImportError:  # pragma: no cover - optional
    _pysqlite3_connect = None


def alternated(ops: dict[str, Callable[[int], Any]], calls: int, warmup: int = 5,
               after: dict[str, Callable[[Any], Any]] | None = None) -> dict[str, float]:
    """Median seconds of each ``op(i)``, the systems alternated call by call; ``after[name]``
    runs on an op's result outside the timing (what an app does between two turns)."""
    names = list(ops)
    after = after or {}
    for i in range(warmup):
        for name in names:
            ops[name](i)
    samples: dict[str, list[float]] = {n: [] for n in names}
    for i in range(calls):
        k = i % len(names)
        for name in names[k:] + names[:k]:
            t0 = time.perf_counter()
            result = ops[name](i)
            samples[name].append(time.perf_counter() - t0)
            if name in after:
                after[name](result)
    return {n: statistics.median(s) for n, s in samples.items()}


def vectors(texts: list[str], cache_path: str) -> CachedEmbeddings:
    from langgraph_memory import offline_embeddings

    cached = CachedEmbeddings(offline_embeddings())
    if Path(cache_path).exists():
        data = np.load(cache_path, allow_pickle=False)
        cached._cache.update(zip(data["texts"].tolist(), data["vectors"].tolist()))
    missing = [t for t in texts if t not in cached._cache]
    if missing:
        print(f"embedding {len(missing)} texts once into {cache_path}", file=sys.stderr, flush=True)
        cached.embed_documents(missing)
        np.savez(cache_path, texts=np.array(list(cached._cache)),
                 vectors=np.array(list(cached._cache.values()), dtype=np.float32))
    # Queries are embedded as documents (MiniLM is symmetric): every system gets the same vector.
    cached._queries.update(cached._cache)
    return cached


def retrieval(items: list[dict[str, Any]], questions: list[str], cached: CachedEmbeddings, size: int,
              users: int, calls: int, tmp: Path, access: bool = False) -> dict[str, float]:
    from langgraph.store.base import PutOp
    from langgraph.store.memory import InMemoryStore
    from langgraph.store.sqlite import SqliteStore

    from langgraph_memory import MemoryStore
    from langgraph_memory.agent.injection import InjectionConfig, VectorCache, select_memories

    per_user = [[items[(u * size + j) % len(items)] for j in range(size)] for u in range(users)]
    namespaces = [("bench", f"user-{u}") for u in range(users)]
    index = {"dims": 384, "embed": cached, "fields": ["text"]}

    ours = MemoryStore.open(tmp / f"edge-{size}", embeddings=cached)
    for ns, mine in zip(namespaces, per_user):
        ours.remember_many(mine, namespace=ns, dedup=False)
    inmemory = InMemoryStore(index=index)
    conn = sqlite_connection(str(tmp / f"sqlite-{size}.db"))
    sqlite = None
    if conn is not None:
        sqlite = SqliteStore(conn, index=index)
        sqlite.setup()
    for ns, mine in zip(namespaces, per_user):
        ops = [PutOp(ns, str(j), {"text": it["content"]}) for j, it in enumerate(mine)]
        for start in range(0, len(ops), 200):
            inmemory.batch(ops[start : start + 200])
            if sqlite is not None:
                sqlite.batch(ops[start : start + 200])
    matrices = [np.array(cached.embed_documents([it["content"] for it in mine]), dtype=np.float32)
                for mine in per_user]

    config, cache = InjectionConfig(), VectorCache()
    qvectors = [ours.embed_query(q) for q in questions]
    qarrays = [np.array(v.dense, dtype=np.float32) for v in qvectors]

    def user(i: int) -> int:
        return (i * 7) % users

    def floor(i: int) -> list[int]:
        scores = matrices[user(i)] @ qarrays[i % len(questions)]
        top = np.argpartition(-scores, min(TOP_K, len(scores) - 1))[:TOP_K]
        return top[np.argsort(-scores[top])].tolist()

    ops: dict[str, Callable[[int], Any]] = {
        "prehook": lambda i: select_memories(ours, namespace=namespaces[user(i)], query=qvectors[i % len(questions)],
                                             config=config, cache=cache),
        "inmemory": lambda i: inmemory.search(namespaces[user(i)], query=questions[i % len(questions)], limit=TOP_K),
        "numpy": floor,
    }
    if sqlite is not None:
        ops["sqlite-vec"] = lambda i: sqlite.search(namespaces[user(i)], query=questions[i % len(questions)],
                                                    limit=TOP_K)
    after: dict[str, Callable[[Any], Any]] = {}
    if access:
        # As the post-hook does after each turn: the injected memories' access counts and
        # vitality are written, so the next turn on that namespace reads after a write.
        after["prehook"] = lambda injection: injection.chosen and ours.record_access(
            [c.memory.id for c in injection.chosen], namespace=injection.chosen[0].memory.namespace, injected=True)
    try:
        import gc; gc.collect(); gc.freeze() if GCMODE == "freeze" else gc.disable() if GCMODE == "off" else None
        try:
            return alternated(ops, calls, after=after)
        finally:
            gc.enable(); gc.unfreeze()
    finally:
        ours.close()
        if conn is not None:
            conn.close()


def face(items: int, calls: int, tmp: Path) -> dict[str, dict[str, float]]:
    from langgraph.store.memory import InMemoryStore
    from langgraph.store.sqlite import SqliteStore

    from langgraph_memory import QdrantStore

    stores: dict[str, Any] = {"ours": QdrantStore.open(tmp / "face-edge"), "inmemory": InMemoryStore()}
    conn = sqlite_connection(str(tmp / "face-sqlite.db"))
    if conn is None:
        import sqlite3

        conn = sqlite3.connect(str(tmp / "face-sqlite.db"), check_same_thread=False, isolation_level=None)
    stores["sqlite"] = SqliteStore(conn)
    stores["sqlite"].setup()

    def key(i: int) -> tuple[tuple[str, str], str]:
        return ("users", f"u{i % 100:03d}"), f"k{i}"

    def value(i: int) -> dict[str, Any]:
        return {"text": f"note {i} about topic {i % 10}", "topic": i % 10, "tags": ["a", "b"]}

    rows: dict[str, dict[str, float]] = {}

    def each(op: Callable[[Any, int], Any]) -> dict[str, Callable[[int], Any]]:
        return {name: (lambda i, s=store: op(s, i)) for name, store in stores.items()}

    rows["put"] = alternated(each(lambda s, i: s.put(*key(i), value(i))), items, warmup=0)
    rows["get"] = alternated(each(lambda s, i: s.get(*key((i * 7919) % items))), calls)
    rows["search"] = alternated(each(lambda s, i: s.search(key(i)[0], limit=10)), calls)
    rows["list_namespaces"] = alternated(each(lambda s, i: s.list_namespaces(prefix=("users",), limit=100)), calls)
    # Each call deletes a different item (the first ``calls`` ones; warm-up deletes absent keys).
    rows["delete"] = alternated(each(lambda s, i: s.delete(*key(i))), min(calls, items), warmup=0)
    stores["ours"].close()
    conn.close()
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000],
                        help="memories per user (10000: ~2.5 min more)")
    parser.add_argument("--users", type=int, default=9)
    parser.add_argument("--max-memories", type=int, default=30_000,
                        help="memories per size at most: fewer users for a large size")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--face-items", type=int, default=2000, help="0: skip the BaseStore face")
    parser.add_argument("--skip-retrieval", action="store_true")
    parser.add_argument("--access", action="store_true",
                        help="after each pre-hook call, record its memories' access as the post-hook does (untimed)")
    parser.add_argument("--vectors", default=str(Path(tempfile.gettempdir()) / "lgm-peers-vectors.npz"))
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    if sqlite_connection(":memory:") is None:
        print("this sqlite3 cannot load extensions and pysqlite3 is not installed: no sqlite-vec row "
              "(pip install sqlite-vec pysqlite3-binary)", file=sys.stderr)

    with tempfile.TemporaryDirectory(prefix="peers-") as tmp:
        if not args.skip_retrieval:
            from benchmarks import latency

            items, questions = latency._data(args.data)
            cached = vectors(list(dict.fromkeys([it["content"] for it in items] + questions)), args.vectors)
            print(f"\nretrieval, {args.calls} calls each, medians (ms); ratio to sqlite-vec\n")
            print("| per user | users | prehook | sqlite-vec | inmemory | numpy top-20 | prehook / sqlite-vec |"
                  " prehook / numpy |\n| --- | --- | --- | --- | --- | --- | --- | --- |")
            for size in args.sizes:
                users = max(1, min(args.users, args.max_memories // size))
                m = retrieval(items, questions, cached, size, users, args.calls, Path(tmp), args.access)
                sq = m.get("sqlite-vec", float("nan"))
                print(f"| {size:,} | {users} | {m['prehook'] * 1e3:.2f} | {sq * 1e3:.2f} | {m['inmemory'] * 1e3:.2f} | "
                      f"{m['numpy'] * 1e3:.3f} | {m['prehook'] / sq:.2f}× | {m['prehook'] / m['numpy']:.0f}× |",
                      flush=True)
        if args.face_items:
            rows = face(args.face_items, args.calls, Path(tmp))
            print(f"\nBaseStore face, no index, {args.face_items} items over 100 namespaces, medians (ms)\n")
            print("| operation | ours | inmemory | sqlite | ours / inmemory | ours / sqlite |\n"
                  "| --- | --- | --- | --- | --- | --- |")
            for op, m in rows.items():
                print(f"| {op} | {m['ours'] * 1e3:.3f} | {m['inmemory'] * 1e3:.3f} | {m['sqlite'] * 1e3:.3f} | "
                      f"{m['ours'] / m['inmemory']:.2f}× | {m['ours'] / m['sqlite']:.2f}× |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
