"""kill -9 during multi-record writes: the store is always consistent, and writing again
completes it.

``remember_many`` and ``import`` are not all-or-nothing (Qdrant has no multi-batch
transaction); they are *resumable to a consistent state*: ``remember_many`` writes its
items in order, each one whole, and import writes live records before the history they
supersede. A writer process is killed with SIGKILL at a random moment, 20 times for each;
after each kill a fresh process reopens the embedded store and checks the invariants:

* no payload without its vector;
* no superseded record without its successor;
* counts agree (engine count = records scrolled; the live ones are a prefix of the items
  for ``remember_many``, every live record of the file once any history is in, for import).

Each writer starts the same write again, so the last one completes it: the final store
holds exactly the items (duplicates skipped by dedup) or exactly the file.

Writers are forked from the test process (no re-import, so 40 kills stay cheap).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import uuid
from pathlib import Path

import numpy as np
import pytest

from langgraph_memory import MemoryStore
from langgraph_memory.store.records import Memory

KILLS = 20
# Enough that writing them all outlasts the 0-0.5 s before a kill on a fast machine.
ITEMS = [f"Fact {i}: the user's item number {i} is kept in box {i * 7}" for i in range(600)]
NS = ("memories", "crash")
CHAINS, CHAIN_LENGTH = 120, 3


def _invariants(store: MemoryStore) -> dict:
    points = list(store.iter_points(include_superseded=True, with_vectors=True))
    by_id = {p.id: p for p in points}
    live = [p for p in points if p.payload["status"] == "live"]
    return {
        "total": len(points),
        "counted": store.count(include_superseded=True),
        "live": sorted(p.payload["content"] for p in live),
        "live_count": store.count(),
        "without_vector": sum(p.dense is None or len(p.dense) != store.dim for p in points),
        "orphans": sum(
            p.payload["status"] == "superseded" and p.payload.get("superseded_by") not in by_id for p in points
        ),
        "superseded": len(points) - len(live),
    }


def _writer(path: str, job: str, export: str | None, conn, embeddings) -> None:
    store = MemoryStore.open(path, embeddings=embeddings)
    conn.send(_invariants(store))
    conn.send("writing")
    if job == "remember_many":
        store.remember_many(ITEMS, namespace=NS, dedup=True)
    else:
        from langgraph_memory.store._transfer import import_jsonl

        import_jsonl(store, export, batch=32)
    store.close()
    conn.send("done")
    conn.close()


def _check(report: dict, job: str, live_in_file: int) -> None:
    assert report["without_vector"] == 0
    assert report["orphans"] == 0
    assert report["counted"] == report["total"]
    assert report["live_count"] == len(report["live"])
    if job == "remember_many":
        # Items are written in order, each whole: what is stored is a prefix of them.
        assert set(report["live"]) == set(ITEMS[: len(report["live"])])
        assert report["superseded"] == 0
    elif report["superseded"]:
        assert len(report["live"]) == live_in_file  # history only after every live record


def _export_with_history(path: Path, dim: int) -> int:
    """A hand-made export: chains of three versions, written oldest first so that a naive
    import in file order would leave superseded records without their successor."""
    rng = np.random.default_rng(12)
    lines = [json.dumps({"langgraph_memory_export": 1, "embedder": "fake", "dim": dim, "schema_version": 1,
                         "count": CHAINS * CHAIN_LENGTH})]
    for c in range(CHAINS):
        ids = [str(uuid.uuid4()) for _ in range(CHAIN_LENGTH)]
        for v, memory_id in enumerate(ids):
            last = v == CHAIN_LENGTH - 1
            memory = Memory(
                id=memory_id, content=f"Chain {c} version {v}", namespace=NS,
                status="live" if last else "superseded",
                supersedes=() if v == 0 else (ids[v - 1],), superseded_by=None if last else ids[v + 1],
            )
            dense = rng.normal(size=dim)
            dense = (dense / np.linalg.norm(dense)).tolist()
            lines.append(json.dumps({"id": memory_id, "payload": memory.to_payload(), "dense": dense, "sparse": None}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return CHAINS


@pytest.mark.parametrize("job", ["remember_many", "import"])
def test_kill_9_during_a_multi_record_write_leaves_a_consistent_resumable_store(tmp_path, fake_embeddings, job):
    ctx = multiprocessing.get_context("fork")
    path = str(tmp_path / "store")
    MemoryStore.open(path, embeddings=fake_embeddings).close()
    export = tmp_path / "export.jsonl"
    live_in_file = _export_with_history(export, len(fake_embeddings.embed_query("x"))) if job == "import" else 0
    rng = random.Random(7)
    interrupted = 0
    for _ in range(KILLS):
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_writer, args=(path, job, str(export), child, fake_embeddings))
        proc.start()
        assert parent.poll(60), "the writer did not open the store"
        _check(parent.recv(), job, live_in_file)
        assert parent.recv() == "writing"
        finished = parent.poll(rng.uniform(0.0, 0.5))
        os.kill(proc.pid, signal.SIGKILL)
        proc.join(10)
        interrupted += not finished
        parent.close()
    assert interrupted >= KILLS // 2, f"only {interrupted} of {KILLS} kills landed during the write"

    # A last writer, not killed, completes the write from where the store stands.
    store = MemoryStore.open(path, embeddings=fake_embeddings)
    try:
        if job == "remember_many":
            results = store.remember_many(ITEMS, namespace=NS, dedup=True)
            assert {r.action for r in results} <= {"inserted", "duplicate"}
            final = _invariants(store)
            assert sorted(final["live"]) == sorted(ITEMS) and final["total"] == len(ITEMS)
        else:
            from langgraph_memory.store._transfer import import_jsonl

            import_jsonl(store, export, batch=32)
            final = _invariants(store)
            assert final["total"] == CHAINS * CHAIN_LENGTH and len(final["live"]) == CHAINS
        _check(final, job, live_in_file)
    finally:
        store.close()
