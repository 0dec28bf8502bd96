"""Gardening at scale: one pass over 100k memories in 100 namespaces (duration, memory),
and the pre-hook's p50 while a pass runs against idle, in the same run.

    python benchmarks/garden_bench.py [--namespaces 100] [--per 1000] [--queries 300]

Memories are synthetic facts whose ages spread over 120 days, on Qdrant Edge. Their dense
vectors come from a seeded hash embedder (MiniLM would take ~20 minutes to embed 100k
texts on these machines, and the pass never embeds); the pre-hook's queries are embedded
once beforehand, so its timings are the engine's and the selection's, which is what a
pass competes with. Idle and busy samples alternate in rounds (idle, busy, idle, ...), and
the figures are medians of each, so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path

import numpy as np
import psutil
from langchain_core.embeddings import Embeddings

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.prehook_bench import QUERIES, fact
from langgraph_memory import InjectionConfig, MemoryStore
from langgraph_memory.agent.injection import VectorCache, select_memories
from langgraph_memory.store._garden import turn_in_flight
from langgraph_memory.store.records import utcnow

DIM = 384
TYPES = ["fact", "fact", "fact", "event", "observation", "preference", "decision", "identity"]


class HashEmbeddings(Embeddings):
    """A seeded random unit vector per text: deterministic, instant, meaningless."""

    model_name = "hash-384"

    def _one(self, text: str) -> list[float]:
        seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
        v = np.random.default_rng(seed).standard_normal(DIM).astype(np.float32)
        return (v / np.linalg.norm(v)).tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._one(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._one(text)


def load(store: MemoryStore, namespaces: int, per: int) -> list[tuple[str, str]]:
    rng = random.Random(3)
    now = utcnow()
    names = [("memories", f"user-{n:03d}") for n in range(namespaces)]
    for ns in names:
        items = [{"content": fact(rng, i), "memory_type": rng.choice(TYPES),
                  "created_at": now - timedelta(days=rng.uniform(0, 120))} for i in range(per)]
        store.remember_many(items, namespace=ns, dedup=False)
    return names


CONFIG = InjectionConfig()


def prehook_round(store, names, vectors, n: int, rng: random.Random, cache: VectorCache) -> list[float]:
    """``n`` pre-hook decisions in random namespaces; one cache for both conditions."""
    config, out = CONFIG, []
    for _ in range(n):
        ns = rng.choice(names)
        q = vectors[rng.randrange(len(vectors))]
        start = time.perf_counter()
        with turn_in_flight(store):  # as MemoryPrehook does
            select_memories(store, namespace=ns, query=q, config=config, cache=cache)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--namespaces", type=int, default=100)
    parser.add_argument("--per", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=40, help="pre-hook calls per round")
    parser.add_argument("--rounds", type=int, default=6, help="idle/busy round pairs")
    args = parser.parse_args()
    proc = psutil.Process()
    with tempfile.TemporaryDirectory() as tmp:
        store = MemoryStore.open(Path(tmp) / "store", embeddings=HashEmbeddings())
        t = time.perf_counter()
        names = load(store, args.namespaces, args.per)
        print(f"loaded {args.namespaces * args.per} memories in {time.perf_counter() - t:.0f} s")
        vectors = [store.embed_query(q) for q in QUERIES]
        rng = random.Random(5)
        cache = VectorCache(size=200_000)
        prehook_round(store, names, vectors, 200, rng, cache)  # warm up

        # The pass measured alone: duration and resident memory growth (sampled).
        rss0 = proc.memory_info().rss
        peak = [rss0]
        done = threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], proc.memory_info().rss)
                time.sleep(0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        report = store.garden(now=utcnow() + timedelta(days=1), dry_run=True)
        done.set()
        sampler.join()
        summary = {k: report[k] for k in ("seen", "decayed", "archived", "purged", "namespaces", "duration_ms")}
        print("dry-run pass:", json.dumps(summary), f"peak RSS +{(peak[0] - rss0) / 2**20:.0f} MiB")

        # Idle and busy rounds alternate; each busy round runs during a (dry-run) pass.
        idle: list[float] = []
        busy: list[float] = []
        for r in range(args.rounds):
            idle_round = prehook_round(store, names, vectors, args.queries, rng, cache)
            running = threading.Thread(target=store.garden, kwargs={"dry_run": True}, daemon=True)
            running.start()
            busy_round: list[float] = []
            while running.is_alive() and len(busy_round) < args.queries:
                busy_round += prehook_round(store, names, vectors, 1, rng, cache)
            running.join()
            idle += idle_round
            busy += busy_round
            print(f"  round {r}: p50 idle {statistics.median(idle_round) * 1000:.2f} ms, "
                  f"busy {statistics.median(busy_round) * 1000:.2f} ms (n={len(busy_round)})")
        t = time.perf_counter()
        real = store.garden(now=utcnow() + timedelta(days=30))
        print("real pass at +30 days:", json.dumps({k: real[k] for k in ("seen", "decayed", "archived", "duration_ms")}),
              f"({time.perf_counter() - t:.1f} s)")
        p50_idle, p50_busy = statistics.median(idle) * 1000, statistics.median(busy) * 1000
        print(f"pre-hook p50 idle {p50_idle:.2f} ms (n={len(idle)}), during a pass {p50_busy:.2f} ms "
              f"(n={len(busy)}): ratio {p50_busy / p50_idle:.3f}")
        store.close()


if __name__ == "__main__":
    main()
