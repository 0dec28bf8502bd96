"""A batch's nearest-neighbour lists answered in one pass on a snapshot (``_snapshot_batch``).

The one pass must give exactly what each list answered on its own gives (``Snapshot.answer``,
itself checked against the engine in ``test_snapshot_reads.py`` / ``test_snapshot_bm25.py``):
the same ids, scores, payloads and vectors, in the same order, for any rows, filters, query
vectors, limits and floors, ties included. Also: the cached live-and-alive mask follows
writes, a message's time windows are the same with the quick "names no time" check, and
``ranked`` takes an exact answer as it is.
"""

from __future__ import annotations

import dataclasses
import uuid
from contextlib import contextmanager
from datetime import datetime, timezone

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import langgraph_memory.store._fusion as fusion
from langgraph_memory.store._reads import ranked
from langgraph_memory.store.backends import DenseQuery, Hit, SparseQuery, StoredPoint, Where
from langgraph_memory.store.backends._base import ExactHits
from langgraph_memory.store.backends._snapshot import Snapshot
import langgraph_memory.store.backends._snapshot_batch as onepass
from langgraph_memory.store.backends._snapshot_batch import answer_nearest

DIM = 4
NS = "ns"
absent = object()

payloads = st.fixed_dictionaries({
    "status": st.sampled_from(["live", "live", "superseded"]),
    "kind": st.sampled_from(["fact", "self"]),
    "subjects": st.lists(st.sampled_from(["ann", "bob"]), max_size=2, unique=True),
    "created_at": st.sampled_from([0.0, 10.0, 20.0]),
    "expires_at": st.sampled_from([absent, None, None, 5.0, 15.0]),
})
# Few distinct vectors: equal scores on purpose. None: a point without a dense vector.
vectors = st.sampled_from([None, (1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.6, 0.8, 0.0, 0.0),
                           (0.5, 0.5, 0.5, 0.5), (-1.0, 0.0, 0.0, 0.0)])
rows = st.lists(st.tuples(payloads, vectors), max_size=40)
query_vectors = st.sampled_from([[1.0, 0.0, 0.0, 0.0], [0.3, 0.3, 0.9, 0.1], [2.0, 1.0, 0.0, 0.0]])
filters = st.builds(
    Where, namespace=st.just(NS), status=st.sampled_from([None, "live"]),
    kinds=st.none() | st.just(("fact",)), subjects=st.none() | st.just(("ann",)),
    alive_at=st.none() | st.sampled_from([0.0, 10.0, 20.0]),
    any_of=st.sampled_from([(), (Where(status=None, created_since=5.0, created_until=15.0),)]),
)


def _snapshot(content: list[tuple[dict, tuple | None]]) -> Snapshot:
    points = [
        StoredPoint(str(uuid.UUID(int=i + 1)), {**{k: v for k, v in p.items() if v is not absent}, "namespace": NS},
                    None if v is None else list(v))
        for i, (p, v) in enumerate(content)
    ]
    return Snapshot.of(NS, 0, points, DIM)


def _plain(hits: list[Hit] | None, cut: int | None) -> list | None:
    """Hits as comparable values; ``cut``: the first so many in (score desc, id asc) order."""
    if hits is None:
        return None
    if cut is not None:
        hits = sorted(hits, key=lambda h: (-h.score, h.point.id))[:cut]
    return [(h.point.id, h.score, h.point.payload, None if h.point.dense is None else list(h.point.dense))
            for h in hits]


def _alone(snapshot: Snapshot, query) -> list | None:
    """The list answered on its own, as before the one pass: ``limit`` hits, cut here."""
    return _plain(snapshot.answer(dataclasses.replace(query, exact_limit=None), {}), query.exact_limit)


@st.composite
def dense_batches(draw):
    shared = draw(st.lists(filters, min_size=1, max_size=3))  # lists of a plan share their filter objects
    vectors_ = draw(st.lists(query_vectors, min_size=1, max_size=2))
    out = []
    for _ in range(draw(st.integers(1, 6))):
        limit = draw(st.integers(1, 25))
        out.append(DenseQuery(
            draw(st.sampled_from(vectors_)), draw(st.sampled_from(shared)), limit,
            with_vectors=draw(st.booleans()), payload=draw(st.sampled_from([False, True, ("subjects",)])),
            min_score=draw(st.none() | st.sampled_from([0.0, 0.5])),
            exact_limit=draw(st.none() | st.integers(1, limit)),
        ))
    return out


@settings(max_examples=150, deadline=None)
@given(content=rows, queries=dense_batches())
def test_one_pass_dense_lists_are_the_lists_answered_alone(content, queries):
    _check_dense(content, queries)


@contextmanager
def _prefix_orders(whole_up_to: int, prefix: int):
    """The large-namespace order (a sorted prefix, narrow lists answered from their own
    rows) on the few rows a test draws."""
    saved = onepass.WHOLE_ORDER_UP_TO, onepass.PREFIX_ROWS
    onepass.WHOLE_ORDER_UP_TO, onepass.PREFIX_ROWS = whole_up_to, prefix
    try:
        yield
    finally:
        onepass.WHOLE_ORDER_UP_TO, onepass.PREFIX_ROWS = saved


