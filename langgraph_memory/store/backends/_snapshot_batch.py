"""A batch's nearest-neighbour lists on one snapshot, answered together.

A pre-hook turn asks a namespace for ~7 ranked lists (dense and BM25, plain, tagged with a
named subject, within a named time, restricted to given ids), most on the same query
vector. Answered one by one (:meth:`~._snapshot.Snapshot.answer`), each list pays ~10
small numpy calls for its cut and order. Here each score vector is ordered once (equal
scores stay in id order), the order is kept for the turn's later rounds, and each list is
that order filtered by its mask (one per distinct filter object) and cut. The answers are
those of :meth:`Snapshot.answer`: the best ``limit`` by score, equal scores by ascending id.

The order is a *prefix* of the full order: on a large namespace (past
:data:`WHOLE_ORDER_UP_TO` rows) only the rows scoring at least the
:data:`PREFIX_ROWS`-th best score are sorted (a partition then a sort of ~256 rows, where
sorting 10k rows took ~0.7 ms), so every row left out scores strictly below every row
kept. A list the prefix fills is exact; a list it does not fill (a narrow filter) is
answered from its own rows. BM25 scores exist for at most ``BM25_DEPTH`` rows: those are
sorted whole.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, NamedTuple, Sequence

import numpy as np

from langgraph_memory.store.backends._base import DenseQuery, Hit, SparseQuery, bm25_key
from langgraph_memory.store.backends._snapshot_points import fetched_hits, scored_hits
from langgraph_memory.store.backends._snapshot_scores import best_rows, settled_limit

ORDERS_KEPT = 8
"""Orders kept per snapshot (a turn uses one or two query vectors, three with aliases)."""
WHOLE_ORDER_UP_TO = 1_024
"""Score vectors over at most this many rows are sorted whole (a few µs at 100 rows)."""
PREFIX_ROWS = 256
"""Past :data:`WHOLE_ORDER_UP_TO`, the best this many rows (and rows tied with the last)
are sorted: a turn's lists ask 20-40, most over filters keeping most rows."""
BM25_SORT_ALL_UP_TO = 384
"""BM25 scores over at most this many rows are ordered by one sort of every row (those the
engine did not score sort last: measured cheaper up to ~500 rows with 128 scored, 2.5x
dearer at 1,000); past it the scored rows are picked first."""


class _Order(NamedTuple):
    owner: Any
    """What the scores came from (a query vector, or the BM25 entry): its identity is
    checked, and holding it keeps its id from being reused while the order lives."""
    scores: np.ndarray
    rows: np.ndarray
    """Rows with a score (a dense vector; a BM25 hit) best first, equal scores by id: the
    whole order, or its prefix down to :attr:`floor`."""
    ordered: np.ndarray
    """``scores[rows]``: non-increasing."""
    floor: float
    """Every row with a score not in :attr:`rows` scores strictly below this (-inf: none left out)."""
    cut: float | None
    """The BM25 cut: a row the engine did not return scores at most this."""
    above_cut: int
    """How many of :attr:`rows` score above the BM25 cut (all of them for dense scores)."""


def answer_nearest(snapshot: Any, queries: Sequence[tuple[int, DenseQuery | SparseQuery]],
                   masks: dict[Any, np.ndarray]) -> dict[int, list[Hit] | None]:
    """The hits of each ``(index, query)``, by index, as :meth:`Snapshot.answer` gives
    them (``None`` for a BM25 list the engine's scores do not settle). ``masks`` is the
    batch's cache (:func:`~._snapshots.local_answers`): masks by filter, scores by vector."""
    groups: dict[Any, list[tuple[int, DenseQuery | SparseQuery]]] = {}
    out: dict[int, list[Hit] | None] = {}
    for i, q in queries:
        key: Any = ("dense", id(q.vector)) if isinstance(q, DenseQuery) else ("bm25", bm25_key(q))
        if key[0] == "bm25" and key[1] not in snapshot._bm25:
            out[i] = None  # dropped by another thread's batch meanwhile: the engine answers
            continue
        groups.setdefault(key, []).append((i, q))
    for key, members in groups.items():
        out.update(_group(snapshot, key, members, masks))
    return out


