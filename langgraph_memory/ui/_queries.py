"""What the memory browser reads from a :class:`~langgraph_memory.MemoryStore`.

Pages ask the engine for counts (facets) and one page of records at a time, never for a
whole namespace: the first page of a namespace of 100k memories is one ordered scroll.
Features that other parts of the package add over time (soft delete, links, room members,
supersede by id) are detected here, so a page can show an action disabled with a note
instead of failing.
"""

from __future__ import annotations

import inspect
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Sequence

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._reads import check_memory_id, points_by_id
from langgraph_memory.store.backends import Where
from langgraph_memory.store.records import Memory, Namespace, namespace_from_key, namespace_key, utcnow, validate_namespace

__all__ = [
    "STATUSES", "Capabilities", "MemoryPage", "find_memory", "memory_page", "namespace_facets", "namespaces",
    "parse_key", "room_names", "room_namespaces", "latest_said", "status_counts", "store_size", "vitality_counts",
]

STATUSES = ("live", "archived", "forgotten", "superseded")
PAGE_SIZE = 50
FACET_LIMIT = 10_000
GROUPS = {"memories": "users", "agent": "agent", "rooms": "rooms"}


def parse_key(key: Any) -> Namespace:
    """A namespace from its URL form (``memories/alice``), validated by the store's rules."""
    if not isinstance(key, str) or not key.strip():
        raise InvalidMemoryError("ns", "expected a namespace such as memories/alice")
    namespace = validate_namespace(namespace_from_key(key))
    if namespace_key(namespace) != key:
        raise InvalidMemoryError("ns", f"{key!r} is not a well-formed namespace")
    return namespace


@dataclass(frozen=True)
class Capabilities:
    """Which actions this store supports (some arrive with other parts of the package)."""

    soft_delete: bool
    links: bool
    room_members: bool
    remember_updates: bool

    @classmethod
    def of(cls, store: Any) -> "Capabilities":
        return cls(
            soft_delete="hard" in _parameters(getattr(store, "delete", None)),
            links=callable(getattr(store, "links", None)),
            room_members=callable(getattr(store, "room_members", None)),
            remember_updates="updates" in _parameters(getattr(store, "remember", None)),
        )


