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
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store.backends import DenseQuery, SparseQuery, StoredPoint, Where
from langgraph_memory.store.backends import _base
from langgraph_memory.store.backends._base import bm25_key, id_string, rows_of_ids
from langgraph_memory.store.backends._snapshot import Snapshot
from tests.test_snapshot_reads import DIM, engine  # noqa: F401  (a small engine of its own, per module)

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
    cut = min(scores) if ids and len(snapshot.ids) > len(ids) >= asked.limit else None
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
