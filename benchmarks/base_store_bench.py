"""BaseStore operations at 10k items: our QdrantStore against LangGraph's InMemoryStore and
``langgraph-store-qdrant`` (the Qdrant team's BaseStore, on qdrant-client).

    python benchmarks/base_store_bench.py [--items 10000] [--reps 50] [--namespaces 100]

One process, one run. Every store gets the same items, put one by one, interleaved (item i
goes to each store in turn, the order rotating), then each read is timed the same way:
every repetition runs the operation once on each store, in a rotating order. Reported:
the median per operation and each store's ratio to QdrantStore on Qdrant Edge.

Systems:

* ``ours-edge``: :class:`langgraph_memory.QdrantStore` on Qdrant Edge (embedded);
* ``ours-local``: the same class on qdrant-client's local mode (``":memory:"``);
* ``inmemory``: ``langgraph.store.memory.InMemoryStore`` (LangGraph's reference, no TTL);
* ``lgsq-local``: ``langgraph.store.qdrant.QdrantStore`` 0.1.0 on qdrant-client's local
  mode, when installed (``pip install langgraph-store-qdrant``; not a dependency).

All use one embedder, a table of precomputed 384-d vectors (a dictionary lookup), so the
figures are the stores' own cost: with a real model, embedding the query or the value
dominates every semantic operation alike.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
from langchain_core.embeddings import Embeddings

DIMS = 384
SUBJECTS = ["Alice", "Bob", "my sister", "the team", "our client", "the neighbour", "Lina", "Marc"]
VERBS = ["likes", "booked", "moved to", "asked about", "forgot", "visited", "prefers", "sold"]
OBJECTS = ["green tea", "a flat in Lyon", "the cello", "a red boat", "the quarterly report",
           "Japanese food", "the mountains", "a new laptop", "running shoes", "jazz records"]
TOPICS = ["food", "travel", "music", "work", "family", "sport", "home", "health", "money", "tech"]


class TableEmbeddings(Embeddings):
    """Fixed random unit vectors per text, computed on first sight: every store pays the
    same near-zero embedding cost."""

    def __init__(self) -> None:
        self._table: dict[str, list[float]] = {}
        self._rng = np.random.default_rng(7)

    def _vector(self, text: str) -> list[float]:
        vector = self._table.get(text)
        if vector is None:
            v = self._rng.standard_normal(DIMS)
            vector = self._table[text] = (v / np.linalg.norm(v)).tolist()
        return vector

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


def build_systems(embeddings: Embeddings, root: Path) -> dict[str, Any]:
    from langgraph.store.memory import InMemoryStore
    from qdrant_client import QdrantClient

    from langgraph_memory import QdrantStore

    index = {"dims": DIMS, "embed": embeddings, "fields": ["text"]}
    systems: dict[str, Any] = {
        "ours-edge": QdrantStore.open(root / "edge", index=index),
        "ours-local": QdrantStore(client=QdrantClient(":memory:"), index=index),
        "inmemory": InMemoryStore(index=index),
    }
    try:
        from langgraph.store.qdrant import QdrantStore as PeerStore
    except ImportError:
        print("langgraph-store-qdrant is not installed: lgsq-local left out")
    else:
        peer = PeerStore(QdrantClient(":memory:"), index=index)
        peer.setup()
        systems["lgsq-local"] = peer
    return systems


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def interleaved(systems: dict[str, Any], rounds: int, op: Callable[[Any, int], Any]) -> dict[str, float]:
    """Median seconds of ``op(store, round)`` per system, systems interleaved per round."""
    names = list(systems)
    samples: dict[str, list[float]] = {n: [] for n in names}
    for r in range(rounds):
        for name in names[r % len(names):] + names[: r % len(names)]:
            samples[name].append(timed(lambda: op(systems[name], r)))
    return {n: statistics.median(s) for n, s in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--namespaces", type=int, default=100)
    parser.add_argument("--reps", type=int, default=50)
    args = parser.parse_args()

    rng = random.Random(11)
    items = []
    for i in range(args.items):
        text = f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)} (note {i})"
        value = {"text": text, "topic": TOPICS[i % len(TOPICS)], "n": i}
        items.append((("users", f"u{i % args.namespaces:03d}"), f"k{i}", value))
    embeddings = TableEmbeddings()
    embeddings.embed_documents([v["text"] for _, _, v in items])
    queries = [f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}" for _ in range(args.reps)]
    embeddings.embed_documents(queries)

    with tempfile.TemporaryDirectory() as tmp:
        systems = build_systems(embeddings, Path(tmp))
        started = time.perf_counter()
        rows = {"put": interleaved(systems, len(items), lambda s, r: s.put(*items[r]))}
        print(f"loaded {len(items)} items into {len(systems)} stores in {time.perf_counter() - started:.0f} s")
        picks = [rng.randrange(len(items)) for _ in range(args.reps)]
        ops: dict[str, Callable[[Any, int], Any]] = {
            "get": lambda s, r: s.get(items[picks[r]][0], items[picks[r]][1]),
            "search (semantic, all 10k)": lambda s, r: s.search(("users",), query=queries[r], limit=10),
            "search (semantic, one namespace)": lambda s, r: s.search(items[picks[r]][0], query=queries[r], limit=10),
            "search (filter only)": lambda s, r: s.search(("users",), filter={"topic": TOPICS[r % len(TOPICS)]}, limit=10),
            "list_namespaces": lambda s, r: s.list_namespaces(prefix=("users",), limit=100),
        }
        for name, op in ops.items():
            rows[name] = interleaved(systems, args.reps, op)
        checks = {n: len(s.search(("users",), filter={"topic": "food"}, limit=10)) for n, s in systems.items()}
        assert set(checks.values()) == {10}, checks
        for store in systems.values():
            if hasattr(store, "close"):
                store.close()

    names = list(next(iter(rows.values())))
    print(f"\nmedian per operation, {args.items} items in {args.namespaces} namespaces, {args.reps} repetitions"
          " (put: every item); ratio = system / ours-edge\n")
    print("| operation | " + " | ".join(names) + " | " + " | ".join(f"{n} / ours-edge" for n in names[1:]) + " |")
    print("| --- " * (2 * len(names)) + "|")
    for op, medians in rows.items():
        base = medians["ours-edge"]
        cells = [f"{medians[n] * 1e3:.3f} ms" for n in names] + [f"{medians[n] / base:.2f}×" for n in names[1:]]
        print(f"| {op} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
