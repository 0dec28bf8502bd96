"""What a snapshot keeps between turns (``_snapshot_points``, ``_snapshot_masks``): shared
hits and points, the kept masks of filters' conditions, the kept orders of the rows. Each
is reused turn after turn, and none may outlive a write, a delete, a move to another
namespace or an expiry, or answer one namespace with another's points: every answer
through the snapshots (``query_batch(cached=True)``) must be the engine's own answer.
"""

from __future__ import annotations

import copy
import itertools
import pickle
import uuid
from dataclasses import FrozenInstanceError

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store._reads import evolve
from langgraph_memory.store.backends import DenseQuery, FetchQuery, SparseQuery, StoredPoint, Where
from langgraph_memory.store.backends._base import Hit
from langgraph_memory.store.backends._snapshot import Snapshot
from langgraph_memory.store.backends._snapshot_masks import FETCHES, WHERES
from tests.snapshot_writes import rewrite
from tests.test_snapshot_reads import DIM, engine  # noqa: F401  (a small engine of its own, per module)

_names = itertools.count()

# Filters as the pre-hook keeps them: the same objects every turn, stamped with a time.
STATIC = (
    Where(any_of=(Where(status=None, memory_types=("identity",)), Where(status=None, kinds=("self",)))),
    Where(min_importance=0.8),
    Where(),
    Where(kinds=("fact", "goal"), channel_scope="c1"),
    Where(categories=("context",)),
)
payloads = st.fixed_dictionaries({
    "status": st.sampled_from(["live", "live", "archived"]),
    "kind": st.sampled_from(["fact", "self", "goal"]),
    "memory_type": st.sampled_from(["fact", "identity"]),
    "category": st.sampled_from([None, "context"]),
    "importance": st.sampled_from([0.3, 0.8, 0.9, 1.0]),
    "updated_at": st.sampled_from([0.0, 10.0, 20.0]),
    "expires_at": st.sampled_from([None, 15.0, 25.0]),
}, optional={
    "channel": st.sampled_from([None, "c1", "c2"]),
})
changes = st.fixed_dictionaries({}, optional={
    "importance": st.sampled_from([0.1, 0.85, 1.0]),
    "status": st.sampled_from(["live", "archived"]),
    "kind": st.sampled_from(["fact", "self"]),
    "memory_type": st.sampled_from(["fact", "identity"]),
    "category": st.sampled_from([None, "context"]),
    "channel": st.sampled_from([None, "c1", "c2"]),
    # (not back to None: Qdrant Edge then reads the point as having no expiry key at all,
    # where a point written with ``None`` has one; memories are written with the key.)
    "expires_at": st.sampled_from([12.0, 22.0]),
    "updated_at": st.sampled_from([0.0, 15.0, 30.0]),
    "access_count": st.integers(0, 3),  # a field no filter reads: kept masks survive it
})
access = st.fixed_dictionaries({  # what record_access writes (floats: read back by the writer)
    "access_count": st.integers(0, 3), "injection_count": st.integers(0, 3),
    "vitality": st.sampled_from([0.65, 1.0, 0.1 + 0.2]), "last_accessed_at": st.floats(1e9, 2e9),
}, optional={"vitality_at": st.floats(1e9, 2e9)})
steps = st.lists(st.one_of(
    st.tuples(st.just("insert"), st.integers(0, 2), payloads),
    st.tuples(st.just("set"), st.integers(0, 40), changes),
    st.tuples(st.just("access"), st.integers(0, 40), access),
    st.tuples(st.just("move"), st.integers(0, 40), st.integers(0, 2)),
    st.tuples(st.just("delete"), st.integers(0, 40), st.none()),
    st.tuples(st.just("erase_archived"), st.integers(0, 2), st.none()),
    st.tuples(st.just("read"), st.sampled_from([0.0, 11.0, 16.0, 30.0]), st.sampled_from([None, 5.0, 15.0])),
), min_size=1, max_size=14)


