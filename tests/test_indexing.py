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


def test_dense_queries_carry_the_vectors_asked_for(store):
    from langgraph_memory.store._reads import live_where
    from langgraph_memory.store.backends import DenseQuery

    store.remember("Alice plays the cello", namespace=NS)
    vector = store.embed_query("cello").dense
    [hits] = store._backend.query_batch(
        [DenseQuery(vector, live_where(NS), 5, with_vectors=True, min_score=0.0)])
    assert hits and hits[0].point.dense is not None
    assert hits[0].point.sparse is None
    [none] = store._backend.query_batch([DenseQuery(vector, live_where(NS), 5, min_score=0.999)])
    assert none == []
    assert DENSE != SPARSE


def test_a_rescored_bm25_probe_scores_its_hits_by_cosine_in_the_engine(store):
    """The dedup probe finds by words and ranks by meaning, in one query and without
    bringing vectors home: each hit's score is its cosine to the dense vector given."""
    from langgraph_memory.store._reads import live_where
    from langgraph_memory.store.backends import DenseQuery, SparseQuery

    for text in ("David habite à Ordizan", "David aime le jazz", "Alice plays the cello"):
        store.remember(text, namespace=NS, dedup=False)
    query = store.embed_query("Non en fait David a déménagé à Toulouse")
    words = store.embed_query("David habite vit demenage").sparse
    [probed, nearest] = store._backend.query_batch([
        SparseQuery(*words, live_where(NS), 5, payload=("content",), rescore=query.dense),
        DenseQuery(query.dense, live_where(NS), 5, payload=False, min_score=-1.0),
    ])
    cosines = {hit.point.id: hit.score for hit in nearest}
    assert {hit.point.payload["content"] for hit in probed} == {"David habite à Ordizan", "David aime le jazz"}
    assert all(hit.point.payload.keys() == {"content"} and hit.point.dense is None for hit in probed)
    assert [hit.score for hit in probed] == pytest.approx([cosines[hit.point.id] for hit in probed], abs=1e-4)
    assert [hit.score for hit in probed] == sorted((hit.score for hit in probed), reverse=True)


def test_dedup_candidates_carry_only_what_the_policy_reads(store):
    store.remember("Alice plays the cello", namespace=NS)
    store.remember("Alice lives in Lyon", namespace=NS)
    memory = _writing.Memory.from_payload(
        "00000000-0000-4000-8000-000000000001",
        {"content": "Alice now lives in Paris", "namespace": "memories/alice",
         "created_at": 0.0, "updated_at": 0.0})
    candidates = store._writer.dedup_candidates(memory, store.embed_query(memory.content).dense)
    assert candidates and all(set(hit.point.payload) <= set(_writing.JUDGED_FIELDS) for hit in candidates)
    assert all(hit.point.dense is None and hit.point.sparse is None for hit in candidates)
    # ... and the write still supersedes with the old version's vectors intact.
    result = store.remember("Alice now lives in Paris", namespace=NS)
    assert result.action == "updated" and result.replaced.content == "Alice lives in Lyon"
    [old] = store._backend.retrieve([result.replaced.id], with_vectors=True)
    assert old.dense is not None and old.sparse and old.sparse[0]


def _edge_config(path) -> dict:
    import json

    return json.loads((path / "shard" / "edge_config.json").read_text())


def test_an_edge_shard_searches_on_the_threads_the_environment_gives(tmp_path, fake_embeddings, monkeypatch):
    from langgraph_memory import MemoryStore

    path = tmp_path / "store"
    with MemoryStore.open(path, embeddings=fake_embeddings) as store:
        store.remember("Alice lives in Lyon", namespace=NS)
    assert _edge_config(path)["max_search_threads"] == 1  # the default
    hnsw = _edge_config(path)["hnsw_config"]
    # A setting of the process: a shard written with one is opened with another.
    monkeypatch.setenv("LANGGRAPH_MEMORY_SEARCH_THREADS", "3")
    with MemoryStore.open(path, embeddings=fake_embeddings) as store:
        assert [h.memory.content for h in store.search("Alice", namespace=NS)] == ["Alice lives in Lyon"]
    assert _edge_config(path)["max_search_threads"] == 3
    assert _edge_config(path)["hnsw_config"] == hnsw  # what the data was built with stays


@pytest.mark.parametrize("value", ["0", "-2", "two", "1.5"])
def test_a_bad_search_thread_count_is_refused_before_anything_is_written(tmp_path, fake_embeddings, monkeypatch, value):
    from langgraph_memory import MemoryStore

    monkeypatch.setenv("LANGGRAPH_MEMORY_SEARCH_THREADS", value)
    with pytest.raises(ValueError, match="LANGGRAPH_MEMORY_SEARCH_THREADS"):
        MemoryStore.open(tmp_path / "store", embeddings=fake_embeddings)
    assert not (tmp_path / "store").exists()
