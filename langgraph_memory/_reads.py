"""Reads as plans, so that several reads share the engine's round trips.

A plan is a generator: it yields a list of engine queries, receives their results, and
yields again or returns its answer. :func:`run_plans` steps many plans together and sends
each round's queries as one :meth:`Backend.query_batch`: the pre-hook's four channels and
the first round of a hybrid search cost a single call into the engine.
"""

from __future__ import annotations

from typing import Any, Generator, Sequence, TypeVar

from langgraph_memory._backends import Backend, FetchQuery, Hit, Query, Where
from langgraph_memory.records import Memory

T = TypeVar("T")

Plan = Generator[list[Query], list[list[Hit]], T]


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