def _point(rng, namespace: str, payload: dict) -> StoredPoint:
    vector = rng.normal(size=DIM)
    terms = sorted({int(t) for t in rng.integers(0, 6, size=3)})
    return StoredPoint(str(uuid.uuid4()), {**payload, "namespace": namespace, "content": "x"},
                       (vector / np.linalg.norm(vector)).tolist(), (terms, [1.0] * len(terms)))


def _queries(namespace: str, at: float, since: float | None) -> list:
    vector, sparse = [1.0] * DIM, ([0, 1, 2], [1.0, 0.5, 0.25])
    out = []
    for where in STATIC:
        stamped = evolve(where, namespace=namespace, alive_at=at, updated_since=since)
        out += [FetchQuery(stamped, 100, order_by="importance"), FetchQuery(stamped, 100),
                DenseQuery(vector, stamped, 4, payload=False), SparseQuery(*sparse, stamped, 100, payload=False)]
    return out


def _same(cached: list, engine: list) -> None:
    for mine, theirs in zip(cached, engine):
        # The same points with the same payloads; the same scores. Equal scores and equal
        # order values come by id from a snapshot, in the engine's own order from it.
        assert {h.point.id: dict(h.point.payload) for h in mine} == {h.point.id: h.point.payload for h in theirs}
        assert [h.score for h in mine] == pytest.approx([h.score for h in theirs], abs=1e-5)
        assert [h.point.payload.get("importance") for h in mine] == [h.point.payload.get("importance") for h in theirs]
    # Fetches without an order come by id, as the engine's; nearest lists without ties in its order.
    for mine, theirs in zip(cached[1::4], engine[1::4]):
        assert [h.point.id for h in mine] == [h.point.id for h in theirs]
    for mine, theirs in [*zip(cached[2::4], engine[2::4]), *zip(cached[3::4], engine[3::4])]:
        if all(abs(a.score - b.score) > 1e-5 for a, b in zip(theirs, theirs[1:])):
            assert [h.point.id for h in mine] == [h.point.id for h in theirs]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps)
def test_every_answer_through_the_snapshots_is_the_engines_whatever_was_written_between(engine, steps):
    """Three namespaces, the same filter objects read turn after turn at several times,
    writes of every kind in between (a field a kept mask reads, one no filter reads, a move
    to another namespace, deletes by id and by filter): every list read through the
    snapshots equals the engine's own, for every namespace."""
    run = next(_names)
    names = [f"cache-{run}-{n}" for n in range(3)]
    rng = np.random.default_rng(run)
    points = [_point(rng, names[n % 3], {"status": "live", "kind": "self", "importance": 0.9, "updated_at": 10.0,
                                         "expires_at": None}) for n in range(6)]
    engine.upsert(points)
    ids = [p.id for p in points]
    for namespace in names:  # searched twice: read whole
        for _ in range(2):
            engine.query_batch([DenseQuery([1.0] * DIM, Where(namespace=namespace, alive_at=0.0), 3)], cached=True)
    for op, arg, value in [*steps, ("read", 0.0, None)]:
        if op == "insert":
            point = _point(rng, names[arg], {k: v for k, v in value.items()})
            engine.upsert([point])
            ids.append(point.id)
        elif op == "erase_archived":
            engine.delete_where(Where(namespace=names[arg], status="archived"))
        elif op == "read":
            for namespace in names:
                queries = _queries(namespace, arg, value)
                _same(engine.query_batch(queries, cached=True), engine.query_batch(queries))
        else:
            assert rewrite(engine, op, arg, value, ids, names)
    assert any(name in engine._snapshots._held for name in names)


# -- each cache is reused, and each follows a write ------------------------------------------


