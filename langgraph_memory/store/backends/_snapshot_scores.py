"""How a snapshot scores and cuts its rows: cosines, the best rows of a list, and the keys
and limits its answers share (:mod:`._snapshot`, :mod:`._snapshot_batch`)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from langgraph_memory.store.backends._base import DenseQuery, SparseQuery

OWN_LOOP_FROM = 1_025
"""Snapshots of at least this many rows score with numpy's own loop (:func:`cosines`)."""

_last_vector: tuple[Any, np.ndarray] = (None, np.zeros(0, dtype=np.float32))


def _unit(vector: Sequence[float]) -> np.ndarray:
    """``vector`` made unit length as float32; a turn's rounds reuse one query vector
    (the same list), converted once."""
    global _last_vector
    last, converted = _last_vector
    if last is vector:
        return converted
    array = np.asarray(vector, dtype=np.float32)
    norm = float(np.sqrt(array.dot(array)))  # what ``np.linalg.norm`` computes for it, without its checks
    converted = array / np.float32(norm) if norm > 0 else array
    _last_vector = (vector, converted)  # holding the list keeps its identity from being reused
    return converted


def cosines(vectors: np.ndarray, vector: Sequence[float]) -> np.ndarray:
    """Each row of ``vectors`` scored against ``vector`` made unit length (float32; the
    engine scores cosine so). From :data:`OWN_LOOP_FROM` rows, numpy's own loop
    (``einsum``) rather than BLAS: OpenBLAS hands a product that size to every core, and
    on a busy machine its threads wait for each other (10k rows at load 6: 10-12 ms median
    with two threads, 1.3 ms with one, 0.6 ms ``einsum``; 2k rows: means of 2-8 ms against
    0.25-0.5 ms)."""
    unit = _unit(vector)
    if len(vectors) < OWN_LOOP_FROM:
        return vectors @ unit
    return np.einsum("ij,j->i", vectors, unit)


def best_rows(rows: np.ndarray, scores: np.ndarray, limit: int) -> tuple[np.ndarray, np.ndarray]:
    """The best ``limit`` of ``rows`` (in id order) by their ``scores``, best first, equal
    scores by ascending id, with their scores."""
    if len(scores) > 2 * limit:
        # The best ``limit`` and every row tied with the last of them, then in order.
        cut = np.partition(scores, len(scores) - limit)[len(scores) - limit]
        enough = scores >= cut
        rows, scores = rows[enough], scores[enough]
    order = np.argsort(-scores, kind="stable")[:limit]
    return rows[order], scores[order]


def settled_limit(query: DenseQuery | SparseQuery) -> int:
    """How many hits ``query`` gets from a snapshot: its ``exact_limit`` when set (ties are
    settled here: a caller asking past its cut to see one needs no more), else its limit."""
    return query.limit if query.exact_limit is None else min(query.limit, query.exact_limit)
