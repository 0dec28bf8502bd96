"""A hybrid search a namespace snapshot answers reads every candidate's payload with its
scores (issue 29): no round after the fusion to read the winners, however many candidates
its lists gave, and the same winners as when they are read after the fusion.

On the engine a payload read costs ~3-6 µs a point, so a search reads the candidates whole
only up to ``limit + READ_AHEAD`` of them; on a snapshot the points are in memory.
"""

from __future__ import annotations

import pytest

from langgraph_memory import MemoryStore
from langgraph_memory.agent.injection import InjectionConfig, VectorCache, select_memories
from langgraph_memory.store import _hybrid
from langgraph_memory.store.backends import edge

pytestmark = pytest.mark.integration

NAMES = ["ann", "bob", "carla", "dev", "eli"]
THINGS = ["guitar", "garden", "paris trip", "new job", "sister", "tennis", "painting", "dog", "coffee", "piano"]
QUESTIONS = [f"What did {n} say about the {t}?" for n in NAMES for t in THINGS[:4]] + [
    "Who plays tennis and the piano?", "Tell me about the garden and the dog", "ann bob carla coffee"]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory, embeddings):
    store = MemoryStore.open(tmp_path_factory.mktemp("whole") / "s", embeddings=embeddings)
    items = [{"content": f"{n} talked about the {t} and the {THINGS[(k + 3) % len(THINGS)]} ({k})", "subjects": [n]}
             for k, (n, t) in enumerate((n, t) for n in NAMES for t in THINGS)]
    items += [{"content": f"{n} likes the {t} a lot", "subjects": [n, NAMES[(i + 1) % len(NAMES)]]}
              for i, n in enumerate(NAMES) for t in THINGS[::3]]
    store.remember_many(items, namespace=("u",), dedup=False)
    vectors = [store.embed_query(q) for q in QUESTIONS]
    for v in vectors * 2:  # read often enough to be held whole
        select_memories(store, namespace=("u",), query=v, config=InjectionConfig())
    assert store._backend._snapshots._held, "the namespace has a snapshot"
    yield store, vectors
    store.close()


def _turns(store, vectors, monkeypatch):
    """Each question's choices, and the rounds (``query_batch`` calls) each took, the cache
    warm (no vector to read)."""
    rounds: list[int] = []
    asked = edge.EdgeBackend.query_batch

    def counted(self, queries, *, cached=False):
        rounds[-1] += 1
        return asked(self, queries, cached=cached)

    monkeypatch.setattr(edge.EdgeBackend, "query_batch", counted)
    config, cache = InjectionConfig(), VectorCache()
    for v in vectors:  # warm the vector cache: no round for a winner's vector below
        rounds.append(0)
        select_memories(store, namespace=("u",), query=v, config=config, cache=cache)
    rounds.clear()
    chosen = []
    for v in vectors:
        rounds.append(0)
        injection = select_memories(store, namespace=("u",), query=v, config=config, cache=cache)
        chosen.append(([(c.memory.id, c.channel, c.score, c.reason) for c in injection.chosen],
                       dict(injection.dropped), injection.tokens))
    monkeypatch.undo()
    return chosen, rounds


def test_a_snapshot_search_needs_no_round_after_its_fusion(loaded, monkeypatch):
    store, vectors = loaded
    many = []
    complete = _hybrid._complete

    def seen(dense_vector, bm25_query, where, dense, sparse, *rest):
        many.append(len({h.point.id for h in dense} | {h.point.id for h in sparse}))
        return (yield from complete(dense_vector, bm25_query, where, dense, sparse, *rest))

    monkeypatch.setattr(_hybrid, "_complete", seen)
    _, rounds = _turns(store, vectors, monkeypatch)
    limit = InjectionConfig().similar_limit
    assert max(many) > limit + _hybrid.READ_AHEAD, "some searches had more candidates than the engine reads whole"
    # The first round (every list); the candidates scored on the snapshot
    # (tests/test_snapshot_one_round.py): no round after it.
    assert max(rounds) == 1


def test_reading_candidates_whole_chooses_as_reading_winners_after(loaded, monkeypatch):
    store, vectors = loaded
    whole, _ = _turns(store, vectors, monkeypatch)
    monkeypatch.setattr(_hybrid, "SNAPSHOT_READ_AHEAD", 0)  # the winners read after the fusion
    after, rounds = _turns(store, vectors, monkeypatch)
    assert max(rounds) == 3
    assert whole == after