def _held_namespace(engine, payloads: list[dict]) -> tuple[str, list[str]]:
    namespace = f"held-{next(_names)}"
    rng = np.random.default_rng(len(payloads))
    points = [_point(rng, namespace, {"expires_at": None, **p}) for p in payloads]
    engine.upsert(points)
    for _ in range(2):
        engine.query_batch([DenseQuery([1.0] * DIM, Where(namespace=namespace, alive_at=0.0), 3)], cached=True)
    assert namespace in engine._snapshots._held
    return namespace, [p.id for p in points]


def test_a_fetched_memory_is_one_object_until_a_write_changes_it(engine):
    namespace, ids = _held_namespace(engine, [{"status": "live", "importance": 0.9}, {"status": "live", "importance": 0.5}])
    ask = lambda: engine.query_batch([FetchQuery(Where(namespace=namespace, alive_at=0.0), 10)], cached=True)[0]  # noqa: E731
    first, again = ask(), ask()
    assert [a is b for a, b in zip(first, again)] == [True, True]  # built once, shared
    engine.set_payload([ids[0]], {"importance": 0.1})
    after = ask()
    changed = {h.point.id: h for h in after}
    assert changed[ids[0]].point.payload["importance"] == 0.1  # never the stale object
    assert changed[ids[0]] is not {h.point.id: h for h in first}[ids[0]]
    assert changed[ids[1]] is {h.point.id: h for h in first}[ids[1]]  # the other row kept its own
    engine.delete([ids[1]])
    assert [h.point.id for h in ask()] == [ids[0]]


def test_a_shared_payload_cannot_be_written_and_copies_as_a_plain_dict(engine):
    namespace, _ = _held_namespace(engine, [{"status": "live", "importance": 0.9}])
    [hit] = engine.query_batch([FetchQuery(Where(namespace=namespace, alive_at=0.0), 10)], cached=True)[0]
    payload = hit.point.payload
    for write in (lambda: payload.__setitem__("status", "x"), lambda: payload.update(status="x"),
                  lambda: payload.pop("status"), lambda: payload.clear(), lambda: payload.setdefault("y", 1),
                  lambda: payload.popitem(), lambda: payload.__delitem__("status")):
        with pytest.raises(TypeError):
            write()
    assert payload["status"] == "live"
    for copied in (dict(payload), copy.copy(payload), copy.deepcopy(payload), pickle.loads(pickle.dumps(payload))):
        assert type(copied) is dict and copied == payload
        copied["status"] = "mine"  # a copy is the caller's own
    assert engine.query_batch([FetchQuery(Where(namespace=namespace, alive_at=0.0), 10)], cached=True)[0][0] is hit


def test_a_filters_conditions_are_kept_once_and_follow_a_write_of_a_field_they_read(engine):
    namespace, ids = _held_namespace(engine, [{"status": "live", "importance": 0.9}, {"status": "live", "importance": 0.5}])
    important = Where(namespace=namespace, min_importance=0.8)
    ask = lambda at: engine.query_batch(  # noqa: E731
        [FetchQuery(evolve(important, alive_at=at), 10, order_by="importance")], cached=True)[0]
    assert [h.point.id for h in ask(1.0)] == [ids[0]]
    snapshot = engine._snapshots._held[namespace]
    kept = snapshot._memo[WHERES]
    assert len(kept) == 1 and not next(iter(kept.values())).flags.writeable
    assert [h.point.id for h in ask(2.0)] == [ids[0]] and snapshot._memo[WHERES] is kept  # another time: reused
    engine.set_payload([ids[0]], {"access_count": 1})  # read by no filter: the kept mask survives it
    ask(3.0)
    carried = engine._snapshots._held[namespace]._memo[WHERES]
    assert carried is not kept and carried.keys() == kept.keys() and all(carried[k] is kept[k] for k in kept)
    engine.set_payload([ids[1]], {"importance": 0.95})  # read by the filter: built again
    assert [h.point.id for h in ask(4.0)] == [ids[1], ids[0]]
    assert engine._snapshots._held[namespace]._memo[WHERES] is not kept


