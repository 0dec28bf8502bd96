"""Fetches ordered by a payload field give equal keys by ascending id, on every path.

The pre-hook's metadata channels (identity, important, recent) are fetches ordered by
``importance`` or ``updated_at``, answered from a namespace snapshot when one is held and
by the engine otherwise. Equal keys are common (default importances, one time stamped on
a batch), and the engine kept and ordered them as it visited them while the snapshot
keeps them by ascending id: the pre-hook chose other memories with and without a
snapshot. Both engines now settle a cut inside a group of equal keys
(``store/backends/_fetch_order.py``), so all three answers are the plain sort by
(key, id).
"""

from __future__ import annotations

import itertools
import uuid

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from qdrant_client import QdrantClient

from langgraph_memory import MemoryStore
from langgraph_memory.agent.injection import InjectionConfig, VectorCache, select_memories
from langgraph_memory.store.backends import DenseQuery, FetchQuery, StoredPoint, Where
from langgraph_memory.store.backends._snapshot import Snapshot
from langgraph_memory.store.backends.edge import EdgeBackend
from langgraph_memory.store.backends.qdrant import QdrantClientBackend
from langgraph_memory.store.records import namespace_key

DIM = 4
_names = itertools.count()


def _live(point_id: str, namespace: str, importance: float, content: str) -> StoredPoint:
    return StoredPoint(point_id, {"namespace": namespace, "status": "live", "importance": importance,
                                  "content": content}, [1.0] * DIM)


@pytest.fixture(scope="module")
def engines(tmp_path_factory):
    edge = EdgeBackend(tmp_path_factory.mktemp("ties") / "edge")
    edge.setup(dim=DIM, meta={"embedder": "test"})
    local = QdrantClientBackend(QdrantClient(":memory:"))
    local.setup(dim=DIM, meta={"embedder": "test"})
    yield {"edge": edge, "qdrant": local}
    edge.close()
    local.close()


absent = object()
points = st.lists(st.fixed_dictionaries({
    "importance": st.sampled_from([0.3, 0.6, 0.9, absent]),  # three values: ties on purpose
    "updated_at": st.sampled_from([1000.0, 1000.0, 2000.0]),  # one time stamped on a batch
    "status": st.sampled_from(["live", "live", "archived"]),
    "expires_at": st.sampled_from([None, None, 1500.0]),  # the store writes the key, null or a time
}), min_size=1, max_size=40)
fetches = st.lists(st.tuples(
    st.sampled_from(["importance", "updated_at"]), st.booleans(), st.integers(1, 45),
    st.sampled_from([None, 1200.0]),  # alive_at: the expiry conditions the channels carry
), min_size=1, max_size=4)


def _sorted(stored: list[StoredPoint], key: str, descending: bool, alive_at: float | None, limit: int) -> list[str]:
    """The plain answer: the matching points by (key, id), cut."""
    kept = [p for p in stored if p.payload["status"] == "live" and key in p.payload
            and (alive_at is None or p.payload["expires_at"] is None or p.payload["expires_at"] > alive_at)]
    kept.sort(key=lambda p: ((-1 if descending else 1) * p.payload[key], p.id))
    return [p.id for p in kept[:limit]]


