"""Restoring an archived or forgotten memory without leaving two live versions of one fact.

:meth:`MemoryStore.restore` runs it; archiving is the gardening pass's (:mod:`._garden`).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

from langgraph_memory.store._garden import DAY, check_now
from langgraph_memory.store._reads import points_by_id
from langgraph_memory.store._reconcile import retire
from langgraph_memory.store.records import Memory, Namespace, validate_namespace
from langgraph_memory.store.vitality import DecaySettings

logger = logging.getLogger("langgraph_memory")


def restore(store: Any, memory_id: str, namespace: Namespace, now: datetime | None, settings: DecaySettings) -> Memory | None:
    """Bring an archived or forgotten memory back: live again, as alive as when it was
    first stored (at least the minimum plus one boost), counted as used now. ``None`` when
    ``namespace`` has no such memory, or a forgotten one past ``settings.forgotten_days``
    (the next gardening pass purges it).

    The fact may have been said again while it was archived (nothing live held it, so it
    was stored anew): restoring would then leave two live versions of one fact. The dedup
    policy judges the live one against the archive, as a newer memory against an older
    one; when they are one fact, one version stays live and the other joins its history:
    the archive only if it says more than the live one (a refinement of it). The memory
    returned is the one that now holds the fact."""
    at = check_now(now)
    namespace = validate_namespace(namespace)
    found = [p for p in points_by_id(store._backend, [memory_id], namespace, live_only=False, with_vectors=True)
             if p.payload.get("status") in ("archived", "forgotten")]
    if not found:
        return None
    was = found[0].payload["status"]
    if was == "forgotten" and at - (found[0].payload.get("forgotten_at") or at) >= settings.forgotten_days * DAY:
        return None
    archived = Memory.from_payload(found[0].id, found[0].payload)
    importance = float(found[0].payload.get("importance", 0.6))
    vitality = max(importance, min(1.0, settings.min + settings.boost))
    update = {"status": "live", "archived_at": None, "vitality": vitality, "vitality_at": at, "last_accessed_at": at}
    if was == "forgotten":
        update.update(forgotten_at=None, forgotten_reason=None)
    backend = store._backend
    with store._writer.lock(namespace, "__stats__"), store._writer.lock(namespace, archived.kind):
        point = next((p for p in backend.retrieve([archived.id]) if p.payload.get("status") == was), None)
        if point is None:
            return None  # restored, purged or superseded meanwhile
        holder = _live_version(store, archived, found[0].dense or [])
        if holder is not None and not holder[1]:
            backend.set_payload([archived.id], {"archived_at": None})
            retire(backend, archived, holder[0])
            logger.info("%s memory %s is held by live %s now: kept in its history", was, archived.id, holder[0].id)
            return holder[0]
        backend.set_payload([point.id], update)
        if holder is not None:
            retire(backend, holder[0], archived)
    logger.info("restored %s memory %s", was, point.id)
    return Memory.from_payload(point.id, {**point.payload, **update})


def _live_version(store: Any, archived: Memory, dense: list[float]) -> tuple[Memory, bool] | None:
    """The live memory holding ``archived``'s fact, if any, and whether the archive says
    more (the live one is then the older version)."""
    policy = store.dedup
    for hit in store._writer.dedup_candidates(archived, dense):
        if hit.score < policy.subject_floor:
            break
        content = hit.point.payload["content"]
        subjects = tuple(hit.point.payload.get("subjects") or ())
        verdict = policy.decide(content, archived.content, hit.score,
                                new_subjects=subjects, old_subjects=archived.subjects)
        if verdict.decision == "different":
            continue
        found = _live_memory(store, hit.point.id, archived.namespace)
        if found is None:
            continue
        richer = verdict.decision == "duplicate" and policy.decide(
            archived.content, content, hit.score, new_subjects=archived.subjects, old_subjects=subjects,
        ).decision == "refinement"
        return found, richer
    return None


def _live_memory(store: Any, memory_id: str, namespace: Namespace) -> Memory | None:
    found = points_by_id(store._backend, [memory_id], namespace, live_only=True)
    return Memory.from_payload(found[0].id, found[0].payload) if found else None
