"""Dense queries on big namespaces in two steps (``store/backends/_two_step.py``).

Nearest by the tenant key alone, then the whole filter on those candidates, then (when
that cannot be proven whole) the query as it was: for any mix of live, superseded,
archived, forgotten and expired points, any filter and any limit, the answer must be
exactly the engine's answer to the query alone: the same points, order, scores and
payloads. Checked against both engines (Qdrant Edge, qdrant-client's local mode).
"""

from __future__ import annotations

import itertools
import uuid

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from qdrant_client import QdrantClient

from langgraph_memory.store.backends import DenseQuery, FetchQuery, StoredPoint, Where
from langgraph_memory.store.backends import _two_step
from langgraph_memory.store.backends._two_step import batch_in_two_steps, candidates, eligible
from langgraph_memory.store.backends.edge import EdgeBackend
from langgraph_memory.store.backends.qdrant import QdrantClientBackend

DIM = 4
NOW = 100.0
_names = itertools.count()


@pytest.fixture(scope="module", params=["edge", "qdrant"])
def engine(request, tmp_path_factory):
    if request.param == "edge":
        backend = EdgeBackend(tmp_path_factory.mktemp("two-step") / "edge")
    else:
        backend = QdrantClientBackend(QdrantClient(":memory:"))
    backend.setup(dim=DIM, meta={"embedder": "test"})
    yield backend
    backend.close()


def one_round(engine):
    """The engine's own answer to a batch, in one round trip, with no two-step reads."""
    return engine._one_round if isinstance(engine, EdgeBackend) else engine.query_batch


absent = object()
# Few distinct small vectors: many equal scores, so ties meet the candidate cut on purpose.
vectors = st.lists(st.sampled_from([0.0, 1.0, 2.0]), min_size=DIM, max_size=DIM).filter(any)
payloads = st.fixed_dictionaries({
    "status": st.sampled_from(["live", "live", "superseded", "archived", "forgotten"]),
    "kind": st.sampled_from(["fact", "self"]),
    "subjects": st.lists(st.sampled_from(["ann", "bob"]), max_size=2, unique=True),
    "importance": st.sampled_from([0.3, 0.6, 1.0]),
    "expires_at": st.sampled_from([absent, None, 50.0, 150.0]),  # 50: expired at NOW
    "channel": st.sampled_from([absent, "c1", "c2"]),
})
maybe = lambda s: st.none() | s  # noqa: E731
wheres = st.builds(
    Where,
    status=st.sampled_from(["live", None, ("live", "archived")]),
    alive_at=st.sampled_from([NOW, None]),
    kinds=maybe(st.sampled_from([("fact",), ("self",)])),
    subjects=maybe(st.sampled_from([("ann",), ("bob",), ("ann", "bob")])),
    min_importance=maybe(st.sampled_from([0.5, 1.0])),
    expired_at=maybe(st.just(NOW)),
    channel_scope=maybe(st.sampled_from(["c1", "c2"])),
)


def _load(engine, points: list[tuple[dict, list[float]]]) -> str:
    """``points`` written into a namespace of their own, and one point into another."""
    namespace = f"ns-{next(_names)}"
    stored = [
        StoredPoint(str(uuid.uuid4()), {**{k: v for k, v in p.items() if v is not absent}, "namespace": namespace,
                                        "content": "x"}, vector)
        for p, vector in points
    ]
    other = StoredPoint(str(uuid.uuid4()), {"namespace": "other", "status": "live", "content": "y"}, [1.0] * DIM)
    engine.upsert([*stored, other])
    return namespace


def _as_rows(hits):
    return [(h.point.id, h.point.payload) for h in hits]