@pytest.mark.parametrize("engine", ["edge", "qdrant"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=points, asked=fetches, in_two=st.booleans())
def test_equal_keys_come_by_ascending_id_on_the_engine_as_on_a_snapshot(engines, engine, rows, asked, in_two):
    backend = engines[engine]
    namespace = f"ties-{next(_names)}"
    rng = np.random.default_rng(len(rows))
    stored = []
    for payload in rows:
        payload = {k: v for k, v in payload.items() if v is not absent}
        stored.append(StoredPoint(str(uuid.uuid4()), {**payload, "namespace": namespace, "content": "x"},
                                  rng.normal(size=DIM).tolist()))
    other = StoredPoint(str(uuid.uuid4()), {"namespace": "other", "status": "live", "importance": 0.9,
                                            "updated_at": 1000.0}, [1.0] * DIM)
    half = len(stored) // 2
    backend.upsert([*stored[:half], other])
    if in_two:
        backend.optimize()  # Edge: the points in two segments
    backend.upsert(stored[half:])
    queries = [FetchQuery(Where(namespace=namespace, alive_at=alive_at), limit, order_by=key, descending=descending)
               for key, descending, limit, alive_at in asked]
    near = DenseQuery([1.0] * DIM, Where(namespace=namespace), 3, payload=False)
    answers = backend.query_batch([near, *queries])  # in one batch with a query that is no fetch
    snapshot = Snapshot.of(namespace, 0, stored, DIM)
    for query, (key, descending, limit, alive_at), hits in zip(queries, asked, answers[1:]):
        expected = _sorted(stored, key, descending, alive_at, limit)
        assert [h.point.id for h in hits] == expected
        assert [h.point.id for h in snapshot.answer(query, {})] == expected
        assert all(h.point.payload["namespace"] == namespace for h in hits)
    assert len(answers[0]) == min(3, sum(p.payload["status"] == "live" for p in stored))


@pytest.mark.parametrize("engine", ["edge", "qdrant"])
def test_a_page_inside_a_group_reads_only_what_fits_and_keeps_its_payload_choice(engines, engine):
    backend = engines[engine]
    namespace = f"ties-{next(_names)}"
    ids = sorted(str(uuid.uuid4()) for _ in range(12))
    above = _live(ids[11], namespace, 1.0, "a")
    group = [_live(i, namespace, 0.5, "g") for i in reversed(ids[:11])]
    backend.upsert([*group, above])
    [hits] = backend.query_batch([FetchQuery(Where(namespace=namespace), 4, order_by="importance",
                                             payload=("importance",), with_vectors=True)])
    assert [h.point.id for h in hits] == [ids[11], *ids[:3]]
    assert all(set(h.point.payload) == {"importance"} and h.point.dense is not None for h in hits)
    assert all(h.score == 0.0 for h in hits)


def _decisions(store: MemoryStore, namespace, queries) -> list[list[tuple]]:
    config = InjectionConfig(important_min=0.5)
    out = []
    for q in queries:
        injection = select_memories(store, namespace=namespace, query=q, cache=VectorCache(), config=config)
        out.append([(c.memory.id, c.channel) for c in injection.chosen])
    return out


def test_the_prehook_chooses_the_same_among_equals_with_and_without_a_snapshot(tmp_path, fake_embeddings):
    from datetime import datetime, timezone

    namespace = ("memories", "ties")
    store = MemoryStore.open(tmp_path / "s", embeddings=fake_embeddings)
    try:
        rng = np.random.default_rng(5)
        written = store.remember_many([
            {"content": f"fact number {i} about {w}", "importance": float(rng.choice([0.3, 0.6, 0.9])),
             **({"memory_type": "identity"} if i % 4 == 0 else {})}
            for i, w in enumerate(["tea", "cats", "maps", "jazz", "rain", "snow", "code", "dogs"] * 4)
        ], namespace=namespace, dedup=False)
        ids = [r.memory.id for r in written]
        when = datetime(2026, 6, 1, tzinfo=timezone.utc)
        store.record_access(ids[::3], namespace=namespace, injected=True, now=when)  # one time for a batch
        queries = ["tea", None, "what about dogs and rain", "jazz"]
        snapshots = store._backend._snapshots
        cap = snapshots.max_points
        snapshots.max_points = 0
        engine = _decisions(store, namespace, queries)
        snapshots.max_points = cap
        _decisions(store, namespace, queries)  # searched: the namespace is read
        assert namespace_key(namespace) in snapshots._held
        held = _decisions(store, namespace, queries)
        assert held == engine
        assert any(channel == "important" for chosen in held for _, channel in chosen)
    finally:
        store.close()


def test_a_point_rewritten_between_the_two_reads_is_not_given_twice():
    """A point the page had above the group, whose key a write set to the group's before the
    group was read, comes once: where the first read put it (the answer is then one short,
    as any answer read in two steps across a write may be)."""
    from types import SimpleNamespace as Row

    from langgraph_memory.store.backends._fetch_order import settled, widened

    query = FetchQuery(Where(namespace="n"), 3, order_by="importance")
    page = [Row(id="b", order_value=0.9), Row(id="c", order_value=0.5), Row(id="d", order_value=0.5),
            Row(id="e", order_value=0.5)]
    asked: list[FetchQuery] = []

    def run(reads):
        asked.extend(reads)
        group = [Row(id="a", order_value=None), Row(id="b", order_value=None)][: reads[0].limit]
        return [group, [Row(id=i, order_value=None) for i in reads[1].where.ids]]  # b still matches

    [rows] = settled([query], [page], run)
    assert [r.id for r in rows] == ["b", "a"]
    assert widened([query])[0].limit == 4
    [tie, again] = asked
    assert tie.order_by is None and tie.limit == 2 and tie.where.ranges == (("importance", 0.5, None, 0.5, None),)
    assert again.order_by is None and again.limit == 1 and again.where.ranges == ()
    assert again.where.ids == ("b",) and again.where.namespace == "n"
    assert again.payload is False and again.with_vectors is False  # which still match: ids only


def test_an_engine_giving_no_order_values_keeps_its_own_order():
    from types import SimpleNamespace as Row

    from langgraph_memory.store.backends._fetch_order import settled

    query = FetchQuery(Where(namespace="n"), 2, order_by="importance")
    page = [Row(id="c", order_value=None), Row(id="a", order_value=None), Row(id="b", order_value=None)]
    [rows] = settled([query], [page], lambda ties: pytest.fail("no group to read without values"))
    assert [r.id for r in rows] == ["c", "a"]


@pytest.mark.parametrize("engine", ["edge", "qdrant"])
def test_a_memory_superseded_between_the_two_reads_never_comes_with_its_replacement(engines, engine):
    """A page cut inside a group of equal keys is read in two steps. A memory the first read
    put above the group, archived between the reads together with its replacement (one
    write, as a supersede is), must not come back beside that replacement from the group
    read: no single state of the store held both live. Every row answered holds as of the
    last read (the answer may be one short, as a two-step read across a write may be)."""
    from langgraph_memory.store.backends._fetch_order import settled, widened

    backend = engines[engine]
    namespace = f"ties-{next(_names)}"
    ids = sorted(str(uuid.uuid4()) for _ in range(7))
    old = _live(ids[6], namespace, 0.9, "old")
    group = [_live(i, namespace, 0.5, "g") for i in ids[1:6]]
    backend.upsert([old, *group])
    query = FetchQuery(Where(namespace=namespace), 3, order_by="importance")
    engine_read = backend._records if engine == "edge" else backend._points
    first = engine_read(widened([query]))
    assert [r.id for r in first[0]][:1] in ([uuid.UUID(ids[6])], [ids[6]])  # the page ends inside the group

    def write_then_read(ties):
        archived = StoredPoint(old.id, {**old.payload, "status": "archived"}, old.dense)
        new = _live(ids[0], namespace, 0.5, "new")
        backend.upsert([archived, new])  # the supersede: one write
        return engine_read(ties)

    [rows] = settled([query], first, write_then_read)
    got = [str(r.id) for r in rows]
    assert not {ids[6], ids[0]} <= set(got), got
    live = {p.id for p in backend.retrieve(got) if p.payload["status"] == "live"}
    assert set(got) <= live, got


other_rows = st.lists(st.fixed_dictionaries({
    "importance": st.sampled_from([0.3, 0.6, 0.9]),
    "memory_type": st.sampled_from(["identity", "fact"]),
    "category": st.sampled_from(["a", "b"]),
    "mine": st.booleans(),
}), min_size=8, max_size=30)


@pytest.mark.parametrize("engine", ["edge", "qdrant"])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=other_rows, limit=st.integers(1, 8), descending=st.booleans(), by_id=st.booleans(),
       either=st.booleans(), picked=st.data())
