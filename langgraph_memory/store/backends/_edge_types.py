"""How our filters, queries, points and failures are spelled in Qdrant Edge's own types:
the translation :class:`~langgraph_memory.store.backends.edge.EdgeBackend` and its
two-step reads share, apart from what the backend does with the shard."""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

import qdrant_edge as qe

from langgraph_memory.errors import StorageError
from langgraph_memory.store.backends._base import (
    DENSE, SPARSE, DenseQuery, FetchQuery, Hit, Query, SparseQuery, StoredPoint, Where, id_string, translate,
    vectors_wanted,
)

__all__ = ["engine_call", "to_answer", "to_filter", "to_point", "to_request"]


class _EdgeDialect:
    def match(self, key: str, values: tuple[str, ...]) -> Any:
        match = qe.MatchValue(values[0]) if len(values) == 1 else qe.MatchAny(list(values))
        return qe.FieldCondition(key=key, match=match)

    def has_id(self, ids: tuple[str, ...]) -> Any:
        return qe.HasIdCondition(set(ids))  # the engine parses UUID strings itself

    def range(
        self, key: str, *, gte: float | None = None, gt: float | None = None, lte: float | None = None,
        lt: float | None = None,
    ) -> Any:
        return qe.FieldCondition(key=key, range=qe.RangeFloat(gte=gte, gt=gt, lte=lte, lt=lt))

    def is_null(self, key: str) -> Any:
        return qe.IsNullCondition(key)

    def is_empty(self, key: str) -> Any:
        return qe.IsEmptyCondition(key)

    def all_of(self, conditions: list[Any]) -> Any:
        return qe.Filter(must=conditions or None)

    def any_of(self, conditions: list[Any]) -> Any:
        return qe.Filter(should=conditions)


F = TypeVar("F", bound=Callable[..., Any])


def engine_call(method: F) -> F:
    # The engine is Rust: a panic surfaces as pyo3's PanicException, a BaseException that
    # would escape every ``except Exception`` up to the app's main loop. A plain try (not a
    # context manager): this wraps every engine call, a few per get and a dozen per turn.
    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except BaseException as exc:
            if type(exc).__name__ == "PanicException":
                raise StorageError(f"Qdrant Edge failed: {exc}") from None
            raise

    return call  # type: ignore[return-value]


def to_filter(where: Where) -> qe.Filter:
    return translate(where, _EdgeDialect())


def to_point(record: Any, with_vectors: bool) -> StoredPoint:
    dense = sparse = None
    # Each attribute read converts the engine's record anew (the vectors: ~10 µs): read once.
    vectors = record.vector if with_vectors else None
    if vectors:
        dense = vectors.get(DENSE) or None
        if dense is not None and not isinstance(dense, list):
            dense = list(dense)
        sv = vectors.get(SPARSE)
        if sv is not None:
            sparse = (list(sv.indices), list(sv.values))
    payload = record.payload
    return StoredPoint(id=id_string(record.id), payload=payload if isinstance(payload, dict) else dict(payload or {}),
                       dense=dense, sparse=sparse)


def to_request(q: Query, flt: qe.Filter, weights: list[float] | None = None, *, bare: bool = False) -> qe.QueryRequest:
    """``q`` as the engine's request, filtered by ``flt`` (``q.where`` translated); a BM25
    query with ``weights`` in place of its values (weighted by our IDF: :mod:`._bm25_idf`).
    ``bare``: the hits' ids and scores only (no payload, no vector)."""
    if isinstance(q, FetchQuery):
        query: Any = None if q.order_by is None else qe.OrderBy(
            q.order_by, direction=qe.Direction.Desc if q.descending else qe.Direction.Asc)
    elif isinstance(q, DenseQuery):
        query = qe.Query.Nearest(q.vector, using=DENSE)
    else:
        query = qe.Query.Nearest(qe.SparseVector(
            indices=q.indices, values=q.values if weights is None else weights), using=SPARSE)
    vectors: Any = vectors_wanted(q)
    if weights is not None and q.rescore is None:  # scored again by us: the hits' sparse vectors
        vectors = [DENSE, SPARSE] if q.with_vectors else [SPARSE]
    prefetches = None
    if isinstance(q, SparseQuery) and q.rescore is not None:
        prefetches = [qe.Prefetch(limit=q.limit, query=query, filter=flt)]
        query = qe.Query.Nearest(q.rescore, using=DENSE)
    return qe.QueryRequest(
        limit=q.limit,
        query=query,
        prefetches=prefetches,
        filter=flt,
        with_payload=False if bare else q.payload if isinstance(q.payload, bool) else list(q.payload),
        with_vector=False if bare else vectors,
        score_threshold=getattr(q, "min_score", None),
    )


def to_answer(q: Query, rows: list[Any], scores_only: bool) -> Any:
    """The engine's ``rows`` for ``q``: hits, or (``scores_only``) the ids as the engine
    gives them (``uuid.UUID``: :meth:`Snapshot.learn_bm25_scores` reads them) and the scores."""
    if scores_only:
        return [r.id for r in rows], [r.score for r in rows]
    if q.payload is False and not q.with_vectors and not isinstance(q, FetchQuery):
        # A candidate list (no payload, no vector) needs the id and score only.
        return [Hit(StoredPoint(id_string(r.id), {}), float(r.score)) for r in rows]
    return [Hit(to_point(r, q.with_vectors), 0.0 if isinstance(q, FetchQuery) else float(r.score)) for r in rows]