def _same(split, alone, engine):
    """The same points and payloads in the same order, and the same scores and vectors: to
    the bit on Qdrant Edge. qdrant-client's local mode computes in numpy, whose last bits
    vary between two calls of the same query (seen: the same query twice ordered equal
    scores differently): there, the same scores and vectors to 1e-6, and the same points
    wherever no other hit, nor the cut, scores within 1e-6 (it does not take two steps itself)."""
    exact = isinstance(engine, EdgeBackend)
    assert len(split) == len(alone)
    scores, expected = [h.score for h in split], [h.score for h in alone]
    assert scores == (expected if exact else pytest.approx(expected, abs=1e-6))
    if exact:
        assert _as_rows(split) == _as_rows(alone)
    else:
        def clear(i):
            near = [o for j, o in enumerate(expected) if j != i] + expected[-1:]
            return all(abs(expected[i] - o) > 1e-6 for o in near)
        assert [r for i, r in enumerate(_as_rows(split)) if clear(i)] == [
            r for i, r in enumerate(_as_rows(alone)) if clear(i)]
    for got, wanted in zip(split, alone):
        if exact or abs(wanted.score - got.score) <= 1e-6 and got.point.id == wanted.point.id:
            dense, other = got.point.dense, wanted.point.dense
            assert (dense is None) == (other is None)
            if dense is not None:
                assert list(dense) == (list(other) if exact else pytest.approx(list(other), abs=1e-6))


class Counted:
    """``run`` that counts its round trips."""

    def __init__(self, run):
        self.run, self.calls = run, 0

    def __call__(self, queries):
        self.calls += 1
        return self.run(queries)


# No "explain" phase: it traces every line the engine runs, for minutes on local mode.
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture],
          phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink])
@given(
    points=st.lists(st.tuples(payloads, vectors), min_size=0, max_size=60),
    where=wheres,
    limit=st.integers(1, 25),
    query=vectors,
    payload=st.sampled_from([False, True, ("status", "kind")]),
    with_vectors=st.booleans(),
    min_score=st.sampled_from([None, 0.5, 0.9]),
)
def test_two_steps_answer_exactly_what_the_query_alone_answers(
    engine, points, where, limit, query, payload, with_vectors, min_score,
):
    namespace = _load(engine, points)
    try:
        where = Where(**{**where.__dict__, "namespace": namespace})
        q = DenseQuery(query, where, limit, with_vectors=with_vectors, payload=payload, min_score=min_score)
        run = one_round(engine)
        [alone] = run([q])
        # Every namespace counts as big here, so every eligible query takes the two steps.
        [split] = batch_in_two_steps([q], run, lambda ns: 10**9)
        _same(split, alone, engine)
    finally:  # local mode scans every point of the collection: keep it small
        engine.delete_where(Where(namespace=namespace, status=None))
        engine.delete_where(Where(namespace="other", status=None))


def test_too_few_live_among_the_candidates_falls_back_to_the_query_alone(engine):
    # The nearest points are superseded: the live ones are all outside the candidates.
    near = [({"status": "superseded"}, [1.0, 0.0, 0.0, 0.0])] * candidates(3)
    far = [({"status": "live"}, [0.0, 1.0, float(i), 0.0]) for i in range(5)]
    namespace = _load(engine, near + far)
    q = DenseQuery([1.0, 0.0, 0.0, 0.0], Where(namespace=namespace), 3, payload=False)
    run = Counted(one_round(engine))
    [split] = batch_in_two_steps([q], run, lambda ns: 10**9)
    assert run.calls == 3  # candidates, narrowed, then the query alone
    assert len(split) == 3
    _same(split, one_round(engine)([q])[0], engine)


def test_a_whole_answer_among_the_candidates_takes_two_round_trips(engine):
    points = [({"status": "live", "expires_at": None}, [1.0, 0.1 * i, 0.0, 0.0]) for i in range(candidates(2) + 5)]
    namespace = _load(engine, points)
    q = DenseQuery([1.0, 0.0, 0.0, 0.0], Where(namespace=namespace, alive_at=NOW), 2)
    run = Counted(one_round(engine))
    [split] = batch_in_two_steps([q], run, lambda ns: 10**9)
    assert run.calls == 2
    assert len(split) == 2
    _same(split, one_round(engine)([q])[0], engine)


