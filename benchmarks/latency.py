"""Latency of the pre-hook, search and remember, against LangGraph's InMemoryStore.

One process, one data set: LoCoMo's turns and observation facts (read from
``../shared/bench/locomo/locomo_dev.json``, never copied) spread over 100 namespaces at
1k, 10k and 100k memories, with LoCoMo's questions as queries. Systems:

* ``edge``: our store on Qdrant Edge (embedded, the default);
* ``qdrant``: our store on qdrant-client's local mode (``":memory:"``, pure Python: the
  server code path without a server);
* ``inmemory``: LangGraph's ``InMemoryStore`` with the same embedder (its ``search`` is
  the retrieval compared with our pre-hook and search, its ``put`` with our remember).

Every text and question is embedded once before timing, through a cache, so the figures
exclude the query embedding (MiniLM costs ~10 ms a sentence on these machines, the same
for every system). ``prehook`` is ``select_memories`` with the default
``InjectionConfig`` and one ``VectorCache`` kept across calls (as ``MemoryPrehook`` does); ``search`` is ``MemoryStore.search(limit=10)`` (hybrid);
``remember`` stores a new fact with dedup on; ``engine_query`` is one filtered top-20
query in the engine, the floor under any retrieval on it. Medians in milliseconds, and
each system's ratio to ``edge``.

Usage (from the repo root, offline)::

    python benchmarks/latency.py                      # 1k, 10k, 100k; all systems
    python benchmarks/latency.py --sizes 1000,10000 --systems edge,inmemory
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

if __package__ in (None, ""):  # run as a script: python benchmarks/latency.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._locomo_data import DEFAULT_DATA, CachedEmbeddings, load
from langgraph_memory import MemoryStore
from langgraph_memory.store._search import search_filters
from langgraph_memory.store.backends import DenseQuery

NAMESPACES = 100
SYSTEMS = ("edge", "qdrant", "inmemory")
OPS = ("prehook", "search", "remember", "engine_query")


def _data(path: str | Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Memory items (turns and facts, with speaker and date) and the questions."""
    items: list[dict[str, Any]] = []
    questions: list[str] = []
    for conv in load(path):
        items += [{"content": f"{t.speaker}: {t.content}", "subjects": [t.speaker], "created_at": t.when}
                  for t in conv.turns]
        items += [{"content": o.text, "subjects": [o.speaker], "created_at": o.when} for o in conv.observations]
        questions += [q.text for q in conv.questions]
    return items, questions


def _spread(items: list[dict[str, Any]], size: int, namespaces: int = NAMESPACES) -> list[list[dict[str, Any]]]:
    """``size`` memories over the namespaces, each a different slice of the data."""
    per = size // namespaces
    return [[items[(n * per + j) % len(items)] for j in range(per)] for n in range(namespaces)]


def _time(fn: Callable[[int], Any], *, budget_s: float, min_reps: int, max_reps: int) -> tuple[float, int]:
    """Median wall time of ``fn(i)`` in ms, repeating until the budget or max_reps."""
    samples: list[float] = []
    started = time.perf_counter()
    i = 0
    while i < max_reps and (i < min_reps or time.perf_counter() - started < budget_s):
        t0 = time.perf_counter()
        fn(i)
        samples.append((time.perf_counter() - t0) * 1000)
        i += 1
    return statistics.median(samples), len(samples)


class Ours:
    def __init__(self, system: str, embeddings: CachedEmbeddings, workdir: Path) -> None:
        if system == "edge":
            self.store = MemoryStore.open(workdir / "edge", embeddings=embeddings)
        else:
            from qdrant_client import QdrantClient

            self.store = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)

    def load(self, spread: list[list[dict[str, Any]]]) -> None:
        self.namespaces = len(spread)
        for n, items in enumerate(spread):
            self.store.remember_many(items, namespace=("bench", f"user-{n}"), dedup=False)

    def ops(self, questions: list[str], fresh: list[str]) -> dict[str, Callable[[int], Any]]:
        from langgraph_memory.agent.injection import InjectionConfig, VectorCache, select_memories

        # One cache across turns and users, as a MemoryPrehook holds one.
        store, config, cache = self.store, InjectionConfig(), VectorCache()
        # Embedded outside the timing: the pre-hook embeds the user message once per turn.
        vectors = [store.embed_query(q) for q in questions]

        def ns(i: int) -> tuple[str, str]:
            return ("bench", f"user-{(i * 37) % self.namespaces}")

        return {
            "prehook": lambda i: select_memories(
                store, namespace=ns(i), query=vectors[i % len(vectors)], config=config, cache=cache),
            "search": lambda i: store.search(vectors[i % len(vectors)], namespace=ns(i), limit=10),
            "remember": lambda i: store.remember(fresh[i % len(fresh)], namespace=ns(i), dedup=True),
            # The floor under any retrieval on this engine: one filtered nearest-neighbour
            # query (top 20 of the caller's namespace, payloads included), nothing else.
            "engine_query": lambda i: store._backend.query_batch(
                [DenseQuery(vectors[i % len(vectors)].dense, search_filters(ns(i)), 20)]),
        }

    def close(self) -> None:
        self.store.close()