def _scored_order(scores: np.ndarray, rows: np.ndarray | None) -> tuple[np.ndarray, float]:
    """``rows`` (all rows when ``None``) best first, equal scores in id order: all of them
    (:func:`_whole`), or past :data:`WHOLE_ORDER_UP_TO` those scoring at least the
    :data:`PREFIX_ROWS`-th best score; and the floor below which every row left out scores."""
    mine = scores if rows is None else scores[rows]
    if _whole(len(mine)):
        order = (-mine).argsort(kind="stable")
        return (order if rows is None else rows[order]), -np.inf
    floor = float(np.partition(mine, len(mine) - PREFIX_ROWS)[len(mine) - PREFIX_ROWS])
    top = np.flatnonzero(mine >= floor)  # in id order: the stable sort keeps ties so
    top = top[np.argsort(-mine[top], kind="stable")]
    return (top if rows is None else rows[top]), floor


def _whole(rows: int) -> bool:
    """Whether an order of ``rows`` scored rows is sorted whole (else its prefix)."""
    return rows <= WHOLE_ORDER_UP_TO or rows <= PREFIX_ROWS


def _bm25_order(scores: np.ndarray, cut: float | None) -> tuple[np.ndarray, np.ndarray, int]:
    """The rows with a BM25 score (not nan) best first, equal scores in id order; their
    scores; how many score above ``cut`` (all, without one). On a small namespace, one
    stable sort of every row (a nan sorts last) and two binary searches in it, where
    picking the scored rows first and counting those above the cut took four numpy calls
    more (~1-3 µs each in a turn); past :data:`BM25_SORT_ALL_UP_TO` rows, the scored rows
    (at most the engine's depth) are picked first and sorted alone."""
    picked = np.flatnonzero(~np.isnan(scores)) if len(scores) > BM25_SORT_ALL_UP_TO else None
    negated = -scores if picked is None else -scores[picked]
    order = negated.argsort(kind="stable")
    ranked = negated[order]  # ascending, nans last
    scored = int(ranked.searchsorted(np.inf, side="right"))
    rows = order[:scored] if picked is None else picked[order]
    # The rows above the cut are a prefix of the order: the engine returned every row above it.
    above = scored if cut is None else int(ranked[:scored].searchsorted(-cut, side="left"))
    return rows, scores[rows], above


def _ordered(snapshot: Any, key: Any, query: DenseQuery | SparseQuery, masks: dict[Any, np.ndarray],
             ) -> _Order | None:
    """The order of ``query``'s scores (:class:`_Order`), kept on the snapshot: a turn's
    later rounds ask again with the same vector. ``None``: the BM25 scores were dropped by
    another thread's batch since :func:`answer_nearest` saw them, or a cosine is nan (a
    nan in a stored vector has no place in an order: the lists are answered one by one)."""
    found = snapshot._orders.get(key)
    if isinstance(query, DenseQuery):
        if found is not None and found.owner is query.vector:
            return found
        scores = masks.get(id(query.vector))
        if scores is None:
            scores = masks[id(query.vector)] = snapshot.cosines(query.vector)
        mine = None if snapshot.all_dense else np.flatnonzero(snapshot.has_dense)
        whole = _whole(len(scores) if mine is None else len(mine))
        if not whole and np.isnan(scores if mine is None else scores[mine]).any():
            return None
        rows, floor = _scored_order(scores, mine)
        ordered = scores[rows]
        # A whole order sorts a nan last: seen there, at no cost of its own (~2 numpy calls a turn).
        if whole and len(ordered) and ordered[-1] != ordered[-1]:
            return None
        entry = _Order(query.vector, scores, rows, ordered, floor, None, len(rows))
    else:
        known = snapshot._bm25.get(key[1])  # one read: another thread may clear the cache
        if known is None:
            return None
        if found is not None and found.owner is known:
            return found
        scores, cut = known
        rows, ordered, above = _bm25_order(scores, cut)
        entry = _Order(known, scores, rows, ordered, -np.inf, cut, above)
    if len(snapshot._orders) >= ORDERS_KEPT:
        snapshot._orders.clear()
    snapshot._orders[key] = entry
    return entry


