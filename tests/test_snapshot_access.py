"""The post-hook's access counts reaching a held snapshot (``EdgeBackend.set_payloads``,
``Snapshots.forward``, ``Snapshot.with_patches``, ``RowObjects.rewritten``): applied in
the writing thread, without a read, each rewritten row keeping its memory with the counts
read again. Whatever is written, every memory, point and hit a snapshot hands out is
the one built from the engine's own payload, and every answer is the engine's.
"""

from __future__ import annotations

import itertools
import json
import threading
import uuid
from datetime import datetime, timezone

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store.backends import DenseQuery, FetchQuery, Where
from langgraph_memory.store.backends._base import StoredPoint
from langgraph_memory.store.records import Memory
from tests.test_snapshot_reads import DIM, engine  # noqa: F401  (a small engine of its own, per module)

_names = itertools.count()
_T0 = datetime(2024, 1, 1, tzinfo=timezone.utc)

# What record_access writes, and plain values it never writes (a string where a count
# belongs: that memory then does not parse, as the plain path finds), and now and then a
# field of the fact itself (its memory is then built again).
counts = st.one_of(st.integers(0, 2**40), st.booleans(), st.sampled_from(["3", "x"]))
times = st.one_of(st.floats(-1e13, 1e13, allow_nan=False), st.integers(-10**12, 10**12))
bookkeeping = st.fixed_dictionaries({}, optional={
    "access_count": counts,
    "injection_count": counts,
    "vitality": st.one_of(st.floats(0, 1), st.integers(0, 1), st.just("high")),
    "last_accessed_at": times,
    "vitality_at": times,
    "importance": st.sampled_from([0.2, 0.9]),
    "status": st.sampled_from(["live", "archived"]),
    "source": st.text(max_size=3),
}).filter(bool)
steps = st.lists(st.one_of(
    # A batch as record_access writes it: per memory its own values.
    st.tuples(st.just("access"), st.lists(st.tuples(st.integers(0, 5), bookkeeping), min_size=1, max_size=4)),
    st.tuples(st.just("one"), st.lists(st.tuples(st.integers(0, 5), bookkeeping), min_size=1, max_size=1)),
    st.tuples(st.just("read"), st.sampled_from([0.0, 1e9])),
), min_size=1, max_size=10)


def _memories(namespace: str, rng: np.random.Generator) -> list[StoredPoint]:
    out = []
    for n in range(6):
        memory = Memory(id=str(uuid.uuid4()), content=f"fact {n}", namespace=tuple(namespace.split("/")),
                        importance=0.6, created_at=_T0, updated_at=_T0, access_count=n)
        vector = rng.normal(size=DIM)
        out.append(StoredPoint(memory.id, memory.to_payload(), (vector / np.linalg.norm(vector)).tolist()))
    return out


def _held(engine, namespace: str, points: list[StoredPoint]) -> None:
    engine.upsert(points)
    for _ in range(2):  # searched twice: read whole
        engine.query_batch([DenseQuery([1.0] * DIM, Where(namespace=namespace, alive_at=0.0), 3)], cached=True)
    assert namespace in engine._snapshots._held


def _built(point_id: str, payload: dict) -> Memory | None:
    try:
        return Memory.from_payload(point_id, payload)
    except Exception:
        return None


def _queries(namespace: str, at: float) -> list:
    where = Where(namespace=namespace, alive_at=at)
    return [FetchQuery(where, 100, order_by="importance"), FetchQuery(where, 100),
            DenseQuery([1.0] * DIM, where, 4, payload=False), DenseQuery([0.5] * DIM, where, 100)]


