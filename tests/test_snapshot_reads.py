"""Small namespaces served from a snapshot on Qdrant Edge (``store/backends/_snapshot.py``).

A snapshot answers dense and fetch queries in numpy: for any payloads and any filter it
must keep exactly the points the engine keeps, in the engine's order, and every write
that returned before a read must be visible to it, whatever thread made it.
"""

from __future__ import annotations

import itertools
import threading
import uuid

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import MemoryStore
from langgraph_memory.agent.injection import InjectionConfig, VectorCache, select_memories
from langgraph_memory.store._reads import live_where
from langgraph_memory.store.backends import DenseQuery, FetchQuery, StoredPoint, Where
from langgraph_memory.store.backends import _snapshot_scores as snapshot_module
from langgraph_memory.store.backends._snapshot import Snapshot
from langgraph_memory.store.backends._snapshots import WriteLog, concerning
from langgraph_memory.store.backends.edge import EdgeBackend
from langgraph_memory.store.records import namespace_key
from tests.snapshot_writes import rewrite

DIM = 8
NS = "snap"
_names = itertools.count()


@pytest.fixture(scope="module")
def engine(tmp_path_factory):
    backend = EdgeBackend(tmp_path_factory.mktemp("snapshots") / "edge")
    backend.setup(dim=DIM, meta={"embedder": "test"})
    yield backend
    backend.close()


absent = object()
times = st.sampled_from([0.0, 10.0, 20.0, 30.0])  # few values: ties on purpose
payloads = st.fixed_dictionaries({
    "status": st.sampled_from(["live", "superseded", "archived"]),
    "kind": st.sampled_from(["fact", "self", "goal"]),
    "memory_type": st.sampled_from(["fact", "identity", "event"]),
    "category": st.sampled_from([None, "context", "capability"]),
    "subjects": st.lists(st.sampled_from(["ann", "bob", "cat"]), max_size=2, unique=True),
    "importance": st.sampled_from([0.3, 0.6, 0.8, 1.0, 1]),
    "created_at": times,
    "updated_at": times,
    "expires_at": st.sampled_from([absent, None, 5.0, 15.0, 25.0]),
    "channel": st.sampled_from([absent, None, [], "c1", "c2"]),
})
maybe = lambda s: st.none() | s  # noqa: E731
values = lambda *v: maybe(st.lists(st.sampled_from(v), min_size=1, max_size=2, unique=True).map(tuple))  # noqa: E731
conditions = dict(
    status=st.sampled_from([None, "live", ("live", "archived")]),
    kinds=values("fact", "self", "goal"),
    memory_types=values("fact", "identity", "event"),
    categories=values("context", "capability"),
    subjects=values("ann", "bob", "dan"),
    min_importance=maybe(st.sampled_from([0.5, 0.8, 1.0])),
    updated_since=maybe(times),
    created_since=maybe(times),
    created_until=maybe(times),
    alive_at=maybe(st.sampled_from([0.0, 10.0, 20.0, 30.0])),
    expired_at=maybe(st.sampled_from([10.0, 20.0])),
    channel_scope=maybe(st.sampled_from(["c1", "c2"])),
)
sub_wheres = st.builds(Where, status=st.none(), **{k: v for k, v in conditions.items() if k != "status"})
wheres = st.builds(Where, **conditions, any_of=st.lists(sub_wheres, max_size=2).map(tuple))


def _load(engine, points: list[dict]) -> tuple[str, list[StoredPoint]]:
    """``points`` written into a namespace of their own (and one into another namespace)."""
    namespace = f"{NS}-{next(_names)}"
    rng = np.random.default_rng(len(points))
    stored = []
    for payload in points:
        payload = {k: v for k, v in payload.items() if v is not absent}
        vector = rng.normal(size=DIM)
        stored.append(StoredPoint(str(uuid.uuid4()), {**payload, "namespace": namespace, "content": "x"},
                                  (vector / np.linalg.norm(vector)).tolist()))
    elsewhere = StoredPoint(str(uuid.uuid4()), {"namespace": "other", "status": "live", "content": "y"}, [1.0] * DIM)
    engine.upsert([*stored, elsewhere])
    return namespace, stored


