"""Lists restricted to given ids (a search's completing round: the candidates' missing
scores, their payloads) answered by a snapshot (``_snapshot_batch``, ``Snapshot.answer``):
each must be what the plain construction gives (the filter's mask over the namespace,
the rows cut from it) and what the engine gives, whatever was written between, for ids
unknown, repeated, deleted or of another namespace."""

from __future__ import annotations

import itertools
import uuid

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store._reads import evolve
from langgraph_memory.store.backends import DenseQuery, FetchQuery, SparseQuery, Where
from langgraph_memory.store.backends import _snapshot
from langgraph_memory.store.backends._snapshot_batch import answer_nearest
from tests.snapshot_writes import rewrite
from tests.test_snapshot_caches import STATIC, _point, changes, payloads
from tests.test_snapshot_reads import DIM, engine  # noqa: F401  (a small engine of its own, per module)

_names = itertools.count()
VECTOR, SPARSE = [1.0] * DIM, ([0, 1, 2], [1.0, 0.5, 0.25])

steps = st.lists(st.one_of(
    st.tuples(st.just("insert"), st.integers(0, 1), payloads),
    st.tuples(st.just("set"), st.integers(0, 40), changes),
    st.tuples(st.just("move"), st.integers(0, 40), st.integers(0, 1)),
    st.tuples(st.just("delete"), st.integers(0, 40), st.none()),
    st.tuples(st.just("read"), st.lists(st.integers(0, 40), max_size=12), st.sampled_from([0.0, 16.0, 30.0])),
), min_size=1, max_size=12)


def _asked(namespace: str, ids: tuple[str, ...], at: float) -> list:
    """The completing round's lists on each kept kind of filter, and the namespace-wide
    lists of the same vectors (the snapshot then holds their order and BM25 scores)."""
    out: list = [DenseQuery(VECTOR, Where(namespace=namespace, alive_at=at), 20, payload=False),
                 SparseQuery(*SPARSE, Where(namespace=namespace, alive_at=at), 20, payload=False)]
    for where in (*STATIC, Where(status=None, subjects=("a",))):
        mine = evolve(where, namespace=namespace, alive_at=None if where.status is None else at, ids=ids)
        out += [FetchQuery(mine, len(ids) + 1), DenseQuery(VECTOR, mine, max(1, len(ids)), payload=False),
                DenseQuery(VECTOR, mine, 3, min_score=0.1, payload=False),
                SparseQuery(*SPARSE, mine, max(1, len(ids)), payload=False), SparseQuery(*SPARSE, mine, 1, payload=False)]
    return out


def _plain(snap, query) -> list[str] | None:
    """The ids the mask of the whole namespace gives ``query`` (the construction before)."""
    if isinstance(query, FetchQuery):
        return [snap.ids[r] for r in np.flatnonzero(snap.mask(query.where))[: query.limit]]
    hits = snap.answer(query, {})  # a nearest list cut from the filter's mask
    return None if hits is None else [h.point.id for h in hits]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps, depth=st.sampled_from([2, 5, 128]))
def test_lists_of_given_ids_are_the_masks_and_the_engines_whatever_was_written_between(engine, steps, depth):
    """``depth``: the namespace-wide BM25 query's hits (a shallow one leaves a cut)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_snapshot, "BM25_DEPTH", depth)
        _check(engine, steps)


def _check(engine, steps) -> None:
    run = next(_names)
    names = [f"idrows-{run}-{n}" for n in range(2)]
    rng = np.random.default_rng(run)
    points = [_point(rng, names[n % 2], {"status": "live", "kind": "self", "importance": 0.9, "updated_at": 10.0,
                                         "expires_at": None, "subjects": ["a"] if n % 3 else []}) for n in range(8)]
    for p in points[6:]:
        p.dense = None  # no dense vector: in no dense list
    engine.upsert(points)
    ids = [p.id for p in points]
    for namespace in names:  # searched twice: read whole
        for _ in range(2):
            engine.query_batch([DenseQuery(VECTOR, Where(namespace=namespace, alive_at=0.0), 3)], cached=True)
    for op, arg, value in [*steps, ("read", list(range(12)), 0.0)]:  # a read ends every example
        if op == "insert":
            point = _point(rng, names[arg], dict(value))
            engine.upsert([point])
            ids.append(point.id)
        elif op == "read":
            # Known ids (of either namespace), one repeated, one never written.
            given_ids = tuple(ids[i % len(ids)] for i in arg) + (str(uuid.uuid4()),)
            for namespace in names:
                queries = _asked(namespace, given_ids, value)
                cached, plain = engine.query_batch(queries, cached=True), engine.query_batch(queries)
                for mine, theirs in zip(cached, plain):
                    # The same scores; the same points but those tied at the cut (the engine
                    # picks among equal scores as it goes, a snapshot by id).
                    assert sorted(h.score for h in mine) == pytest.approx(sorted(h.score for h in theirs), abs=1e-5)
                    last = min((h.score for h in theirs), default=0.0) + 1e-5
                    assert {h.point.id for h in mine if h.score > last} == {h.point.id for h in theirs if h.score > last}
                snap = engine._snapshots._held.get(namespace)
                if snap is None or snap.seq != engine._snapshots.log.seq:
                    continue
                masks: dict = {}
                for query in queries[2:]:
                    if isinstance(query, FetchQuery):
                        got = [h.point.id for h in snap.answer(query, masks)]
                    else:
                        [answer] = answer_nearest(snap, [(0, query)], masks).values()
                        got = None if answer is None else [h.point.id for h in answer]
                    if got is not None or isinstance(query, DenseQuery):  # a BM25 list unsettled: the engine's
                        assert got == _plain(snap, query)
        else:
            assert rewrite(engine, op, arg, value, ids, names)
