"""Typed links between memories of one namespace (seed 001's associations).

Where links live: in the ``links`` payload field of both memories they join. The source
holds ``{"relation", "target", "at"}``, the target ``{"relation", "source", "at"}``. This
costs no collection, index or query of its own: every read that returns a memory already
carries its links, so the pre-hook and search see whether a hit has links at no extra
cost, and follow them with one ``retrieve`` by id (no round at all when no hit has links).
Both ends hold the link so it can be followed either way (a question about Tom's new job
reaches the memory that ``caused_by`` it, and the other way round). A supersede records
``updates`` from the new version to the old, carries the old version's other links over to
the new one, and repoints the memories linked to it: a link leads to the fact as it now
stands (the retired version keeps its links, for ``history``).

A link is written as two partial payload updates (``links`` only, so they never undo a
concurrent write of another field); the first is undone if the second fails. Removing a
memory for good (``delete(hard=True)``, the garden's purge, ``purge_expired``) removes
its entries from the memories it was linked to; ``erase`` removes both ends anyway.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Iterable, Literal, Mapping, Sequence, get_args

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import check_epoch
from langgraph_memory.store._reads import check_memory_id, points_by_id
from langgraph_memory.store.backends import Backend
from langgraph_memory.store.records import Memory, Namespace, utcnow, validate_namespace

__all__ = ["Link", "LinkRelation", "RELATIONS", "MAX_LINKS"]

logger = logging.getLogger("langgraph_memory")

LinkRelation = Literal["related_to", "updates", "contradicts", "caused_by", "result_of", "part_of"]
"""How one memory bears on another, as SpaceBot names it: ``A updates B`` (A is the newer
version of B), ``A contradicts B``, ``A caused_by B``, ``A result_of B``, ``A part_of B``,
``A related_to B``."""
RELATIONS: tuple[str, ...] = get_args(LinkRelation)
HISTORY = ("live", "superseded", "archived", "forgotten")
"""Every state a memory's record can be in."""
MAX_LINKS = 64
"""Links a memory may hold (both directions): beyond this a memory is a hub, and following
its links would flood a search."""


@dataclass(frozen=True)
class Link:
    """A typed link ``source_id --relation--> target_id``; both are memories of one namespace."""

    source_id: str
    target_id: str
    relation: str
    created_at: datetime

    def other(self, memory_id: str) -> str:
        """The memory at the other end from ``memory_id``."""
        return self.target_id if memory_id == self.source_id else self.source_id


def check_relation(relation: Any) -> str:
    if not isinstance(relation, str) or relation not in RELATIONS:
        raise InvalidMemoryError("relation", f"unknown relation {relation!r}; expected one of {list(RELATIONS)}"[:300])
    return relation


def check_link_entries(entries: Any) -> None:
    """Stored ``links`` as an import file gives them: a list of at most :data:`MAX_LINKS`
    entries, each a known relation and exactly one other memory's id (``target`` or
    ``source``) with its time ``at``."""
    if entries is None:
        return
    if not isinstance(entries, list) or len(entries) > MAX_LINKS:
        raise InvalidMemoryError("links", f"must be a list of at most {MAX_LINKS} links")
    for entry in entries:
        if not isinstance(entry, Mapping) or set(entry) not in ({"relation", "target", "at"}, {"relation", "source", "at"}):
            raise InvalidMemoryError("links", "each link is {relation, target or source, at}")
        check_relation(entry["relation"])
        end = entry.get("target", entry.get("source"))
        if check_memory_id(end) != end:
            raise InvalidMemoryError("links", f"{end!r} is not a memory id"[:200])
        check_epoch("links.at", entry["at"])


def as_links(memory_id: str, entries: Iterable[Mapping[str, Any]]) -> list[Link]:
    """The stored entries of memory ``memory_id`` as :class:`Link` objects."""
    out = []
    for entry in entries:
        at = datetime.fromtimestamp(float(entry.get("at") or 0.0), tz=timezone.utc)
        if "target" in entry:
            out.append(Link(memory_id, str(entry["target"]), str(entry["relation"]), at))
        else:
            out.append(Link(str(entry["source"]), memory_id, str(entry["relation"]), at))
    return out


def peers(entries: Iterable[Mapping[str, Any]]) -> list[tuple[str, str]]:
    """``(other memory id, relation)`` for each stored entry, in order, without repeats."""
    seen: dict[tuple[str, str], None] = {}
    for entry in entries:
        seen[(str(entry.get("target") or entry.get("source")), str(entry.get("relation")))] = None
    return list(seen)


def _has(entries: Sequence[Mapping[str, Any]], relation: str, end: str, other: str) -> bool:
    return any(e.get("relation") == relation and e.get(end) == other for e in entries)


def add_link(store: Any, source_id: Any, target_id: Any, relation: Any, namespace: Any) -> Link:
    """Link two live memories of ``namespace``; idempotent (an existing link is returned)."""
    source = check_memory_id(source_id)
    target = check_memory_id(target_id)
    relation = check_relation(relation)
    namespace = validate_namespace(namespace)
    if source == target:
        raise InvalidMemoryError("target_id", "a memory cannot link to itself")
    backend: Backend = store._backend
    with store._writer.lock(namespace, "__links__"):
        found = {p.id: p for p in points_by_id(backend, [source, target], namespace, live_only=True)}
        for field, memory_id in (("source_id", source), ("target_id", target)):
            if memory_id not in found:
                # Another namespace's id reads exactly as an unknown one.
                raise InvalidMemoryError(field, f"no live memory {memory_id} in this namespace")
        out = list(found[source].payload.get("links") or [])
        into = list(found[target].payload.get("links") or [])
        if _has(out, relation, "target", target):
            return next(l for l in as_links(source, out) if l.target_id == target and l.relation == relation)
        for field, entries in (("source_id", out), ("target_id", into)):
            if len(entries) >= MAX_LINKS:
                raise InvalidMemoryError(field, f"the memory already has {MAX_LINKS} links")
        at = utcnow()
        out.append({"relation": relation, "target": target, "at": at.timestamp()})
        into.append({"relation": relation, "source": source, "at": at.timestamp()})
        backend.set_payload([target], {"links": into})
        try:
            backend.set_payload([source], {"links": out})
        except Exception:
            # Nothing half-written: take the target's half back.
            backend.set_payload([target], {"links": found[target].payload.get("links") or []})
            raise
    logger.info("linked memory %s %s %s", source, relation, target)
    return Link(source, target, relation, at)