def _snapshot(engine, namespace: str) -> Snapshot:
    return Snapshot.of(namespace, 0, engine._read_namespace(namespace, 1000) or [], DIM)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(points=st.lists(payloads, min_size=1, max_size=25), where=wheres, limit=st.integers(1, 30))
def test_a_snapshot_keeps_what_the_engine_keeps_in_its_order(engine, points, where, limit):
    namespace, stored = _load(engine, points)
    where = Where(**{**where.__dict__, "namespace": namespace})
    snapshot = _snapshot(engine, namespace)
    [by_id] = engine.query_batch([FetchQuery(where, limit)])
    assert [h.point.id for h in snapshot.answer(FetchQuery(where, limit), {})] == [h.point.id for h in by_id]
    # Ordered by a float field: the same points in the same order, equal values by ascending
    # id on both (the engine's cut inside a group of equal values settled: _fetch_order).
    for descending in (False, True):
        [ordered] = engine.query_batch([FetchQuery(where, limit, order_by="updated_at", descending=descending)])
        mine = snapshot.answer(FetchQuery(where, limit, order_by="updated_at", descending=descending), {})
        assert [h.point.id for h in mine] == [h.point.id for h in ordered]
    # Nearest neighbours: the same points, the same order, the same cosines.
    query = stored[0].dense
    [near] = engine.query_batch([DenseQuery(query, where, limit, payload=False)])
    local = snapshot.answer(DenseQuery(query, where, limit, payload=False), {})
    assert [h.point.id for h in local] == [h.point.id for h in near]
    assert [h.score for h in local] == pytest.approx([h.score for h in near], abs=1e-6)
    # A large snapshot scores with numpy's own loop instead of BLAS: the same answer.
    saved, snapshot_module.OWN_LOOP_FROM = snapshot_module.OWN_LOOP_FROM, 0
    try:
        looped = snapshot.answer(DenseQuery(query, where, limit, payload=False), {})
    finally:
        snapshot_module.OWN_LOOP_FROM = saved
    assert [h.point.id for h in looped] == [h.point.id for h in near]
    assert [h.score for h in looped] == pytest.approx([h.score for h in near], abs=1e-6)


def test_payloads_and_vectors_come_as_asked(engine):
    namespace, stored = _load(engine, [{"status": "live", "subjects": ["ann"], "importance": 0.7}])
    snapshot = _snapshot(engine, namespace)
    where = Where(namespace=namespace)
    [whole] = snapshot.answer(FetchQuery(where, 1), {})
    [some] = snapshot.answer(FetchQuery(where, 1, payload=("subjects", "missing")), {})
    [none] = snapshot.answer(DenseQuery(stored[0].dense, where, 1, with_vectors=True, payload=False), {})
    assert whole.point.payload == stored[0].payload and whole.point.dense is None
    assert some.point.payload == {"subjects": ["ann"]}
    assert none.point.payload == {} and np.allclose(none.point.dense, stored[0].dense, atol=1e-6)
    with pytest.raises(TypeError):  # shared with later turns' answers: read-only
        whole.point.payload["status"] = "changed"
    with pytest.raises(TypeError):
        whole.point.payload.update(status="changed")
    assert snapshot.answer(FetchQuery(where, 1), {})[0].point.payload["status"] == "live"
    assert snapshot.payloads[0]["status"] == "live"
    mine = dict(whole.point.payload)  # a copy is the caller's own
    mine["status"] = "changed"
    assert snapshot.answer(FetchQuery(where, 1), {})[0].point.payload["status"] == "live"


