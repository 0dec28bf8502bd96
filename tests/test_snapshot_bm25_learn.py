"""The turn's namespace-wide BM25 call, spelled for speed (issue 29), gives what its plainer
spelling gave: the engine's point ids mapped to a snapshot's rows without a string built per
id (``_base.rows_of_ids``), the scores written in one numpy write with a spare row for ids the
snapshot does not hold (``Snapshot.learn_bm25_scores``), and the request built for those
queries alone, one query sent alone (``EdgeBackend._scores``). The former spellings are kept
here as the oracles, for any ids and scores. No timing is asserted: see ``benchmarks/``.
"""

from __future__ import annotations

import itertools
import struct
import uuid

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store.backends import DenseQuery, FetchQuery, SparseQuery, StoredPoint, Where
from langgraph_memory.store.backends import _base
from langgraph_memory.store.backends._base import bm25_key, id_string, rows_of_ids
from langgraph_memory.store.backends._snapshot import Snapshot
from tests.test_snapshot_reads import DIM
from tests.test_snapshot_bm25 import engine  # noqa: F401  (a store made before client IDF, per module)

_names = itertools.count()
HELD = [uuid.UUID(int=n * 0x1F2E3D4C5B6A79880123456789ABCDEF % (1 << 128)) for n in range(1, 9)]
"""The ids a snapshot holds; ids drawn beyond them are points written since it was read."""

point_ids = st.one_of(
    st.sampled_from(HELD), st.uuids(), st.sampled_from([str(u) for u in HELD]), st.integers(0, 2**64 - 1),
    st.text(max_size=6),
)


def _rows_plain(point_ids, rows, absent):
    return [rows.get(id_string(i), absent) for i in point_ids]


@given(ids=st.lists(point_ids, max_size=12), held=st.sets(st.sampled_from(HELD)), warm=st.sets(st.sampled_from(HELD)),
       other_keys=st.lists(st.text(max_size=6), max_size=3), absent=st.integers(-1, 20))
def test_rows_of_ids_is_the_row_of_each_id_string(ids, held, warm, other_keys, absent):
    # Any mix of ids (the engine's UUIDs, strings, integer ids), each one's string cached or not.
    for u in HELD:
        _base._ID_STRINGS.pop(u.int, None)
    for u in warm:
        id_string(u)
    rows = {str(u): r for r, u in enumerate(sorted(held))}
    rows.update({k: 100 + n for n, k in enumerate(other_keys)})
    assert rows_of_ids(ids, rows, absent) == _rows_plain(ids, rows, absent)


def _learned_plain(snapshot: Snapshot, asked: SparseQuery, ids: list[str], scores: list[float]):
    """``learn_bm25_scores`` as it was spelled before (string ids, rows filtered in Python)."""
    every = np.full(len(snapshot.ids), np.nan)
    row = snapshot.row
    rows = [row.get(i, -1) for i in ids]
    mine = scores
    if -1 in rows:
        pairs = [(r, s) for r, s in zip(rows, scores) if r >= 0]
        rows, mine = [r for r, _ in pairs], [s for _, s in pairs]
    every[rows] = mine
    # Rows held, not hits: a hit of a point written since leaves a row out (review11).
    cut = min(scores) if ids and len(ids) >= asked.limit and len(snapshot.ids) > len(rows) else None
    return every, cut


def _bits(array: np.ndarray) -> bytes:
    return np.ascontiguousarray(array).tobytes()


@given(held=st.lists(st.sampled_from(HELD), min_size=1, unique=True),
       hits=st.lists(st.tuples(st.one_of(st.sampled_from(HELD), st.uuids()), st.floats(width=32)),
                     unique_by=lambda h: h[0], max_size=10),
       as_strings=st.booleans(), limit=st.integers(1, 12))
def test_learned_scores_are_the_former_spelling_s_bit_for_bit(held, hits, as_strings, limit):
    snapshot = Snapshot.of("ns", 0, [StoredPoint(str(u), {}) for u in held], DIM)
    asked = SparseQuery([1, 2], [0.5, 1.0], Where(namespace="ns", status=None), limit, payload=False)
    ids = [str(u) if as_strings else u for u, _ in hits]
    scores = [s for _, s in hits]
    snapshot.learn_bm25_scores(asked, ids, scores)
    every, cut = snapshot._bm25[bm25_key(asked)]
    plain_every, plain_cut = _learned_plain(snapshot, asked, [id_string(i) for i in ids], scores)
    assert every.shape == plain_every.shape and every.dtype == plain_every.dtype
    assert _bits(every) == _bits(plain_every)
    assert (cut is None) is (plain_cut is None)
    if cut is not None:
        assert struct.pack("<d", cut) == struct.pack("<d", plain_cut)


