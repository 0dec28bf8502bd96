"""The background worker: bounded, never blocking, counted, flushable, shared per store."""

from __future__ import annotations

import threading

import pytest
from qdrant_client import QdrantClient

from langgraph_memory import BackgroundWorker, LangGraphMemoryError, MemoryStore, worker_for


def test_jobs_run_off_the_caller_thread_and_flush_waits_for_them():
    worker = BackgroundWorker(max_queue=10)
    seen: list[str] = []
    caller = threading.current_thread().name
    for i in range(5):
        assert worker.submit(lambda i=i: seen.append(f"{i}:{threading.current_thread().name}"))
    assert worker.flush(timeout=10)
    assert [s.split(":")[0] for s in seen] == ["0", "1", "2", "3", "4"]
    assert all(not s.endswith(caller) for s in seen)
    stats = worker.stats()
    assert (stats.accepted, stats.done, stats.failed, stats.dropped, stats.queued) == (5, 5, 0, 0, 0)
    worker.close()


def test_a_full_queue_drops_the_oldest_droppable_job_and_never_blocks():
    worker = BackgroundWorker(max_queue=3)
    release = threading.Event()
    started = threading.Event()

    def blocker() -> None:
        started.set()
        release.wait(10)

    ran: list[int] = []
    worker.submit(blocker, label="blocker")
    assert started.wait(10)  # the thread is busy: what follows waits in the queue
    for i in range(6):
        assert worker.submit(ran.append, i, label="index") is True
    stats = worker.stats()
    assert stats.queued == 3 and stats.dropped == 3
    release.set()
    assert worker.flush(timeout=10)
    assert ran == [3, 4, 5]  # the three oldest were dropped
    assert worker.stats().done == 4
    worker.close()


def test_a_job_that_must_run_displaces_a_droppable_one_and_is_refused_only_among_its_kind():
    worker = BackgroundWorker(max_queue=1)
    release, started = threading.Event(), threading.Event()
    worker.submit(lambda: (started.set(), release.wait(10)))
    assert started.wait(10)
    ran: list[str] = []
    worker.submit(ran.append, "index")
    assert worker.submit(ran.append, "digest", droppable=False)  # displaces the droppable one
    assert worker.submit(ran.append, "late index") is False  # only must-run jobs wait
    release.set()
    worker.flush(timeout=10)
    assert ran == ["digest"] and worker.stats().dropped == 2
    worker.close()


def test_a_failing_job_is_counted_and_the_worker_goes_on(caplog):
    worker = BackgroundWorker()

    def boom() -> None:
        raise RuntimeError("embedder down")

    worker.submit(boom, label="index")
    done = threading.Event()
    worker.submit(done.set)
    assert worker.flush(timeout=10) and done.is_set()
    stats = worker.stats()
    assert stats.failed == 1 and stats.done == 1 and stats.mean_latency_ms >= 0
    assert "embedder down" in caplog.text
    worker.close()


def test_flush_times_out_while_a_job_runs():
    worker = BackgroundWorker()
    release = threading.Event()
    worker.submit(release.wait, 10)
    assert worker.flush(timeout=0.05) is False
    release.set()
    assert worker.flush(timeout=10) is True
    worker.close()


async def test_aflush_waits_without_blocking_the_loop():
    worker = BackgroundWorker()
    release = threading.Event()
    worker.submit(release.wait, 10)
    release.set()
    assert await worker.aflush(timeout=10)
    worker.close()


def test_closed_worker_refuses_jobs():
    worker = BackgroundWorker()
    worker.close()
    assert worker.submit(print) is False and worker.closed


@pytest.mark.parametrize("kwargs", [{"max_queue": 0}, {"max_queue": True}, {"threads": 0}, {"threads": 1.5}])
def test_bad_settings_raise_a_typed_error(kwargs):
    with pytest.raises(LangGraphMemoryError):
        BackgroundWorker(**kwargs)


def test_one_worker_per_store_reached_by_store_flush_and_close(embeddings):
    store = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)
    assert store.flush(timeout=1)  # nothing yet
    worker = worker_for(store)
    assert worker_for(store) is worker
    ns = ("memories", "alice")
    memory = store.remember("Alice likes tea", namespace=ns).memory
    worker.submit(store.record_access, [memory.id], namespace=ns, injected=True)
    assert store.flush(timeout=10)
    assert store.get(memory.id, namespace=ns).injection_count == 1
    store.close()
    assert worker.closed


def test_a_side_collection_holds_records_that_memory_reads_never_see(make_store):
    from langgraph_memory.store.backends import StoredPoint, Where

    store = make_store()
    ns = ("memories", "alice")
    kept = store.remember("Alice likes tea", namespace=ns).memory
    side = store.side_collection("exchanges", keyword_fields=("thread_id",))
    assert store.side_collection("exchanges") is side
    vector = store.embed_query("tea with Alice").dense
    side.upsert([StoredPoint(
        "00000000-0000-4000-8000-000000000001",
        {"namespace": "memories/alice", "status": "live", "thread_id": "t1", "content": "we spoke of tea"},
        vector, None,
    )])
    assert [h.memory.id for h in store.search("tea", namespace=ns)] == [kept.id]
    assert store.count(namespace=ns) == 1
    assert side.count(Where(namespace="memories/alice", fields=(("thread_id", ("t1",)),))) == 1
    assert side.count(Where(namespace="memories/alice", fields=(("thread_id", ("t2",)),))) == 0
