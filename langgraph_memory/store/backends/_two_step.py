"""Dense queries on a big namespace in two steps: nearest by the tenant key alone, then
the whole filter on those candidates only.

Why: on a Qdrant Edge segment without HNSW (everything written one at a time, until
``optimize()``), a dense query whose filter has one condition scores the namespace's
points straight from that condition's index, but every further condition (``status``,
expiry, kinds...) is checked point by point. Measured on 20k points of one namespace
written in this process: 1.8-2.3 ms with the tenant key alone, 6-10 ms with the store's
live filter. (A shard freshly loaded from disk checks them several times faster; the
writes made since, even a few thousand, bring the slow checks back.)

So a query ``q`` (``limit`` k) on a namespace of at least :data:`TWO_STEP_FROM` points
runs as:

1. the nearest :func:`candidates` (k') points of its namespace, ids and scores only;
2. ``q`` itself, its filter narrowed to those ids (the engine then checks k' points);
3. only when 2. cannot be proven whole: ``q`` as it was.

Step 2 asks for k+1 hits and is ``q``'s answer when its first k are the only k points
``q``'s filter could pick, in the only order: each scores more than the next (the k+1-th
included), and every point outside the candidates scores less than the k-th (step 1
read the whole namespace: fewer than k' came back; or the k-th scores above the last
candidate). Among equal scores the engine keeps and orders points as it visits them,
and the two filters visit them in other orders: so any tie falls back (ties need equal
vectors: a memory stored twice). Exact search gives exactly what ``q`` alone gives; where the
namespace sits in an HNSW segment both are the index's approximations. The filter
semantics stay the engine's own: nothing is checked in Python.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from langgraph_memory.store.backends._base import DenseQuery, Hit, Query, Where

TWO_STEP_FROM = 4_000
"""Namespaces of at least this many points (the engine's estimate) take two steps. Below,
the per-point checks cost less than the second round trip (~0.3-0.5 ms): 20k points
checked cost ~5 ms, so ~2k is where the two meet; twice that for margin."""


def candidates(limit: int) -> int:
    """How many nearest points step 1 reads for a query of ``limit``: enough that k live
    ones are among them when some are superseded, archived or expired."""
    return 2 * limit + 16


def _tenant_only(where: Where) -> Where:
    return Where(namespace=where.namespace, status=None)


def eligible(query: Query) -> bool:
    """A dense query on one namespace whose filter says more than the namespace (and
    names no ids of its own: step 2 writes its ids there)."""
    return (isinstance(query, DenseQuery) and query.where.namespace is not None and query.where.ids is None
            and query.where != _tenant_only(query.where))


def batch_in_two_steps(
    queries: Sequence[Query], run: Callable[[Sequence[Query]], list[list[Hit]]],
    namespace_size: Callable[[str], int],
) -> list[list[Hit]]:
    """Every query's hits, as ``run`` (one engine round trip for a batch) gives them; the
    :func:`eligible` queries on namespaces of at least :data:`TWO_STEP_FROM` points (by
    ``namespace_size``) in two or three steps, the others in the first round with them."""
    sizes: dict[str, int] = {}
    split: list[int] = []
    for i, q in enumerate(queries):
        if eligible(q):
            ns = q.where.namespace
            if ns not in sizes:
                sizes[ns] = namespace_size(ns)  # type: ignore[index]
            if sizes[ns] >= TWO_STEP_FROM:  # type: ignore[index]
                split.append(i)
    if not split:
        return run(queries)
    first_round = list(queries)
    wide: dict[int, int] = {}  # query index -> how many candidates it asked for
    for i in split:
        q = queries[i]
        assert isinstance(q, DenseQuery)
        wide[i] = candidates(q.limit)
        first_round[i] = DenseQuery(q.vector, _tenant_only(q.where), wide[i], payload=False, min_score=q.min_score)
    answers = run(first_round)
    narrowed = []
    for i in split:
        ids = tuple(h.point.id for h in answers[i])
        q = queries[i]
        narrowed.append(replace(q, where=replace(q.where, ids=ids), limit=q.limit + 1) if ids else None)
    asked = [n for n in narrowed if n is not None]
    results = iter(run(asked) if asked else [])
    again: list[int] = []
    for i, n in zip(split, narrowed):
        found = next(results) if n is not None else []
        near, limit = answers[i], queries[i].limit  # type: ignore[union-attr]
        ordered = all(a.score > b.score for a, b in zip(found, found[1 : limit + 1]))
        outside = len(near) < wide[i] or (len(found) >= limit and found[limit - 1].score > near[-1].score)
        answers[i] = found[:limit]
        if not (ordered and outside):
            again.append(i)
    if again:
        for i, hits in zip(again, run([queries[i] for i in again])):
            answers[i] = hits
    return answers
