"""The BaseStore face (no index) with and without its read cache, against InMemoryStore and SqliteStore.

    python benchmarks/face_bench.py [--items 2000] [--calls 300]

One process; the same items and calls as the face rows of ``peers_bench.py``, the systems
alternated call by call in a random order (see :func:`alternated`), medians. SqliteStore's
writes (an fsync each) are timed in a pass of their own: the store that writes right after
one pays for it (in ``peers_bench.py`` ours does, and its put measures about twice what it
does here).

* ``ours``: :class:`~langgraph_memory.QdrantStore` on Qdrant Edge, its read cache on (the default);
* ``ours-nocache``: the same with ``LANGGRAPH_MEMORY_FACE_CACHE_ITEMS=0``: every read goes to
  the engine, what a read the cache does not hold costs;
* ``inmemory``: LangGraph's ``InMemoryStore`` (a dictionary);
* ``sqlite``: LangGraph's ``SqliteStore`` in a temporary file.

``get`` reads items in a scattered order, each once (after every item was put, so the
cache holds what the puts wrote); ``search`` pages the 100 namespaces in turn, so a
namespace comes back every 100 calls with no write between. The last lines give the
floor of a put: Qdrant Edge's own upsert of the face's payload (before and now), of the
least an item needs and of an empty one, without the face.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Callable

if __package__ in (None, ""):  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.peers_bench import sqlite_connection

CACHE_ITEMS_ENV = "LANGGRAPH_MEMORY_FACE_CACHE_ITEMS"
"""The face's cache size (``base_store/_cache.py``); a checkout without the cache ignores it."""


def alternated(ops: dict[str, Callable[[int], Any]], calls: int, warmup: int = 5) -> dict[str, float]:
    """Median seconds of each ``op(i)``, the systems in a new random order each call: the
    call after another system's pays for some of its work (SqliteStore's fsyncs, caches
    evicted), and a rotating order makes one system follow the same one most of the time
    (in ``peers_bench.py``, ours follows SqliteStore in three calls of four)."""
    names = list(ops)
    rng = random.Random(29)
    for i in range(warmup):
        for name in names:
            ops[name](i)
    samples: dict[str, list[float]] = {n: [] for n in names}
    for i in range(calls):
        for name in rng.sample(names, len(names)):
            start = time.perf_counter()
            ops[name](i)
            samples[name].append(time.perf_counter() - start)
    return {n: statistics.median(s) for n, s in samples.items()}


def _uncached(path: Path) -> Any:
    """A QdrantStore on Qdrant Edge with its read cache off."""
    from langgraph_memory import QdrantStore

    saved = os.environ.get(CACHE_ITEMS_ENV)
    os.environ[CACHE_ITEMS_ENV] = "0"
    try:
        return QdrantStore.open(path)
    finally:
        os.environ.pop(CACHE_ITEMS_ENV) if saved is None else os.environ.__setitem__(CACHE_ITEMS_ENV, saved)


def _stores(tmp: Path) -> dict[str, Any]:
    import sqlite3

    from langgraph.store.memory import InMemoryStore
    from langgraph.store.sqlite import SqliteStore

    from langgraph_memory import QdrantStore
    stores: dict[str, Any] = {"ours": QdrantStore.open(tmp / "cached"), "ours-nocache": _uncached(tmp / "uncached")}
    stores["inmemory"] = InMemoryStore()
    conn = sqlite_connection(str(tmp / "face.db")) or sqlite3.connect(
        str(tmp / "face.db"), check_same_thread=False, isolation_level=None)
    stores["sqlite"] = SqliteStore(conn)
    stores["sqlite"].setup()
    return stores


def _key(i: int) -> tuple[tuple[str, str], str]:
    return ("users", f"u{i % 100:03d}"), f"k{i}"


def _value(i: int) -> dict[str, Any]:
    return {"text": f"note {i} about topic {i % 10}", "topic": i % 10, "tags": ["a", "b"]}


def face_rows(items: int, calls: int, tmp: Path) -> dict[str, dict[str, float]]:
    stores = _stores(tmp)

    def each(op: Callable[[Any, int], Any], names: Any = stores) -> dict[str, Callable[[int], Any]]:
        return {name: (lambda i, s=stores[name]: op(s, i)) for name in names}

    def written(op: Callable[[Any, int], Any], calls: int) -> dict[str, float]:
        # SqliteStore's writes (~10 ms: an fsync each) slow whichever store writes next,
        # so they are timed in a pass of their own; the other stores are alternated.
        others = alternated(each(op, [n for n in stores if n != "sqlite"]), calls, warmup=0)
        return {**others, **alternated(each(op, ["sqlite"]), calls, warmup=0)}

    rows = {"put": written(lambda s, i: s.put(*_key(i), _value(i)), items)}
    rows["get"] = alternated(each(lambda s, i: s.get(*_key((i * 7919) % items))), calls)
    rows["search"] = alternated(each(lambda s, i: s.search(_key(i)[0], limit=10)), calls)
    rows["list_namespaces"] = alternated(each(lambda s, i: s.list_namespaces(prefix=("users",), limit=100)), calls)
    rows["delete"] = written(lambda s, i: s.delete(*_key(i)), min(calls, items))
    for store in stores.values():
        if hasattr(store, "close"):
            store.close()
    return rows