def test_a_fetchs_rows_are_kept_across_turns_and_follow_every_write_of_a_field_they_read(engine):
    """The metadata channels' fetches (same filters and orders every turn, another time):
    their rows are kept, reused within an expiry bucket, carried across a write of a field
    none reads, and every answer is the engine's, after writes of each field they read."""
    namespace, ids = _held_namespace(engine, [
        {"status": "live", "importance": 0.9, "kind": "fact", "updated_at": 10.0},
        {"status": "live", "importance": 0.5, "kind": "fact", "updated_at": 10.0},
        {"status": "live", "importance": 0.95, "kind": "goal", "updated_at": 30.0, "expires_at": 20.0}])
    filters = [Where(namespace=namespace, min_importance=0.8), Where(namespace=namespace, kinds=("fact",)),
               Where(namespace=namespace, updated_since=20.0), Where(namespace=namespace)]

    def ask(at: float) -> list[list[str]]:
        queries = [FetchQuery(evolve(w, alive_at=at), 10) for w in filters]
        queries.append(FetchQuery(evolve(filters[3], alive_at=at), 2, order_by="importance"))
        cached, plain = engine.query_batch(queries, cached=True), engine.query_batch(queries)
        assert [[h.point.id for h in hits] for hits in cached] == [[h.point.id for h in hits] for hits in plain]
        return [[h.point.id for h in hits] for hits in cached]

    assert ask(1.0)[0] == sorted([ids[0], ids[2]])
    kept = engine._snapshots._held[namespace]._memo[FETCHES]
    rows = dict(kept)
    assert len(rows) == 5
    ask(2.0)  # the same expiry bucket: the same rows
    assert engine._snapshots._held[namespace]._memo[FETCHES] is kept and all(kept[k] is rows[k] for k in rows)
    assert ids[2] not in ask(25.0)[0]  # expired since: another bucket
    engine.set_payload([ids[0]], {"access_count": 1})  # read by no filter: carried
    ask(2.0)
    carried = engine._snapshots._held[namespace]._memo[FETCHES]
    assert carried is not kept and all(carried[k] is rows[k] for k in rows)
    # Two rows' update times swapped by two writes between turns: the recent window keeps
    # as many rows (the same bucket), not the same ones.
    engine.set_payload([ids[1]], {"updated_at": 25.0})
    engine.set_payload([ids[2]], {"updated_at": 5.0})
    assert ids[1] in ask(2.0)[2]
    for change in ({"importance": 0.99}, {"kind": "goal"}, {"status": "archived"}, {"status": "live"},
                   {"expires_at": 1.0}):
        engine.set_payload([ids[1]], change)  # each read by a filter or the order: its rows found again
        ask(2.0)
        ask(25.0)


def test_an_order_by_a_field_is_kept_and_follows_a_write_of_it(engine):
    namespace, ids = _held_namespace(engine, [{"status": "live", "importance": v} for v in (0.2, 0.9, 0.5)])
    ask = lambda: [h.point.id for h in engine.query_batch(  # noqa: E731
        [FetchQuery(Where(namespace=namespace, alive_at=0.0), 10, order_by="importance")], cached=True)[0]]
    assert ask() == [ids[1], ids[2], ids[0]]
    snapshot = engine._snapshots._held[namespace]
    assert snapshot.sorted_by("importance", True) is snapshot.sorted_by("importance", True)
    engine.set_payload([ids[0]], {"importance": 1.0})
    assert ask() == [ids[0], ids[1], ids[2]]


def test_a_recent_window_and_expiry_are_read_at_each_turns_time(engine):
    namespace, ids = _held_namespace(engine, [
        {"status": "live", "updated_at": 10.0, "expires_at": 20.0}, {"status": "live", "updated_at": 30.0}])
    recent = Where(namespace=namespace)
    ask = lambda at, since: [h.point.id for h in engine.query_batch(  # noqa: E731
        [FetchQuery(evolve(recent, alive_at=at, updated_since=since), 10)], cached=True)[0]]
    assert sorted(ask(15.0, 5.0)) == sorted(ids)
    assert ask(25.0, 5.0) == [ids[1]]  # expired meanwhile, no write
    assert ask(15.0, 20.0) == [ids[1]]  # a later window