def test_the_write_log_says_what_changed_or_that_anything_may_have():
    log = WriteLog(keep=3)
    assert log.since(0) == (0, [])
    log.wrote(["a"], ["ns"])
    log.wrote(["b", "c"], (), vectors=False, patch={"k": 1})
    assert log.since(1) == (2, [(frozenset({"b", "c"}), frozenset(), False, {"k": 1})])
    assert log.since(0) == (2, [(frozenset({"b", "c"}), frozenset(), False, {"k": 1}),
                                (frozenset({"a"}), frozenset({"ns"}), True, None)])
    log.wrote(None)  # a delete by filter
    assert log.since(1) == (3, None) and log.since(3) == (3, [])
    log.wrote(["d"], None)
    log.wrote(["e"])
    assert log.since(4) == (5, [(frozenset({"e"}), frozenset(), True, None)])
    assert log.since(0) == (5, None)  # older than what the log keeps: read everything again


def test_a_snapshot_re_reads_only_the_writes_that_concern_it(engine):
    namespace, stored = _load(engine, [{"status": "live", "importance": 0.5}, {"status": "live", "importance": 0.6}])
    snapshot = _snapshot(engine, namespace)
    held, other = stored[0].id, str(uuid.uuid4())
    writes = [(frozenset({other}), frozenset({"elsewhere"}), True, None), (frozenset({held}), frozenset(), False, None)]
    assert concerning(snapshot, writes) == ({held}, False, None)
    assert concerning(snapshot, [(frozenset({other}), frozenset({namespace}), True, None)]) == ({other}, True, None)
    assert concerning(snapshot, [(frozenset({other}), None, True, None)]) == ({other}, True, None)
    newest_first = [(frozenset({held}), frozenset(), False, {"a": 2}), (frozenset({held}), frozenset(), False, {"a": 1})]
    assert concerning(snapshot, newest_first) == ({held}, False, [([held], {"a": 1}), ([held], {"a": 2})])
    # A payload changed in place: the rows derived from it follow, the others are kept.
    snapshot.match("status", ("live",))
    before = snapshot.floats("importance")
    engine.set_payload([held], {"status": "archived", "importance": 0.9})
    fresh = snapshot.patched(1, engine.retrieve_dense([held], False), {held}, vectors=False)
    row = fresh.row[held]
    assert fresh.match("status", ("live",)).tolist() == [r != row for r in range(2)]
    assert fresh.match("status", ("archived",)).tolist() == [r == row for r in range(2)]
    assert fresh.floats("importance")[row] == 0.9 and before[row] == 0.5  # the old snapshot is unchanged
    assert fresh.vectors is snapshot.vectors  # the vectors did not change: not copied


# -- through the store: the pre-hook on a snapshot --------------------------------------------

USER = ("memories", "snap-user")


@pytest.fixture
def edge_store(tmp_path, fake_embeddings):
    with MemoryStore.open(tmp_path / "store", embeddings=fake_embeddings) as store:
        yield store


def _chosen(store, text: str, namespace=USER) -> list[str]:
    injection = select_memories(store, namespace=namespace, query=store.embed_query(text),
                                config=InjectionConfig(channels=("similar",)), cache=VectorCache())
    return [c.memory.content for c in injection.chosen]


def _held(store) -> set[str]:
    return set(store._backend._snapshots._held)


def test_a_namespace_searched_again_is_served_from_its_snapshot_and_sees_every_write(edge_store):
    store = edge_store
    store.remember_many([{"content": f"note number {i}"} for i in range(5)], namespace=USER, dedup=False)
    key = namespace_key(USER)
    assert "note number 3" in _chosen(store, "note number 3")
    assert key not in _held(store)  # searched once: not read whole
    assert "note number 3" in _chosen(store, "note number 3")
    assert key in _held(store)

    new = store.remember("a brand new fact", namespace=USER, dedup=False).memory
    assert "a brand new fact" in _chosen(store, "a brand new fact")
    store.delete(new.id, namespace=USER, reason="test")  # a soft delete: a payload change
    assert "a brand new fact" not in _chosen(store, "a brand new fact")
    store.erase(USER)  # a delete by filter
    assert _chosen(store, "note number 3") == []
    assert key in _held(store)