def _check(engine, namespace: str, at: float) -> None:
    """Every answer through the snapshot is the engine's, and every memory it hands out
    equals the one built from the engine's payload (no memory where that fails)."""
    queries = _queries(namespace, at)
    cached, plain = engine.query_batch(queries, cached=True), engine.query_batch(queries)
    for mine, theirs in zip(cached, plain):
        assert {h.point.id: dict(h.point.payload) for h in mine} == {h.point.id: h.point.payload for h in theirs}
        assert [h.score for h in mine] == pytest.approx([h.score for h in theirs], abs=1e-5)
    # By importance, equal ones by id here and in the engine's own order there; the rest by
    # id (a fetch) or by a cosine (random vectors: no ties).
    assert [h.point.payload.get("importance") for h in cached[0]] == [h.point.payload.get("importance") for h in plain[0]]
    for mine, theirs in zip(cached[1:], plain[1:]):
        assert [h.point.id for h in mine] == [h.point.id for h in theirs]
    stored = {p.id: p.payload for p in engine.retrieve([h.point.id for h in cached[1]])}
    for hits in (cached[0], cached[1], cached[3]):
        for hit in hits:
            assert dict(hit.point.payload) == stored[hit.point.id]
            assert hit.point.memory == _built(hit.point.id, stored[hit.point.id])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=steps)
def test_every_memory_and_answer_after_access_writes_is_the_engines(engine, steps):
    run = next(_names)
    namespace = f"access/{run}"
    points = _memories(namespace, np.random.default_rng(run))
    _held(engine, namespace, points)
    ids = [p.id for p in points]
    _check(engine, namespace, 0.0)  # every row's objects built: the writes find them
    for op, arg in [*steps, ("read", 0.0)]:
        if op == "read":
            _check(engine, namespace, arg)
        elif op == "access":
            engine.set_payloads([([ids[n]], patch) for n, patch in arg])
        else:
            [(n, patch)] = arg
            engine.set_payload([ids[n]], patch)


def test_an_access_write_brings_the_snapshot_up_to_date_and_keeps_every_other_object(engine):
    namespace = f"access/{next(_names)}"
    points = _memories(namespace, np.random.default_rng(7))
    _held(engine, namespace, points)
    ask = lambda: engine.query_batch([FetchQuery(Where(namespace=namespace, alive_at=0.0), 10)], cached=True)[0]  # noqa: E731
    before = {h.point.id: h for h in ask()}
    bare = engine.query_batch([DenseQuery([1.0] * DIM, Where(namespace=namespace, alive_at=0.0), 6, payload=False)],
                              cached=True)[0]
    touched, other = points[0].id, points[1].id
    engine.set_payloads([([touched], {"access_count": 9, "injection_count": 4, "vitality": 1.0,
                                      "last_accessed_at": 1.7e9, "vitality_at": 1.7e9})])
    held = engine._snapshots._held[namespace]
    assert held.seq == engine._snapshots.log.seq  # current already: the next read does nothing for it
    after = {h.point.id: h for h in ask()}
    assert after[other] is before[other]  # rows the write did not touch: their very objects
    assert after[touched] is not before[touched]
    memory = after[touched].point.memory
    assert (memory.access_count, memory.injection_count, memory.vitality) == (9, 4, 1.0)
    assert memory == Memory.from_payload(touched, engine.retrieve([touched])[0].payload)
    assert memory.metadata is before[touched].point.memory.metadata  # copied with the counts, not built again
    assert after[touched].point.payload["access_count"] == 9
    again = engine.query_batch([DenseQuery([1.0] * DIM, Where(namespace=namespace, alive_at=0.0), 6, payload=False)],
                               cached=True)[0]
    assert {h.point.id: h.point for h in again}[touched] is {h.point.id: h.point for h in bare}[touched]  # its id alone
    engine.set_payloads([([touched], {"importance": 0.95})])  # the fact itself: built again from the payload
    rebuilt = ask_one(engine, namespace, touched).point.memory
    assert rebuilt.importance == 0.95 and rebuilt.metadata is not memory.metadata


def ask_one(engine, namespace: str, point_id: str):
    hits = engine.query_batch([FetchQuery(Where(namespace=namespace, alive_at=0.0, ids=(point_id,)), 1)], cached=True)[0]
    return hits[0]