def _group(snapshot: Any, key: Any, members: list[tuple[int, DenseQuery | SparseQuery]],
           masks: dict[Any, np.ndarray]) -> dict[int, list[Hit] | None]:
    """The lists of one query vector (its cosines, or the engine's BM25 scores and cut)."""
    order = _ordered(snapshot, key, members[0][1], masks)
    if order is None:
        if key[0] == "bm25":  # the engine answers these lists
            return {i: None for i, _ in members}
        return {i: snapshot.answer(q, masks) for i, q in members}
    out: dict[int, list[Hit] | None] = {}
    bm25, nothing, kept = key[0] == "bm25", snapshot.nothing(), snapshot.kept
    # A BM25 row the engine did not return scores at most the cut: only the rows above it
    # are sure to hold the list's best (else the engine answers the list).
    all_rows = order.rows[: order.above_cut] if bm25 else order.rows
    for i, q in members:
        limit = q.limit if q.exact_limit is None else min(q.limit, q.exact_limit)  # settled_limit(q)
        rows, floor = all_rows, order.floor
        if not bm25 and q.min_score is not None:  # type: ignore[union-attr]
            ordered = order.ordered
            enough = int(np.count_nonzero(ordered >= q.min_score))  # type: ignore[union-attr]
            if enough < len(rows) or floor <= q.min_score:  # type: ignore[union-attr]
                floor = -np.inf  # no row left out of the order reaches the floor
            rows = rows[:enough]
        keep = kept(q.where, masks)
        # A filter no row passes (the shared empty mask): no row to pick.
        chosen = rows[:0] if keep is nothing else rows[keep[rows]][:limit]
        if len(chosen) < limit and floor != -np.inf:
            # A narrow filter: its best rows may lie past the prefix. Its own rows, ordered.
            mine = np.flatnonzero(keep & snapshot.has_dense)
            if q.min_score is not None:  # type: ignore[union-attr]
                mine = mine[order.scores[mine] >= q.min_score]  # type: ignore[union-attr]
            chosen, _ = best_rows(mine, order.scores[mine], limit)
        elif order.cut is not None and len(chosen) < limit:
            out[i] = None
            continue
        out[i] = snapshot.hits(q, chosen.tolist(), order.scores[chosen].tolist())
    return out


def candidates_scored(
    snapshot: Any, vector: list[float], bm25: tuple[list[int], list[float]], everyone: Sequence[str],
    need_dense: Sequence[str], need_sparse: Sequence[str], with_vectors: bool,
) -> tuple[list[Hit], list[Hit], list[Hit]] | None:
    """A hybrid search's scoring round answered by the snapshot that answered its lists
    (:func:`~langgraph_memory.store._hybrid._complete`), without the round: the
    candidates ``everyone`` read whole (with their dense vectors if ``with_vectors``),
    the cosines to ``vector`` of ``need_dense``, the BM25 scores (query ``bm25``) of
    ``need_sparse``; each as the round's ids-filtered queries get it from this snapshot.

    Every candidate came from a list of this snapshot under the search's filter or a
    narrower one: each passes the filter the round would repeat, so no mask is built
    (three a turn, with the round's own overhead: ~50 µs of a ~400 µs turn at 100
    memories). ``None`` when the round must run: a candidate not in this snapshot, a nan
    cosine, BM25 scores no longer held, or a BM25 score the engine's cut leaves unknown."""
    row = snapshot.row
    rows = [row.get(i) for i in everyone]
    if None in rows:
        return None
    rows.sort()  # a fetch by ids answers in id order (rows are)
    # A few dozen rows: Python's sort of their floats, where numpy's calls cost more
    # (~1-2 µs each); ``sorted(..., reverse=True)`` is stable, as the snapshot's lists are.
    dense: list[Hit] = []
    if need_dense:
        mine = sorted([row[i] for i in need_dense])
        if not snapshot.all_dense:
            has = snapshot.has_dense
            mine = [r for r in mine if has[r]]
        order = snapshot._orders.get(("dense", id(vector)))
        every = order.scores if order is not None and order.owner is vector else snapshot.cosines(vector)
        scores = every[mine].tolist()
        if any(x != x for x in scores):  # nan
            return None
        dense = _candidates(snapshot, mine, scores)
    sparse: list[Hit] = []
    if need_sparse:
        known = snapshot._bm25.get((tuple(bm25[0]), tuple(bm25[1])))  # bm25_key of the round's query
        if known is None:
            return None
        every, cut = known
        mine = sorted([row[i] for i in need_sparse])
        scores = every[mine].tolist()
        if cut is None:
            if any(x != x for x in scores):  # no term in common: in no BM25 list
                kept = [(r, x) for r, x in zip(mine, scores) if x == x]
                mine, scores = [r for r, _ in kept], [x for _, x in kept]
        elif not all(x > cut for x in scores):
            return None  # a score at most the cut (or nan): the engine's own answer
        sparse = _candidates(snapshot, mine, scores)
    return fetched_hits(snapshot, True, with_vectors, rows), dense, sparse


def _candidates(snapshot: Any, rows: list[int], scores: list[float]) -> list[Hit]:
    """The hits of ``rows`` (in id order) with their ``scores``, best first, equal scores
    by ascending id: :func:`best_rows` of them all, as the round's list."""
    best = sorted(zip(rows, scores), key=_SCORE, reverse=True)
    return scored_hits(snapshot, False, False, [r for r, _ in best], [x for _, x in best])


_SCORE = itemgetter(1)
