"""BM25 lists of a snapshot (``store/backends/_snapshot.py``): the engine scores the whole
namespace once per query vector (its IDF counts the whole shard), the snapshot filters and
cuts every list from those scores. For any payloads, documents, filter and query the lists
must be the engine's: the same points, the same scores, ties by ascending id as
``_reads.ranked`` orders them; and a write anywhere in the shard (it changes the IDF) must
be seen by the next turn.
"""

from __future__ import annotations

import uuid

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import MemoryStore
from langgraph_memory.store._reads import live_where
from langgraph_memory.store.backends import SparseQuery, StoredPoint, Where
from langgraph_memory.store.backends._snapshot import Snapshot
from langgraph_memory.store.records import namespace_key
from tests.test_snapshot_reads import DIM, absent, payloads, wheres
from tests.test_bm25_client_idf import open_backend


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    """A store made before client IDF: its snapshots learn the engine's BM25 scores
    (a client-IDF store's score themselves: ``tests/test_bm25_local.py``)."""
    backend = open_backend(tmp_path_factory.mktemp("snapshots") / "edge", old=True, dim=DIM)
    yield backend
    backend.close()

VOCAB = list(range(1, 9))  # few terms and few weights: shared terms and equal scores on purpose
documents = st.dictionaries(st.sampled_from(VOCAB), st.sampled_from([0.5, 1.0, 1.25]), max_size=4)
queries = st.lists(st.sampled_from(VOCAB + [99]), min_size=1, max_size=4, unique=True).map(sorted)


def _load(engine, namespace: str, rows: list[tuple[dict, dict[int, float]]]) -> list[str]:
    rng = np.random.default_rng(len(rows))
    points = []
    for payload, terms in rows:
        payload = {k: v for k, v in payload.items() if v is not absent}
        vector = rng.normal(size=DIM)
        points.append(StoredPoint(str(uuid.uuid4()), {**payload, "namespace": namespace, "content": "x"},
                                  (vector / np.linalg.norm(vector)).tolist(),
                                  (sorted(terms), [terms[t] for t in sorted(terms)]) if terms else None))
    engine.upsert(points)
    return [p.id for p in points]


def _engine_list(engine, query: SparseQuery) -> list[tuple[str, float]]:
    """The engine's list as ``ranked`` settles it: every hit, by score then id, cut."""
    import dataclasses

    [hits] = engine.query_batch([dataclasses.replace(query, limit=10_000)])
    return sorted(((h.point.id, h.score) for h in hits), key=lambda p: (-p[1], p[0]))[: query.limit]


def _snapshot_list(engine, snapshot: Snapshot, query: SparseQuery) -> list[tuple[str, float]] | None:
    """The snapshot's list, ``None`` when the scores it learnt do not settle it."""
    if not snapshot.bm25_known(query):
        asked = snapshot.bm25_query(query)
        [wide] = engine.query_batch([asked])
        snapshot.learn_bm25(asked, wide)
    hits = snapshot.answer(query, {})
    return None if hits is None else [(h.point.id, h.score) for h in hits]


@pytest.fixture
def depth():
    """Sets how deep the namespace-wide BM25 query reads (a shallow one leaves lists unsettled)."""
    from langgraph_memory.store.backends import _snapshot

    default = _snapshot.BM25_DEPTH
    yield lambda n: setattr(_snapshot, "BM25_DEPTH", n)
    _snapshot.BM25_DEPTH = default


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=st.lists(st.tuples(payloads, documents), min_size=1, max_size=25), other=st.lists(documents, max_size=5),
       where=wheres, terms=queries, limit=st.integers(1, 30), ids=st.booleans(), deep=st.sampled_from([1, 4, 128]))
def test_a_snapshots_bm25_lists_are_the_engines(engine, depth, rows, other, where, terms, limit, ids, deep):
    depth(deep)
    namespace = f"bm25-{uuid.uuid4().hex[:8]}"
    _load(engine, namespace, rows)
    _load(engine, f"{namespace}-other", [({"status": "live"}, t) for t in other])  # the IDF counts these too
    snapshot = Snapshot.of(namespace, 0, engine._read_namespace(namespace, 1000) or [], DIM)
    where = Where(**{**where.__dict__, "namespace": namespace})
    if ids:  # a later round of a hybrid search: restricted to given candidates
        where = Where(**{**where.__dict__, "ids": tuple(snapshot.ids[::2])})
    query = SparseQuery(terms, [1.0] * len(terms), where, limit, payload=False)
    mine = _snapshot_list(engine, snapshot, query)
    # A namespace larger than the depth read: a list the best scores do not settle is the engine's.
    assert mine == _engine_list(engine, query) if mine is not None else len(rows) > deep
    # Another list of the same query vector (another filter) reuses the scores: no new engine query.
    wider = SparseQuery(terms, [1.0] * len(terms), Where(namespace=namespace, status=None), limit, payload=False)
    assert snapshot.bm25_known(wider)
    mine = _snapshot_list(engine, snapshot, wider)
    assert mine == _engine_list(engine, wider) if mine is not None else len(rows) > deep


