"""BM25 scores computed here, on a client-IDF store (:mod:`._bm25_idf`): a snapshot's rows,
and the engine's candidates, scored alike (the same float32 sums), so both paths order alike.

A score is the float32 sum, in the query's term order, of ``f32(weight * idf) * f32(tf)``
for each query term the document holds: the engine's own products, but the engine adds
them in an order of its own (each segment's term order, which an index build remaps, and
which differs between its search paths), so its sum may be an ulp away (~1% of scores).
With one-sentence memories ties are everywhere, and an ulp decides which of a tie makes
the cut. So the engine picks candidates and we score them:

- A snapshot scores every row it holds (:class:`Postings`): no engine call.
- The engine path (a namespace with no snapshot) asks the engine for a list with its
  slack, scores here the hits that can make the cut (each engine score is within
  :func:`order_margin` of ours: it tells which), and keeps the list only when its last
  kept hit scores above the engine's last hit by more than any difference of summation
  order: every point the engine left out scores below it here too. Else it asks again,
  twice as deep (:func:`settled`).

Both give the best ``limit`` by these scores, equal scores by ascending id.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

import numpy as np

from langgraph_memory.store.backends._base import SPARSE, ExactHits, Hit, SparseQuery, StoredPoint, id_string
from langgraph_memory.store.backends._edge_types import to_answer, to_point
from langgraph_memory.store.backends._snapshot_scores import settled_limit

_F32 = np.float32
_ULP = 2.0 ** -24
"""float32's unit roundoff."""

Sparse = tuple[Sequence[int], Sequence[float]]


def _terms(vector: Sparse) -> dict[int, float]:
    """A document's weight by term (a repeated term: its last value, on both paths)."""
    return dict(zip(vector[0], vector[1]))


class Postings:
    """A snapshot's rows by term: each term's rows and their float32 values."""

    def __init__(self, sparse: Sequence[Sparse | None]) -> None:
        rows: dict[int, list[int]] = {}
        values: dict[int, list[float]] = {}
        for r, vector in enumerate(sparse):
            if vector is None:
                continue
            for t, v in _terms(vector).items():
                rows.setdefault(t, []).append(r)
                values.setdefault(t, []).append(v)
        self.size = len(sparse)
        self.terms = {t: (np.array(r, dtype=np.intp), np.array(values[t], dtype=_F32)) for t, r in rows.items()}

    def scores(self, indices: Sequence[int], weights: Sequence[float]) -> np.ndarray:
        """Every row's score (float64 holding the float32 value), ``nan`` for a row that
        holds none of the terms."""
        total = np.zeros(self.size, dtype=_F32)
        held = np.zeros(self.size, dtype=bool)
        for t, w in zip(indices, weights):
            found = self.terms.get(t)
            if found is not None:
                rows, values = found
                total[rows] += _F32(w) * values  # a row holds a term once: no repeated index
                held[rows] = True
        out = total.astype(np.float64)
        out[~held] = np.nan
        return out


def weighted(indices: Sequence[int], weights: Sequence[float]) -> list[tuple[int, np.float32]]:
    """A query's terms and float32 weights, in its order, for :func:`score`."""
    return [(t, _F32(w)) for t, w in zip(indices, weights)]


def score(vector: Sparse, query: list[tuple[int, np.float32]]) -> float | None:
    """One document's score for a :func:`weighted` query, as :meth:`Postings.scores`
    computes it (float32 throughout); ``None``: no shared term."""
    terms = _terms(vector)
    total, held = _F32(0.0), False
    for t, w in query:
        v = terms.get(t)
        if v is not None:
            total = total + w * _F32(v)
            held = True
    return float(total) if held else None


def order_margin(last: float, terms: int) -> float:
    """How far above ``last`` (the engine's score of its last hit) a score here must be to
    beat every point the engine left out: two float32 sums of the same ``terms``
    non-negative products, added in any orders, differ by at most ``2 (terms - 1) u`` of
    their value (with u the unit roundoff); doubled for margin."""
    return abs(last) * 4 * max(terms, 1) * _ULP


def _scored(rows: list[Any], indices: Sequence[int], weights: Sequence[float]) -> list[tuple[float, str, Any]]:
    """Each of ``rows`` that holds a query term, with its score as :meth:`Postings.scores`
    computes it, and its id; a query whose terms repeat through :func:`score`, else the
    rows at once, ~1 µs a row in Python (against ~2.5 through :func:`score`).

    A row's products (a float32 weight times a float32 value, exact in a double) go in a
    line of zeros, one column per query term in its order, after a column of zeros; numpy
    rounds them to float32 as it reads the lines (the exact product rounded once: what
    float32's product gives) and adds each line's columns in order from zero
    (``add.accumulate``: one by one, not pairwise). A column of zeros adds nothing: a
    sum from +0.0 is never -0.0, and ``x + 0.0`` is ``x`` for any other ``x``, ``inf``
    and ``nan`` too. A term the vector repeats: its last value, as a dict of it keeps."""
    column = {t: j for j, t in enumerate(indices, 1)}
    if len(column) < len(indices):  # a repeated term adds twice, as one document is scored
        asked = weighted(indices, weights)
        found = [(score((sv.indices, sv.values), asked), r) for r in rows
                 for sv in [(r.vector or {}).get(SPARSE)] if sv is not None]
        return [(s, id_string(r.id), r) for s, r in found if s is not None]
    w = [0.0, *np.asarray(weights, dtype=_F32).tolist()]
    width, held, flat = len(w), [], []
    get = column.get
    for r in rows:
        sv = (r.vector or {}).get(SPARSE)
        if sv is None:
            continue
        line = None
        for t, v in zip(sv.indices, sv.values):
            j = get(t)
            if j is not None:
                if line is None:
                    line = [0.0] * width
                line[j] = w[j] * v
        if line is not None:
            held.append(r)
            flat += line
    if not held:
        return []
    sums = np.add.accumulate(np.array(flat, dtype=_F32).reshape(len(held), width), axis=1)[:, -1].tolist()
    return [(s, id_string(r.id), r) for s, r in zip(sums, held)]