def test_access_counts_recorded_after_a_turn_reach_the_snapshot_as_stored(edge_store):
    store = edge_store
    store.remember_many([{"content": f"fact {i}"} for i in range(4)], namespace=USER, dedup=False)
    for _ in range(2):
        injection = select_memories(store, namespace=USER, query=store.embed_query("fact 2"), cache=VectorCache())
    ids = [c.memory.id for c in injection.chosen]
    for turn in range(3):  # what the post-hook records after each turn; the last one reads through
        store.record_access(ids, namespace=USER, injected=True)
        select_memories(store, namespace=USER, query=store.embed_query("fact 2"), cache=VectorCache())
    snapshot = store._backend._snapshots._held[namespace_key(USER)]
    stored = {p.id: p.payload for p in store._backend.retrieve(ids)}
    assert {i: snapshot.payloads[snapshot.row[i]] for i in ids} == stored
    assert all(snapshot.memory(snapshot.row[i]).injection_count == 3 for i in ids)


def test_expiry_needs_no_write_to_be_seen(edge_store):
    from datetime import timedelta

    from langgraph_memory.store.records import utcnow

    store = edge_store
    store.remember("short lived", namespace=USER, dedup=False, ttl=timedelta(days=1))
    for _ in range(2):
        assert _chosen(store, "short lived") == ["short lived"]
    later = utcnow() + timedelta(days=2)
    [hits] = store._backend.query_batch(
        [DenseQuery(store.embed_query("short lived").dense, Where(namespace=namespace_key(USER), alive_at=later.timestamp()), 5)],
        cached=True)
    assert hits == []


def test_writes_from_other_threads_are_seen_once_they_return(edge_store):
    store = edge_store
    store.remember_many([{"content": f"seed {i}"} for i in range(3)], namespace=USER, dedup=False)
    for _ in range(2):
        _chosen(store, "seed 1")
    errors: list[BaseException] = []
    written: list[str] = []

    def writer() -> None:
        try:
            for i in range(40):
                written.append(store.remember(f"written {i}", namespace=USER, dedup=False).memory.id)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def reader() -> None:
        try:
            while writer_thread.is_alive():
                _chosen(store, "written 7")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    writer_thread = threading.Thread(target=writer)
    readers = [threading.Thread(target=reader) for _ in range(2)]
    writer_thread.start()
    for r in readers:
        r.start()
    writer_thread.join()
    for r in readers:
        r.join()
    assert errors == []
    where = live_where(USER)
    [cached] = store._backend.query_batch([FetchQuery(where, 100)], cached=True)
    [engine] = store._backend.query_batch([FetchQuery(where, 100)])
    assert [h.point.id for h in cached] == [h.point.id for h in engine]
    assert set(written) <= {h.point.id for h in cached}


def test_a_namespace_past_the_cap_is_read_from_the_engine(edge_store):
    store = edge_store
    store._backend._snapshots.max_points = 3
    store.remember_many([{"content": f"item {i}"} for i in range(5)], namespace=USER, dedup=False)
    for _ in range(3):
        assert "item 4" in _chosen(store, "item 4")
    assert namespace_key(USER) not in _held(store)


@pytest.mark.integration
def test_the_prehook_chooses_the_same_with_and_without_snapshots(tmp_path, embeddings):
    store = MemoryStore.open(tmp_path / "real", embeddings=embeddings)
    try:
        store.remember("Alice is a nurse in Lyon", namespace=USER, memory_type="identity", subjects=["alice"])
        store.remember("Alice is allergic to penicillin", namespace=USER, importance=0.95, subjects=["alice"])
        store.remember_many([
            {"content": "Alice plays the cello on weekends", "subjects": ["alice"]},
            {"content": "Bob went hiking in the Alps last May", "subjects": ["bob"]},
            {"content": "Alice's cat is called Miso"},
            {"content": "The team meets every Monday at 9"},
        ], namespace=USER, dedup=False)
        queries = ["what does Alice play?", "where did Bob go in May?", "hello", "is Alice allergic to anything?"]
        snapshots = store._backend._snapshots

        def decisions() -> list[list[tuple]]:
            out = []
            for q in queries:
                injection = select_memories(store, namespace=USER, query=store.embed_query(q), cache=VectorCache())
                out.append([(c.memory.id, c.channel, c.reason, round(c.score or 0, 5)) for c in injection.chosen])
            return out

        cap = snapshots.max_points
        snapshots.max_points = 0
        engine = decisions()
        snapshots.max_points = cap
        decisions()  # the first search of the namespace reads it from the engine
        assert namespace_key(USER) in _held(store)
        assert decisions() == engine
    finally:
        store.close()