def test_a_point_moved_to_another_namespace_leaves_the_first_snapshots_answers(engine):
    first, ids = _held_namespace(engine, [{"status": "live", "importance": 0.9}] * 2)
    second, _ = _held_namespace(engine, [{"status": "live", "importance": 0.9}])
    queries = lambda ns: [FetchQuery(Where(namespace=ns, alive_at=0.0), 10),  # noqa: E731
                          DenseQuery([1.0] * DIM, Where(namespace=ns, alive_at=0.0), 10, payload=False)]
    engine.query_batch(queries(first), cached=True)
    engine.set_payload([ids[0]], {"namespace": second})
    for ns in (first, second):
        mine, theirs = engine.query_batch(queries(ns), cached=True), engine.query_batch(queries(ns))
        assert [[h.point.id for h in hits] for hits in mine] == [[h.point.id for h in hits] for hits in theirs]
        assert all(h.point.payload.get("namespace", ns) == ns for h in mine[0])


def test_the_turns_engine_call_gives_what_the_general_round_gives(engine):
    namespace, _ = _held_namespace(engine, [{"status": "live"}] * 5)
    snapshot = engine._snapshots._held[namespace]
    wide = snapshot.bm25_query(SparseQuery([0, 1, 2, 3], [1.0, 0.7, 0.4, 0.2], Where(namespace=namespace), 20))
    assert engine._scores([wide]) == engine._one_round([wide], frozenset({id(wide)}))


# -- Hit: a slotted class that behaves as the frozen dataclass it was --------------------------


@given(st.text(max_size=5), st.floats(allow_nan=False), st.floats(allow_nan=False))
def test_a_hit_compares_prints_copies_and_refuses_writes_as_a_frozen_dataclass(point_id, score, other):
    hit = Hit(StoredPoint(point_id, {"a": 1}), score)
    assert hit == Hit(StoredPoint(point_id, {"a": 1}), score) and not hit != Hit(StoredPoint(point_id, {"a": 1}), score)
    assert (hit == Hit(StoredPoint(point_id, {"a": 1}), other)) is (score == other)
    assert hit != (hit.point, hit.score)
    assert repr(hit) == f"Hit(point={hit.point!r}, score={score!r})"
    assert copy.copy(hit) == hit and copy.deepcopy(hit) == hit and pickle.loads(pickle.dumps(hit)) == hit
    with pytest.raises(FrozenInstanceError):
        hit.score = other  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del hit.point
    assert not hasattr(hit, "__dict__")
    match hit:
        case Hit(point, found):
            assert point is hit.point and found == score


@given(st.lists(st.tuples(st.integers(0, 7), st.floats(0, 10)), unique_by=lambda p: p[0], max_size=8),
       st.integers(0, 3))
def test_learned_bm25_scores_land_on_their_rows_and_ignore_points_written_since(found, unknown):
    ids = [f"{n:02d}" for n in range(6)]  # rows 0-5; ids 6 and 7 are points written since the read
    snapshot = Snapshot.of("ns", 0, [StoredPoint(i, {}) for i in ids], DIM)
    asked = SparseQuery([1], [1.0], Where(namespace="ns", status=None), 6, payload=False)
    hits = sorted(found, key=lambda p: -p[1])[: 6 + unknown]
    snapshot.learn_bm25_scores(asked, [f"{n:02d}" for n, _ in hits], [s for _, s in hits])
    every, _ = snapshot._bm25[((1,), (1.0,))]
    expected = np.full(6, np.nan)
    for n, s in hits:
        if n < 6:
            expected[n] = s
    assert np.array_equal(every, expected, equal_nan=True)