def _best_first(scored: list[tuple[float, str, Any]]) -> list[tuple[float, str, Any]]:
    scored.sort(key=lambda e: (-e[0], e[1]))
    return scored


def _hopeless(ranked: list[float] | None, want: int, terms: int, whole: bool) -> bool:
    """Whether a round's engine scores (``ranked``: best first; ``None``: not all finite)
    show it cannot settle (non-negative products): our ``want``-th best is at most the
    engine's plus its margin, which is not above the engine's last plus its margin (as in
    a large tie)."""
    if whole or ranked is None:
        return False
    top, last = ranked[want - 1], ranked[-1]
    return top + order_margin(top, terms) <= last + order_margin(last, terms)


def _by_margin(
    rows: list[Any], engine: list[float], ranked: list[float] | None, indices: Sequence[int],
    weights: Sequence[float], want: int, whole: bool,
) -> tuple[list[tuple[float, str, Any]], bool]:
    """``rows`` (scored ``engine`` by the engine; ``ranked``: those best first, ``None``
    unless all finite) scored here best first as far as the cut needs them, and whether
    they settle it (:func:`settled`), when every product is non-negative: each hit's
    score here is then within :func:`order_margin` of the engine's (two sums of the same
    products). So only the hits that can make the cut are read: scoring at least the
    ``want``-th best engine score less its margin."""
    terms = len(weights)
    if not rows or ranked is None:
        scored = _best_first(_scored(rows, indices, weights))
    else:
        top = ranked[min(want, len(rows)) - 1]
        floor, share = top - order_margin(top, terms), order_margin(1.0, terms)  # a margin is |e| times share
        picked = [r for r, e in zip(rows, engine) if e + abs(e) * share >= floor]
        scored = _scored(picked, indices, weights)
        if len(scored) < len(picked) < len(rows):  # a hit holding none of the terms: no bound from it
            scored = _scored(rows, indices, weights)
        scored = _best_first(scored)
    if whole:
        return scored, True
    last = min(engine)
    return scored, len(scored) >= want and scored[want - 1][0] > last + order_margin(last, terms)


def settled(
    query: SparseQuery, rows: list[Any], weights: list[float], exact_margin: bool,
    deeper: Callable[[int, bool], list[Any]],
) -> ExactHits:
    """``query``'s hits, scored here, best first, equal scores by ascending id, cut at its
    settled limit, from the engine's ``rows`` (read with their sparse vectors); asked again
    ``deeper(limit, bare)`` while they do not settle it (``bare``: ids and scores only).

    ``exact_margin``: every weight and stored value is non-negative (:func:`order_margin`
    holds): a list settles when its last kept hit beats the engine's last, and only the
    hits that can make the cut are read (:func:`_by_margin`: reading a hit's vector and
    id and scoring it cost ~3 µs; about half of a list's hits are past its cut). Else
    only a list the engine returned whole (fewer than asked) settles. A round that cannot
    settle (:func:`_hopeless`, or not whole) is not scored. The first deeper round comes
    with vectors (at 10k memories a user, 0.04 lists a turn go deeper, and twice as deep
    settles them); after a deeper round that cannot settle (a large tie), the next is
    asked bare, and a bare round that may settle is asked again with its vectors (each
    round twice as deep: the engine reads ~1 µs of vectors a hit)."""
    limit, want, bare = query.limit, settled_limit(query), False
    margin = exact_margin and bool(weights)
    while True:
        whole = len(rows) < limit
        if want <= 0:
            scored: list[tuple[float, str, Any]] = []
            break
        engine = [float(r.score) for r in rows] if margin else []
        ranked = sorted(engine, reverse=True) if all(map(math.isfinite, engine)) else None
        hopeless = not whole if not margin else _hopeless(ranked, want, len(weights), whole)
        if not hopeless:
            if bare:  # it may settle: the same round again, with what scoring reads
                rows, bare = deeper(limit, False), False
                continue
            if not margin:
                scored = _best_first(_scored(rows, query.indices, weights))
                break
            scored, settles = _by_margin(rows, engine, ranked, query.indices, weights, want, whole)
            if settles:
                break
        bare = hopeless and limit > query.limit
        limit *= 2
        rows = deeper(limit, bare)
    if query.payload is False and not query.with_vectors:  # a candidate list: ids and scores
        return ExactHits([Hit(StoredPoint(pid, {}), s) for s, pid, _ in scored[:want]])
    return ExactHits([Hit(to_point(r, query.with_vectors), s) for s, _, r in scored[:want]])


def answered(
    q: Any, rows: list[Any], weights: list[float] | None, negative: bool, scores_only: bool,
    deeper: Callable[[int, bool], list[Any]],
) -> Any:
    """The engine's ``rows`` for ``q`` as an answer; a client-IDF store's BM25 list (sent
    with ``weights``) scored here, as a snapshot scores it, and asked ``deeper(limit, bare)``
    until it settles (:func:`settled`). ``negative``: a stored sparse value may be negative."""
    if weights is None or scores_only or not isinstance(q, SparseQuery) or q.rescore is not None:
        return to_answer(q, rows, scores_only)
    return settled(q, rows, weights, not negative and min(weights, default=0) >= 0, deeper)
