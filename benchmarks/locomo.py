"""LoCoMo evidence recall: which retrieval finds the dialog turns that answer a question.

For every conversation of a LoCoMo file, in fresh stores:

* **turns**: every dialog turn is a memory (session date as its time, the speaker as a
  subject, the turn id as provenance in ``metadata["evidence"]``, the previous turn of
  the session as BM25 ``context`` unless ``--no-context``), bulk-loaded;
* **observations**: LoCoMo's LLM-extracted facts, stored one by one through ``remember``
  with dedup on; when dedup merges two facts the survivor keeps both provenances.

Every question of categories 1-4 is then asked of each mode, and the turns covered by the
top ``k`` retrieved memories are scored: ``recall_any`` (some evidence turn found) and
LoCoMo's ``recall_frac`` (the fraction of evidence turns found), for k = 1, 5, 10, 20.

Modes: ``search`` (``MemoryStore.search`` with its defaults), ``dense``, ``bm25`` (our
store's single channels), ``rrf60`` (an unweighted RRF, k=60, of those two lists: the
naive fusion, for reference), ``prehook`` (the pre-hook's injected set under its default
budget; its k is the budget), ``rank_bm25`` (a plain BM25, package ``rank_bm25``) and
``inmemorystore`` (LangGraph's ``InMemoryStore`` semantic search, same embedder). On the
observations corpus, ``search_dedup_off`` is ``search`` over the facts stored without dedup.

Memory ids come from a generator seeded with the store's name: searches order equal scores
by id, so fresh random ids would order ties differently in each run and move the figures.

Usage (from the repo root, offline)::

    python benchmarks/locomo.py                       # ../shared/bench/locomo/locomo_dev.json
    python benchmarks/locomo.py --data PATH --json OUT.json
    python benchmarks/locomo.py --cv                  # leave-one-conversation-out tuning of search
    python benchmarks/locomo.py --links [--no-link-source]  # with linked sessions, link source on/off
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence
from unittest import mock

from langchain_core.embeddings import Embeddings

if __package__ in (None, ""):  # run as a script: python benchmarks/locomo.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._locomo_data import (
    CATEGORIES,
    DEFAULT_DATA,
    KS,
    CachedEmbeddings,
    Conversation,
    load,
    score,
)
from langgraph_memory import MemoryStore
from langgraph_memory.store import records

Ranked = list[tuple[str, ...]]
"""A retrieval result: for each retrieved item, best first, the dialog ids it stands for."""

ALL_MODES = ("search", "dense", "bm25", "rrf60", "prehook", "rank_bm25", "inmemorystore")
NAMESPACE_ROOT = "locomo"


def _tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _line(turn: Any) -> str:
    return f"{turn.speaker}: {turn.content}"


def _evidence(memory: Any) -> tuple[str, ...]:
    return tuple(memory.metadata.get("evidence") or ())


class Tally:
    """Sums of per-question scores by (corpus, mode, category, k)."""

    def __init__(self) -> None:
        self.sums: dict[tuple[str, str, str, int], list[float]] = defaultdict(lambda: [0.0, 0.0, 0])

    def add(self, corpus: str, mode: str, category: int, ranked: Ranked, evidence: frozenset[str], ks: Iterable[int]) -> None:
        for k in ks:
            any_, frac = score(ranked, evidence, k)
            for cat in ("all", CATEGORIES[category]):
                cell = self.sums[(corpus, mode, cat, k)]
                cell[0] += any_
                cell[1] += frac
                cell[2] += 1

    def rows(self) -> list[dict[str, Any]]:
        out = []
        for (corpus, mode, cat, k), (any_, frac, n) in self.sums.items():
            out.append({
                "corpus": corpus, "mode": mode, "category": cat, "k": k,
                "recall_any": round(any_ / n, 4), "recall_frac": round(frac / n, 4),
            })
        order = {m: i for i, m in enumerate((*ALL_MODES, "search_dedup_off"))}
        cats = {c: i for i, c in enumerate(("all", *CATEGORIES.values()))}
        out.sort(key=lambda r: (r["corpus"] != "turns", order.get(r["mode"], 99), cats[r["category"]], r["k"]))
        return out


def _rrf(lists: Sequence[Sequence[Any]], k: int = 60) -> list[Any]:
    scores: dict[str, float] = defaultdict(float)
    items: dict[str, Any] = {}
    for ranked in lists:
        for rank, hit in enumerate(ranked):
            scores[hit.memory.id] += 1.0 / (k + rank + 1)
            items.setdefault(hit.memory.id, hit)
    return [items[i] for i in sorted(scores, key=scores.__getitem__, reverse=True)]


class _SeededIds:
    """Stands for the ``uuid`` module in :mod:`langgraph_memory.store.records` during a run:
    ``uuid4`` draws from a generator that :func:`_open_store` seeds with the store's name,
    so every run (and any subset of modes) gives each memory the same id."""

    def __init__(self) -> None:
        self.rng = random.Random(0)

    def seed(self, name: str) -> None:
        self.rng = random.Random(name)

    def uuid4(self) -> uuid.UUID:
        return uuid.UUID(int=self.rng.getrandbits(128), version=4)

    def __getattr__(self, name: str) -> Any:
        return getattr(uuid, name)


_IDS = _SeededIds()


def _open_store(backend: str, workdir: Path, name: str, embeddings: Embeddings) -> MemoryStore:
    _IDS.seed(name)
    if backend == "edge":
        return MemoryStore.open(workdir / name, embeddings=embeddings)
    from qdrant_client import QdrantClient

    return MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)


class Corpus:
    """One corpus of one conversation: our store plus the baselines over the same texts."""

    def __init__(self, name: str, store: MemoryStore, namespace: tuple[str, ...],
                 texts: list[str], evidence: list[tuple[str, ...]], embeddings: Embeddings,
                 modes: Sequence[str]) -> None:
        self.name, self.store, self.namespace, self.modes = name, store, namespace, modes
        self.evidence = evidence
        self.bm25 = None
        if "rank_bm25" in modes:
            from rank_bm25 import BM25Okapi

            self.bm25 = BM25Okapi([_tokens(t) for t in texts])
        self.inmem = None
        if "inmemorystore" in modes:
            from langgraph.store.base import PutOp
            from langgraph.store.memory import InMemoryStore

            self.inmem = InMemoryStore(index={"embed": embeddings, "dims": store.dim, "fields": ["text"]})
            # Batches, so texts are embedded together as in our bulk load. A text may occur
            # once per batch: InMemoryStore (langgraph 1.2) fails on repeats within one.
            batches: list[list[PutOp]] = [[]]
            seen: set[str] = set()
            for i, (t, ev) in enumerate(zip(texts, evidence)):
                if t in seen:
                    batches.append([])
                    seen.clear()
                seen.add(t)
                batches[-1].append(PutOp(namespace, str(i), {"text": t, "evidence": list(ev)}))
            for batch in batches:
                self.inmem.batch(batch)

    def retrieve(self, question: str, depth: int, prehook_config: Any = None) -> dict[str, Ranked]:
        out: dict[str, Ranked] = {}
        store, ns = self.store, self.namespace
        vectors = store.embed_query(question)
        if "search" in self.modes:
            out["search"] = [_evidence(h.memory) for h in store.search(vectors, namespace=ns, limit=depth)]
        dense = bm25 = None
        if {"dense", "rrf60"} & set(self.modes):
            dense = store.search(vectors, namespace=ns, limit=max(depth, 60), mode="dense")
            out["dense"] = [_evidence(h.memory) for h in dense[:depth]]
        if {"bm25", "rrf60"} & set(self.modes):
            bm25 = store.search(vectors, namespace=ns, limit=max(depth, 60), mode="bm25")
            out["bm25"] = [_evidence(h.memory) for h in bm25[:depth]]
        if "rrf60" in self.modes:
            out["rrf60"] = [_evidence(h.memory) for h in _rrf([dense or [], bm25 or []])[:depth]]
        if "prehook" in self.modes:
            from langgraph_memory.agent.injection import select_memories

            injection = select_memories(store, namespace=ns, query=vectors, ledger=None, config=prehook_config)
            out["prehook"] = [_evidence(c.memory) for c in injection.chosen]
        if self.bm25 is not None:
            scores = self.bm25.get_scores(_tokens(question))
            top = sorted(range(len(scores)), key=lambda i: -scores[i])[:depth]
            # BM25 finds nothing for a query sharing no term: an empty result, not noise.
            out["rank_bm25"] = [self.evidence[i] for i in top if scores[i] > 0]
        if self.inmem is not None:
            hits = self.inmem.search(ns, query=question, limit=depth)
            out["inmemorystore"] = [tuple(h.value["evidence"]) for h in hits]
        return {m: r for m, r in out.items() if m in self.modes}


def _link_sessions(store: MemoryStore, ns: tuple[str, ...], stored: Sequence[tuple[Any, str]]) -> None:
    """``--links``: link what one session yielded as the digest links the facts of one
    batch (each to the latest earlier one sharing a subject, here the speaker)."""
    from langgraph_memory.store._links import link_siblings

    sessions: dict[Any, list[str]] = defaultdict(list)
    for when, memory_id in stored:
        sessions[when].append(memory_id)
    for ids in sessions.values():
        link_siblings(store, ids, ns)


def _ingest_turns(store: MemoryStore, conv: Conversation, ns: tuple[str, ...], *, context: bool,
                  links: bool = False) -> None:
    items = []
    for i, t in enumerate(conv.turns):
        item: dict[str, Any] = {
            "content": t.content, "subjects": [t.speaker], "created_at": t.when,
            "metadata": {"evidence": [t.dia_id]},
        }
        before = conv.turns[i - 1] if i else None
        if context and before is not None and before.when == t.when:
            # The turn it answers, as a chat app would pass the previous message.
            item["context"] = f"{before.speaker}: {before.content}"
        items.append(item)
    results = store.remember_many(items, namespace=ns, dedup=False, source="locomo")
    if links:
        _link_sessions(store, ns, [(t.when, r.memory.id) for t, r in zip(conv.turns, results)])


def _ingest_observations(store: MemoryStore, conv: Conversation, ns: tuple[str, ...], *, dedup: bool,
                         links: bool = False) -> Counter[str]:
    actions: Counter[str] = Counter()
    items = [
        {"content": o.text, "subjects": [o.speaker], "created_at": o.when, "metadata": {"evidence": list(o.evidence)}}
        for o in conv.observations
    ]
    if not dedup:
        store.remember_many(items, namespace=ns, dedup=False, source="locomo")
        actions["inserted"] = len(items)
        return actions
    stored = []
    for item in items:  # one by one, in conversation order, as an agent would store them
        result = store.remember(namespace=ns, source="locomo", dedup=True, **item)
        actions[result.action] += 1
        stored.append((item["created_at"], result.memory.id))
    if links:
        _link_sessions(store, ns, stored)
    return actions


def _live_evidence(store: MemoryStore, ns: tuple[str, ...]) -> tuple[list[str], list[tuple[str, ...]]]:
    texts, evidence = [], []
    for p in store.iter_points(namespace=ns, include_superseded=False):
        texts.append(p.payload["content"])
        evidence.append(tuple((p.payload.get("metadata") or {}).get("evidence") or ()))
    return texts, evidence


def run(
    path: str | Path = DEFAULT_DATA,
    *,
    modes: Sequence[str] = ALL_MODES,
    corpora: Sequence[str] = ("turns", "observations"),
    backend: str = "edge",
    ks: Sequence[int] = KS,
    embeddings: Embeddings | None = None,
    prehook_config: Any = None,
    context: bool = True,
    links: bool = False,
    log: Callable[[str], None] = lambda s: print(s, file=sys.stderr),
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Run the benchmark; returns the JSON rows and a summary (timings, dedup figures)."""
    if embeddings is None:
        from langgraph_memory import offline_embeddings

        embeddings = offline_embeddings()
    cached = embeddings if isinstance(embeddings, CachedEmbeddings) else CachedEmbeddings(embeddings)
    if "prehook" in modes and prehook_config is None:
        from langgraph_memory.agent.injection import InjectionConfig

        prehook_config = InjectionConfig()
    budget = getattr(prehook_config, "max_injection_count", max(ks))
    depth = max(ks)
    tally = Tally()
    summary: dict[str, Any] = {
        "questions": 0, "facts": 0, "live_after_dedup": 0, "dedup_actions": Counter(),
        "provenance_lost": 0, "ingest_s": 0.0, "query_s": defaultdict(float), "dropped_evidence": [],
    }
    conversations = load(path)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="locomo-") as tmp, mock.patch.object(records, "uuid", _IDS):
        workdir = Path(tmp)
        for conv in conversations:
            ns = (NAMESPACE_ROOT, conv.sample_id)
            summary["questions"] += len(conv.questions)
            summary["dropped_evidence"].extend(conv.dropped_evidence)
            t0 = time.perf_counter()
            # Embed each text and question once, in batches, for every system: the stores
            # and baselines then hit the cache (one sentence at a time is 10x slower).
            cached.embed_documents(
                [t.content for t in conv.turns] + [_line(t) for t in conv.turns]
                + [o.text for o in conv.observations] + [q.text for q in conv.questions]
            )
            corpus_list: list[Corpus] = []
            if "turns" in corpora:
                store = _open_store(backend, workdir, f"{conv.sample_id}-turns", cached)
                _ingest_turns(store, conv, ns, context=context, links=links)
                # Baselines index each turn as a transcript line, speaker included.
                corpus_list.append(Corpus(
                    "turns", store, ns, [_line(t) for t in conv.turns],
                    [(t.dia_id,) for t in conv.turns], cached, modes,
                ))
            if "observations" in corpora and conv.observations:
                store = _open_store(backend, workdir, f"{conv.sample_id}-obs", cached)
                summary["dedup_actions"].update(_ingest_observations(store, conv, ns, dedup=True, links=links))
                summary["facts"] += len(conv.observations)
                texts, evidence = _live_evidence(store, ns)
                summary["live_after_dedup"] += len(texts)
                given = {e for o in conv.observations for e in o.evidence}
                kept = {e for ev in evidence for e in ev}
                summary["provenance_lost"] += len(given - kept)
                # Baselines get every fact, as a store without dedup would hold them.
                corpus_list.append(Corpus(
                    "observations", store, ns, [o.text for o in conv.observations],
                    [o.evidence for o in conv.observations], cached, modes,
                ))
                if "search" in modes:
                    plain = _open_store(backend, workdir, f"{conv.sample_id}-obs-nodedup", cached)
                    _ingest_observations(plain, conv, ns, dedup=False)
                    corpus_list.append(Corpus("observations", plain, ns, [], [], cached, ("search",)))
            summary["ingest_s"] += time.perf_counter() - t0
            for corpus in corpus_list:
                nodedup = corpus.modes == ("search",) and corpus.name == "observations"
                t1 = time.perf_counter()
                for q in conv.questions:
                    for mode, ranked in corpus.retrieve(q.text, depth, prehook_config).items():
                        name = "search_dedup_off" if nodedup else mode
                        tally.add(corpus.name, name, q.category, ranked, q.evidence,
                                  (budget,) if mode == "prehook" else ks)
                summary["query_s"][corpus.name] += time.perf_counter() - t1
                corpus.store.close()
            log(f"{conv.sample_id}: {len(conv.turns)} turns, {len(conv.observations)} facts, "
                f"{len(conv.questions)} questions ({time.perf_counter() - started:.0f} s)")
    summary["total_s"] = time.perf_counter() - started
    return tally.rows(), summary