def test_access_writes_from_another_thread_are_seen_by_every_later_read(engine):
    """A writer thread counts accesses while this thread reads: each read sees at least
    every count written before it began, and at the end exactly the engine's."""
    namespace = f"access/{next(_names)}"
    points = _memories(namespace, np.random.default_rng(11))
    _held(engine, namespace, points)
    target = points[0].id
    done = [0]  # the count of the last write that completed
    stop = threading.Event()
    errors: list[BaseException] = []

    def write() -> None:
        try:
            for n in range(1, 200):
                engine.set_payloads([([target], {"access_count": n}), ([points[1].id], {"vitality": n / 200})])
                done[0] = n
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            stop.set()

    thread = threading.Thread(target=write)
    thread.start()
    while not stop.is_set():
        at_least = done[0]
        memory = ask_one(engine, namespace, target).point.memory
        assert memory.access_count >= at_least
    thread.join()
    assert not errors
    _check(engine, namespace, 0.0)
    assert ask_one(engine, namespace, target).point.memory.access_count == 199


def test_a_failed_catch_up_in_the_writer_leaves_it_to_the_next_read(engine, monkeypatch):
    namespace = f"access/{next(_names)}"
    points = _memories(namespace, np.random.default_rng(13))
    _held(engine, namespace, points)
    _check(engine, namespace, 0.0)
    held = engine._snapshots._held[namespace]
    original = engine.retrieve_dense

    def failing(*args, **kwargs):
        monkeypatch.setattr(engine, "retrieve_dense", original)
        raise RuntimeError("the engine is busy")

    monkeypatch.setattr(engine, "retrieve_dense", failing)
    engine.set_payloads([([points[2].id], {"access_count": 7, "vitality": 0.75})])  # written all the same
    assert engine._snapshots._held[namespace] is held  # not caught up by the writer
    assert ask_one(engine, namespace, points[2].id).point.memory.access_count == 7  # the read caught up
    _check(engine, namespace, 0.0)


@pytest.mark.parametrize("was, now", [({"a": True}, {"a": 1}), ({"a": [1]}, {"a": [True]}), ({"a": {"b": 0}}, {"a": {"b": False}})])
def test_a_value_equal_but_of_another_type_inside_a_field_is_a_change(engine, was, now):
    """``True == 1``, so ``{"a": True} == {"a": 1}``: a row whose metadata went from one to
    the other changed all the same (the engine gives back each as written), and its
    memory and whole hit are those of the engine's new payload, not the old ones kept."""
    from langgraph_memory.store.records import metadata_fields

    namespace = f"access/{next(_names)}"
    points = _memories(namespace, np.random.default_rng(17))
    target = points[0].id
    points[0].payload["metadata"] = was  # as Memory.to_payload writes it: no exact copy
    _held(engine, namespace, points)
    _check(engine, namespace, 0.0)  # every row's objects built
    engine.set_payload([target], metadata_fields(now))
    stored = engine.retrieve([target])[0].payload
    hit = ask_one(engine, namespace, target)
    exact = lambda value: json.dumps(value, sort_keys=True)  # noqa: E731  (true is not 1)
    assert exact(dict(hit.point.payload)) == exact(stored)
    assert exact(hit.point.memory.metadata) == exact(Memory.from_payload(target, stored).metadata) == exact(now)


@pytest.mark.parametrize("value", [2**64, -2**63 - 1, 10**30])
@pytest.mark.parametrize("batch", [False, True])
def test_an_integer_the_engine_stores_as_a_float_is_read_back_not_patched(engine, value, batch):
    """Qdrant Edge holds integers in 64 bits (signed, or unsigned past them) and stores any
    other as a float: a snapshot patched with the Python integer would serve another value."""
    namespace = f"access/{next(_names)}"
    points = _memories(namespace, np.random.default_rng(19))
    _held(engine, namespace, points)
    _check(engine, namespace, 0.0)
    target = points[0].id
    if batch:
        engine.set_payloads([([target], {"access_count": value})])
    else:
        engine.set_payload([target], {"access_count": value})
    stored = engine.retrieve([target])[0].payload["access_count"]
    mine = ask_one(engine, namespace, target).point.payload["access_count"]
    assert (type(mine), mine) == (type(stored), stored)
    _check(engine, namespace, 0.0)
