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
from langgraph_memory.store.backends import SparseQuery, Where
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
    # The first deeper round with vectors (read: no, it cannot settle), the next one bare (ids
    # and scores), the whole one again with vectors.
    assert reads.asked == [(22, False), (44, True), (44, False)]


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
        assert reads.asked == [(22, False), (44, True), (44, False)]
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


_STORED = [float(np.float32(v)) for v in (0.5, 1.0, 1.25, 1.3435114, 3.1e-3, 7e3)]  # float32, as stored


def _engine_sum(products: list[np.float32], order: list[int]) -> float:
    total = np.float32(0)
    for i in order:
        if i < len(products):
            total = np.float32(total + products[i])
    return float(total)


# Near-ties on purpose: documents holding the same values on terms in another order (the
# same exact sum, float32 sums an ulp apart), and others at random.
_sums = st.lists(st.sampled_from(_STORED), min_size=2, max_size=5)


@st.composite
def _documents(draw) -> list[dict[int, float]]:
    same = draw(_sums)
    shuffled = [dict(zip(draw(st.permutations(range(1, 6))), same)) for _ in range(draw(st.integers(0, 40)))]
    other = draw(st.lists(st.dictionaries(st.integers(1, 5), st.sampled_from(_STORED), min_size=1, max_size=5),
                          max_size=30))
    return draw(st.permutations(shuffled + other))


@settings(max_examples=400, deadline=None)
@given(docs=_documents(), terms=st.permutations(range(1, 6)).map(list), limit=st.integers(1, 12),
       slack=st.integers(0, 12), seed=st.randoms())
def test_the_cut_is_the_best_by_our_scores_whatever_order_the_engine_adds_in(docs, terms, limit, slack, seed):
    """An engine that adds the same products in an order of its own (per document), so its
    scores are an ulp or so from ours and its order differs within ties and near-ties: the
    list is still the best ``limit`` by our scores, equal ones by ascending id."""
    weights = [float(np.float32(1.0 + t / 7)) for t in terms]
    asked = weighted(terms, weights)
    rows = []
    for i, d in enumerate(docs):
        held = [t for t in terms if t in d]
        if not held:
            continue
        products = [np.float32(np.float32(weights[terms.index(t)]) * np.float32(d[t])) for t in held]
        order = list(range(len(products)))
        seed.shuffle(order)
        vector = SimpleNamespace(indices=list(d), values=list(d.values()))
        rows.append(SimpleNamespace(id=uuid.UUID(int=seed.getrandbits(128)), score=_engine_sum(products, order),
                                    vector={"bm25": vector}, payload={}))
    by_engine = sorted(rows, key=lambda r: (-r.score, seed.random()))  # its ties in no order of ours

    def deeper(asked_for: int, bare: bool = False) -> list:
        return [SimpleNamespace(id=r.id, score=r.score, vector=None, payload={}) if bare else r
                for r in by_engine[:asked_for]]

    query = SparseQuery(terms, [1.0] * len(terms), Where(namespace="n"), limit + slack, payload=False,
                        exact_limit=limit)
    got = [(h.point.id, h.score) for h in _bm25_local.settled(query, deeper(limit + slack), weights, True, deeper)]
    expected = sorted(((str(r.id), score((r.vector["bm25"].indices, r.vector["bm25"].values), asked)) for r in rows),
                      key=lambda e: (-e[1], e[0]))[:limit]
    assert got == expected