@settings(max_examples=200, deadline=None)
@given(content=rows, queries=dense_batches(), whole_up_to=st.integers(0, 6), prefix=st.integers(1, 6))
def test_a_prefix_of_the_order_gives_the_lists_of_the_whole_order(content, queries, whole_up_to, prefix):
    with _prefix_orders(whole_up_to, prefix):
        _check_dense(content, queries)


@settings(max_examples=150, deadline=None)
@given(content=rows, data=st.data(), whole_up_to=st.integers(0, 6), prefix=st.integers(1, 6))
def test_bm25_lists_on_a_prefix_order_are_the_lists_answered_alone(content, data, whole_up_to, prefix):
    with _prefix_orders(whole_up_to, prefix):
        _check_bm25(content, data)


def _check_dense(content, queries) -> None:
    snapshot = _snapshot(content)
    together = answer_nearest(snapshot, list(enumerate(queries)), {})
    assert sorted(together) == list(range(len(queries)))
    for i, q in enumerate(queries):
        assert type(together[i]) is ExactHits
        assert _plain(together[i], None) == _alone(snapshot, q)


@settings(max_examples=150, deadline=None)
@given(content=rows, data=st.data())
def test_one_pass_bm25_lists_are_the_lists_answered_alone(content, data):
    _check_bm25(content, data)


def _check_bm25(content, data) -> None:
    snapshot = _snapshot(content)
    terms = SparseQuery([1, 2], [1.0, 1.0], Where(namespace=NS), 10)
    asked = snapshot.bm25_query(terms)
    # The engine's namespace-wide answer: some rows score (ties on purpose), best first;
    # cut at a depth below the namespace's size, it leaves a cut under which rows are unknown.
    every_row = st.lists(st.sampled_from(range(len(snapshot.ids))), unique=True) if snapshot.ids else st.just([])
    scored = data.draw(every_row)
    scores = data.draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.5]), min_size=len(scored), max_size=len(scored)))
    wide = sorted((Hit(StoredPoint(snapshot.ids[r], {}), s) for r, s in zip(scored, scores)), key=lambda h: -h.score)
    depth = data.draw(st.integers(1, max(1, len(snapshot.ids))))
    asked = dataclasses.replace(asked, limit=depth)
    snapshot.learn_bm25(asked, wide[:depth])
    shared = data.draw(st.lists(filters, min_size=1, max_size=2))
    queries = []
    for _ in range(data.draw(st.integers(1, 4))):
        limit = data.draw(st.integers(1, 20))
        queries.append(SparseQuery(terms.indices, terms.values, data.draw(st.sampled_from(shared)), limit,
                                   payload=data.draw(st.sampled_from([False, True])),
                                   exact_limit=data.draw(st.none() | st.integers(1, limit))))
    together = answer_nearest(snapshot, list(enumerate(queries)), {})
    for i, q in enumerate(queries):
        alone = snapshot.answer(dataclasses.replace(q, exact_limit=None), {})
        if together[i] is None:
            # Not settled by the engine's best scores even for the caller's own limit.
            assert alone is None
        elif alone is None:
            # Settled for the caller's own limit, though not for the deeper one it asked.
            assert q.exact_limit is not None and q.exact_limit < q.limit
            own = snapshot.answer(dataclasses.replace(q, limit=q.exact_limit, exact_limit=None), {})
            assert _plain(together[i], None) == _plain(own, None)
        else:
            assert _plain(together[i], None) == _plain(alone, q.exact_limit)


def test_the_cached_live_mask_follows_writes_to_status_and_expiry():
    content = [({"status": "live", "expires_at": None, "kind": "fact"}, (1.0, 0.0, 0.0, 0.0)) for _ in range(4)]
    snapshot = _snapshot(content)
    now = Where(namespace=NS, alive_at=10.0)
    assert snapshot.mask(now).tolist() == [True] * 4
    gone, expiring = snapshot.ids[1], snapshot.ids[2]
    # A status alone changes (the expiry column does not).
    superseded = snapshot.patched(1, [StoredPoint(gone, {**snapshot.payloads[1], "status": "superseded"})],
                                  {gone}, vectors=False)
    assert superseded.mask(now).tolist() == [True, False, True, True]
    # Then an expiry.
    expired = superseded.patched(2, [StoredPoint(expiring, {**superseded.payloads[2], "expires_at": 5.0})],
                                 {expiring}, vectors=False)
    assert expired.mask(now).tolist() == [True, False, False, True]
    assert expired.mask(dataclasses.replace(now, alive_at=1.0)).tolist() == [True, False, True, True]
    assert snapshot.mask(now).tolist() == [True] * 4  # the older snapshot keeps its own