class LangGraphInMemory:
    def __init__(self, embeddings: CachedEmbeddings) -> None:
        from langgraph.store.memory import InMemoryStore

        self.store = InMemoryStore(index={"embed": embeddings, "dims": 384, "fields": ["text"]})

    def load(self, spread: list[list[dict[str, Any]]]) -> None:
        from langgraph.store.base import PutOp

        self.namespaces = len(spread)
        for n, items in enumerate(spread):
            ns = ("bench", f"user-{n}")
            # InMemoryStore (langgraph 1.2) fails on a text repeated within one batch.
            batch: list[PutOp] = []
            seen: set[str] = set()
            for j, item in enumerate(items):
                if item["content"] in seen:
                    self.store.batch(batch)
                    batch, seen = [], set()
                seen.add(item["content"])
                batch.append(PutOp(ns, str(j), {"text": item["content"], "subjects": item["subjects"]}))
            self.store.batch(batch)

    def ops(self, questions: list[str], fresh: list[str]) -> dict[str, Callable[[int], Any]]:
        store = self.store

        def ns(i: int) -> tuple[str, str]:
            return ("bench", f"user-{(i * 37) % self.namespaces}")

        search = lambda i: store.search(ns(i), query=questions[i % len(questions)], limit=10)  # noqa: E731
        return {
            "prehook": search,  # its only retrieval: what a pre-hook on it would run
            "search": search,
            "remember": lambda i: store.put(ns(i), f"new-{i}", {"text": fresh[i % len(fresh)]}),
        }

    def close(self) -> None:
        self.store = None  # type: ignore[assignment]


def run(
    path: str | Path = DEFAULT_DATA,
    *,
    sizes: Sequence[int] = (1_000, 10_000, 100_000),
    systems: Sequence[str] = SYSTEMS,
    namespaces: int = NAMESPACES,
    budget_s: float = 10.0,
    min_reps: int = 5,
    max_reps: int = 300,
    embeddings: Any = None,
    log: Callable[[str], None] = lambda s: print(s, file=sys.stderr, flush=True),
) -> list[dict[str, Any]]:
    """Median latencies: one row per size, system and operation."""
    if embeddings is None:
        from langgraph_memory import offline_embeddings

        embeddings = offline_embeddings()
    cached = embeddings if isinstance(embeddings, CachedEmbeddings) else CachedEmbeddings(embeddings)
    items, questions = _data(path)
    # New facts for remember: observation texts reworded so they are not exact repeats.
    fresh = [f"Later on, {it['content']}" for it in items[::7]][:500]
    t0 = time.perf_counter()
    cached.embed_documents(list(dict.fromkeys([it["content"] for it in items] + questions + fresh)))
    log(f"embedded {len(items)} texts, {len(questions)} questions in {time.perf_counter() - t0:.0f} s")
    rows: list[dict[str, Any]] = []
    for size in sizes:
        spread = _spread(items, size, namespaces)
        for system in systems:
            with tempfile.TemporaryDirectory(prefix="latency-") as tmp:
                target: Any = LangGraphInMemory(cached) if system == "inmemory" else Ours(system, cached, Path(tmp))
                t1 = time.perf_counter()
                target.load(spread)
                load_s = time.perf_counter() - t1
                ops = target.ops(questions, fresh)
                for op in (op for op in OPS if op in ops):
                    ops[op](0)  # warm caches and code paths before timing
                    median, reps = _time(ops[op], budget_s=budget_s, min_reps=min_reps, max_reps=max_reps)
                    rows.append({"size": size, "system": system, "op": op, "median_ms": median, "reps": reps,
                                 "load_s": round(load_s, 1)})
                    log(f"{size:>7} {system:9} {op:9} {median:9.3f} ms  ({reps} reps; load {load_s:.0f} s)")
                target.close()
                del target
                gc.collect()
    return rows


def format_table(rows: list[dict[str, Any]]) -> str:
    """Medians by operation and system, one column per size, then ratios to edge."""
    sizes = sorted({r["size"] for r in rows})
    cell = {(r["size"], r["system"], r["op"]): r["median_ms"] for r in rows}
    systems = [s for s in SYSTEMS if any(r["system"] == s for r in rows)]
    head = ["operation", "system"] + [f"{s // 1000}k ms" for s in sizes] + [f"{s // 1000}k ×edge" for s in sizes]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for op in OPS:
        for system in systems:
            if not any(key[1:] == (system, op) for key in cell):
                continue  # e.g. InMemoryStore has no engine query
            name = "search (InMemoryStore)" if system == "inmemory" and op != "remember" else (
                "put (InMemoryStore)" if system == "inmemory" else op)
            vals = [f"{cell[(s, system, op)]:.3f}" if (s, system, op) in cell else "—" for s in sizes]
            ratios = []
            for s in sizes:
                ours, theirs = cell.get((s, "edge", op)), cell.get((s, system, op))
                ratios.append(f"{theirs / ours:.1f}" if ours and theirs is not None else "—")
            lines.append("| " + " | ".join([name, system, *vals, *ratios]) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DEFAULT_DATA), help="LoCoMo JSON file (default: %(default)s)")
    parser.add_argument("--sizes", default="1000,10000,100000", help="memories in total (default: %(default)s)")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="subset of: %(default)s")
    parser.add_argument("--namespaces", type=int, default=NAMESPACES,
                        help="users the memories are spread over (default: %(default)s)")
    parser.add_argument("--budget", type=float, default=10.0, help="seconds of timing per cell (default: %(default)s)")
    parser.add_argument("--min-reps", type=int, default=5)
    args = parser.parse_args(argv)
    systems = tuple(s for s in args.systems.split(",") if s)
    if set(systems) - set(SYSTEMS):
        parser.error(f"unknown systems: {sorted(set(systems) - set(SYSTEMS))}")
    rows = run(args.data, sizes=[int(s) for s in args.sizes.split(",")], systems=systems,
               namespaces=args.namespaces, budget_s=args.budget, min_reps=args.min_reps)
    print(format_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
