"""What the engine path reads to score a client-IDF store's BM25 list itself
(``store/backends/_bm25_local.py``): only the hits that can make the cut, and nothing of
a round that cannot settle it. Each hit read costs its sparse vector, its id and its
score in Python (~3 µs); a list comes with as many hits again past its cut (its slack).
The lists themselves must stay those a snapshot gives (``tests/test_bm25_local.py``)."""

from __future__ import annotations

import math
import uuid
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langgraph_memory.store._reads import sparse_query
from langgraph_memory.store.backends import Where
from langgraph_memory.store.backends import _bm25_local
from langgraph_memory.store.backends._bm25_local import _scored, score, weighted
from tests.test_bm25_client_idf import open_backend
from tests.test_snapshot_bm25 import _load
from tests.test_snapshot_reads import DIM


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    backend = open_backend(tmp_path_factory.mktemp("reads") / "edge", dim=DIM)
    yield backend
    backend.close()


class _Counted:
    """An engine record whose vector reads are counted."""

    def __init__(self, record, reads: list[str]) -> None:
        self._record, self._reads = record, reads

    def __getattr__(self, name: str):
        if name == "vector":
            self._reads.append(str(self._record.id))
        return getattr(self._record, name)


class _Reads(list):
    """The ids whose vectors the engine path read while scoring its lists (in order), and
    its deeper asks (``asked``: each one's arguments)."""

    asked: list[tuple]


@pytest.fixture
def reads(monkeypatch) -> _Reads:
    seen = _Reads()
    seen.asked = []
    real = _bm25_local.answered

    def counting(q, rows, weights, negative, scores_only, deeper):
        def wrap(records):
            return [_Counted(r, seen) for r in records]

        def asked(*args):
            seen.asked.append(args)
            return wrap(deeper(*args))

        return real(q, wrap(rows), weights, negative, scores_only, asked)

    monkeypatch.setattr(_bm25_local, "answered", counting)
    return seen


def _expected(engine, namespace: str, terms: list[int], limit: int) -> list[tuple[str, float]]:
    """Every point of ``namespace`` scored as one document is (:func:`score`), best first,
    equal scores by ascending id, cut at ``limit``."""
    asked = weighted(terms, engine._counts.weights(terms, [1.0] * len(terms)))
    points = [p for p in engine.scroll(Where(namespace=namespace, status=None), limit=10_000, with_vectors=True)[0]]
    scored = [(p.id, s) for p in points if p.sparse for s in [score(p.sparse, asked)] if s is not None]
    return sorted(scored, key=lambda e: (-e[1], e[0]))[:limit]


def _engine_path(engine, namespace: str, terms: list[int], limit: int) -> list[tuple[str, float]]:
    [hits] = engine.query_batch([sparse_query(terms, [1.0] * len(terms), Where(namespace=namespace), limit, False)])
    return [(h.point.id, h.score) for h in hits]


def test_only_the_hits_that_can_make_the_cut_are_read(engine, reads):
    namespace = f"cut-{uuid.uuid4().hex[:8]}"
    _load(engine, namespace, [({"status": "live"}, {1: 1.0 + i / 64}) for i in range(60)])
    got = _engine_path(engine, namespace, [1], 5)
    assert got == _expected(engine, namespace, [1], 5)
    # The engine gave 13 hits (5 and their slack); its scores are far apart: 5 can make it.
    assert len(reads) == 5 and set(reads) == {pid for pid, _ in got}


def test_a_round_that_cannot_settle_reads_nothing(engine, reads):
    namespace = f"tie-{uuid.uuid4().hex[:8]}"
    _load(engine, namespace, [({"status": "live"}, {1: 1.0})] * 40 + [({"status": "live"}, {2: 1.0})] * 10)
    got = _engine_path(engine, namespace, [1], 3)
    assert got == _expected(engine, namespace, [1], 3)
    # 11 tied hits, then 22, then all 40 (fewer than asked: whole): only the last is read.
    assert len(reads) == 40
    # Rounds that cannot settle are asked bare (ids and scores); the whole one again with vectors.
    assert reads.asked == [(22, True), (44, True), (44, False)]


def test_with_a_negative_value_only_the_whole_list_is_read(tmp_path, reads):
    engine = open_backend(tmp_path / "edge", dim=DIM)  # a negative value anywhere: no margin for the shard
    namespace = "neg"
    _load(engine, namespace, [({"status": "live"}, {1: 1.0 + i / 64}) for i in range(30)]
          + [({"status": "live"}, {1: -1.0})])
    assert engine._counts.negative
    try:
        got = _engine_path(engine, namespace, [1], 3)
        assert got == _expected(engine, namespace, [1], 3)
        assert len(reads) == 31  # no margin: 11 hits, then 22, then all 31 (whole): the last is read
        assert reads.asked == [(22, True), (44, True), (44, False)]
    finally:
        engine.close()


# float32 values, as the engine stores them: subnormal, huge, and a product past float32's range
_EDGES = [float(np.float32(v)) for v in (0.0, -0.0, 1.3435114, 3e38, 1e-45)]
values = st.one_of(st.floats(width=32), st.sampled_from(_EDGES))
vectors = st.lists(st.tuples(st.integers(0, 6), values), max_size=8)


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


@settings(max_examples=300, deadline=None)
@given(docs=st.lists(st.one_of(st.none(), vectors), max_size=12),
       terms=st.lists(st.integers(0, 7), min_size=1, max_size=5),
       weights=st.lists(values, min_size=5, max_size=5))
def test_a_list_is_scored_as_each_document_alone(docs, terms, weights):
    """Any values (-0.0, inf, nan, past float32's range once multiplied), repeated terms in
    a document (its last value) or in the query: each score to the bit as :func:`score`."""
    weights = weights[: len(terms)]
    rows = [SimpleNamespace(id=uuid.UUID(int=i), vector=None if d is None else {
        "bm25": SimpleNamespace(indices=[t for t, _ in d], values=[v for _, v in d])}) for i, d in enumerate(docs)]
    with np.errstate(all="ignore"):
        got = {pid: s for s, pid, _ in _scored(rows, terms, weights)}
        asked = weighted(terms, weights)
        expected = {str(r.id): s for r, d in zip(rows, docs) if d is not None
                    for s in [score(([t for t, _ in d], [v for _, v in d]), asked)] if s is not None}
    assert got.keys() == expected.keys()
    assert all(_same(got[k], expected[k]) for k in got)
