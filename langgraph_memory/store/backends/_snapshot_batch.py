"""A batch's nearest-neighbour lists on one snapshot, answered together.

A pre-hook turn asks a small namespace for ~7 ranked lists (dense and BM25, plain,
tagged with a named subject, within a named time, restricted to given ids), most on the
same query vector. Answered one by one (:meth:`~._snapshot.Snapshot.answer`), each list
pays ~10 small numpy calls (~1 µs each on 100 rows) for its cut and order. Here the
lists of one score vector are cut together: their filters (one mask per distinct filter
object) and scores make one matrix, one partition finds each list's cut, and one stable
sort of the few columns that can rank orders every list. The answers are those of
:meth:`Snapshot.answer`: the best ``limit`` by score, equal scores by ascending id.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from langgraph_memory.store.backends._base import DenseQuery, ExactHits, Hit, SparseQuery, StoredPoint
from langgraph_memory.store.backends._snapshot import _bm25_key, _unit

ONE_PASS_MIN = 2
"""Lists of one score vector answered together from this many; fewer, one by one (a
shared sort of every row costs more than one list's own cut)."""


def answer_nearest(snapshot: Any, queries: Sequence[tuple[int, DenseQuery | SparseQuery]],
                   masks: dict[Any, np.ndarray]) -> dict[int, list[Hit] | None]:
    """The hits of each ``(index, query)``, by index, as :meth:`Snapshot.answer` gives
    them (``None`` for a BM25 list the engine's scores do not settle). ``masks`` is the
    batch's cache (:func:`~._snapshots.local_answers`): masks by filter, scores by vector."""
    groups: dict[Any, tuple[np.ndarray, list[tuple[int, DenseQuery | SparseQuery]]]] = {}
    out: dict[int, list[Hit] | None] = {}
    for i, q in queries:
        if isinstance(q, DenseQuery):
            key: Any = id(q.vector)
            if key not in groups:
                every = masks.get(key)
                if every is None:
                    every = masks[key] = snapshot.vectors @ _unit(q.vector)
                groups[key] = (every, [])
        else:
            key = _bm25_key(q)
            if key not in groups:
                known = snapshot._bm25.get(key)
                if known is None:  # dropped by another thread's batch meanwhile: the engine answers
                    out[i] = None
                    continue
                groups[key] = (known, [])  # type: ignore[assignment]
        groups[key][1].append((i, q))
    for every, members in groups.values():
        if len(members) < ONE_PASS_MIN:
            out.update((i, snapshot.answer(q, masks)) for i, q in members)
        else:
            out.update(_group(snapshot, every, members, masks))
    return out


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


def _group(snapshot: Any, every: Any, members: list[tuple[int, DenseQuery | SparseQuery]],
           masks: dict[Any, np.ndarray]) -> dict[int, list[Hit] | None]:
    """The lists of one score vector (a dense query's cosines, or the engine's BM25 scores
    of one sparse query with their cut)."""
    sparse = isinstance(members[0][1], SparseQuery)
    if sparse:
        scores, cut = every
        valid = ~np.isnan(scores)
    else:
        scores, cut = every, None
        valid = snapshot.has_dense
        if np.isnan(scores[valid]).any():
            # A nan cosine (a nan in a stored vector) has no place in an order: one by one.
            return {i: snapshot.answer(q, masks) for i, q in members}
    # Every row by score, best first, equal scores by ascending id (rows are in id
    # order and the sort is stable): each list is this order, filtered and cut.
    order = np.argsort(-scores, kind="stable")
    out: dict[int, list[Hit] | None] = {}
    ids = snapshot.ids
    for i, q in members:
        # Ties are settled here: a caller asking past its cut to see one needs no more.
        limit = q.limit if q.exact_limit is None else min(q.limit, q.exact_limit)
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
        best = zip(rows.tolist(), scores[rows].tolist())
        if q.payload is False and not q.with_vectors:  # a candidate list: ids and scores
            out[i] = ExactHits([Hit(StoredPoint(ids[r], {}), s) for r, s in best])
        else:
            out[i] = ExactHits([Hit(snapshot._point(r, q.payload, q.with_vectors), s) for r, s in best])
    return out