def test_a_mixed_batch_keeps_its_order_and_small_namespaces_take_one_round(engine):
    big = _load(engine, [({"status": s}, [1.0, 0.05 * i, 0.0, 1.0]) for i, s in
                         enumerate(["live", "archived"] * 20)])
    small = _load(engine, [({"status": "live"}, [0.0, 1.0, 0.0, 0.0])])
    batch = [
        DenseQuery([1.0, 0.0, 0.0, 0.0], Where(namespace=big), 5),
        FetchQuery(Where(namespace=big), 4),
        DenseQuery([1.0, 0.0, 0.0, 0.0], Where(namespace=small), 5),
        DenseQuery([0.0, 1.0, 0.0, 0.0], Where(namespace=big, status=None), 5),  # the tenant key alone
    ]
    sizes = {big: 40, small: 1}
    run = Counted(one_round(engine))
    original = _two_step.TWO_STEP_FROM
    _two_step.TWO_STEP_FROM = 10
    try:
        split = batch_in_two_steps(batch, run, sizes.__getitem__)
    finally:
        _two_step.TWO_STEP_FROM = original
    for hits, alone in zip(split, one_round(engine)(batch), strict=True):
        _same(hits, alone, engine)
    assert run.calls == 2
    assert [eligible(q) for q in batch] == [True, False, True, False]
    sizes[big] = 9  # below the threshold: one round for all
    run.calls = 0
    _two_step.TWO_STEP_FROM = 10
    try:
        batch_in_two_steps(batch, run, sizes.__getitem__)
    finally:
        _two_step.TWO_STEP_FROM = original
    assert run.calls == 1


def test_queries_naming_ids_or_no_namespace_take_one_step():
    assert not eligible(DenseQuery([1.0] * DIM, Where(namespace="n", ids=("a",)), 3))
    assert not eligible(DenseQuery([1.0] * DIM, Where(namespace=None), 3))
    assert not eligible(DenseQuery([1.0] * DIM, Where(namespace="n", status=None), 3))
    assert eligible(DenseQuery([1.0] * DIM, Where(namespace="n", status=None, alive_at=NOW), 3))


def test_edge_reads_a_big_namespace_in_two_steps(tmp_path, monkeypatch):
    backend = EdgeBackend(tmp_path / "edge")
    backend.setup(dim=DIM, meta={"embedder": "test"})
    try:
        points = [({"status": s, "expires_at": e}, [1.0, float(i % 5), float(i % 7), 0.5])
                  for i, (s, e) in enumerate(itertools.product(["live", "archived", "superseded"], [None, 50.0, 150.0]))]
        namespace = _load(backend, points * 4)
        q = DenseQuery([1.0, 2.0, 0.0, 0.5], Where(namespace=namespace, alive_at=NOW), 4)
        [alone] = backend.query_batch([q])  # 36 points: below the threshold, one round
        monkeypatch.setattr(_two_step, "TWO_STEP_FROM", 10)
        assert backend._unindexed_estimate(namespace) == 36  # the namespace's 36 of the 37 written
        calls = Counted(backend._one_round)
        monkeypatch.setattr(backend, "_one_round", calls)
        [split] = backend.query_batch([q])
        assert calls.calls >= 2
        _same(split, alone, backend)
        assert all(h.point.payload["status"] == "live" and h.point.payload["expires_at"] != 50.0 for h in split)
    finally:
        backend.close()


def test_edge_takes_one_step_on_what_it_built_or_loaded(tmp_path, monkeypatch):
    """The per-point checks are slow on points written since the shard was opened or
    last built (see _two_step): a shard just built or opened reads in one step."""
    monkeypatch.setattr(_two_step, "TWO_STEP_FROM", 10)
    backend = EdgeBackend(tmp_path / "edge")
    backend.setup(dim=DIM, meta={"embedder": "test"})
    namespace = _load(backend, [({"status": "live"}, [1.0, 0.1 * i, 0.0, 0.0]) for i in range(30)])
    assert backend._unindexed_estimate(namespace) == 30
    backend.optimize()
    assert backend._unindexed_estimate(namespace) == 0
    _load(backend, [({"status": "live"}, [1.0, 0.0, 0.0, 0.0])] * 12)
    assert backend._unindexed_estimate(namespace) == 13  # written since the build, at most
    backend.close()
    backend = EdgeBackend(tmp_path / "edge")
    backend.setup(dim=DIM, meta={"embedder": "test"})
    try:
        assert backend._unindexed_estimate(namespace) == 0
    finally:
        backend.close()


def test_an_empty_namespace_takes_one_round_trip(engine):
    q = DenseQuery([1.0, 0.0, 0.0, 0.0], Where(namespace=f"empty-{next(_names)}", alive_at=NOW), 5)
    run = Counted(one_round(engine))
    assert batch_in_two_steps([q], run, lambda ns: 10**9) == [[]]
    assert run.calls == 1
