"""The pre-hook's floor applied inside a hybrid search gives what it gave after it (issue 29).

A hybrid search given ``keep`` (the pre-hook's floors) leaves out, unbuilt, the winners it
refuses that no link brought back, and counts them: the kept hits, in their order, and the
count must be exactly what filtering the plain search's hits afterwards gives, with links
followed or not, on both engines.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store._search import Found, search_filters, search_plan

NS = ("floor", "u")
WORDS = ["tom", "lyon", "bakery", "job", "cat", "paris", "moved", "sister"]
TEXTS = [
    "Tom moved to Lyon in May", "Tom started a job at the bakery", "the cat sleeps in Paris",
    "my sister moved to Paris", "the bakery job pays well", "Lyon is rainy", "Tom's cat is old",
    "I like bread from the bakery", "Paris in spring", "my sister has a cat", "a job in Lyon",
    "nothing about anything",
]


@pytest.fixture(scope="module")
def linked(fake_stores):
    """Each engine's store with memories, some tagged, many linked to each other."""
    for store in fake_stores.values():
        ids = [store.remember(t, namespace=NS, subjects=["tom"] if "Tom" in t else [], dedup=False).memory.id
               for t in TEXTS]
        for a, b in [(0, 1), (0, 5), (1, 4), (2, 6), (3, 8), (3, 9), (7, 4), (10, 5), (11, 2)]:
            store.link(ids[a], ids[b], "related_to", namespace=NS)
        for _ in range(3):  # searched enough for Edge to serve it from its snapshot: one scorer throughout
            store._read(search_plan(store.sparse_embeddings, store.embed_query("tom"), search_filters(NS), 5,
                                    "hybrid", False), cached=True)
    return fake_stores


def _hits(hits):
    return [(h.memory.id, h.score, h.dense_score, h.sparse_score, h.matched, h.via) for h in hits]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4), limit=st.integers(1, 8),
       links=st.booleans(), min_cosine=st.sampled_from([-1.0, 0.0, 0.05, 0.15, 2.0]),
       min_bm25=st.sampled_from([None, 0.0, 0.5, 2.0]), bm25_cosine=st.sampled_from([-1.0, 0.0, 0.1]),
       engine=st.sampled_from(["edge", "qdrant"]))
def test_a_search_kept_by_the_floor_is_the_plain_search_filtered(linked, words, limit, links, min_cosine, min_bm25,
                                                                 bm25_cosine, engine):
    store = linked[engine]
    vectors = store.embed_query(" ".join(words))

    def keep(dense, sparse, matched):
        return ((dense is not None and dense >= min_cosine)
                or (min_bm25 is not None and sparse is not None and sparse >= min_bm25 and (dense or 0.0) >= bm25_cosine)
                or matched)

    def run(**kw):
        [hits] = store._read(search_plan(store.sparse_embeddings, vectors, search_filters(NS), limit, "hybrid",
                                         False, links, **kw), cached=True)
        return hits

    plain = run()
    wanted = [h for h in plain if h.via is not None or keep(h.dense_score, h.sparse_score, bool(h.matched))]
    kept = run(keep=keep)
    assert type(kept) is Found
    assert _hits(kept) == _hits(wanted)
    assert kept.left_out == len(plain) - len(wanted)
