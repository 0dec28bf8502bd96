"""A snapshot's faster orders and masks give what their plain spellings give (issue 29).

As ``test_turn_speed.py`` for the Python above the backend: each rewrite of a turn's
snapshot answers (fewer numpy calls) is held to the spelling it replaced, kept here as the
oracle, bit for bit, for any input. No timing is asserted.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import langgraph_memory.store.backends._snapshot_batch as onepass
from langgraph_memory.store.backends import DenseQuery, SparseQuery, Where

# Few distinct values: ties on purpose; nan for a row the engine did not score (BM25) or a
# nan in a stored vector (dense); infinities for what no engine gives but a float may be.
values = st.sampled_from([np.nan, 0.0, -0.0, 0.5, 0.5, 1.0, 2.5, np.inf, -np.inf, -1.0])
score_rows = st.lists(values, max_size=40)


def _plain_bm25_order(scores: np.ndarray, cut: float | None) -> tuple[np.ndarray, np.ndarray, int]:
    """The BM25 order as ``_ordered`` built it before ``_bm25_order`` (the oracle)."""
    rows = np.flatnonzero(~np.isnan(scores))
    mine = scores[rows]
    rows = rows[(-mine).argsort(kind="stable")]
    ordered = scores[rows]
    above = len(rows) if cut is None else int(np.count_nonzero(ordered > cut))
    return rows, ordered, above


@settings(max_examples=400, deadline=None)
@given(scores=score_rows, cut=st.none() | values.filter(lambda v: v == v), sort_all_up_to=st.sampled_from([384, 0, 5]))
def test_the_bm25_order_is_the_scored_rows_sorted_and_counted_above_the_cut(scores, cut, sort_all_up_to):
    array = np.array(scores, dtype=np.float64)
    saved, onepass.BM25_SORT_ALL_UP_TO = onepass.BM25_SORT_ALL_UP_TO, sort_all_up_to
    try:
        rows, ordered, above = onepass._bm25_order(array, cut)
    finally:
        onepass.BM25_SORT_ALL_UP_TO = saved
    want_rows, want_ordered, want_above = _plain_bm25_order(array, cut)
    assert rows.tolist() == want_rows.tolist()
    assert ordered.tobytes() == want_ordered.tobytes()
    assert above == want_above and type(above) is int


def _plain_dense_order(scores: np.ndarray, has_dense: np.ndarray) -> tuple[list[int], bytes, float] | None:
    """The dense order as ``_ordered`` built it before the nan check moved after the sort."""
    every = bool(has_dense.all())
    if np.isnan(scores if every else scores[has_dense]).any():
        return None
    rows, floor = onepass._scored_order(scores, None if every else np.flatnonzero(has_dense))
    return rows.tolist(), scores[rows].tobytes(), floor


@settings(max_examples=400, deadline=None)
@given(data=st.data(), whole_up_to=st.sampled_from([onepass.WHOLE_ORDER_UP_TO, 0, 3]),
       prefix=st.sampled_from([onepass.PREFIX_ROWS, 1, 4]))
def test_a_dense_order_refuses_a_nan_and_orders_as_before(data, whole_up_to, prefix):
    scores = np.array(data.draw(score_rows), dtype=np.float32)
    has_dense = np.array(data.draw(st.lists(st.booleans(), min_size=len(scores), max_size=len(scores))), dtype=bool)
    vector = [1.0]
    snapshot = SimpleNamespace(_orders={}, all_dense=bool(has_dense.all()), has_dense=has_dense)
    query = DenseQuery(vector, Where(), 5)
    saved = onepass.WHOLE_ORDER_UP_TO, onepass.PREFIX_ROWS
    onepass.WHOLE_ORDER_UP_TO, onepass.PREFIX_ROWS = whole_up_to, prefix
    try:
        got = onepass._ordered(snapshot, ("dense", id(vector)), query, {id(vector): scores})
        want = _plain_dense_order(scores, has_dense)
    finally:
        onepass.WHOLE_ORDER_UP_TO, onepass.PREFIX_ROWS = saved
    if want is None:
        assert got is None
    else:
        assert got is not None
        assert (got.rows.tolist(), got.ordered.tobytes(), got.floor) == want
        assert got.above_cut == len(want[0]) and got.cut is None


@settings(max_examples=200, deadline=None)
@given(scores=score_rows, cut=st.none() | st.sampled_from([0.0, 0.5, 1.0]))
def test_a_bm25_order_on_a_snapshot_is_the_plain_one(scores, cut):
    array = np.array(scores, dtype=np.float64)
    key = ((1,), (1.0,))
    known = (array, cut)
    snapshot = SimpleNamespace(_orders={}, _bm25={key: known})
    got = onepass._ordered(snapshot, ("bm25", key), SparseQuery([1], [1.0], Where(), 5), {})
    rows, ordered, above = _plain_bm25_order(array, cut)
    assert got is not None and got.owner is known
    assert (got.rows.tolist(), got.ordered.tobytes(), got.above_cut, got.cut) == (rows.tolist(), ordered.tobytes(), above, cut)


def _plain_match(snapshot, key: str, values: tuple[str, ...]) -> np.ndarray:
    """``Masks.match`` as it was written before (the oracle): one assignment per value."""
    by_value = snapshot._rows_by_value(key)
    out = np.zeros(len(snapshot.ids), dtype=bool)
    for v in values:
        rows = by_value.get(v)
        if rows is not None:
            out[rows] = True
    return out


tags = st.sampled_from(["ann", "bob", "kim", "lyon"])
row_payloads = st.fixed_dictionaries({
    "status": st.sampled_from(["live", "live", "superseded"]),
    "kind": st.sampled_from(["fact", "self"]),
    "memory_type": st.sampled_from(["fact", "event"]),  # never "identity": a condition on it keeps nothing
    # A list of tags (with what is no keyword), one tag as a string, or nothing.
    "subjects": st.one_of(st.lists(st.one_of(tags, st.integers(0, 2)), max_size=3), tags, st.none()),
})
asked = st.lists(st.sampled_from(["ann", "bob", "kim", "lyon", "dan", "eve"]), min_size=1, max_size=5).map(tuple)


@settings(max_examples=300, deadline=None)
@given(content=st.lists(row_payloads, max_size=30), values=asked, kinds=st.none() | st.just(("fact",)),
       memory_types=st.none() | st.sampled_from([("identity",), ("fact", "identity"), ("event",)]),
       alive=st.booleans())
def test_masks_of_keyword_conditions_are_the_plain_ones_and_share_one_empty_mask(content, values, kinds, memory_types, alive):
    from langgraph_memory.store.backends._snapshot import Snapshot
    from langgraph_memory.store.backends._snapshot_masks import _strings
    from langgraph_memory.store.backends import StoredPoint

    points = [StoredPoint(f"{i:04d}", {**{k: v for k, v in p.items() if v is not None}, "namespace": "n"})
              for i, p in enumerate(content)]
    snapshot = Snapshot.of("n", 0, points, 2)
    for key in ("subjects", "memory_type"):
        got = snapshot.match(key, values)
        assert got.tolist() == _plain_match(snapshot, key, values).tolist()
        if not got.any():
            assert got is snapshot.nothing() and not got.flags.writeable
    where = Where(namespace="n", status="live" if alive else None, alive_at=1.0 if alive else None, kinds=kinds,
                  memory_types=memory_types, subjects=values)
    rest = Where(namespace="n", status=where.status, alive_at=where.alive_at)
    # Row by row: a keyword condition holds when the row holds one of its values.
    holds = [all(not _strings(p.payload.get(key)).isdisjoint(wanted) for key, wanted in
                 (("kind", kinds), ("memory_type", memory_types), ("subjects", values)) if wanted is not None)
             for p in points]
    expected = snapshot.mask(rest) & np.array(holds, dtype=bool)
    assert snapshot.mask(where).tolist() == expected.tolist()


@settings(max_examples=200, deadline=None)
@given(content=st.lists(row_payloads, max_size=40), data=st.data(), alive=st.booleans())
def test_a_mask_of_given_ids_is_the_plain_one(content, data, alive):
    """A filter on ids (a search's candidates) sets their rows from an index array, not a
    list: the rows of the ids it holds, unknown and repeated ids included."""
    from langgraph_memory.store.backends._snapshot import Snapshot
    from langgraph_memory.store.backends import StoredPoint

    points = [StoredPoint(f"{i:04d}", {**{k: v for k, v in p.items() if v is not None}, "namespace": "n"})
              for i, p in enumerate(content)]
    snapshot = Snapshot.of("n", 0, points, 2)
    ids = tuple(data.draw(st.lists(st.sampled_from([p.id for p in points] + ["unknown"]), max_size=30)))
    rest = Where(namespace="n", status="live" if alive else None, alive_at=1.0 if alive else None)
    where = Where(namespace="n", status=rest.status, alive_at=rest.alive_at, ids=ids)
    expected = snapshot.mask(rest) & np.array([p.id in ids for p in points], dtype=bool)
    assert snapshot.mask(where).tolist() == expected.tolist()
    assert snapshot._ids(ids).tolist() == [p.id in ids for p in points]
