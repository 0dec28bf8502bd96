"""MemoryStore latency: remember, filtered search and recent at 1k / 10k / 100k memories.

Run from the repository root::

    python benchmarks/store_bench.py                        # 1k, 10k, 100k (100k: Edge only)
    python benchmarks/store_bench.py --sizes 1000 --backends edge qdrant --n 50

Memories are spread over 100 namespaces (users) and every query is filtered to one of them.
The real offline embedder (all-MiniLM-L6-v2) is used throughout. Stores up to
``--real-load-max`` memories are loaded through ``remember_many(dedup=False)``, the public
bulk path. Larger stores reuse the vectors of a pool of distinct synthetic sentences embedded
once (embedding 100k sentences on 2 cores takes too long), written through the store's own
backend with the same payload and BM25 vectors ``remember_many`` would write; the output says
which stores were loaded that way. Latencies are wall-clock milliseconds, median and p95.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

NAMESPACES = 100
LOAD_BATCH = 1024

PEOPLE = ["Alice", "Bruno", "Chloe", "Daniel", "Emma", "Farid", "Giulia", "Hugo", "Ines", "Jonas",
          "Karim", "Lea", "Marco", "Nadia", "Oscar", "Paula", "Quentin", "Rosa", "Samir", "Tess"]
ITEMS = ["a blue kettle", "two novels", "running shoes", "a chess set", "green tea", "a road bike",
         "oil paints", "a tent", "a violin", "garden seeds", "a rain jacket", "a desk lamp"]
PLACES = ["Lyon", "Lisbon", "Kyoto", "Oslo", "Naples", "Quebec", "Seville", "Bruges", "Krakow", "Porto"]
PETS = ["cat", "dog", "parrot", "rabbit", "turtle", "hamster"]
NAMES = ["Miso", "Pixel", "Rocket", "Biscuit", "Luna", "Ziggy", "Pepper", "Nori"]
SKILLS = ["Spanish", "the piano", "pottery", "rock climbing", "watercolour", "chess", "sailing", "Go"]
FOODS = ["ramen", "paella", "risotto", "dumplings", "tajine", "pho", "gnocchi", "tacos"]
TEMPLATES = [
    "{p} bought {item} in {place} for {n} euros",
    "{p} visited {place} with a friend and stayed {n} nights",
    "{p} has a {pet} named {name} who is {n} months old",
    "{p} is learning {skill} and practises {n} minutes a day",
    "{p}'s favourite dish is the {food} served in {place}",
    "{p} ran {n} kilometres along the river in {place}",
    "{p} is allergic to {food} since the trip to {place} in {year}",
    "{p} wants to try {skill} before {year}",
    "{p} lent {item} to a neighbour in {place} on day {n}",
]
QUESTIONS = [
    "What did {p} buy in {place}?", "Does {p} have a pet?", "What is {p} learning?",
    "Where did {p} travel?", "What food does {p} like?", "Is {p} allergic to anything?",
]


def synthetic_sentences(n: int, seed: int = 0, exclude: set[str] | None = None) -> list[str]:
    """``n`` distinct plausible one-fact memories."""
    rng = random.Random(seed)
    seen: dict[str, None] = {}
    exclude = exclude or set()
    while len(seen) < n:
        text = rng.choice(TEMPLATES).format(
            p=rng.choice(PEOPLE), item=rng.choice(ITEMS), place=rng.choice(PLACES),
            pet=rng.choice(PETS), name=rng.choice(NAMES), skill=rng.choice(SKILLS),
            food=rng.choice(FOODS), n=rng.randint(2, 999), year=rng.randint(1990, 2030),
        )
        if text not in exclude:
            seen[text] = None
    return list(seen)


def questions(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    return [rng.choice(QUESTIONS).format(p=rng.choice(PEOPLE), place=rng.choice(PLACES)) for _ in range(n)]


def namespace(j: int) -> tuple[str, str]:
    return ("memories", f"user-{j:03d}")


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def cell(samples: list[float]) -> str:
    return f"{pct(samples, 0.5):.2f} / {pct(samples, 0.95):.2f}" if samples else "n/a"


def timed(fn: Callable[[int], Any], n: int, warmup: int = 5) -> list[float]:
    """Call ``fn(0)`` .. ``fn(warmup + n - 1)``; time the last ``n`` calls (ms)."""
    out = []
    for i in range(warmup + n):
        t0 = time.perf_counter()
        fn(i)
        if i >= warmup:
            out.append((time.perf_counter() - t0) * 1000)
    return out


class Pool:
    """Distinct synthetic sentences and their MiniLM vectors, embedded once."""

    def __init__(self, embeddings: Any, size: int) -> None:
        self.texts = synthetic_sentences(size)
        self.dense: list[list[float]] = []
        t0 = time.perf_counter()
        for start in range(0, size, 512):
            self.dense.extend(embeddings.embed_documents(self.texts[start : start + 512]))
            done = min(start + 512, size)
            rate = done / (time.perf_counter() - t0)
            print(f"  embedded {done}/{size} ({rate:.0f} sentences/s)", file=sys.stderr, end="\r")
        self.seconds = time.perf_counter() - t0
        print(file=sys.stderr)

    @property
    def rate(self) -> float:
        return len(self.texts) / self.seconds


def open_store(backend: str, root: str, embeddings: Any):
    from qdrant_client import QdrantClient

    from langgraph_memory import MemoryStore

    if backend == "edge":
        return MemoryStore.open(os.path.join(root, "edge"), embeddings=embeddings)
    return MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)


def sparse_text(store: Any, memory: Any) -> str:
    """The text the store indexes for BM25, as remember_many would build it."""
    try:
        from langgraph_memory.store._fusion import index_text
    except ImportError:  # stores that index the content alone
        return memory.content
    subjects = memory.subjects if getattr(store, "index_subjects", False) else ()
    return index_text(memory.content, subjects=subjects)


def load(store: Any, size: int, pool: Pool, *, real: bool, seed: int = 2) -> float:
    """Fill ``store`` with ``size`` memories over 100 namespaces; returns seconds taken.

    Namespace ``j`` holds a contiguous block of pool sentences, so its memories are
    distinct even when a large store cycles through the pool. Creation times are spread
    over the last 30 days so that ``recent`` filters on time for real.
    """
    from langgraph_memory.store.backends import StoredPoint
    from langgraph_memory.store.records import new_memory

    rng = random.Random(seed)
    now = datetime.now(timezone.utc)
    per_ns = size // NAMESPACES
    t0 = time.perf_counter()
    if real:
        for j in range(NAMESPACES):
            items = [
                {"content": pool.texts[(j * per_ns + i) % len(pool.texts)],
                 "created_at": now - timedelta(seconds=rng.uniform(0, 30 * 86400))}
                for i in range(per_ns)
            ]
            store.remember_many(items, namespace=namespace(j), dedup=False)
        return time.perf_counter() - t0
    batch: list[Any] = []
    for k in range(per_ns * NAMESPACES):
        j, i = divmod(k, per_ns)
        idx = (j * per_ns + i) % len(pool.texts)
        memory = new_memory(pool.texts[idx], namespace=namespace(j),
                            created_at=now - timedelta(seconds=rng.uniform(0, 30 * 86400)))
        batch.append((memory, pool.dense[idx]))
        if len(batch) == LOAD_BATCH or k == per_ns * NAMESPACES - 1:
            sparse = store.sparse_embeddings.embed_documents([sparse_text(store, m) for m, _ in batch])
            store._backend.upsert([
                StoredPoint(m.id, m.to_payload(), d, (list(s.indices), list(s.values)))
                for (m, d), s in zip(batch, sparse)
            ])
            batch = []
            print(f"  loaded {k + 1}/{size}", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return time.perf_counter() - t0


def measure(store: Any, n: int, fresh: list[str], qs: list[str], seed: int = 3) -> dict[str, Any]:
    """Latency samples (ms) of each operation on a loaded store, each call on a random namespace."""
    from langgraph_memory.store.records import new_memory

    rng = random.Random(seed)
    spaces = [namespace(rng.randrange(NAMESPACES)) for _ in range(n + 10)]
    out: dict[str, Any] = {"embed": [], "storage": [], "actions": Counter()}

    # remember = validate + embed + dedup-and-write; the split uses the same internals
    # remember() calls, so embed + storage is exactly one remember().
    def embed(memory: Any) -> Any:
        return store._writer.embed_memories([memory], [None])

    def remember(i: int) -> None:
        t0 = time.perf_counter()
        memory = new_memory(fresh[i], namespace=spaces[i])
        [(dense, sparse)] = embed(memory)
        t1 = time.perf_counter()
        result = store._writer.write(memory, dense, sparse, dedup=True)
        t2 = time.perf_counter()
        if i >= 5:  # after warm-up
            out["embed"].append((t1 - t0) * 1000)
            out["storage"].append((t2 - t1) * 1000)
            out["actions"][result.action] += 1

    out["remember"] = timed(remember, n)
    vectors: list[Any] = []
    out["embed_query"] = timed(lambda i: vectors.append(store.embed_query(qs[i % len(qs)])), n)
    for mode in ("hybrid", "dense", "bm25"):
        out[f"search {mode}"] = timed(
            lambda i: store.search(vectors[i % len(vectors)], namespace=spaces[i], limit=10, mode=mode), n
        )
    out["recent"] = timed(lambda i: store.recent(namespace=spaces[i], since="7d", limit=10), n)
    return out


COLUMNS = ["remember", "embed", "storage", "embed_query", "search hybrid", "search dense", "search bm25", "recent"]


def row(backend: str, size: int, how: str, result: dict[str, Any]) -> str:
    return f"| {backend} | {size:,} | {how} | " + " | ".join(cell(result[c]) for c in COLUMNS) + " |"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--backends", nargs="+", default=["edge", "qdrant"], choices=["edge", "qdrant"])
    parser.add_argument("--n", type=int, default=100, help="timed calls per operation")
    parser.add_argument("--pool", type=int, default=10000, help="distinct sentences embedded once")
    parser.add_argument("--real-load-max", type=int, default=1000,
                        help="stores up to this size are loaded through remember_many (re-embedding)")
    parser.add_argument("--qdrant-max", type=int, default=10000,
                        help="largest store for qdrant-client local mode (pure Python, ~20 us/point/query)")
    parser.add_argument("--torch-threads", type=int, default=None,
                        help="torch intra-op threads; default: torch's own choice (one per core)")
    args = parser.parse_args(argv)
    import torch

    if args.torch_threads:
        # With one thread per core, a single busy core (another process, Edge's optimizer)
        # stalls every one-sentence embedding; one thread keeps embedding latency steady.
        torch.set_num_threads(args.torch_threads)

    from langgraph_memory import offline_embeddings

    print(f"# MemoryStore benchmark\n\ncpus: {os.cpu_count()}, load average at start: "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}, torch threads: {torch.get_num_threads()}\n",
          flush=True)
    embeddings = offline_embeddings()
    pool = Pool(embeddings, min(args.pool, max(args.sizes)))
    print(f"- pool: {len(pool.texts)} distinct sentences embedded in {pool.seconds:.1f} s "
          f"({pool.rate:.0f} sentences/s, batches of 512); 100k would take ~{100000 / pool.rate / 60:.0f} min")
    fresh = synthetic_sentences(args.n + 10, seed=7, exclude=set(pool.texts))
    qs = questions(args.n + 10)

    rows = []
    for backend in args.backends:
        for size in args.sizes:
            if backend == "qdrant" and size > args.qdrant_max:
                print(f"- skip qdrant local mode at {size} (over --qdrant-max {args.qdrant_max})")
                continue
            root = tempfile.mkdtemp(prefix="store_bench_")
            store = None
            try:
                store = open_store(backend, root, embeddings)
                real = size <= args.real_load_max
                seconds = load(store, size, pool, real=real)
                how = "remember_many(dedup=False), embedding included" if real else (
                    "pooled vectors through the backend" + (
                        f", texts repeat across namespaces (pool {len(pool.texts)})" if size > len(pool.texts) else ""))
                print(f"- {backend} {size}: loaded in {seconds:.1f} s ({size / seconds:.0f} memories/s) via {how}",
                      flush=True)
                result = measure(store, args.n, fresh, qs)
                print(f"  remember outcomes: {dict(result['actions'])}", flush=True)
                rows.append((backend, size, "real" if real else "pooled", result))
                print("  " + row(*rows[-1]), flush=True)
            except Exception as exc:  # one broken configuration must not lose the others' figures
                print(f"- {backend} {size}: FAILED {type(exc).__name__}: {exc}", flush=True)
            finally:
                if store is not None:
                    store.close()
                shutil.rmtree(root, ignore_errors=True)

    print(f"\nload average at end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print("median / p95 in ms; `remember` = one remember() with dedup, including its embedding, "
          "split into `embed` and `storage` (dedup query + write); searches take a pre-embedded "
          "query (`embed_query` is its cost) and are filtered to one namespace, limit 10; "
          "`recent` = since 7d, limit 10.\n")
    print("| backend | memories | load | " + " | ".join(COLUMNS) + " |")
    print("|---|---:|---|" + "---:|" * len(COLUMNS))
    for r in rows:
        print(row(*r))


if __name__ == "__main__":
    main()
