"""A memory's life after it is written: links to other memories, forgetting (soft or
hard) and restoring. :class:`~langgraph_memory.store.memory_store.MemoryStore` mixes it in."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from langgraph_memory.store import _forgetting, _restore
from langgraph_memory.store._links import Link, LinkRelation, add_link, list_links
from langgraph_memory.store._twins import async_twin
from langgraph_memory.store.records import Memory, Namespace

__all__ = ["Lifecycle"]


class Lifecycle:
    """Linking, forgetting and restoring the memories of a store."""

    _backend: Any
    decay_settings: Any  # MemoryStore's: the retention window of forgotten memories

    # -- links ------------------------------------------------------------------------

    def link(self, source_id: str, target_id: str, relation: LinkRelation, *, namespace: Namespace) -> Link:
        """Record that live memory ``source_id`` bears on live memory ``target_id``:
        ``related_to``, ``updates``, ``contradicts``, ``caused_by``, ``result_of`` or
        ``part_of``. Both must belong to ``namespace``; linking again is a no-op that
        returns the existing link. Search and the pre-hook follow links from their best
        hits (:attr:`SearchHit.via`).

        Raises:
            InvalidMemoryError: unknown relation, a bad id, a memory that is not a live
                memory of ``namespace`` (another namespace's id reads as unknown), a
                memory linked to itself, or one already holding :data:`MAX_LINKS` links.
        """
        return add_link(self, source_id, target_id, relation, namespace)

    def links(self, memory_id: str, *, namespace: Namespace) -> list[Link]:
        """The links of memory ``memory_id`` of ``namespace``, either way, oldest first;
        ``[]`` for an unknown id (or another namespace's)."""
        return list_links(self, memory_id, namespace)

    def delete(
        self, memory_id: str, *, namespace: Namespace, reason: str | None = None, hard: bool = False,
    ) -> Memory | None:
        """Forget the live memory ``memory_id``.

        By default the memory is *forgotten*: never read, searched or injected again, but
        kept with ``reason`` and the time in :meth:`history`, and :meth:`restore` brings it
        back within the retention window (:attr:`DecaySettings.forgotten_days`, 30 days by
        default); the garden purges it after. ``hard=True`` removes it at once with the
        older versions it superseded and its links (a user's right to be forgotten; see
        also :meth:`erase`).

        Returns the memory as it now is (``status`` ``"forgotten"``) or as it was before
        a hard delete, or ``None`` when ``namespace`` has no such live memory (another
        user's id behaves exactly like an unknown one).
        """
        return _forgetting.delete(self, memory_id, namespace, reason, hard)

    def restore(self, memory_id: str, *, namespace: Namespace, now: datetime | None = None) -> Memory | None:
        """Bring back the archived or forgotten memory ``memory_id`` of ``namespace``:
        read, searched and injected again. ``None`` when there is no such memory, or a
        forgotten one past the retention window (:attr:`DecaySettings.forgotten_days`).
        When the fact was said again while it was away, one version stays live and the
        other joins its history (see :doc:`judgement`): the memory returned is the one
        holding the fact."""
        return _restore.restore(self, memory_id, namespace, now, self.decay_settings())

    alink = async_twin(link)
    alinks = async_twin(links)
    adelete = async_twin(delete)
    arestore = async_twin(restore)
