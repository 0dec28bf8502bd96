"""A hybrid search whose lists a namespace's snapshot answered reads every candidate's
payload in its completing round (``READ_AHEAD_HELD``), where the engine's lists read them
only up to ``READ_AHEAD`` past the limit (else the boosts come from the engine's filters and
the winners from a further round). Both ways must choose the same: the same memories, in
the same order, with the same matches and reasons, the same scores (to the engine's BM25
noise)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import langgraph_memory.store._hybrid as hybrid
from langgraph_memory import MemoryStore
from langgraph_memory.agent.injection import InjectionConfig, VectorCache, select_memories
from langgraph_memory.store.records import namespace_key

USER = ("memories", "read-ahead")
WORDS = ["tea", "green", "soup", "john", "ann", "paris", "march", "yesterday", "cat", "music"]


@pytest.fixture(scope="module")
def store(tmp_path_factory, fake_embeddings):
    with MemoryStore.open(tmp_path_factory.mktemp("read-ahead") / "store", embeddings=fake_embeddings) as opened:
        opened.remember_many([
            {"content": f"{WORDS[i % 10]} {WORDS[(i * 3) % 10]} note {i}",
             "subjects": [WORDS[(i * 7) % 10]] if i % 3 else []}
            for i in range(90)], namespace=USER, dedup=False)
        for _ in range(3):  # searched often enough: read whole
            opened.search("tea", namespace=USER)
        yield opened


def _turn(store, text: str) -> tuple:
    vectors = store.embed_query(text)
    chosen = select_memories(store, namespace=USER, query=vectors, config=InjectionConfig(channels=("similar",)),
                            cache=VectorCache()).chosen
    found = store.search(vectors, namespace=USER, limit=10)
    # Scores apart: the engine's BM25 scores (which the snapshot learns) vary in the last bits.
    return ([(c.memory.id, c.channel, c.reason) for c in chosen] + [(h.memory.id, h.matched) for h in found],
            [c.score for c in chosen] + [s for h in found for s in (h.score, h.dense_score, h.sparse_score)])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=5))
def test_candidates_read_whole_from_a_snapshot_choose_what_the_engines_read_ahead_chooses(store, words):
    text = " ".join(words)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hybrid, "READ_AHEAD_HELD", hybrid.READ_AHEAD)  # the engine's bound
        before = _turn(store, text)
    chosen, scores = _turn(store, text)
    assert chosen == before[0]
    assert scores == pytest.approx(before[1], abs=1e-5)
    assert namespace_key(USER) in store._backend._snapshots._held  # the snapshot answered