def _parameters(function: Any) -> set[str]:
    try:
        return set(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return set()


def namespaces(store: Any) -> list[tuple[str, str, int, int]]:
    """``(group, namespace key, live memories, all records)`` for every namespace holding
    memories, from two exact facets of the engine."""
    now = utcnow().timestamp()
    live = dict(store._backend.facet("namespace", Where(status="live", alive_at=now), limit=FACET_LIMIT))
    every = dict(store._backend.facet("namespace", Where(status=STATUSES), limit=FACET_LIMIT))
    rows = []
    for key, total in every.items():
        parts = namespace_from_key(key)
        rows.append((GROUPS.get(parts[0], "other"), key, live.get(key, 0), total))
    return sorted(rows, key=lambda r: (list(GROUPS.values()).index(r[0]) if r[0] in GROUPS.values() else 9, r[1]))


def namespace_facets(store: Any, namespace: Namespace, status: str) -> dict[str, list[tuple[str, int]]]:
    """Counts per kind, type and category of ``namespace``'s memories in ``status``."""
    where = _where(namespace, status)
    return {key: store._backend.facet(key, where, limit=100) for key in ("kind", "memory_type", "category")}


def status_counts(store: Any, namespace: Namespace) -> dict[str, int]:
    key = namespace_key(namespace)
    found = dict(store._backend.facet("status", Where(namespace=key, status=STATUSES), limit=10))
    return {s: found.get(s, 0) for s in STATUSES}


def _where(namespace: Namespace, status: str, kinds: Sequence[str] = (), types: Sequence[str] = (),
           before: float | None = None) -> Where:
    if status not in STATUSES:
        raise InvalidMemoryError("status", f"expected one of {', '.join(STATUSES)}")
    return Where(
        namespace=namespace_key(namespace), status=status,
        alive_at=utcnow().timestamp() if status == "live" else None,
        kinds=tuple(kinds) or None, memory_types=tuple(types) or None,
        ranges=() if before is None else (("created_at", None, None, before, None),),
    )


@dataclass(frozen=True)
class MemoryPage:
    memories: list[Memory]
    next_before: float | None
    """The cursor of the next page: its memories were created at or before this time."""
    next_skip: tuple[str, ...]
    """Ids created exactly at ``next_before`` that this page already showed."""


def memory_page(
    store: Any, namespace: Namespace, *, status: str = "live", kinds: Sequence[str] = (),
    types: Sequence[str] = (), before: float | None = None, skip: Sequence[str] = (), size: int = PAGE_SIZE,
) -> MemoryPage:
    """One page of ``namespace``'s memories, newest first, by keyset: the next page starts
    at the oldest creation time shown (ids shown at that exact time are skipped), so a page
    costs one ordered scroll however deep it is."""
    where = _where(namespace, status, kinds, types, before)
    skipped = set(skip)
    points, _ = store._backend.scroll(where, limit=size + len(skipped) + 1, order_by="created_at", descending=True)
    points = [p for p in points if p.id not in skipped]
    more = len(points) > size
    memories = [Memory.from_payload(p.id, p.payload) for p in points[:size]]
    if not more or not memories:
        return MemoryPage(memories, None, ())
    last = memories[-1].created_at.timestamp()
    at_last = tuple(m.id for m in memories if m.created_at.timestamp() == last)
    carried = tuple(skipped) if before == last else ()
    return MemoryPage(memories, last, carried + at_last)


def find_memory(store: Any, memory_id: Any, namespace: Namespace) -> Memory | None:
    """The record ``memory_id`` of ``namespace`` in any status (an id of another
    namespace is as unknown as a made-up one)."""
    try:
        found = points_by_id(store._backend, [check_memory_id(memory_id)], namespace, live_only=False)
    except InvalidMemoryError:
        return None
    if not found or found[0].payload.get("status") not in STATUSES:
        return None  # e.g. a LangGraph BaseStore item sharing the collection: not a memory
    return Memory.from_payload(found[0].id, found[0].payload)


def room_namespaces(store: Any) -> list[str]:
    """Namespaces holding room messages (``rooms/<agent>``), and the default one."""
    backend = store._rooms_backend()
    keys: set[str] = {"rooms/agent"}
    offset = None
    for _ in range(100):  # room messages are few: they are digested away
        points, offset = backend.scroll(Where(status=None), limit=1000, offset=offset)
        keys.update(p.payload.get("namespace", "") for p in points)
        if offset is None:
            break
    return sorted(k for k in keys if k)


def room_names(store: Any, namespace: Namespace) -> list[tuple[str, int]]:
    """The rooms of ``namespace`` with their live message counts, including the rooms a
    digest emptied (they have a last report)."""
    from langgraph_memory.background.digest import digest_key
    from langgraph_memory.background.jobs import JobState

    live = dict(store._rooms_backend().facet("room", Where(namespace=namespace_key(namespace)), limit=1000))
    prefix = digest_key(namespace, "")
    reports, _ = JobState(store).backend.scroll(Where(fields=(("record", ("report",)),)), limit=1000)
    for point in reports:
        job = str(point.payload.get("job", ""))
        if job.startswith(prefix) and job[len(prefix):]:
            live.setdefault(job[len(prefix):], 0)
    return sorted(live.items())


def store_size(store: Any) -> int | None:
    """Bytes on disk of an embedded store; ``None`` for a Qdrant server."""
    path = getattr(store._backend, "path", None)
    if path is None:
        return None
    total = 0
    for root, _, files in os.walk(Path(path)):
        for name in files:
            try:
                total += os.path.getsize(os.path.join(root, name))
            except OSError:
                pass
    return total


def vitality_counts(store: Any, namespace: Namespace | None = None) -> dict[str, int]:
    """Live memories per vitality bucket (the gardener's buckets), counted by the engine:
    one count per bucket, exact at any size. Records written before vitality existed are
    counted as ``unscored``. Indexes the ``vitality`` field on first use."""
    settings = store.decay_settings()
    if "vitality" not in store._backend.field_indexes():
        # Without an index every bucket count reads every payload (150 ms per 5k memories
        # on Edge); with it, a few ms at any size. Built once, on first use.
        store._backend.create_field_index("vitality", "float")
    edges = (0.0, *settings.buckets, 1.0)
    base = Where(namespace_prefix=None if namespace is None else namespace_key(namespace), status="live",
                 alive_at=utcnow().timestamp())
    counts: dict[str, int] = {}
    for i, name in enumerate(settings.bucket_names()):
        last = i == len(edges) - 2
        bounds = ("vitality", edges[i], None, edges[i + 1] if last else None, None if last else edges[i + 1])
        counts[name] = store._backend.count(replace(base, ranges=(bounds,)))
    unscored = store._backend.count(base) - sum(counts.values())
    if unscored > 0:
        counts["unscored"] = unscored
    return counts


def latest_said(store: Any, namespace: Namespace, limit: int = 30) -> list[dict[str, Any]]:
    """The newest exchanges and summaries indexed for ``namespace`` (payloads), newest first."""
    from langgraph_memory.store.conversations import COLLECTION, conversations

    if store._backend.sibling(COLLECTION).stored_meta() is None:
        return []  # nothing was ever indexed: do not create the collection to say so
    where = Where(namespace=namespace_key(namespace), fields=(("source", ("exchange", "summary")),))
    points, _ = conversations(store).scroll(where, limit=limit, order_by="created_at", descending=True)
    return [p.payload for p in points]