def test_the_best_scores_of_a_large_namespace_settle_its_top_lists(engine, depth):
    depth(3)
    namespace = f"bm25-{uuid.uuid4().hex[:8]}"
    _load(engine, namespace, [({"status": "live"}, {1: w}) for w in (0.25, 0.5, 0.75, 1.0, 1.25, 1.5)])
    snapshot = Snapshot.of(namespace, 0, engine._read_namespace(namespace, 10) or [], DIM)
    top2 = SparseQuery([1], [1.0], Where(namespace=namespace), 2, payload=False)
    top3 = SparseQuery([1], [1.0], Where(namespace=namespace), 3, payload=False)
    assert _snapshot_list(engine, snapshot, top2) == _engine_list(engine, top2)
    assert _snapshot_list(engine, snapshot, top3) is None  # the third best is the cut: others may tie with it


def test_bm25_hits_carry_payloads_and_vectors_as_asked(engine):
    namespace = f"bm25-{uuid.uuid4().hex[:8]}"
    _load(engine, namespace, [({"status": "live", "subjects": ["ann"]}, {1: 1.0}), ({"status": "live"}, {2: 1.0})])
    snapshot = Snapshot.of(namespace, 0, engine._read_namespace(namespace, 10) or [], DIM)
    query = SparseQuery([1], [1.0], Where(namespace=namespace), 5, with_vectors=True, payload=("subjects",))
    [wide] = engine.query_batch([snapshot.bm25_query(query)])
    snapshot.learn_bm25(query, wide)
    [hit] = snapshot.answer(query, {})
    [engine_hit] = engine.query_batch([query])[0]
    assert hit.point.id == engine_hit.point.id and hit.score == engine_hit.score
    assert hit.point.payload == {"subjects": ["ann"]}
    assert np.allclose(hit.point.dense, engine_hit.point.dense, atol=1e-6)


# -- through the store: cached BM25 lists follow every write of the shard ----------------------

USER = ("memories", "bm25-user")


def _lists(store, text: str, namespace=USER, cached: bool = True) -> list[list[tuple[str, float]]]:
    vectors = store.embed_query(text)
    where = live_where(namespace)
    queries = [SparseQuery(*vectors.sparse, where, 10, payload=False),
               SparseQuery(*vectors.sparse, Where(namespace=where.namespace, status=None, subjects=("tea",)), 10,
                           payload=False)]
    out = []
    for hits in store._backend.query_batch(queries, cached=cached):
        out.append(sorted(((h.point.id, h.score) for h in hits), key=lambda p: (-p[1], p[0])))
    return out


@pytest.mark.parametrize("deep", [2, 128])
def test_cached_bm25_lists_see_writes_anywhere_in_the_shard(tmp_path, fake_embeddings, depth, deep):
    depth(deep)  # 2: most lists are settled by the engine, in a second call
    with MemoryStore.open(tmp_path / "store", embeddings=fake_embeddings) as store:
        store.remember_many([{"content": f"green tea number {i}", "subjects": ["tea"] if i % 2 else []}
                             for i in range(6)] + [{"content": "black coffee"}], namespace=USER, dedup=False)
        key = namespace_key(USER)
        for _ in range(2):
            store.search("green tea", namespace=USER)  # not the pre-hook: no snapshot
            _lists(store, "green tea")
        dense = store.embed_query("green tea").dense
        from langgraph_memory.store.backends import DenseQuery

        for _ in range(2):  # a search's first round counts towards reading the namespace whole
            store._backend.query_batch([DenseQuery(dense, live_where(USER), 5, payload=False)], cached=True)
        assert key in store._backend._snapshots._held
        assert _lists(store, "green tea") == _lists(store, "green tea", cached=False)
        # Another namespace gains many documents with "green": the word's IDF drops everywhere.
        store.remember_many([{"content": f"green apple {i}"} for i in range(20)], namespace=("memories", "else"),
                            dedup=False)
        before = _lists(store, "green tea", cached=False)
        assert _lists(store, "green tea") == before
        # A memory of this namespace changes (soft-deleted) and another one arrives.
        victim = before[0][0][0]
        store.delete(victim, namespace=USER, reason="test")
        store.remember("green tea again", namespace=USER, dedup=False)
        after = _lists(store, "green tea", cached=False)
        assert victim not in {i for i, _ in after[0]}
        assert _lists(store, "green tea") == after
