"""Reads as plans: how many calls reach the engine, and what a write between rounds does.

The engine is real (both backends); a thin proxy only counts the calls going through it.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from qdrant_client import QdrantClient

from langgraph_memory import InvalidMemoryError, MemoryStore

from langgraph_memory.store.backends import FetchQuery, Where
from langgraph_memory.store._reads import TIE_SLACK, memories_plan, run_plans
from langgraph_memory.agent.injection import InjectionConfig, VectorCache, select_memories
from langgraph_memory.store.records import namespace_key

NS = ("memories", "alice")


class CountingBackend:
    """Passes every call to the real backend and records its name (and batch size)."""

    def __init__(self, inner: Any, after_first_batch: Callable[[], None] | None = None) -> None:
        self.inner = inner
        self.calls: list[tuple[str, int]] = []
        self.after_first_batch = after_first_batch

    def query_batch(self, queries, **options):
        self.calls.append(("query_batch", len(queries)))
        results = self.inner.query_batch(queries, **options)
        if self.after_first_batch is not None and len(self.calls) == 1:
            self.after_first_batch()
        return results

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append((name, 0))
            return attr(*args, **kwargs)

        return counted


def _seed(store) -> None:
    store.remember("Alice is a nurse in Lyon", namespace=NS, memory_type="identity")
    store.remember("Alice is allergic to penicillin", namespace=NS, importance=0.95)
    store.remember("Alice plays the cello on weekends", namespace=NS)
    store.remember("Alice's cat is called Miso", namespace=NS)


def test_the_prehook_runs_every_channel_in_two_engine_calls(store):
    _seed(store)
    query = store.embed_query("does Alice play any instrument?")
    cache = VectorCache()
    select_memories(store, namespace=NS, query=query, cache=cache)  # fills the vector cache
    counting = store._backend = CountingBackend(store._backend)

    injection = select_memories(store, namespace=NS, query=query, cache=cache)

    # Every memory here is also recent; "similar" comes first in the default priority.
    assert {c.channel for c in injection.chosen} == {"identity", "important", "similar"}
    # The candidates' payloads ride with their missing scores (the second call; none when
    # the namespace's snapshot answered the first: it scores them itself); the winners'
    # vectors are all cached, so no further call reads them.
    snapshot = bool(getattr(counting.inner, "_snapshots", None) and counting.inner._snapshots._held)
    assert [name for name, _ in counting.calls] == ["query_batch"] * (1 if snapshot else 2)
    # The first call: identity, important, recent, the dense and BM25 lists, and the same
    # two restricted to the subject the message names (alice) with its identity memories.
    assert counting.calls[0][1] == 8


def test_on_edge_the_message_embeds_first_and_every_channel_shares_one_round(make_store, backend):
    store = make_store()
    _seed(store)
    text = "does Alice play any instrument?"
    expected = select_memories(store, namespace=NS, query=store.embed_query(text))
    counting = store._backend = CountingBackend(store._backend)
    injection = select_memories(store, namespace=NS, query=text)
    assert [c.memory.id for c in injection.chosen] == [c.memory.id for c in expected.chosen]
    first_round = 8 if backend == "edge" else 3  # a server reads the metadata channels while it embeds
    assert counting.calls[0] == ("query_batch", first_round)
    with pytest.raises(InvalidMemoryError):  # an embedding that fails fails the selection
        select_memories(store, namespace=NS, query="\ud800 lone surrogate")


def test_on_a_server_the_metadata_channels_read_while_the_message_embeds(embeddings, monkeypatch):
    import threading

    store = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)
    _seed(store)
    text = "does Alice play any instrument?"
    expected = select_memories(store, namespace=NS, query=store.embed_query(text))
    metadata_read = threading.Event()
    real_embed = store.embeddings.embed_query

    def slow_embed(query):
        # Returns only once the metadata channels have been read: done one after the
        # other, the selection would wait here until the timeout.
        assert metadata_read.wait(10), "the metadata channels waited for the embedding"
        return real_embed(query)

    class Signalling(CountingBackend):
        def query_batch(self, queries, **options):
            try:
                return super().query_batch(queries, **options)
            finally:
                metadata_read.set()

    monkeypatch.setattr(store.embeddings, "embed_query", slow_embed)
    counting = store._backend = Signalling(store._backend)
    injection = select_memories(store, namespace=NS, query=text)
    assert [c.memory.id for c in injection.chosen] == [c.memory.id for c in expected.chosen]
    # identity, important and recent first; then the similar channel's rounds
    assert counting.calls[0] == ("query_batch", 3)
    # an embedding that fails fails the selection, as it did before
    monkeypatch.undo()
    with pytest.raises(InvalidMemoryError):
        select_memories(store, namespace=NS, query="\ud800 lone surrogate")
    store.close()


def _record_fetches_by_id(store) -> list[FetchQuery]:
    """The fetches by id (the winners' payloads) the store asks from now on."""
    asked: list[FetchQuery] = []

    class Recording(CountingBackend):
        def query_batch(self, queries, **options):
            asked.extend(q for q in queries if isinstance(q, FetchQuery) and q.where.ids is not None)
            return super().query_batch(queries, **options)

    store._backend = Recording(store._backend)
    return asked


def test_winners_bring_only_the_vectors_the_cache_lacks(store):
    _seed(store)
    query = store.embed_query("does Alice play any instrument?")
    cache = VectorCache()
    asked = _record_fetches_by_id(store)
    first = select_memories(store, namespace=NS, query=query, cache=cache)
    similar = {c.memory.id for c in first.chosen if c.channel == "similar"}
    assert similar and all(cache.get(i) is not None for i in similar)
    with_vectors = {i for q in asked if q.with_vectors for i in q.where.ids}
    assert similar <= with_vectors
    asked.clear()
    again = select_memories(store, namespace=NS, query=query, cache=cache)
    assert [c.memory.id for c in again.chosen] == [c.memory.id for c in first.chosen]
    # every winner's vector is cached now: the payloads come without them (read by no
    # fetch at all when the namespace's snapshot answered: it reads them itself)
    assert not any(q.with_vectors for q in asked)
    assert asked or store._backend.inner._snapshots._held


def test_winners_below_the_floor_bring_no_vectors(store):
    """A winner the floor drops is never compared, so its vector is not read."""
    _seed(store)
    query = store.embed_query("does Alice play any instrument?")
    asked = _record_fetches_by_id(store)
    strict = InjectionConfig(channels=("similar",), similar_min_cosine=0.99, similar_min_bm25=None)
    injection = select_memories(store, namespace=NS, query=query, config=strict)
    assert injection.chosen == [] and injection.dropped["floor"] > 0
    assert asked and not any(q.with_vectors for q in asked)  # the winners were read, without vectors
    # The same winners above a lower floor bring theirs.
    asked.clear()
    loose = strict.replace(similar_min_cosine=0.0)
    chosen = select_memories(store, namespace=NS, query=query, config=loose).chosen
    assert chosen and {c.memory.id for c in chosen} <= {i for q in asked if q.with_vectors for i in q.where.ids}


def test_plans_of_different_lengths_share_each_round(store):
    _seed(store)
    key = namespace_key(NS)

    def two_rounds():
        [first] = yield [FetchQuery(Where(namespace=key), 1, "importance")]
        [second] = yield [FetchQuery(Where(namespace=key, ids=(first[0].point.id,)), 1)]
        return second[0].point.payload["content"]

    counting = CountingBackend(store._backend)
    answers = run_plans(counting, [memories_plan(Where(namespace=key), 10, "updated_at"), two_rounds()])

    assert counting.calls == [("query_batch", 2), ("query_batch", 1)]
    assert len(answers[0]) == 4 and answers[0][0].content == "Alice's cat is called Miso"
    assert answers[1] == "Alice is a nurse in Lyon"  # identity: the most important


def test_a_memory_retired_between_rounds_is_not_returned(store):
    _seed(store)
    cello = store.search("cello", namespace=NS, limit=1)[0].memory
    assert cello.content == "Alice plays the cello on weekends"

    def retire() -> None:
        counting.inner.set_payload([cello.id], {"status": "superseded"})

    counting = store._backend = CountingBackend(store._backend, after_first_batch=retire)
    hits = store.search("cello", namespace=NS, limit=5)

    assert cello.id not in {h.memory.id for h in hits}
    assert all(h.memory.status == "live" for h in hits)


def test_search_with_vectors_returns_each_winner_s_own_vector(store):
    _seed(store)
    hits = store.search("cello weekends", namespace=NS, limit=3, with_vectors=True)
    by_id = {m.id: v for m, v in store.get_many([h.memory.id for h in hits], namespace=NS, with_vectors=True)}
    assert hits and all(h.vector is not None for h in hits)
    for h in hits:
        assert h.vector == by_id[h.memory.id]


def test_channels_left_out_are_not_queried(store):
    _seed(store)
    counting = store._backend = CountingBackend(store._backend)
    config = InjectionConfig(channels=("identity",))
    injection = select_memories(store, namespace=NS, query=None, config=config)
    assert [c.channel for c in injection.chosen] == ["identity"]
    assert counting.calls[0] == ("query_batch", 1)


def test_a_bm25_tie_group_at_the_cut_costs_a_second_round_only_past_the_overfetch(store):
    words = ("lemon", "honey", "milk", "sugar", "mint", "ginger", "cinnamon", "cardamom", "vanilla", "jasmine")
    store.remember_many(
        ["Alice drinks tea", *(f"Alice drinks tea with {w}" for w in words),  # ten equal scores
         *(f"Alice drinks tea with {w} and {v}" for w, v in zip(words, words[1:]))],  # lower ones
        namespace=NS, dedup=False,
    )
    tied = sorted(h.memory.id for h in store.search("tea", namespace=NS, mode="bm25", limit=50)[1:11])
    # A client-IDF Qdrant Edge store scores BM25 itself and asks the engine deeper within
    # the same call (``_bm25_local.settled``); the other engines answer a second round.
    client_idf = getattr(store._backend, "_counts", None) is not None
    counting = store._backend = CountingBackend(store._backend)
    # The group of ten ends within the hits fetched beyond a limit of 5 (5 + 8): one round.
    assert TIE_SLACK == 8
    assert [h.memory.id for h in store.search("tea", namespace=NS, mode="bm25", limit=5)][1:] == tied[:4]
    assert counting.calls == [("query_batch", 1)]
    counting.calls.clear()
    # A limit of 2 fetches 2 + 8 hits, all but the first in the group: the group is read again, deeper.
    assert [h.memory.id for h in store.search("tea", namespace=NS, mode="bm25", limit=2)][1:] == tied[:1]
    assert counting.calls == [("query_batch", 1)] * (1 if client_idf else 2)


@pytest.mark.parametrize("with_vectors", [False, True])
def test_candidates_read_whole_or_after_the_fusion_give_the_same_search(store, monkeypatch, with_vectors):
    """Up to the limit + READ_AHEAD candidates, their payloads come with their missing
    scores and the boosts are read in them; past it, the engine's filters give the boosts
    and the winners are read after the fusion. Same hits, scores, reasons, vectors."""
    from langgraph_memory.store import _hybrid

    _seed(store)
    store.remember("Alice went to Lyon in May 2023 with Tom", namespace=NS, subjects=["alice", "tom"])
    store.remember("Tom is Alice's brother", namespace=NS, memory_type="identity", subjects=["tom", "alice"])

    def search(read_ahead: int):
        monkeypatch.setattr(_hybrid, "READ_AHEAD", read_ahead)
        counting = store._backend = CountingBackend(getattr(store._backend, "inner", store._backend))
        hits = store.search("what did alice do in May 2023?", namespace=NS, limit=3, with_vectors=with_vectors)
        return [(h.memory.id, h.score, h.dense_score, h.sparse_score, h.matched, h.vector) for h in hits], counting.calls

    whole, whole_calls = search(1000)
    after, after_calls = search(-1000)
    assert whole == after
    assert any(matched for _, _, _, _, matched, _ in whole)  # a boost was read
    assert all((vector is not None) == with_vectors for *_, vector in whole)
    assert len(after_calls) == len(whole_calls) + 1  # the winners' own round