def floor_payloads(i: int, now: float) -> dict[str, dict[str, Any]]:
    """The payloads the floor loop upserts for item ``i``: the face's before issue #29's
    fourth round (its whole value nested), the face's now (its value's top-level scalars,
    the whole as JSON text), and the least any item needs (no value copy for filters)."""
    import json

    ns, key = _key(i)
    value = _value(i)
    item = {"namespace": "/".join(ns), "ns_prefixes": [ns[0], "/".join(ns)], "status": "item", "item_key": key}
    times = {"created_at": now, "updated_at": now, "expires_at": None}
    scalars = {k: v for k, v in value.items() if not isinstance(v, (list, dict))}
    return {
        "old payload": {**item, "value": value, **times, "ttl_minutes": None, "extra_vectors": 0},
        "our payload": {**item, "value": scalars, **times, "ttl_minutes": None, "value_json": json.dumps(value)},
        "minimal payload": {**item, **times, "value_json": json.dumps(value)},
    }


def put_floor(items: int, tmp: Path) -> dict[str, float]:
    """Median seconds, without SqliteStore (its fsyncs slow whichever store runs next): the
    face's put with and without its cache, Qdrant Edge's upsert (the payload's conversion
    and the engine's write) of the payloads of :func:`floor_payloads` and of an empty one,
    a dict's put."""
    import qdrant_edge as qe
    from langgraph.store.memory import InMemoryStore

    from langgraph_memory import QdrantStore
    from langgraph_memory.base_store._items import item_point_id

    store, uncached, memory = QdrantStore.open(tmp / "floor"), _uncached(tmp / "floor-uncached"), InMemoryStore()
    shard = store._backend.shard
    samples: dict[str, list[float]] = {}

    def upsert(point_id: str, payload: dict[str, Any]) -> Callable[[], Any]:
        return lambda: shard.update(qe.UpdateOperation.upsert_points([qe.Point(uuid.UUID(point_id), {}, payload)]))

    for i in range(items):
        ns, key = _key(i)
        payloads = floor_payloads(i, time.time())
        runs: list[tuple[str, Callable[[], Any]]] = [
            ("face put", lambda: store.put(ns, key, _value(i))),
            ("face put, no cache", lambda: uncached.put(ns, key, _value(i))),
            *[(f"engine upsert, {name}", upsert(item_point_id(ns, f"{key}-{name}"), payload))
              for name, payload in payloads.items()],
            ("engine upsert, empty payload", upsert(item_point_id(ns, key + "-empty"), {})),
            ("inmemory put", lambda: memory.put(ns, key, _value(i))),
        ]
        for name, run in runs[i % len(runs):] + runs[: i % len(runs)]:
            start = time.perf_counter()
            run()
            samples.setdefault(name, []).append(time.perf_counter() - start)
    store.close()
    uncached.close()
    return {name: statistics.median(s) for name, s in samples.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--calls", type=int, default=300)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="face-") as tmp:
        rows = face_rows(args.items, args.calls, Path(tmp))
        print(f"\nBaseStore face, no index, {args.items} items over 100 namespaces, medians (ms)\n")
        print("| operation | ours | ours-nocache | inmemory | sqlite | ours / inmemory | ours / sqlite |"
              " nocache / inmemory | nocache / sqlite |\n" + "| --- " * 9 + "|")
        for op, m in rows.items():
            print(f"| {op} | {m['ours'] * 1e3:.3f} | {m['ours-nocache'] * 1e3:.3f} | {m['inmemory'] * 1e3:.3f} | "
                  f"{m['sqlite'] * 1e3:.3f} | {m['ours'] / m['inmemory']:.2f}× | {m['ours'] / m['sqlite']:.2f}× | "
                  f"{m['ours-nocache'] / m['inmemory']:.2f}× | {m['ours-nocache'] / m['sqlite']:.2f}× |", flush=True)
        floor = put_floor(args.items, Path(tmp))
        print("\nput floor, medians (µs); ratio to InMemoryStore's put\n")
        for name, seconds in floor.items():
            print(f"- {name}: {seconds * 1e6:.1f} µs ({seconds / floor['inmemory put']:.1f}×)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
