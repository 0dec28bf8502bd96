"""A client-IDF store's BM25 statistics (``store/backends/_bm25_idf.py``) after any
sequence of writes through the PUBLIC API: ``MemoryStore`` (sync and async twins,
remember with and without dedup, corrections, deletes soft and hard, restore, erase,
access counts, expiry, export then import, reopen) and its side collections (indexed
exchanges, room messages): every client-IDF backend's counts equal a recount of its
live points. A wrong count would silently change every BM25 score."""

from __future__ import annotations

import asyncio
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import MemoryStore
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.backends._bm25_idf import TermCounts
from langgraph_memory.store.conversations import index_exchange

WORDS = "tea coffee chess paris london sister brother job dog cat garden piano river tennis".split()
NAMESPACES = (("u", "a"), ("u", "b"), ("u", "a", "x"))

texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=4).map(lambda w: "I like " + " and ".join(w))
steps = st.lists(st.tuples(
    st.sampled_from(["remember", "remember_dedup", "aremember", "many", "correct", "delete", "hard_delete",
                     "restore", "erase", "access", "ttl_purge", "exchange", "observe", "export_import", "reopen"]),
    st.sampled_from(NAMESPACES), texts, st.integers(0, 1_000)), min_size=1, max_size=25)


def _recounted(backend) -> tuple[int, Counter]:
    fresh = TermCounts(lambda: backend.shard)
    fresh.recount()
    return fresh.n, +fresh.df


def _backends(store: MemoryStore) -> list:
    return [store._backend, *store._sides.values()]


def _know(store: MemoryStore) -> None:
    """Count every client-IDF backend now, so the writes after are kept, not counted later."""
    for backend in _backends(store):
        if backend._counts is not None and not backend._counts.known:
            backend._counts.recount()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps)
def test_counts_equal_a_recount_after_public_writes(tmp_path_factory, fake_embeddings, steps):
    path = tmp_path_factory.mktemp("public") / "s"
    store = MemoryStore.open(path, embeddings=fake_embeddings)
    ids: dict[tuple[str, ...], list[str]] = {ns: [] for ns in NAMESPACES}
    try:
        for op, ns, text, pick in steps:
            _know(store)
            mine = ids[ns]
            chosen = mine[pick % len(mine)] if mine else None
            if op == "remember":
                mine.append(store.remember(text, namespace=ns, dedup=False).memory.id)
            elif op == "remember_dedup":
                mine.append(store.remember(text, namespace=ns).memory.id)
            elif op == "aremember":
                mine.append(asyncio.run(store.aremember(text, namespace=ns, dedup=False)).memory.id)
            elif op == "many":
                mine += [r.memory.id for r in store.remember_many([text, text + " too"], namespace=ns,
                                                                  dedup=pick % 2 == 0)]
            elif op == "correct" and chosen:
                try:
                    mine.append(store.remember(text, namespace=ns, updates=chosen).memory.id)
                except InvalidMemoryError:  # ``chosen`` was superseded already: refused, nothing written
                    pass
            elif op == "delete" and chosen:
                asyncio.run(store.adelete(chosen, namespace=ns))
            elif op == "hard_delete" and chosen:
                store.delete(chosen, namespace=ns, hard=True)
            elif op == "restore" and chosen:
                store.restore(chosen, namespace=ns)
            elif op == "erase":
                store.erase(ns)
                ids[ns] = []
            elif op == "access" and chosen:
                store.record_access([chosen], namespace=ns, injected=True)
            elif op == "ttl_purge":
                store.remember(text, namespace=ns, ttl="30m", dedup=False)
                store.purge_expired(ns)
            elif op == "exchange":
                index_exchange(store, text, text + " indeed", namespace=ns)
            elif op == "observe":
                store.observe(text, namespace=ns, author="bob")
            elif op == "export_import":
                store.export(path.parent / "x.jsonl", namespace=ns)
                store.import_(path.parent / "x.jsonl")
            elif op == "reopen":
                store.close()
                store = MemoryStore.open(path, embeddings=fake_embeddings)
            for backend in _backends(store):
                counts = backend._counts
                if counts is not None and counts.known:
                    assert (counts.n, +counts.df) == _recounted(backend), (op, backend.path.name)
    finally:
        store.close()
