"""The vector index on large namespaces, and the dedup candidate round (issue #17)."""

from __future__ import annotations

import pytest

from langgraph_memory.store import _writing
from langgraph_memory.store.backends import DENSE, SPARSE

NS = ("memories", "alice")


def _count_optimize(store) -> list[bool]:
    """Record every index build of the store's real backend (it still runs)."""
    calls: list[bool] = []
    real = store._backend.optimize

    def counted() -> bool:
        changed = real()
        calls.append(changed)
        return changed

    store._backend.optimize = counted
    return calls


def test_bulk_loads_build_the_index_once_enough_has_been_written(make_store, monkeypatch):
    monkeypatch.setattr(_writing, "OPTIMIZE_AFTER", 6)
    store = make_store()
    calls = _count_optimize(store)
    store.remember_many([f"Alice visited city number {i}" for i in range(4)], namespace=NS, dedup=False)
    assert calls == []  # 4 < 6: not yet
    store.remember_many([f"Alice read book number {i}" for i in range(4)], namespace=NS, dedup=False)
    assert len(calls) == 1  # 8 >= 6 since the last build
    store.remember_many(["Alice owns a bike"], namespace=NS, dedup=True)  # one at a time: no build
    assert len(calls) == 1
    hits = store.search("which city did Alice visit?", namespace=NS, limit=3)
    assert hits and all("Alice" in h.memory.content for h in hits)


def test_optimize_is_safe_on_both_backends(store):
    store.remember("Alice plays the cello", namespace=NS)
    changed = store.optimize()
    assert isinstance(changed, bool)
    if store.backend_name != "edge":
        assert changed is False  # a server indexes by itself
    assert store.search("cello", namespace=NS)[0].memory.content == "Alice plays the cello"


async def test_optimize_has_an_async_twin(store):
    assert isinstance(await store.aoptimize(), bool)


def test_a_supersession_keeps_both_vectors_of_the_old_version(store):
    first = store.remember("Mickael s'est cassé l'épaule", namespace=NS)
    second = store.remember("Mickael s'est cassé l'épaule le 10 janvier 2026", namespace=NS)
    assert second.action == "updated" and second.replaced.id == first.memory.id
    [old] = store._backend.retrieve([first.memory.id], with_vectors=True)
    assert old.payload["status"] == "superseded"
    assert old.dense is not None and len(old.dense) == store.dim and old.sparse and old.sparse[0]


def test_nothing_below_the_floor_is_a_candidate(store):
    store.remember("Alice plays the cello", namespace=NS)
    result = store.remember("The quarterly tax form is due in April", namespace=NS)
    assert result.action == "inserted" and result.verdict is None  # no candidate was judged
    assert store.count(namespace=NS) == 2


@pytest.mark.parametrize("with_sparse", [False, True])
def test_dense_queries_carry_the_vectors_asked_for(store, with_sparse):
    from langgraph_memory.store._reads import live_where
    from langgraph_memory.store.backends import DenseQuery

    store.remember("Alice plays the cello", namespace=NS)
    vector = store.embed_query("cello").dense
    [hits] = store._backend.query_batch(
        [DenseQuery(vector, live_where(NS), 5, with_vectors=True, with_sparse=with_sparse, min_score=0.0)])
    assert hits and hits[0].point.dense is not None
    assert (hits[0].point.sparse is not None) is with_sparse
    [none] = store._backend.query_batch([DenseQuery(vector, live_where(NS), 5, min_score=0.999)])
    assert none == []
    assert DENSE != SPARSE
