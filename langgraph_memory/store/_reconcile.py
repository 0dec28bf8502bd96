"""Dedup across store objects and processes sharing one collection: reconciliation after
the write.

Dedup is check-then-write. One :class:`~langgraph_memory.store.MemoryStore` orders its own
threads with a lock, but two workers of a server (two store objects, or two processes, on
one Qdrant collection) can both check, find nothing, and both insert the same fact. Qdrant
has no conditional insert ("only if nothing similar exists"), so each writer looks again
after its write: any live memory near its own that it had not seen before writing was
written concurrently, and the pair is settled by the dedup policy with a rule both writers
apply identically. Of the two, ``first`` is the one with the smaller id and ``second`` the
other; the policy judges ``second`` as new against ``first`` as old:

* ``duplicate``: ``second`` is retired, superseded by ``first``;
* ``refinement`` / ``correction``: ``first`` is retired, superseded by ``second``;
* ``different``: both stay.

Whichever writer looks last sees the other's memory (writes are acknowledged before the
look), so every concurrent pair is settled at least once, and settling twice writes the
same links. Nothing is deleted: the retired memory stays in ``history``. The cost is one
extra nearest-neighbour query per stored memory, without payloads (plus a retrieve when a
concurrent neighbour exists). Qdrant Edge needs none of this: its directory is open in one
store object at a time, whose lock already orders every writer.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any, TypeVar

from langgraph_memory.store._dedup import DedupPolicy
from langgraph_memory.store._links import updates_entries
from langgraph_memory.store._reads import live_where
from langgraph_memory.store.backends import Backend, DenseQuery
from langgraph_memory.store.records import Memory

logger = logging.getLogger("langgraph_memory")

RECONCILE_CANDIDATES = 10
R = TypeVar("R", bound=Any)  # a RememberResult (defined by the write path, which imports this)


def reconcile(backend: Backend, policy: DedupPolicy, result: R, dense: list[float], seen: set[str]) -> R:
    """Settle ``result.memory`` against live neighbours written concurrently (not in
    ``seen``); returns ``result``, or a ``duplicate`` result when the memory just stored
    turned out to repeat one stored concurrently."""
    mine: Memory = result.memory
    [hits] = backend.query_batch(
        [DenseQuery(dense, live_where(mine.namespace, kinds=(mine.kind,)), RECONCILE_CANDIDATES, payload=False)]
    )
    fresh = {h.point.id: h.score for h in hits if h.point.id not in seen and h.score >= policy.candidate_floor}
    if not fresh:
        return result
    for point in backend.retrieve(list(fresh)):
        other = Memory.from_payload(point.id, point.payload)
        if other.status != "live":
            continue
        first, second = sorted((mine, other), key=lambda m: m.id)
        verdict = policy.decide(
            second.content, first.content, fresh[other.id],
            new_subjects=second.subjects, old_subjects=first.subjects,
        )
        if verdict.decision == "different":
            continue
        retired, survivor = (second, first) if verdict.decision == "duplicate" else (first, second)
        retire(backend, retired, survivor)
        logger.info("concurrent write: %s superseded by %s (%s)", retired.id, survivor.id, verdict.reason)
        if retired.id == mine.id:
            return replace(result, action="duplicate", memory=survivor, replaced=None, verdict=verdict)
    return result


def retire(backend: Backend, retired: Memory, survivor: Memory) -> None:
    # Partial payload updates: they touch only the links, so they commute with the other
    # writer's identical updates.
    try:
        retired_links, survivor_links = updates_entries(retired, survivor)
        backend.set_payload([retired.id], {"status": "superseded", "superseded_by": survivor.id, "links": retired_links})
        backend.set_payload([survivor.id], {
            "supersedes": list(dict.fromkeys((*survivor.supersedes, retired.id))), "links": survivor_links})
    except Exception:
        if len(backend.retrieve([retired.id, survivor.id])) == 2:
            raise
        # One of the two was deleted meanwhile: nothing is left to settle.