def format_table(rows: list[dict[str, Any]], ks: Sequence[int] = KS) -> str:
    """One table: a line per corpus, mode and category; recall_any then recall_frac by k."""
    cells: dict[tuple[str, str, str], dict[int, tuple[float, float]]] = defaultdict(dict)
    for r in rows:
        cells[(r["corpus"], r["mode"], r["category"])][r["k"]] = (r["recall_any"], r["recall_frac"])
    all_ks = sorted({*ks, *(k for c in cells.values() for k in c)})
    head = ["corpus", "mode", "category"] + [f"any@{k}" for k in all_ks] + [f"frac@{k}" for k in all_ks]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (corpus, mode, cat), byk in cells.items():
        vals = [f"{byk[k][0]:.3f}" if k in byk else "" for k in all_ks]
        vals += [f"{byk[k][1]:.3f}" if k in byk else "" for k in all_ks]
        lines.append("| " + " | ".join([corpus, mode, cat, *vals]) + " |")
    return "\n".join(lines)


def format_summary(summary: dict[str, Any]) -> str:
    acts = summary["dedup_actions"]
    merged = acts.get("duplicate", 0) + acts.get("updated", 0)
    query = ", ".join(f"{k} {v:.0f} s" for k, v in summary["query_s"].items())
    return (
        f"questions (categories 1-4 with evidence): {summary['questions']}; "
        f"evidence ids naming no turn, not scored: {summary['dropped_evidence'] or 'none'}\n"
        f"observation dedup: {summary['facts']} facts -> {summary['live_after_dedup']} live memories; "
        f"{merged} merged ({acts.get('duplicate', 0)} duplicates, {acts.get('updated', 0)} superseded), "
        f"evidence turns lost by merging: {summary['provenance_lost']}\n"
        f"time: ingest {summary['ingest_s']:.0f} s, queries: {query}, total {summary['total_s']:.0f} s"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DEFAULT_DATA), help="LoCoMo JSON file (default: %(default)s)")
    parser.add_argument("--json", dest="json_out", help="write the figures as a JSON list of rows here")
    parser.add_argument("--backend", choices=("edge", "qdrant"), default="edge",
                        help="our store's engine: embedded Qdrant Edge or qdrant-client local mode")
    parser.add_argument("--modes", default=",".join(ALL_MODES), help="comma-separated subset of: %(default)s")
    parser.add_argument("--corpora", default="turns,observations")
    parser.add_argument("--no-context", action="store_true",
                        help="do not index each turn with the turn before it (BM25 only)")
    parser.add_argument("--embedder", default="minilm",
                        help="embedder by name: minilm, e5, ... (see langgraph_memory.named_embeddings)")
    parser.add_argument("--links", action="store_true",
                        help="link what each session yielded as the digest does (docs/links-and-lifecycle.md)")
    parser.add_argument("--no-link-source", action="store_true",
                        help="search and the pre-hook do not follow links (the fourth source off)")
    parser.add_argument("--cv", action="store_true",
                        help="only leave-one-conversation-out tuning of search on turns (see _locomo_cv.py)")
    args = parser.parse_args(argv)
    if args.no_link_source:
        from langgraph_memory.store import _linked

        _linked.LINK_SOURCES = 0  # no hit has its links followed
    if args.cv:
        from benchmarks._locomo_cv import cross_validate, format_cv, measure
        from langgraph_memory import offline_embeddings

        measured = measure(load(args.data), offline_embeddings(), ingest=lambda store, conv, ns: _ingest_turns(
            store, conv, ns, context=not args.no_context, links=args.links))
        print(format_cv(cross_validate(measured)))
        return 0
    modes = tuple(m for m in args.modes.split(",") if m)
    unknown = set(modes) - set(ALL_MODES)
    if unknown:
        parser.error(f"unknown modes: {sorted(unknown)}")
    from langgraph_memory import named_embeddings

    rows, summary = run(
        args.data, modes=modes, corpora=tuple(args.corpora.split(",")), backend=args.backend,
        context=not args.no_context, embeddings=named_embeddings(args.embedder).inner, links=args.links,
    )
    print(format_table(rows))
    print()
    print(format_summary(summary))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