def _held_namespace(engine, terms: list[dict[int, float]]) -> tuple[str, Snapshot]:
    namespace = f"learn-{next(_names)}"
    rng = np.random.default_rng(len(terms))
    points = []
    for doc in terms:
        vector = rng.normal(size=DIM)
        points.append(StoredPoint(str(uuid.uuid4()), {"namespace": namespace, "status": "live", "content": "x"},
                                  (vector / np.linalg.norm(vector)).tolist(),
                                  (sorted(doc), [doc[t] for t in sorted(doc)]) if doc else None))
    engine.upsert(points)
    for _ in range(2):
        engine.query_batch([DenseQuery([1.0] * DIM, Where(namespace=namespace, alive_at=0.0), 3)], cached=True)
    return namespace, engine._snapshots._held[namespace]


def _held_namespace_again(engine, namespace: str) -> None:
    """Hold ``namespace``'s snapshot again if the budget dropped it since."""
    while namespace not in engine._snapshots._held:
        engine.query_batch([DenseQuery([1.0] * DIM, Where(namespace=namespace, alive_at=0.0), 3)], cached=True)


documents = st.lists(st.dictionaries(st.integers(1, 6), st.sampled_from([0.5, 1.0, 1.25]), max_size=3),
                     min_size=1, max_size=8)
query_terms = st.lists(st.integers(1, 7), min_size=1, max_size=3, unique=True).map(sorted)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=documents, second=documents, later=st.lists(st.dictionaries(st.integers(1, 6), st.just(1.0), min_size=1,
                                                                          max_size=2), max_size=3),
       terms=st.lists(query_terms, min_size=1, max_size=3), limit=st.integers(1, 10))
def test_the_turns_call_teaches_a_snapshot_what_the_general_round_s_hits_teach(engine, first, second, later, terms,
                                                                                limit):
    # Two held namespaces, and points written into the first since its snapshot was read:
    # the engine returns ids that snapshot does not hold, which it must ignore as before.
    (ns1, snap1), (ns2, snap2) = _held_namespace(engine, first), _held_namespace(engine, second)
    if later:
        engine.upsert([StoredPoint(str(uuid.uuid4()), {"namespace": ns1, "status": "live", "content": "x"},
                                   [1.0] + [0.0] * (DIM - 1), (sorted(doc), [doc[t] for t in sorted(doc)]))
                       for doc in later])
    asked = [(snap, snap.bm25_query(SparseQuery(t, [1.0] * len(t), Where(namespace=snap.namespace), limit)))
             for t in terms for snap in (snap1, snap2)]
    wide = [q for _, q in asked]
    fast = engine._scores(wide)
    assert fast == engine._one_round(wide, frozenset(id(q) for q in wide))  # a batch, and each alone
    assert [engine._scores([q])[0] for q in wide] == fast
    hits = engine._one_round(wide)  # the general round's hits (string ids)
    for (snap, q), (ids, scores), plain in zip(asked, fast, hits):
        assert [str(i) for i in ids] == [h.point.id for h in plain] and scores == [h.score for h in plain]
        snap.learn_bm25_scores(q, ids, scores)
        every, cut = snap._bm25[bm25_key(q)]
        plain_every, plain_cut = _learned_plain(snap, q, [h.point.id for h in plain], [h.score for h in plain])
        assert _bits(every) == _bits(plain_every) and cut == plain_cut


def _answer_batch_plain(snapshots, queries, snapshot_of, engine_batch):
    """``_snapshots.answer_batch`` as it was spelled before its one pass over the batch."""
    from langgraph_memory.store.backends._snapshot_batch import answer_nearest
    from langgraph_memory.store.backends._snapshots import local_answers

    local, held, masks = local_answers(snapshots, queries, snapshot_of)
    bm25, wide = {}, {}
    for i, q in enumerate(queries):
        if isinstance(q, SparseQuery) and q.rescore is None and (snap := held.get(q.where.namespace)) is not None:
            bm25[i] = snap
            key = bm25_key(q)
            if key not in snap._bm25 and (id(snap), key) not in wide:
                wide[id(snap), key] = (snap, snap.bm25_query(q))
    rest = [q for i, (q, hits) in enumerate(zip(queries, local)) if hits is None and i not in bm25]
    scores_only = [query for _, query in wide.values()]
    asked = rest + scores_only
    answers = engine_batch(asked, scores_only) if asked else []
    for (snap, query), (ids, scores) in zip(wide.values(), answers[len(rest):]):
        snap.learn_bm25_scores(query, ids, scores)
    engine = iter(answers[: len(rest)])
    settled = {}
    if bm25:
        by_snapshot = {}
        for i, snap in bm25.items():
            by_snapshot.setdefault(id(snap), []).append((i, queries[i]))
        for mine in by_snapshot.values():
            snap = bm25[mine[0][0]]
            settled.update(answer_nearest(snap, mine, masks.setdefault(snap.namespace, {})))
    out = [settled[i] if i in bm25 else next(engine) if hits is None else hits
           for i, (q, hits) in enumerate(zip(queries, local))]
    late = [i for i, hits in enumerate(out) if hits is None]
    for i, hits in zip(late, engine_batch([queries[i] for i in late]) if late else []):
        out[i] = hits
    return out


