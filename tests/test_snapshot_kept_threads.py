"""readers filling a snapshot's kept masks, orders and objects from other threads
while writes land: once the writes are done, every answer through the snapshots is the
engine's (no mask, order or hit built from an older version survives into a newer one)."""

from __future__ import annotations

import random
import threading
import uuid

import numpy as np
import pytest

from langgraph_memory.store._reads import evolve
from langgraph_memory.store.backends import DenseQuery, FetchQuery, StoredPoint, Where
from tests.test_snapshot_reads import DIM, engine  # noqa: F401

FIELDS = {"kind": ["fact", "self", "goal"], "category": ["context", "capability"], "importance": [0.2, 0.5, 0.9],
          "channel": ["c1", "c2"], "updated_at": [1.0, 2.0, 3.0], "expires_at": [50.0, 150.0],
          "status": ["live", "live", "archived"], "access_count": [0, 1, 2]}
FILTERS = [Where(alive_at=0.0, kinds=("fact",)), Where(alive_at=0.0, categories=("context",)),
           Where(alive_at=0.0, min_importance=0.5), Where(alive_at=0.0, channel_scope="c1"),
           Where(alive_at=0.0), Where(alive_at=0.0, any_of=(Where(status=None, kinds=("self",)),
                                                            Where(status=None, categories=("capability",))))]


def _queries(namespace: str, at: float, vector: list[float]) -> list:
    out = []
    for where in FILTERS:
        where = evolve(where, namespace=namespace, alive_at=at)
        out += [FetchQuery(where, 100), FetchQuery(where, 100, order_by="importance"),
                DenseQuery(vector, where, 5, payload=False), DenseQuery(vector, where, 100)]
    return out


@pytest.mark.parametrize("seed", range(4))
def test_readers_racing_writers_leave_no_stale_mask(engine, seed):
    rng = np.random.default_rng(seed)
    namespace = f"kept-threads-{seed}"
    points = []
    for _ in range(40):
        vector = rng.normal(size=DIM)
        payload = {k: random.Random(len(points) * 7 + i).choice(v) for i, (k, v) in enumerate(FIELDS.items())}
        points.append(StoredPoint(str(uuid.uuid4()), {**payload, "namespace": namespace, "content": "x"},
                                  (vector / np.linalg.norm(vector)).tolist()))
    engine.upsert(points)
    vector = points[0].dense
    for _ in range(2):
        engine.query_batch([DenseQuery(vector, Where(namespace=namespace, alive_at=0.0), 3)], cached=True)
    stop = threading.Event()
    errors: list[BaseException] = []

    def read() -> None:
        r = random.Random(seed)
        try:
            while not stop.is_set():
                engine.query_batch(_queries(namespace, r.choice([0.0, 60.0, 200.0]), vector), cached=True)
        except BaseException as exc:  # noqa: BLE001
            errors.append(exc)

    readers = [threading.Thread(target=read) for _ in range(3)]
    for t in readers:
        t.start()
    r = random.Random(seed + 100)
    try:
        for _ in range(300):
            ids = [p.id for p in r.sample(points, r.randint(1, 3))]
            key = r.choice(list(FIELDS))
            if r.random() < 0.5:
                engine.set_payload(ids, {key: r.choice(FIELDS[key])})
            else:
                engine.set_payloads([([i], {key: r.choice(FIELDS[key])}) for i in ids])
    finally:
        stop.set()
        for t in readers:
            t.join()
    assert not errors
    for at in (0.0, 60.0, 200.0):
        queries = _queries(namespace, at, vector)
        mine, theirs = engine.query_batch(queries, cached=True), engine.query_batch(queries)
        for a, b in zip(mine, theirs):
            assert {h.point.id: dict(h.point.payload) for h in a} == {h.point.id: h.point.payload for h in b}
    assert namespace in engine._snapshots._held