words = st.sampled_from([
    "in", "May", "may", "2023", "last", "week", "ago", "3", "days", "il", "y", "a", "jours", "hier", "today",
    "what", "did", "Caroline", "do", "on", "June", "5th", "of", "March", "recently", "this", "year", "l'an",
    "dernier", "la", "semaine", "dernière", "récemment", "août", "yesterday", "tonight", "Sept", "Jan.", ",",
    "past", "month", "ce", "matin", "aujourd'hui", "during", "1999", "a", "an", "one", "weeks",
    "a week ago", "one month ago", "an year ago", "il y a un an", "il y a une semaine", "last week",
    "ce mois", "l'année dernière", "le mois dernier", "this morning", "lately", "recemment", "dernierement",
])


@settings(max_examples=300, deadline=None)
@given(text=st.lists(words, max_size=8).map(" ".join) | st.text(max_size=40))
def test_the_quick_no_time_check_changes_no_time_window(text):
    now = datetime(2024, 3, 15, 12, tzinfo=timezone.utc)
    quick = fusion.time_windows(text, now=now)
    check = fusion._names_no_time
    fusion._names_no_time = lambda t: False
    try:
        assert quick == fusion.time_windows(text, now=now)
    finally:
        fusion._names_no_time = check


def test_ranked_takes_an_exact_answer_as_it_comes_and_settles_a_plain_one():
    where = Where(namespace=NS)
    query = DenseQuery([1.0, 0.0], where, 2, payload=False)
    tied = [Hit(StoredPoint(i, {}), 1.0) for i in ("c", "b", "a")]
    plan = ranked([query])
    [asked] = next(plan)
    assert asked.exact_limit == 2 and asked.limit > 2
    try:
        plan.send([ExactHits(tied[:2])])
    except StopIteration as done:
        assert done.value == [tied[:2]]  # as it came: a snapshot settled its ties
    plan = ranked([query])
    next(plan)
    deeper = plan.send([tied])  # a plain answer whose tie may go on past the cut: asked again
    assert deeper[0].limit > asked.limit
    try:
        plan.send([tied])
    except StopIteration as done:
        assert [h.point.id for h in done.value[0]] == ["a", "b"]


@settings(max_examples=200, deadline=None)
@given(namespace=st.lists(st.text(max_size=6) | st.integers(), max_size=4).map(tuple) | st.lists(st.text(max_size=3)))
def test_a_namespace_key_checked_once_is_what_checking_every_time_gives(namespace):
    from langgraph_memory.errors import InvalidMemoryError
    from langgraph_memory.store._reads import checked_key
    from langgraph_memory.store.records import namespace_key, validate_namespace

    for _ in range(2):  # the second time from the cache, if it was valid
        try:
            expected = namespace_key(validate_namespace(namespace))
        except InvalidMemoryError:
            try:
                checked_key(namespace)
            except InvalidMemoryError:
                continue
            raise AssertionError(f"{namespace!r} accepted")
        assert checked_key(namespace) == expected


class _ClearedMeanwhile(dict):
    """A snapshot's BM25 scores that another thread's batch drops (``learn_bm25`` clears a
    full cache) right after this batch saw them there."""

    def __contains__(self, key: object) -> bool:
        found = super().__contains__(key)
        self.clear()
        return found


def test_bm25_scores_dropped_by_another_thread_meanwhile_leave_the_list_to_the_engine():
    snapshot = _snapshot([({"status": "live", "kind": "fact"}, (1.0, 0.0, 0.0, 0.0)) for _ in range(3)])
    terms = SparseQuery([1, 2], [1.0, 1.0], Where(namespace=NS), 2)
    snapshot.learn_bm25(snapshot.bm25_query(terms), [Hit(StoredPoint(i, {}), 1.0) for i in snapshot.ids])
    snapshot._bm25 = _ClearedMeanwhile(snapshot._bm25)
    # Not a KeyError out of the pre-hook: ``None``, which the engine then answers.
    assert answer_nearest(snapshot, [(0, terms)], {}) == {0: None}


def test_a_write_patching_a_snapshot_another_thread_is_reading_meanwhile(monkeypatch):
    import langgraph_memory.store.backends._snapshot as snapshot_module

    content = [({"status": "live", "kind": "fact", "importance": 0.5}, (1.0, 0.0, 0.0, 0.0)) for _ in range(3)]
    snapshot = _snapshot(content)
    snapshot.floats("importance")  # a derived column the write re-derives
    derive = snapshot_module._DERIVE["float"]

    def read_meanwhile(payload, key, memo_key):
        # Another thread's turn on the same snapshot: its live mask lands in the shared memo.
        snapshot.mask(Where(namespace=NS, status="live", alive_at=30.0 + len(snapshot._memo)))
        return derive(payload, key, memo_key)

    monkeypatch.setitem(snapshot_module._DERIVE, "float", read_meanwhile)
    row = snapshot.ids[0]
    patched = snapshot.patched(1, [StoredPoint(row, {**snapshot.payloads[0], "importance": 0.9})], {row},
                               vectors=False)
    assert patched.floats("importance").tolist() == [0.9, 0.5, 0.5]