@pytest.fixture(scope="module")
def three_namespaces(engine):
    """Two namespaces held as snapshots, and one the engine alone answers (searched once)."""
    # Weights apart and vectors apart: the engine orders equal scores as it likes, and
    # the lists it answers (late, or alone) are compared as they come.
    held = [_held_namespace(engine, [{t: 1.0 + n / 64, (t + n) % 6 + 1: 0.5 + n / 256}
                                     for n, t in enumerate([1, 2, 3, 4, 5, 6] * 4)])[0] for _ in range(2)]
    alone = f"learn-{next(_names)}"
    engine.upsert([StoredPoint(str(uuid.uuid4()), {"namespace": alone, "status": "live", "content": "x"},
                               [1.0, n / 4] + [0.0] * (DIM - 2), ([t, 7], [1.0 + n / 8, 1.0]))
                   for n, t in enumerate((1, 2, 3, 1))])
    return held + [alone]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(asks=st.lists(st.tuples(st.sampled_from(["dense", "bm25", "bm25-rescored", "fetch"]), st.integers(0, 2),
                               query_terms, st.integers(1, 12), st.booleans()), min_size=1, max_size=8),
       depth=st.sampled_from([3, 128]))
def test_one_pass_answer_batch_answers_as_the_former_spelling(engine, three_namespaces, asks, depth, monkeypatch):
    # Any mix of lists the snapshots answer, BM25 lists they cut from the engine's scores
    # (a shallow depth leaves some unsettled: the engine answers them late), and queries
    # only the engine answers (a namespace without snapshot, a rescored BM25 list).
    from langgraph_memory.store.backends import _snapshot, _snapshots

    monkeypatch.setattr(_snapshot, "BM25_DEPTH", depth)
    queries = []
    vector = [0.6, 0.8] + [0.0] * (DIM - 2)
    for kind, n, terms, limit, live in asks:
        where = Where(namespace=three_namespaces[n], status="live" if live else None)
        if kind == "dense":
            queries.append(DenseQuery(vector, where, limit, payload=False))
        elif kind == "fetch":
            queries.append(FetchQuery(where, limit, order_by="importance" if live else None))
        else:
            queries.append(SparseQuery(terms, [1.0] * len(terms), where, limit, payload=False,
                                       rescore=vector if kind == "bm25-rescored" else None))

    # Both spellings must meet the same snapshots, or a list is the engine's in one and a
    # snapshot's in the other (cosines an ulp apart): the two held ones held (the module's
    # engine holds many namespaces: the budget may have dropped them), the third never
    # read whole (its reads count towards that).
    monkeypatch.setattr(engine._snapshots, "budget", 1 << 30)
    for n in range(2):
        _held_namespace_again(engine, three_namespaces[n])

    def answers(answer_batch):
        engine._snapshots._held.pop(three_namespaces[2], None)
        engine._snapshots._reads.pop(three_namespaces[2], None)
        for snap in engine._snapshots._held.values():
            snap._bm25.clear()
            snap._orders.clear()
        got = answer_batch(engine._snapshots, queries, engine._snapshot, engine._engine_batch)
        return [[(h.point.id, h.score) for h in hits] for hits in got]

    held = dict(engine._snapshots._held)
    assert answers(_snapshots.answer_batch) == answers(_answer_batch_plain)
    assert engine._snapshots._held.keys() == held.keys()


def test_hits_of_points_written_since_do_not_pass_the_rows_they_pushed_out_as_scoring_nothing(engine):
    # A write lands between the turn's catch-up and its BM25 call: the engine's best
    # ``limit`` (every row's count) hold points the snapshot does not know, so some of its
    # rows were pushed out of them. Those rows share the term all the same: the list is
    # the engine's (or the snapshot's before the write), never one without them.
    namespace, snap = _held_namespace(engine, [{1: 1.0}, {1: 1.0}, {1: 1.0}])
    engine.upsert([StoredPoint(str(uuid.uuid4()), {"namespace": namespace, "status": "live", "content": "x"},
                               [1.0] + [0.0] * (DIM - 1), ([1], [5.0])) for _ in range(2)])
    wide = snap.bm25_query(SparseQuery([1], [1.0], Where(namespace=namespace), 3))
    [(ids, scores)] = engine._scores([wide])
    assert len(ids) == len(snap.ids) == 3 and sum(str(i) in snap.row for i in ids) == 1  # as set up
    snap.learn_bm25_scores(wide, ids, scores)
    asked = SparseQuery([1], [1.0], Where(namespace=namespace), 3)
    before = sorted(snap.ids)
    after = [h.point.id for h in engine.query_batch([asked])[0]]
    from langgraph_memory.store.backends._snapshot_batch import answer_nearest

    for mine in (snap.answer(asked, {}), answer_nearest(snap, [(0, asked)], {})[0]):  # alone, and as a turn's batch
        assert mine is None or sorted(h.point.id for h in mine) in (before, sorted(after))