@given(st.uuids())
def test_engine_ids_read_as_their_canonical_string(point_id):
    from langgraph_memory.store.backends._base import id_string

    assert id_string(point_id) == str(point_id) == id_string(point_id)


@pytest.mark.parametrize("raw, expected", [("", 2_000), (" 0 ", 0), ("500", 500), ("x", None), ("-1", None)])
def test_the_snapshot_cap_comes_from_the_environment_or_is_refused_clearly(monkeypatch, raw, expected):
    from langgraph_memory.store.backends._snapshots import SNAPSHOT_POINTS_ENV, Snapshots

    monkeypatch.setenv(SNAPSHOT_POINTS_ENV, raw)
    if expected is None:
        with pytest.raises(ValueError, match=SNAPSHOT_POINTS_ENV):
            Snapshots()
    else:
        assert Snapshots().max_points == expected


@pytest.mark.parametrize("points, budget, cap, total", [
    ("", "", 2_000, 20_000), ("10000", "", 10_000, 20_000), ("10000", "5000", 5_000, 5_000),
    ("500", "0", 0, 0), ("", "x", None, None), ("", "-3", None, None),
])
def test_the_snapshots_budget_is_in_points_whatever_the_cap(monkeypatch, points, budget, cap, total):
    from langgraph_memory.store.backends._snapshots import SNAPSHOT_BUDGET_ENV, SNAPSHOT_POINTS_ENV, Snapshots

    monkeypatch.setenv(SNAPSHOT_POINTS_ENV, points)
    monkeypatch.setenv(SNAPSHOT_BUDGET_ENV, budget)
    if cap is None:
        with pytest.raises(ValueError, match=SNAPSHOT_BUDGET_ENV):
            Snapshots()
    else:
        snapshots = Snapshots()
        # A larger cap holds fewer namespaces, not more points; no namespace past the budget.
        assert (snapshots.max_points, snapshots.budget) == (cap, total)


def test_a_larger_cap_holds_fewer_namespaces_not_more_points(edge_store):
    store = edge_store
    snapshots = store._backend._snapshots
    snapshots.max_points, snapshots.budget = 8, 16  # two namespaces of eight
    users = [("memories", f"big-{u}") for u in range(3)]
    for ns in users:
        store.remember_many([{"content": f"{ns[1]} note {i}"} for i in range(8)], namespace=ns, dedup=False)
    for ns in users:
        for _ in range(2):
            assert f"{ns[1]} note 1" in _chosen(store, f"{ns[1]} note 1", namespace=ns)
    # The third would push the total past 16 points while the other two are busy: engine reads.
    assert _held(store) == {namespace_key(ns) for ns in users[:2]}
    assert sum(len(s.ids) for s in snapshots._held.values()) <= 16


def test_busy_snapshots_are_not_dropped_for_another_namespace(edge_store):
    store = edge_store
    snapshots = store._backend._snapshots
    snapshots.max_points, snapshots.budget = 4, 40  # room for ten namespaces of four
    users = [("memories", f"busy-{u}") for u in range(11)]
    for ns in users:
        store.remember_many([{"content": f"{ns[1]} note {i}"} for i in range(4)], namespace=ns, dedup=False)
    for ns in users:
        for _ in range(2):
            _chosen(store, f"{ns[1]} note 1", namespace=ns)
    held = _held(store)
    # The first ten were read whole and are still in use: the eleventh reads the engine.
    assert held == {namespace_key(ns) for ns in users[:10]}
    assert _chosen(store, f"{users[10][1]} note 1", namespace=users[10])  # and still finds its memories


