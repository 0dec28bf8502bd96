"""Ordered fetches with equal keys by ascending id, on the engines as on a snapshot.

A fetch ordered by a payload field (the pre-hook's identity, important and recent
channels; the store's ``recent``) gets its points from the engine in that field's order,
but among equal values in the engine's own order, and cut there: which of ten memories
of importance 0.9 made a top 5 depended on the engine, while a namespace snapshot
(:mod:`._snapshot`) keeps equal values by ascending id. Equal keys are common (default
importances by type; the post-hook stamps a batch of accesses with one time), so the
pre-hook chose other memories with a snapshot held than without.

So each ordered fetch of ``limit`` asks the engine for one point more (:func:`widened`).
When the point at the cut and the one after it hold the same key, the page ends inside
a group of equal keys, of which the engine may have kept any: those of that group that
fit are read again (:func:`settled`), in one more engine round for every such fetch of
the batch, with the fetch's own filter and ``key == that value``, unordered: the engine
gives an unordered fetch in ascending id (the snapshot's order too). Only pages that
end inside a group pay the second round; within a page, equal keys are put in id order.
The points the page holds above the group are checked in that round too (their ids,
with the fetch's filter; ids only, ~30-50 µs on Edge): a write between the two reads (a
supersede archives a memory and writes its replacement at once) must not leave the first
read's point beside the second read's replacement, a pair no single state of the store
held. Every point answered still matched at the second read; the answer may be short by
the points a write moved out between the reads, as any read in two steps across a write
may be.

Keys are compared as the engine returns them (``order_value``, its index's value: a
payload float may read back an ulp off the value written). Ids compare as the engine
gives them: ``uuid.UUID`` objects (Edge) by their 128-bit value, canonical UUID strings
(qdrant-client) as text, both the order of the snapshot's id strings.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Sequence

from langgraph_memory.store.backends._base import FetchQuery, Query, Where, id_string

__all__ = ["ordered", "read_in_key_order", "settled", "widened"]


def read_in_key_order(
    queries: Sequence[Query], read: Callable[[Sequence[Query]], list[list[Any]]],
    read_groups: Callable[[list[FetchQuery]], list[list[Any]]] | None = None,
) -> list[list[Any]]:
    """The engine's rows answering ``queries`` (``read``: one engine round), each ordered
    fetch's equal keys by ascending id: asked one point deeper (:func:`widened`), and the
    groups of equal keys a cut falls in read by ``read_groups`` (default ``read``)."""
    if not any(map(ordered, queries)):
        return read(queries)
    return settled(queries, read(widened(queries)), read if read_groups is None else read_groups)


def ordered(query: Query) -> bool:
    """Whether ``query`` is a fetch ordered by a payload field."""
    return isinstance(query, FetchQuery) and query.order_by is not None


def widened(queries: Sequence[Query]) -> list[Query]:
    """``queries`` as the engine is asked them: each ordered fetch one point deeper, to see
    whether a group of equal keys goes on past its cut."""
    return [_deeper(q) if ordered(q) else q for q in queries]


def _deeper(query: Any) -> FetchQuery:
    return FetchQuery(query.where, query.limit + 1, query.order_by, query.descending, query.with_vectors,
                      query.payload)


def settled(
    queries: Sequence[Query], rows: list[list[Any]], run: Callable[[list[FetchQuery]], list[list[Any]]],
) -> list[list[Any]]:
    """Each query's rows, the engine's answers (``rows``, with ``.id`` and ``.order_value``)
    to :func:`widened` ``queries``: every ordered fetch's cut to its limit, equal keys by
    ascending id. ``run`` reads the groups of equal keys a cut falls in (one engine round
    for them all), only when one does."""
    out = list(rows)
    groups: list[tuple[int, list[Any], FetchQuery]] = []  # (query, its rows above the group, the group's read)
    for i, q in enumerate(queries):
        if not ordered(q):
            continue
        found = rows[i]
        keys = [r.order_value for r in found]
        limit = q.limit
        if keys and keys[-1] is None:  # an engine that gives no order values: its own order
            out[i] = found[:limit]
        elif len(found) > limit and keys[limit - 1] == keys[limit]:
            edge = keys[limit - 1]
            above = [r for r, key in zip(found[:limit], keys) if key != edge]
            tie = FetchQuery(_with_key(q, edge), limit - len(above), None, True, q.with_vectors, q.payload)
            groups.append((i, _by_id(above, keys[: len(above)]), tie))
        else:
            out[i] = _by_id(found[:limit], keys[:limit])
    if not groups:
        return out
    reads: list[FetchQuery] = []
    for i, above, tie in groups:
        reads.append(tie)
        if above:  # the page's points above the group, again: which still match (their ids only)
            reads.append(FetchQuery(_with_ids(queries[i].where, above), len(above), None, True, False, False))
    answers = iter(run(reads))
    for i, above, _ in groups:
        group = next(answers)
        if above:
            now = {r.id for r in next(answers)}
            above = [r for r in above if r.id in now]
        seen = {r.id for r in above}
        # ascending id as the engine gives an unordered fetch (a point the page had above
        # the group and rewritten meanwhile to the group's key is not given twice)
        out[i] = above + sorted((r for r in group if r.id not in seen), key=_id)
    return out


def _with_ids(where: Where, rows: list[Any]) -> Where:
    """``where``, keeping only the points of ``rows``, which a read with ``where`` gave:
    their ids are within its own ``ids``, if it has any, so they may stand in their place
    (a condition on ids the engine reads first; nothing outside ``where`` can come)."""
    return replace(where, ids=tuple(id_string(r.id) for r in rows))


def _with_key(query: FetchQuery, key: Any) -> Where:
    """``query``'s filter, keeping only the points whose ordering field equals ``key``."""
    bound = (query.order_by, key, None, key, None)  # at least and at most the key
    return replace(query.where, ranges=(*query.where.ranges, bound))


def _id(row: Any) -> Any:
    return row.id


def _by_id(found: list[Any], keys: list[Any]) -> list[Any]:
    """``found`` (in the engine's key order, ``keys`` theirs) with each run of equal keys
    in ascending id; the list as it is when no two neighbours share a key."""
    if all(a != b for a, b in zip(keys, keys[1:])):
        return found
    out: list[Any] = []
    start = 0
    for end in range(1, len(found) + 1):
        if end == len(found) or keys[end] != keys[start]:
            group = found[start:end]
            out += sorted(group, key=_id) if len(group) > 1 else group
            start = end
    return out