def list_links(store: Any, memory_id: Any, namespace: Any) -> list[Link]:
    """The links of memory ``memory_id`` (in any state) whose other end is still stored."""
    memory_id = check_memory_id(memory_id)
    found = points_by_id(store._backend, [memory_id], validate_namespace(namespace), live_only=False)
    if not found or found[0].payload.get("status") not in HISTORY:
        return []
    links = as_links(memory_id, found[0].payload.get("links") or [])
    others = {l.other(memory_id) for l in links}
    kept = {p.id for p in points_by_id(store._backend, sorted(others), namespace, live_only=False)} if others else set()
    return [l for l in links if l.other(memory_id) in kept]


def supersede_links(old: Memory, survivor: Memory) -> tuple[tuple[dict[str, Any], ...], tuple[dict[str, Any], ...]]:
    """The links of the new version and of the retired one after ``survivor`` supersedes
    ``old``: the survivor takes over ``old``'s links (but not its own version chain) and
    ``updates`` it; the retired version keeps its links and records who updated it."""
    at = utcnow().timestamp()
    mine = [dict(e) for e in survivor.links]
    taken = [dict(e) for e in old.links if not (e.get("relation") == "updates" and "target" in e)]
    merged = mine + [e for e in taken if e not in mine]
    survivor_links = (*merged[: MAX_LINKS - 1], {"relation": "updates", "target": old.id, "at": at})
    retired_links = (*[dict(e) for e in old.links][: MAX_LINKS - 1], {"relation": "updates", "source": survivor.id, "at": at})
    return survivor_links, retired_links


def updates_entries(retired: Memory, survivor: Memory) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The ``links`` of both memories once ``survivor`` updates ``retired``, for a settling
    written as partial updates (:mod:`._reconcile`); settling twice adds nothing."""
    at = utcnow().timestamp()
    old, new = [dict(e) for e in retired.links], [dict(e) for e in survivor.links]
    if not _has(old, "updates", "source", survivor.id):
        old.append({"relation": "updates", "source": survivor.id, "at": at})
    if not _has(new, "updates", "target", retired.id):
        new.append({"relation": "updates", "target": retired.id, "at": at})
    return old, new


def repoint_peers(backend: Backend, old: Memory, survivor_id: str) -> None:
    """After a supersede, the memories linked to ``old`` name its successor instead (their
    links then lead to the fact as it now stands). Nothing to do, and no engine call, when
    ``old`` had no links besides its version chain."""
    others = {o for o, rel in peers(old.links) if rel != "updates" and o != survivor_id}
    if not others:
        return
    for point in backend.retrieve(sorted(others)):
        entries = point.payload.get("links") or []
        moved = [
            {**e, **({"target": survivor_id} if e.get("target") == old.id else {}),
             **({"source": survivor_id} if e.get("source") == old.id else {})}
            for e in entries
        ]
        if moved != entries:
            try:
                backend.set_payload([point.id], {"links": moved})
            except Exception:
                if backend.retrieve([point.id]):
                    raise


def unlink_removed(backend: Backend, removed: Mapping[str, Iterable[Mapping[str, Any]]]) -> None:
    """Drop the entries naming the memories just deleted for good (``removed``: each one's
    id and stored ``links``) from the memories they were linked to."""
    gone = set(removed)
    touched = {other for entries in removed.values() for other, _ in peers(entries) if other not in gone}
    if not touched:
        return
    for point in backend.retrieve(sorted(touched)):
        entries = point.payload.get("links") or []
        kept = [e for e in entries if (e.get("target") or e.get("source")) not in gone]
        if len(kept) != len(entries):
            try:
                backend.set_payload([point.id], {"links": kept})
            except Exception:
                if backend.retrieve([point.id]):
                    raise


def link_siblings(store: Any, memory_ids: Sequence[str], namespace: Namespace) -> int:
    """Link ``related_to`` the facts one batch drew from the same messages (a digest of a
    room) that share a subject: each to the latest one before it naming one of its
    subjects, so a trip and its duration stay together without linking every pair.
    Idempotent (a resumed digest links again harmlessly); a failure is logged, never
    raised: the facts are stored, and the links are a bonus. Returns how many were made."""
    made = 0
    try:
        memories = [m for m, _ in store.get_many(list(dict.fromkeys(memory_ids)), namespace=namespace)]
        order = {memory_id: i for i, memory_id in enumerate(dict.fromkeys(memory_ids))}
        memories.sort(key=lambda m: order[m.id])
        for i, memory in enumerate(memories):
            earlier = next((o for o in reversed(memories[:i]) if set(o.subjects) & set(memory.subjects)), None)
            if earlier is not None:
                store.link(memory.id, earlier.id, "related_to", namespace=namespace)
                made += 1
    except Exception as exc:  # never lose a digest over a link
        logger.warning("could not link the facts of one batch: %s", exc)
    return made
