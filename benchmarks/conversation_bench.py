"""Conversation recall: the pre-hook with exchange indexing on and off, the worker's
indexing rate, and ``search_conversations`` at 10k exchanges + 1k facts in one namespace.

    python benchmarks/conversation_bench.py [--turns 200] [--exchanges 10000] [--facts 1000]
        [--queries 100] [--backends edge qdrant] [--think-ms 0 50]

1. **Pre-hook p50, indexing on vs off.** Two pre-/post-hook pairs on one store with 1k
   memories, one with ``index_exchanges=True``, one without, called turn by turn in the same
   loop (which goes first alternates), so both see the same machine. Only the pre-hook is
   timed. With ``--think-ms 0`` turns follow each other at once (the worker embeds the last
   exchange while the next pre-hook runs: the worst case); with 50 a model call of 50 ms
   sits between the hooks, as any real turn has.
2. **Worker rate.** Exchanges submitted at once to the store's worker (queue large enough),
   timed until ``flush()``: exchanges indexed per second, one embedding per exchange.
3. **Search latency.** ``search_conversations`` over 10k exchanges and 1k facts of one user,
   p50/p95, the query embedded beforehand (``QueryVectors``), on Qdrant Edge and on
   qdrant-client's local mode.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from langchain_core.messages import AIMessage, HumanMessage  # noqa: E402

from langgraph_memory import (  # noqa: E402
    BackgroundWorker,
    MemoryPosthook,
    MemoryPrehook,
    MemoryStore,
    offline_embeddings,
    search_conversations,
    worker_for,
)
from langgraph_memory.store.conversations import new_exchange, write_records  # noqa: E402
from langgraph_memory.background.exchanges import submit_exchange  # noqa: E402
from prehook_bench import NAMES, QUERIES, THINGS, load, percentile  # noqa: E402

NS = ("memories", "bench-user")
SAID = ["I went to {t} with {n} last weekend.", "{n} told me about {t}.", "Remind me to ask {n} about {t}.",
        "We argued with {n} about {t}.", "Do you think {n} would like {t}?"]
ANSWERS = ["That sounds lovely.", "I'll remember that.", "Good question, maybe ask them.", "Noted.",
           "Interesting, tell me more."]


def open_store(backend: str, tmp: str, embeddings) -> MemoryStore:  # type: ignore[no-untyped-def]
    if backend == "edge":
        return MemoryStore.open(f"{tmp}/store", embeddings=embeddings)
    from qdrant_client import QdrantClient

    return MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)


def utterance(rng: random.Random, i: int) -> tuple[str, str]:
    said = rng.choice(SAID).format(t=rng.choice(THINGS), n=rng.choice(NAMES))
    return f"{said} (turn {i})", rng.choice(ANSWERS)


def prehook_on_off(store: MemoryStore, turns: int, think_ms: float) -> dict[str, list[float]]:
    rng = random.Random(3)
    hooks = {
        label: (MemoryPrehook(store), MemoryPosthook(store, index_exchanges=on))
        for label, on in (("indexing off", False), ("indexing on", True))
    }
    timings: dict[str, list[float]] = {label: [] for label in hooks}
    cfg = {"configurable": {"user_id": "bench-user", "thread_id": "bench"}}
    states = {label: {"messages": [], "memory": {}} for label in hooks}
    for i in range(turns + 1):
        order = list(hooks) if i % 2 == 0 else list(reversed(hooks))
        for label in order:
            prehook, posthook = hooks[label]
            state = states[label]
            user, answer = utterance(rng, i)
            state["messages"] = state["messages"][-4:] + [HumanMessage(user, id=f"{label}-{i}")]
            start = time.perf_counter()
            update = prehook(state, cfg) or {}
            elapsed = time.perf_counter() - start
            if i:  # the first turn warms caches up
                timings[label].append(elapsed)
            state.update(update)
            if think_ms:
                time.sleep(think_ms / 1000)  # the model's call
            state["messages"] = state["messages"] + [AIMessage(answer)]
            state.update(posthook(state, cfg) or {})
    store.flush()
    return timings


def worker_rate(store: MemoryStore, count: int) -> float:
    rng = random.Random(5)
    exchanges = [new_exchange(*utterance(rng, i), namespace=NS, thread_id="rate") for i in range(count)]
    store._background = BackgroundWorker(max_queue=count + 10)  # what worker_for(store) returns now
    start = time.perf_counter()
    for exchange in exchanges:
        submit_exchange(store, exchange)
    store.flush()
    elapsed = time.perf_counter() - start
    assert worker_for(store).stats().done == count
    return count / elapsed


def load_exchanges(store: MemoryStore, count: int) -> None:
    rng = random.Random(11)
    batch = []
    for i in range(count):
        batch.append(new_exchange(*utterance(rng, i), namespace=NS, thread_id=f"thread-{i // 20}"))
        if len(batch) == 256:
            write_records(store, batch)
            batch = []
    write_records(store, batch)


def search_latency(store: MemoryStore, queries: int) -> list[float]:
    vectors = [store.embed_query(q) for q in QUERIES]
    search_conversations(store, vectors[0], namespace=NS)  # warm up
    timings = []
    for i in range(queries):
        start = time.perf_counter()
        search_conversations(store, vectors[i % len(vectors)], namespace=NS)
        timings.append(time.perf_counter() - start)
    return timings


def row(*cells: object) -> None:
    print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--think-ms", type=float, nargs="+", default=[0.0, 50.0])
    parser.add_argument("--rate", type=int, default=500)
    parser.add_argument("--exchanges", type=int, default=10_000)
    parser.add_argument("--facts", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--backends", nargs="+", default=["edge", "qdrant"], choices=["edge", "qdrant"])
    args = parser.parse_args()
    embeddings = offline_embeddings()

    print("\n| think time | pre-hook | p50 ms | p95 ms | p50 on / off |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp, open_store("edge", tmp, embeddings) as store:
        load(store, 1000)
        for think in args.think_ms:
            t = prehook_on_off(store, args.turns, think)
            ratio = statistics.median(t["indexing on"]) / statistics.median(t["indexing off"])
            for label, values in t.items():
                row(f"{think:g} ms", label, f"{statistics.median(values) * 1e3:.2f}",
                    f"{percentile(values, 0.95) * 1e3:.2f}", f"{ratio:.3f}" if label == "indexing on" else "")
        print(f"\nworker: {worker_rate(store, args.rate):.0f} exchanges indexed per second "
              f"({args.rate} submitted at once, one embedding each)")

    print(f"\n| backend | exchanges + facts | search_conversations p50 ms | p95 ms |\n|---|---|---|---|")
    for backend in args.backends:
        with tempfile.TemporaryDirectory() as tmp, open_store(backend, tmp, embeddings) as store:
            load(store, args.facts)
            load_exchanges(store, args.exchanges)
            runs = args.queries if backend == "edge" else max(10, args.queries // 10)
            t = search_latency(store, runs)
            row(backend, f"{args.exchanges:,} + {args.facts:,}", f"{statistics.median(t) * 1e3:.2f}",
                f"{percentile(t, 0.95) * 1e3:.2f}")


if __name__ == "__main__":
    main()