def test_idle_snapshots_make_room_for_a_busy_namespace(edge_store, monkeypatch):
    from langgraph_memory.store.backends import _snapshots

    monkeypatch.setattr(_snapshots, "RECENT_S", 0.0)  # every snapshot counts as idle
    store = edge_store
    store._backend._snapshots.max_points, store._backend._snapshots.budget = 4, 40
    users = [("memories", f"idle-{u}") for u in range(11)]
    for ns in users:
        store.remember_many([{"content": f"{ns[1]} note {i}"} for i in range(4)], namespace=ns, dedup=False)
        for _ in range(2):
            _chosen(store, f"{ns[1]} note 1", namespace=ns)
    held = _held(store)
    assert namespace_key(users[10]) in held and namespace_key(users[0]) not in held and len(held) == 10


def test_a_larger_namespace_is_read_whole_only_after_as_many_searches_as_its_hundreds(edge_store, monkeypatch):
    from langgraph_memory.store.backends import _snapshots

    monkeypatch.setattr(_snapshots, "POINTS_PER_SEARCH", 2)  # 7 points: read whole at the 4th search
    store = edge_store
    store.remember_many([{"content": f"paced note {i}"} for i in range(7)], namespace=USER, dedup=False)
    held = []
    for _ in range(4):
        assert "paced note 3" in _chosen(store, "paced note 3")
        held.append(namespace_key(USER) in _held(store))
    assert held == [False, False, False, True]


write_ops = st.lists(st.one_of(
    st.tuples(st.just("insert"), st.sampled_from(["mine", "other"]), payloads),
    st.tuples(st.just("set"), st.integers(0, 30), st.fixed_dictionaries(
        {}, optional={"importance": st.sampled_from([0.1, 0.9]), "status": st.sampled_from(["live", "archived"]),
                      "subjects": st.lists(st.sampled_from(["ann", "bob"]), max_size=2)})),
    st.tuples(st.just("move"), st.integers(0, 30), st.sampled_from(["mine", "other"])),
    st.tuples(st.just("delete"), st.integers(0, 30), st.none()),
    st.tuples(st.just("erase_archived"), st.none(), st.none()),
), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=write_ops, where=wheres)
def test_after_any_writes_a_snapshot_answers_as_the_engine(engine, ops, where):
    """Inserts into this namespace or another, payload changes (plain values are applied
    without a read, lists are re-read), moves between namespaces, deletes by id and by
    filter, in any order: the snapshot, brought up to date, keeps what the engine keeps."""
    namespace, stored = _load(engine, [{"status": "live"}, {"status": "archived", "subjects": ["ann"]}])
    names = {"mine": namespace, "other": f"{namespace}-other"}
    ids = [p.id for p in stored]
    snapshots = engine._snapshots
    get = lambda: snapshots.get(namespace, engine._read_namespace, engine.retrieve_dense, DIM,  # noqa: E731
                                count=engine._count_namespace)
    get(), get()  # searched twice: read whole
    where = Where(**{**where.__dict__, "namespace": namespace})
    # Not _load's seed: with it, two inserts repeat the loaded vectors exactly, and the engine
    # and the snapshot may order two equal cosines either way (a tie, not a stale snapshot).
    rng = np.random.default_rng(10_000 + len(ops))
    for op, arg, value in ops:
        if op == "insert":
            new = str(uuid.uuid4())
            payload = {k: v for k, v in value.items() if v is not absent}
            engine.upsert([StoredPoint(new, {**payload, "namespace": names[arg], "content": "x"},
                                       rng.normal(size=DIM).tolist())])
            ids.append(new)
        elif not rewrite(engine, op, arg, value, ids, names):
            engine.delete_where(Where(namespace=namespace, status="archived"))
        snapshot = get()
        assert snapshot is not None
        [expected] = engine.query_batch([FetchQuery(where, 100)])
        assert [h.point.id for h in snapshot.answer(FetchQuery(where, 100), {})] == [h.point.id for h in expected]
        [near] = engine.query_batch([DenseQuery([1.0] * DIM, where, 5, payload=False)])
        local = snapshot.answer(DenseQuery([1.0] * DIM, where, 5, payload=False), {})
        assert [h.point.id for h in local] == [h.point.id for h in near]
