"""BM25 scored by us on a client-IDF store (``store/backends/_bm25_local.py``).

A snapshot scores its rows itself (no engine call); the engine path (no snapshot) scores
the engine's candidates with the same function. For any documents, filter, query and
writes, both paths must give the same list: the same points, the same float32 scores,
equal scores by ascending id. And those scores are the engine's products: within an ulp
of the engine's own sums.
"""

from __future__ import annotations

import uuid

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store._reads import sparse_query
from langgraph_memory.store.backends import DenseQuery, SparseQuery, StoredPoint, Where
from langgraph_memory.store.backends._base import ExactHits
from langgraph_memory.store.backends._bm25_local import Postings, order_margin, score, weighted
from tests.test_bm25_client_idf import open_backend
from tests.test_snapshot_bm25 import _load
from tests.test_snapshot_reads import DIM, payloads, wheres

VOCAB = list(range(1, 9))  # few terms and few weights: shared terms and equal scores on purpose
documents = st.dictionaries(st.sampled_from(VOCAB), st.sampled_from([0.5, 1.0, 1.25, 1.3435114]), max_size=4)
queries = st.lists(st.sampled_from(VOCAB + [99]), min_size=1, max_size=5, unique=True)


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    backend = open_backend(tmp_path_factory.mktemp("local") / "edge", dim=DIM)
    assert backend._counts is not None and backend._snapshots.local_bm25
    yield backend
    backend.close()


def _held(engine, namespace: str):
    """The namespace's snapshot, read whole by searching it as a conversation does."""
    for _ in range(3):
        engine.query_batch([DenseQuery([1.0] * DIM, Where(namespace=namespace, alive_at=0.0), 3)], cached=True)
    return engine._snapshots._held[namespace]


def _raw(engine, terms, weights, where) -> dict[str, float]:
    """The engine's own scores (its sums) of every point the query matches."""
    query = SparseQuery(terms, weights, where, 10_000, payload=False)
    [(ids, scores)] = engine._one_round([query], frozenset([id(query)]))
    return {str(i): s for i, s in zip(ids, scores)}


def _both(engine, query: SparseQuery) -> tuple[list, list]:
    """The list through the snapshot (cached) and through the engine (not cached)."""
    [local] = engine.query_batch([query], cached=True)
    [remote] = engine.query_batch([query])
    return [(h.point.id, h.score) for h in local], [(h.point.id, h.score) for h in remote]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(payloads, documents), min_size=1, max_size=40), other=st.lists(documents, max_size=5),
       where=wheres, terms=queries, limit=st.integers(1, 30), ids=st.booleans())
def test_the_snapshot_and_the_engine_path_give_the_same_lists(engine, rows, other, where, terms, limit, ids):
    namespace = f"bm25-{uuid.uuid4().hex[:8]}"
    _load(engine, namespace, rows)
    _load(engine, f"{namespace}-other", [({"status": "live"}, t) for t in other])  # the IDF counts these too
    snapshot = _held(engine, namespace)
    where = Where(**{**where.__dict__, "namespace": namespace})
    if ids:  # a later round of a hybrid search: restricted to given candidates
        where = Where(**{**where.__dict__, "ids": tuple(snapshot.ids[::2])})
    weights = [1.0 + (t % 3) / 4 for t in terms]
    query = sparse_query(terms, weights, where, limit, payload=False)
    local, remote = _both(engine, query)
    assert local == remote
    assert len(local) <= limit and [s for _, s in local] == sorted((s for _, s in local), reverse=True)
    # Points the engine's own list holds, each scored within an ulp of the engine's sum.
    raw = _raw(engine, terms, weights, where)
    for pid, s in local:
        assert abs(np.float32(s) - np.float32(raw[pid])) <= np.spacing(np.float32(s))


def test_a_snapshot_scores_bm25_without_the_engine(engine, monkeypatch):
    namespace = f"bm25-{uuid.uuid4().hex[:8]}"
    _load(engine, namespace, [({"status": "live"}, {1: 1.0, 2: 0.5}), ({"status": "live"}, {2: 1.25})])
    _held(engine, namespace)
    monkeypatch.setattr(engine, "_engine_batch", lambda *a, **k: pytest.fail("the engine was asked"))
    [hits] = engine.query_batch([sparse_query([2, 1], [1.0, 1.0], Where(namespace=namespace), 5, False)],
                                cached=True)
    assert type(hits) is ExactHits and len(hits) == 2


def test_scores_are_the_engines_products_and_agree_after_writes(engine):
    namespace = f"bm25-{uuid.uuid4().hex[:8]}"
    ids = _load(engine, namespace, [({"status": "live"}, {t: 1.0 + t / 8, t + 1: 1.25}) for t in range(1, 8)] * 3)
    snapshot = _held(engine, namespace)
    query = sparse_query([1, 2, 3, 4], [1.0] * 4, Where(namespace=namespace, status=None), 10, False)
    before, remote = _both(engine, query)
    assert before == remote
    weights = engine._counts.weights([1, 2, 3, 4], [1.0] * 4)
    engine_scores = _raw(engine, [1, 2, 3, 4], [1.0] * 4, Where(namespace=namespace, status=None))
    for pid, s in before:  # an ulp at most from the engine's own sum of the same products
        assert abs(np.float32(s) - np.float32(engine_scores[pid])) <= np.spacing(np.float32(s))
    assert weights == engine._counts.weights([1, 2, 3, 4], [1.0] * 4)
    # A write elsewhere in the shard changes the IDF: the next turn's lists follow, on both paths.
    _load(engine, f"{namespace}-more", [({"status": "live"}, {1: 1.0})] * 5)
    engine.delete(ids[:4])
    after, remote = _both(engine, query)
    assert after == remote and after != before
    assert engine._snapshots._held[namespace] is not snapshot
    # A point of the namespace rewritten with other terms: the snapshot re-reads its row (vectors and all).
    [point] = engine.retrieve([ids[5]], with_vectors=True)
    engine.upsert([StoredPoint(point.id, point.payload, point.dense, ([1, 2, 3, 4], [2.0, 2.0, 2.0, 2.0]))])
    rewritten, remote = _both(engine, query)
    assert rewritten == remote and rewritten[0][0] == point.id
    assert engine._snapshots._held[namespace].sparse[engine._snapshots._held[namespace].row[point.id]] == (
        [1, 2, 3, 4], [2.0, 2.0, 2.0, 2.0])


@settings(max_examples=200, deadline=None)
@given(docs=st.lists(documents, min_size=1, max_size=30), terms=queries,
       weights=st.lists(st.floats(0.0, 10.0, width=32, exclude_min=True), min_size=5, max_size=5))
def test_postings_score_each_row_as_one_document_is_scored(docs, terms, weights):
    weights = [float(np.float32(w)) for w in weights[: len(terms)]]
    vectors = [(list(d), list(d.values())) if d else None for d in docs]
    every = Postings(vectors).scores(terms, weights)
    for vector, s in zip(vectors, every):
        one = None if vector is None else score(vector, weighted(terms, weights))
        assert (one is None and np.isnan(s)) or one == s


def test_the_order_margin_covers_any_summation_order():
    rng = np.random.default_rng(7)
    for _ in range(2_000):
        k = int(rng.integers(1, 12))
        parts = rng.uniform(0.0001, 5, size=k).astype(np.float32)
        sums = []
        for _ in range(6):
            total = np.float32(0)
            for p in rng.permutation(parts):
                total = np.float32(total + p)
            sums.append(float(total))
        assert max(sums) - min(sums) <= order_margin(min(sums), k)
