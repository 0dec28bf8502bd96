"""How our filters, points and failures are spelled in Qdrant Edge's own types: the
translation :class:`~langgraph_memory.store.backends.edge.EdgeBackend` and its two-step
reads share, apart from what the backend does with the shard."""

from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar

import qdrant_edge as qe

from langgraph_memory.errors import StorageError
from langgraph_memory.store.backends._base import DENSE, SPARSE, StoredPoint, Where, id_string, translate

__all__ = ["engine_call", "to_filter", "to_point"]


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
