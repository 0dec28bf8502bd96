"""Reads as plans, so that several reads share the engine's round trips.

A plan is a generator: it yields a list of engine queries, receives their results, and
yields again or returns its answer. :func:`run_plans` steps many plans together and sends
each round's queries as one :meth:`Backend.query_batch`: the pre-hook's four channels and
the first round of a hybrid search cost a single call into the engine.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Generator, Sequence, TypeVar

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.backends import Backend, FetchQuery, Hit, Query, StoredPoint, Where
from langgraph_memory.store.records import Memory, Namespace, namespace_key, utcnow, validate_namespace

T = TypeVar("T")

Plan = Generator[list[Query], list[list[Hit]], T]


@dataclass(frozen=True)
class QueryVectors:
    """A query embedded once (dense + sparse), reusable by every search of a turn."""

    text: str
    dense: list[float]
    sparse: tuple[list[int], list[float]]


def live_where(namespace: Namespace, **conditions: Any) -> Where:
    """A filter on the live (not superseded, not expired) memories of ``namespace``."""
    return Where(
        namespace=namespace_key(validate_namespace(namespace)),
        alive_at=utcnow().timestamp(),
        **conditions,
    )


def run_plans(backend: Backend, plans: Sequence[Plan[Any]]) -> list[Any]:
    """Each plan's answer, in order; one ``query_batch`` per round across all plans."""
    answers: list[Any] = [None] * len(plans)
    active: dict[int, list[Query]] = {}
    for i, plan in enumerate(plans):
        try:
            active[i] = next(plan)
        except StopIteration as done:
            answers[i] = done.value
    while active:
        batch = [q for queries in active.values() for q in queries]
        results = backend.query_batch(batch) if batch else []
        following: dict[int, list[Query]] = {}
        offset = 0
        for i, queries in active.items():
            mine, offset = results[offset : offset + len(queries)], offset + len(queries)
            try:
                following[i] = plans[i].send(mine)
            except StopIteration as done:
                answers[i] = done.value
        active = following
    return answers


def memories_plan(where: Where, limit: int, order_by: str | None = None) -> Plan[list[Memory]]:
    """Memories matching ``where``, first by ``order_by`` (descending)."""
    [hits] = yield [FetchQuery(where, limit, order_by)]
    return [Memory.from_payload(h.point.id, h.point.payload) for h in hits]


def points_by_id(
    backend: Backend, ids: Sequence[str], namespace: Namespace, *, live_only: bool, with_vectors: bool = False
) -> list[StoredPoint]:
    """The points among ``ids`` that belong to ``namespace`` (live ones only if asked); another
    namespace's ids are dropped as if unknown."""
    key = namespace_key(validate_namespace(namespace))
    valid = [check_memory_id(i) for i in ids]
    now = utcnow().timestamp()
    out = []
    for p in backend.retrieve(valid, with_vectors=with_vectors):
        if p.payload.get("namespace") != key:
            continue  # another user's memory: as if it did not exist
        if live_only:
            expires = p.payload.get("expires_at")
            if p.payload.get("status") != "live" or (expires is not None and expires <= now):
                continue
        out.append(p)
    return out


def history_chain(backend: Backend, memory_id: str, namespace: Namespace) -> list[Memory]:
    """Every version of the fact ``memory_id`` belongs to, oldest first."""
    seen: dict[str, Memory] = {}
    frontier = [memory_id]
    while frontier:
        points = points_by_id(backend, [i for i in frontier if i not in seen], namespace, live_only=False)
        frontier = []
        for p in points:
            m = Memory.from_payload(p.id, p.payload)
            seen[m.id] = m
            frontier.extend(i for i in (*m.supersedes, m.superseded_by) if i and i not in seen)
    return sorted(seen.values(), key=lambda m: (m.updated_at, m.created_at))


def check_ids(memory_ids: Any) -> list[str]:
    """A list of memory ids (a single string is refused: it is not a list of ids)."""
    if isinstance(memory_ids, str) or not isinstance(memory_ids, Sequence):
        raise InvalidMemoryError("memory_ids", "expected a list of memory ids")
    return [check_memory_id(i) for i in memory_ids]


def check_memory_id(memory_id: Any) -> str:
    if not isinstance(memory_id, (str, uuid.UUID)):
        raise InvalidMemoryError("memory_id", f"expected an id string, got {type(memory_id).__name__}")
    try:
        return str(uuid.UUID(str(memory_id)))
    except (ValueError, TypeError, AttributeError):
        raise InvalidMemoryError("memory_id", f"{memory_id!r} is not a memory id"[:200]) from None