def test_the_reads_after_a_cut_inside_a_group_keep_the_whole_filter(engines, engine, rows, limit, descending, by_id,
                                                                    either, picked):
    """The group's read and the re-read of the points above it add conditions to the fetch's
    filter and drop none: another namespace's points of the same keys (and smaller ids),
    points outside the fetch's ``ids`` or its ``any_of`` never come."""
    backend = engines[engine]
    mine, theirs = f"ties-{next(_names)}", f"ties-{next(_names)}"
    stored = [StoredPoint(str(uuid.uuid4()), {"namespace": mine if r["mine"] else theirs, "status": "live",
                                              "importance": r["importance"], "memory_type": r["memory_type"],
                                              "category": r["category"], "content": "x"}, [1.0] * DIM)
              for r in rows]
    backend.upsert(stored)
    ids = None
    if by_id:  # ids of both namespaces: the namespace condition must still hold
        ids = tuple(picked.draw(st.lists(st.sampled_from([p.id for p in stored]), unique=True, min_size=len(stored) // 2)))
    any_of = (Where(status=None, memory_types=("identity",)), Where(status=None, categories=("a",))) if either else ()
    where = Where(namespace=mine, ids=ids, any_of=any_of)
    [hits] = backend.query_batch([FetchQuery(where, limit, order_by="importance", descending=descending)])
    kept = [p for p in stored if p.payload["namespace"] == mine and (ids is None or p.id in ids)
            and (not either or p.payload["memory_type"] == "identity" or p.payload["category"] == "a")]
    kept.sort(key=lambda p: ((-1 if descending else 1) * p.payload["importance"], p.id))
    assert [h.point.id for h in hits] == [p.id for p in kept[:limit]]
