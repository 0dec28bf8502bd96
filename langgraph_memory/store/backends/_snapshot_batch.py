"""A batch's nearest-neighbour lists on one snapshot, answered together.

A pre-hook turn asks a small namespace for ~7 ranked lists (dense and BM25, plain,
tagged with a named subject, within a named time, restricted to given ids), most on the
same query vector. Answered one by one (:meth:`~._snapshot.Snapshot.answer`), each list
pays ~10 small numpy calls (~1 µs each on 100 rows) for its cut and order. Here every
row is sorted once per score vector (stably, so equal scores stay in id order), the
order is kept for the turn's later rounds, and each list is that order filtered by its
mask (one per distinct filter object) and cut. The answers are those of
:meth:`Snapshot.answer`: the best ``limit`` by score, equal scores by ascending id.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from langgraph_memory.store.backends._base import DenseQuery, Hit, SparseQuery
from langgraph_memory.store.backends._snapshot import _bm25_key, _unit, settled_limit

ORDERS_KEPT = 8
"""Orders kept per snapshot (a turn uses one or two query vectors, three with aliases)."""


def answer_nearest(snapshot: Any, queries: Sequence[tuple[int, DenseQuery | SparseQuery]],
                   masks: dict[Any, np.ndarray]) -> dict[int, list[Hit] | None]:
    """The hits of each ``(index, query)``, by index, as :meth:`Snapshot.answer` gives
    them (``None`` for a BM25 list the engine's scores do not settle). ``masks`` is the
    batch's cache (:func:`~._snapshots.local_answers`): masks by filter, scores by vector."""
    groups: dict[Any, list[tuple[int, DenseQuery | SparseQuery]]] = {}
    out: dict[int, list[Hit] | None] = {}
    for i, q in queries:
        key: Any = ("dense", id(q.vector)) if isinstance(q, DenseQuery) else ("bm25", _bm25_key(q))
        if key[0] == "bm25" and key[1] not in snapshot._bm25:
            out[i] = None  # dropped by another thread's batch meanwhile: the engine answers
            continue
        groups.setdefault(key, []).append((i, q))
    for key, members in groups.items():
        out.update(_group(snapshot, key, members, masks))
    return out


def _ordered(snapshot: Any, key: Any, query: DenseQuery | SparseQuery, masks: dict[Any, np.ndarray],
             ) -> tuple[np.ndarray, float | None, np.ndarray] | None:
    """The scores of ``query``'s vector, the BM25 cut, and every row by score, best first,
    equal scores by ascending id (rows are in id order and the sort is stable). Kept on
    the snapshot: a turn's later rounds ask again with the same vector. ``None``: the
    BM25 scores were dropped by another thread's batch since :func:`answer_nearest` saw them."""
    found = snapshot._orders.get(key)
    if isinstance(query, DenseQuery):
        if found is not None and found[0] is query.vector:
            return found[1], None, found[2]
        scores = masks.get(id(query.vector))
        if scores is None:
            scores = masks[id(query.vector)] = snapshot.vectors @ _unit(query.vector)
        owner: Any = query.vector  # held: its id is not reused while the entry lives
        cut = None
    else:
        known = snapshot._bm25.get(key[1])  # one read: another thread may clear the cache
        if known is None:
            return None
        scores, cut = owner = known
        if found is not None and found[0] is owner:
            return scores, cut, found[2]
    order = np.argsort(-scores, kind="stable")
    if len(snapshot._orders) >= ORDERS_KEPT:
        snapshot._orders.clear()
    snapshot._orders[key] = (owner, scores, order)
    return scores, cut, order


def _keep(snapshot: Any, query: DenseQuery | SparseQuery, masks: dict[Any, np.ndarray]) -> np.ndarray:
    # By the filter object: a plan's lists share theirs, and hashing a filter costs more
    # than comparing identities (the batch holds every query, so no id is reused meanwhile).
    key = ("where", id(query.where))
    keep = masks.get(key)
    if keep is None:
        keep = masks.get(query.where)
        if keep is None:
            keep = masks[query.where] = snapshot.mask(query.where)
        masks[key] = keep
    return keep


def _group(snapshot: Any, key: Any, members: list[tuple[int, DenseQuery | SparseQuery]],
           masks: dict[Any, np.ndarray]) -> dict[int, list[Hit] | None]:
    """The lists of one query vector (its cosines, or the engine's BM25 scores and cut)."""
    sparse = key[0] == "bm25"
    ordered = _ordered(snapshot, key, members[0][1], masks)
    if ordered is None:  # the engine answers these lists
        return {i: None for i, _ in members}
    scores, cut, order = ordered
    if sparse:
        valid = ~np.isnan(scores)
    else:
        valid = snapshot.has_dense
        if np.isnan(scores[valid]).any():
            # A nan cosine (a nan in a stored vector) has no place in an order: one by one.
            return {i: snapshot.answer(q, masks) for i, q in members}
    out: dict[int, list[Hit] | None] = {}
    for i, q in members:
        limit = settled_limit(q)
        keep = _keep(snapshot, q, masks) & valid
        if cut is not None:
            # A row the engine did not return scores at most the cut: only the rows above
            # it are sure to hold the list's best (else the engine answers the list).
            keep &= scores > cut
            if int(np.count_nonzero(keep)) < limit:
                out[i] = None
                continue
        elif not sparse and q.min_score is not None:  # type: ignore[union-attr]
            keep &= scores >= q.min_score  # type: ignore[union-attr]
        rows = order[keep[order]][:limit]
        out[i] = snapshot.hits(q, rows.tolist(), scores[rows].tolist())
    return out
