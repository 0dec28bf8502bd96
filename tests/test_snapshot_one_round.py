"""A hybrid search whose lists a namespace snapshot answered scores its candidates on that
snapshot, without a second round (issue 29): the round restricted to the candidates' ids
(their missing cosines and BM25 scores, their payloads) cost three queries, their masks
and a ``query_batch`` of its own, ~50 µs of a ~400 µs pre-hook turn at 100 memories.

It must choose exactly as that round did: same memories, order, scores, reasons, drops.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import MemoryStore
from langgraph_memory.agent.injection import InjectionConfig, VectorCache, select_memories
from langgraph_memory.store.backends import _snapshot_batch, edge

pytestmark = pytest.mark.integration

NAMES = ["ann", "bob", "carla", "dev"]
THINGS = ["guitar", "garden", "paris trip", "new job", "sister", "tennis", "painting", "dog"]
_stores = itertools.count()


def _turns(store, namespace, queries, *, old_round: bool = False):
    """Each query's choices, the rounds (``query_batch`` calls) and the queries restricted to
    ids each turn asked, the vector cache warm; ``old_round``: the candidates scored by a
    round, as before."""
    rounds: list[int] = []
    by_ids: list[int] = []
    asked = edge.EdgeBackend.query_batch

    def counted(self, batch, *, cached=False):
        rounds[-1] += 1
        by_ids[-1] += sum(q.where.ids is not None for q in batch)
        return asked(self, batch, cached=cached)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(edge.EdgeBackend, "query_batch", counted)
        if old_round:
            patch.setattr(_snapshot_batch, "candidates_scored", lambda *args: None)
        config, cache = InjectionConfig(), VectorCache()
        vectors = [store.embed_query(q) for q in queries]
        chosen = []
        for warm in (True, False):
            for v in vectors:
                rounds.append(0)
                by_ids.append(0)
                injection = select_memories(store, namespace=namespace, query=v, config=config, cache=cache)
                if not warm:
                    chosen.append(([(c.memory.id, c.channel, c.score, c.reason) for c in injection.chosen],
                                   dict(injection.dropped), injection.tokens))
            if warm:
                rounds.clear()
                by_ids.clear()
    return chosen, rounds, by_ids


def _fill(store, namespace, items, queries):
    store.remember_many(items, namespace=namespace, dedup=False)
    for q in queries[:1] * 3:  # read often enough to be held whole
        select_memories(store, namespace=namespace, query=store.embed_query(q), config=InjectionConfig())
    assert store._backend._snapshots._held, "the namespace has a snapshot"


@pytest.fixture(scope="module")
def loaded(tmp_path_factory, embeddings):
    store = MemoryStore.open(tmp_path_factory.mktemp("oneround") / "s", embeddings=embeddings)
    items = [{"content": f"{n} talked about the {t} and the {THINGS[(k + 3) % len(THINGS)]} ({k})", "subjects": [n]}
             for k, (n, t) in enumerate((n, t) for n in NAMES for t in THINGS)]
    items += [{"content": "Annie is what everyone calls ann", "subjects": ["ann", "annie"], "memory_type": "identity"}]
    queries = [f"What did {n} say about the {t}?" for n in NAMES for t in THINGS[:3]] + [
        "Who plays tennis?", "Tell me about the garden and the dog", "what happened last week with bob",
        "annie and the guitar"]
    _fill(store, ("u",), items, queries)
    yield store, queries
    store.close()


def test_a_snapshot_search_scores_its_candidates_without_a_round(loaded):
    store, queries = loaded
    _, rounds, by_ids = _turns(store, ("u",), queries)
    # No query restricted to the candidates' ids: the snapshot scored them.
    assert by_ids == [0] * len(queries)
    # One round, and one more for a search that found aliases (``annie`` for ``ann``).
    assert max(rounds) == 2 and rounds.count(1) >= len(queries) - 6
    _, old_rounds, old_by_ids = _turns(store, ("u",), queries, old_round=True)
    assert all(n > 0 for n in old_by_ids) and [r + 1 for r in rounds] == old_rounds


def test_scoring_on_the_snapshot_chooses_as_the_round_did(loaded):
    store, queries = loaded
    new, _, _ = _turns(store, ("u",), queries)
    old, _, _ = _turns(store, ("u",), queries, old_round=True)
    assert new == old


words = st.sampled_from(NAMES + THINGS + ["yesterday", "last week", "annie", "coffee"])


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    items=st.lists(st.fixed_dictionaries({
        "content": st.lists(words, min_size=1, max_size=5).map(" ".join),
        "subjects": st.lists(st.sampled_from(NAMES + ["annie"]), max_size=2, unique=True),
        "memory_type": st.sampled_from(["fact", "identity", "event"]),
    }), min_size=1, max_size=40),
    queries=st.lists(st.lists(words, min_size=1, max_size=4).map(" ".join), min_size=1, max_size=4),
)
def test_any_store_and_queries_choose_as_the_round_did(tmp_path_factory, embeddings, items, queries):
    store = MemoryStore.open(tmp_path_factory.mktemp(f"any{next(_stores)}") / "s", embeddings=embeddings)
    try:
        _fill(store, ("p",), items, queries)
        new, _, by_ids = _turns(store, ("p",), queries)
        old, _, _ = _turns(store, ("p",), queries, old_round=True)
        assert new == old
        assert by_ids == [0] * len(queries)
    finally:
        store.close()
