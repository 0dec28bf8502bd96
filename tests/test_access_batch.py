"""Several payload writes at once (``Backend.set_payloads``), as the post-hook's access
counts are written: the same stored payloads as one ``set_payload`` after another, on
Qdrant Edge and on qdrant-client's local mode; one log entry on Edge, which a snapshot
applies as the engine did; and a memory deleted meanwhile is skipped quietly.
"""

from __future__ import annotations

import uuid

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store.backends import StoredPoint
from langgraph_memory.store.backends._snapshot import Snapshot
from langgraph_memory.store.backends._snapshots import WriteLog, concerning
from langgraph_memory.store.backends.edge import EdgeBackend
from langgraph_memory.store.backends.qdrant import QdrantClientBackend

DIM = 4
IDS = [str(uuid.UUID(int=n + 1)) for n in range(4)]
plain = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(-2, 2), st.text(max_size=3))
payloads = st.dictionaries(st.sampled_from(["a", "b", "access_count"]), plain | st.lists(st.integers(0, 3), max_size=2),
                           min_size=1, max_size=2)
updates = st.lists(st.tuples(st.lists(st.sampled_from(range(4)), max_size=2, unique=True), payloads), max_size=5)


def _backend(kind: str, directory):
    if kind == "edge":
        backend = EdgeBackend(directory / f"edge-{uuid.uuid4().hex[:8]}")
    else:
        from qdrant_client import QdrantClient

        backend = QdrantClientBackend(QdrantClient(":memory:"), f"batch_{uuid.uuid4().hex[:8]}")
    backend.setup(dim=DIM, meta={"embedder": "test"})
    return backend


def _points(backend, ids: list[str]) -> None:
    backend.upsert([StoredPoint(i, {"namespace": "ns", "status": "live", "content": "x", "a": 0}, [1.0, 0, 0, 0])
                    for i in ids])


@pytest.fixture(scope="module", params=["edge", "qdrant"])
def pair(request, tmp_path_factory):
    directory = tmp_path_factory.mktemp("batch")
    backends = _backend(request.param, directory), _backend(request.param, directory)
    yield backends
    for backend in backends:
        backend.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batch=updates)
def test_a_batch_of_payload_writes_stores_what_one_after_another_does(pair, batch):
    together, apart = pair
    ids = [str(uuid.uuid4()) for _ in range(4)]  # this example's points
    for backend in pair:
        _points(backend, ids)
    batch = [([ids[n] for n in which], payload) for which, payload in batch]
    together.set_payloads(batch)
    for which, payload in batch:
        apart.set_payload(which, payload)
    stored = lambda b: {ids.index(p.id): p.payload for p in b.retrieve(ids)}  # noqa: E731
    assert stored(together) == stored(apart)


def test_a_batch_is_one_log_entry_that_a_snapshot_applies_as_the_engine_did(tmp_path):
    backend = _backend("edge", tmp_path)
    _points(backend, IDS)
    try:
        snapshot = Snapshot.of("ns", backend._snapshots.log.seq, backend._read_namespace("ns", 10) or [], DIM)
        before = backend._snapshots.log.seq
        backend.set_payloads([([IDS[0]], {"a": 1}), ([IDS[0], IDS[1]], {"a": 2, "b": "x"}), ([IDS[2]], {"a": 3})])
        seq, writes = backend._snapshots.log.since(before)
        assert seq == before + 1 and len(writes) == 1
        dirty, vectors, patches = concerning(snapshot, writes)
        assert dirty == set(IDS[:3]) and not vectors
        assert [(set(i), p) for i, p in patches] == [
            ({IDS[0]}, {"a": 1}), ({IDS[0], IDS[1]}, {"a": 2, "b": "x"}), ({IDS[2]}, {"a": 3})]
        stored = {p.id: p.payload for p in backend.retrieve(IDS)}
        fresh = snapshot.with_patches(seq, patches)
        assert {i: fresh.payloads[fresh.row[i]] for i in IDS} == stored
        # A value a snapshot cannot apply (a list, a float): still one entry, its points read back by id.
        backend.set_payloads([([IDS[3]], {"a": [1, 2]}), ([IDS[0]], {"a": 4})])
        backend.set_payloads([([IDS[1]], {"a": 0.1})])
        assert backend._snapshots.log.since(seq)[1] == [(frozenset({IDS[1]}), frozenset(), False, None),
                                                        (frozenset({IDS[0], IDS[3]}), frozenset(), False, None)]
        # Moving points to another namespace: one write each, as set_payload logs them.
        backend.set_payloads([([IDS[3]], {"namespace": "elsewhere"}), ([IDS[0]], {"a": 5})])
        assert len(backend._snapshots.log.since(seq)[1]) == 4
    finally:
        backend.close()


def test_a_failed_batch_leaves_its_ids_to_be_read_again():
    log = WriteLog()
    log.wrote({"a", "b"}, (), False, None)  # what set_payloads logs when one write failed
    snapshot = Snapshot.of("ns", 0, [StoredPoint("a", {"namespace": "ns"}, [1.0, 0, 0, 0]),
                                     StoredPoint("b", {"namespace": "ns"}, [0, 1.0, 0, 0])], DIM)
    assert concerning(snapshot, log.since(0)[1]) == ({"a", "b"}, False, None)
    assert np.array_equal(snapshot.has_dense, [True, True])


def test_access_counts_skip_a_memory_deleted_meanwhile(store):
    namespace = ("memories", "batch")
    kept = store.remember("Dave likes tea", namespace=namespace).memory
    gone = store.remember("Dave sails on Sundays", namespace=namespace).memory
    original = store._backend.set_payloads

    def delete_first(updates):
        store._backend.delete([gone.id])
        original(updates)

    store._backend.set_payloads = delete_first
    try:
        store.record_access([gone.id, kept.id], namespace=namespace, injected=True)
    finally:
        del store._backend.set_payloads
    assert store.get(gone.id, namespace=namespace) is None
    tea = store.get(kept.id, namespace=namespace)
    assert (tea.access_count, tea.injection_count) == (1, 1)
