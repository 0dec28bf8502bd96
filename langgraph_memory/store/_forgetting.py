"""Forgetting: soft delete (``forgotten``, restorable for a window), hard delete and the
purge of expired memories, each taking the removed memories' links with them.
:class:`~langgraph_memory.store.MemoryStore` documents them; this holds their bodies."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import check_text
from langgraph_memory.store._links import HISTORY, unlink_removed
from langgraph_memory.store.backends import Where
from langgraph_memory.store.records import MAX_CONTENT_CHARS, Memory, Namespace, namespace_key, utcnow, validate_namespace

__all__ = ["delete", "purge_expired"]

logger = logging.getLogger("langgraph_memory")


def delete(store: Any, memory_id: str, namespace: Namespace, reason: str | None, hard: bool) -> Memory | None:
    """See :meth:`MemoryStore.delete`."""
    if reason is not None:
        reason = check_text("reason", reason, MAX_CONTENT_CHARS, required=False) or None
    if not isinstance(hard, bool):
        raise InvalidMemoryError("hard", "must be True or False")
    namespace = validate_namespace(namespace)
    target = store.get(memory_id, namespace=namespace)
    if target is None:
        return None
    if hard:
        chain = store.history(memory_id, namespace=namespace)
        store._backend.delete([m.id for m in chain])
        unlink_removed(store._backend, {m.id: m.links for m in chain})
        logger.info("erased memory %s (%d versions): %s", memory_id, len(chain), reason or "no reason given")
        return target
    at = utcnow()
    update = {"status": "forgotten", "forgotten_at": at.timestamp(), "forgotten_reason": reason}
    with store._writer.lock(namespace, "__stats__"):
        store._backend.set_payload([target.id], update)
    logger.info("forgot memory %s: %s", memory_id, reason or "no reason given")
    return target.evolve(status="forgotten", forgotten_at=at, forgotten_reason=reason)


def purge_expired(store: Any, namespace: Namespace | None) -> int:
    """See :meth:`MemoryStore.purge_expired`: memories by batches (their links go with
    them), then whatever else expired (BaseStore items) in one delete."""
    prefix = None if namespace is None else namespace_key(validate_namespace(namespace))
    where = Where(namespace_prefix=prefix, status=HISTORY, expired_at=utcnow().timestamp())
    removed = 0
    while True:
        points, _ = store._backend.scroll(where, limit=256)
        if not points:
            return removed + store._backend.delete_where(dataclasses.replace(where, status=None))
        store._backend.delete([p.id for p in points])
        unlink_removed(store._backend, {p.id: p.payload.get("links") or () for p in points})
        removed += len(points)
