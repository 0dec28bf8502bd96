"""The small protocol both storage engines implement, and the neutral types it speaks.

The store builds :class:`Where` filters and :class:`StoredPoint` records; each backend
translates them into its engine's own models. Nothing here imports an engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence

DENSE = "dense"
SPARSE = "bm25"
SCHEMA_VERSION = 1

# Payload fields and how they are indexed; namespace is the tenant key.
KEYWORD_FIELDS = ("kind", "memory_type", "category", "subjects", "status", "ns_prefixes")
FLOAT_FIELDS = ("importance", "created_at", "updated_at", "expires_at")


@dataclass
class StoredPoint:
    id: str
    payload: dict[str, Any]
    dense: list[float] | None = None
    sparse: tuple[list[int], list[float]] | None = None


@dataclass(frozen=True)
class Hit:
    point: StoredPoint
    score: float


@dataclass(frozen=True)
class Where:
    """A conjunction of conditions; ``None`` means no condition on that field.

    Tuples mean "any of". Times are epoch seconds.
    """

    namespace: str | None = None
    namespace_prefix: str | None = None
    status: str | None = "live"
    ids: tuple[str, ...] | None = None
    kinds: tuple[str, ...] | None = None
    memory_types: tuple[str, ...] | None = None
    categories: tuple[str, ...] | None = None
    subjects: tuple[str, ...] | None = None
    min_importance: float | None = None
    updated_since: float | None = None
    created_since: float | None = None
    created_until: float | None = None
    alive_at: float | None = None
    """Keep memories with no expiry or one after this time."""
    expired_at: float | None = None
    """Keep only memories that expired at or before this time."""
    any_of: tuple["Where", ...] = field(default_factory=tuple)
    """At least one of these sub-filters must hold too."""


@dataclass(frozen=True)
class DenseQuery:
    vector: list[float]
    where: Where
    limit: int
    with_vectors: bool = False


@dataclass(frozen=True)
class SparseQuery:
    indices: list[int]
    values: list[float]
    where: Where
    limit: int
    with_vectors: bool = False


class Backend(Protocol):
    """Storage engine. Every method is synchronous and safe to call from several threads."""

    name: str

    def setup(self, *, dim: int, meta: dict[str, Any]) -> dict[str, Any]:
        """Create collection, vectors and indexes on first use; return the stored meta.

        Raises SchemaMismatchError when an existing store has another vector size.
        """

    def upsert(self, points: Sequence[StoredPoint]) -> None:
        """Write all points in one operation, so a memory and what it supersedes change together."""

    def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[StoredPoint]: ...

    def query_batch(self, queries: Sequence[DenseQuery | SparseQuery]) -> list[list[Hit]]:
        """Run dense and sparse nearest-neighbour queries in one round trip."""

    def scroll(
        self,
        where: Where,
        *,
        limit: int,
        order_by: str | None = None,
        descending: bool = True,
        with_vectors: bool = False,
        offset: Any = None,
    ) -> tuple[list[StoredPoint], Any]:
        """Points matching ``where``; ordered by a float field, or by id with an offset cursor."""

    def count(self, where: Where) -> int: ...

    def set_payload(self, ids: Sequence[str], payload: dict[str, Any]) -> None: ...

    def delete(self, ids: Sequence[str]) -> None: ...

    def delete_where(self, where: Where) -> int: ...

    def close(self) -> None: ...
