"""Pre-hook latency: p50/p95 of one injection decision with 1k and 10k memories in the
user's namespace, excluding and including the query embedding.

    python benchmarks/prehook_bench.py [--sizes 1000 10000] [--backends edge qdrant] [--queries 200]

Memories are synthetic one-sentence facts, embedded once with the offline MiniLM and loaded
with ``remember_many(dedup=False)``; a recent and an identity slice make every channel work.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from datetime import datetime, timedelta, timezone

from langgraph_memory import InjectionConfig, MemoryStore, offline_embeddings
from langgraph_memory.agent.injection import VectorCache, select_memories

NAMES = ["Mickael", "David", "Lina", "Zoé", "Paul", "Inès", "Hugo", "Sara", "Tom", "Nora"]
VERBS = ["likes", "visited", "bought", "plans to visit", "sold", "cooked", "painted", "lost", "found", "studied"]
THINGS = ["a red bicycle", "Lisbon", "sushi", "the Alps", "a jazz record", "chess", "a kayak", "Kyoto",
          "an old piano", "marathon running", "Greek islands", "a vegetable garden", "astronomy", "a camper van"]
QUERIES = ["what does David like?", "where is Lina going on holiday?", "what did we talk about?",
           "hello", "who plays the piano?", "any news about the kayak?", "what sport does Tom do?"]


def fact(rng: random.Random, i: int) -> str:
    return f"{rng.choice(NAMES)} {rng.choice(VERBS)} {rng.choice(THINGS)} in {2000 + i % 26} (note {i})"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def load(store: MemoryStore, size: int, seed: int = 7) -> tuple[str, ...]:
    rng = random.Random(seed)
    ns = ("memories", "bench-user")
    old = datetime.now(timezone.utc) - timedelta(days=30)
    items = [{"content": fact(rng, i), "created_at": old} for i in range(size - 20)]
    items += [{"content": fact(rng, size + i)} for i in range(15)]  # recent
    items += [{"content": f"The user's name is {NAMES[i]}", "memory_type": "identity"} for i in range(5)]
    store.remember_many(items, namespace=ns, dedup=False)
    return ns


def measure(store: MemoryStore, ns: tuple[str, ...], queries: int) -> dict[str, list[float]]:
    config = InjectionConfig()
    cache = VectorCache()
    timings: dict[str, list[float]] = {"excluding embedding": [], "including embedding": []}
    vectors = {q: store.embed_query(q) for q in QUERIES}
    select_memories(store, namespace=ns, query=vectors[QUERIES[0]], config=config, cache=cache)  # warm up
    for i in range(queries):
        q = QUERIES[i % len(QUERIES)]
        start = time.perf_counter()
        select_memories(store, namespace=ns, query=vectors[q], config=config, cache=cache)
        timings["excluding embedding"].append(time.perf_counter() - start)
        start = time.perf_counter()
        select_memories(store, namespace=ns, query=q, config=config, cache=cache)
        timings["including embedding"].append(time.perf_counter() - start)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--backends", nargs="+", default=["edge", "qdrant"], choices=["edge", "qdrant"])
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    embeddings = offline_embeddings()
    print("| backend | memories | pre-hook | p50 ms | p95 ms |\n|---|---|---|---|---|")
    for backend in args.backends:
        for size in args.sizes:
            with tempfile.TemporaryDirectory() as tmp:
                if backend == "edge":
                    store = MemoryStore.open(f"{tmp}/store", embeddings=embeddings)
                else:
                    from qdrant_client import QdrantClient

                    store = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)
                with store:
                    ns = load(store, size)
                    runs = args.queries if backend == "edge" else max(10, args.queries // 10)
                    for label, values in measure(store, ns, runs).items():
                        print(f"| {backend} | {size:,} | {label} | {statistics.median(values) * 1e3:.2f} | "
                              f"{percentile(values, 0.95) * 1e3:.2f} |", flush=True)


if __name__ == "__main__":
    main()
