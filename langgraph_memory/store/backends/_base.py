"""The small protocol both storage engines implement, and the neutral types it speaks.

The store builds :class:`Where` filters and :class:`StoredPoint` records; each backend
translates them into its engine's own models. Nothing here imports an engine.
"""

from __future__ import annotations

import os
import uuid
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, Protocol, Sequence

DENSE = "dense"
SPARSE = "bm25"
SCHEMA_VERSION = 1

# Payload fields and how they are indexed; namespace is the tenant key.
# HNSW for large tenants: one global graph (M), plus payload-aware links for the tenant key
# only (PAYLOAD_M), so a query filtered to one big namespace walks the graph instead of
# scanning the namespace. The other indexes build no links of their own (enable_hnsw off):
# each would add a graph per frequent value ("status=live" is every point) to every build.
# Below FULL_SCAN_KB of matching vectors (~6,600 of 384 floats) a filtered query reads
# the payload index and scores the matches, which beats the graph.
HNSW_M = 16
HNSW_PAYLOAD_M = 16
HNSW_EF_CONSTRUCT = 100
FULL_SCAN_KB = 10_000
KEYWORD_FIELDS = ("kind", "memory_type", "category", "subjects", "status", "ns_prefixes", "item_of")
FLOAT_FIELDS = ("importance", "created_at", "updated_at", "expires_at")


def env_count(name: str, default: int, least: int, unit: str) -> int:
    """A whole number from ``$name`` (unset or empty: ``default``), at least ``least``."""
    raw = os.environ.get(name, "").strip() or str(default)
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"${name} must be a whole number of {unit}, not {raw!r}") from None
    if value < least:
        raise ValueError(f"${name} must be at least {least}, not {value}")
    return value


_ID_STRINGS: dict[int, str] = {}
_ID_STRINGS_MAX = 50_000


def id_string(point_id: Any) -> str:
    """A point id the engine gives as a ``uuid.UUID``, as a string: ``str()`` costs ~1 µs
    a hit, and a turn reads ~60 candidates, mostly the same memories turn after turn."""
    if not isinstance(point_id, uuid.UUID):
        return str(point_id)
    found = _ID_STRINGS.get(point_id.int)
    if found is None:
        if len(_ID_STRINGS) >= _ID_STRINGS_MAX:
            _ID_STRINGS.clear()
        found = _ID_STRINGS[point_id.int] = str(point_id)
    return found


def rows_of_ids(point_ids: Sequence[Any], rows: dict[str, int], absent: int) -> list[int]:
    """``rows[id_string(i)]`` for each of ``point_ids`` (``absent`` for an id it lacks):
    :func:`id_string`'s cache read inline, no call per id (a BM25 turn maps ~45 hits)."""
    known, row = _ID_STRINGS.get, rows.get
    try:
        return [row(known(i.int) or id_string(i), absent) for i in point_ids]
    except AttributeError:  # an id that is no ``uuid.UUID`` (an integer; a string already)
        return [row(id_string(i), absent) for i in point_ids]


@dataclass
class StoredPoint:
    id: str
    payload: dict[str, Any]
    dense: list[float] | None = None
    sparse: tuple[list[int], list[float]] | None = None
    memory: Any = field(default=None, repr=False, compare=False)
    """The point read as a ``Memory``, when a namespace snapshot already built it
    (:mod:`._snapshot`): the payload is then the memory's, whole."""


class Hit:
    """A point found by a query, with its score: immutable (a snapshot shares its fetch
    hits between turns, :mod:`._snapshot_points`).

    It behaves as ``@dataclass(frozen=True)`` with fields ``point`` and ``score`` did
    (equality, repr, assignment refused with ``FrozenInstanceError``), but keeps its fields
    in slots and sets them without ``object.__setattr__``'s lookups: a pre-hook turn builds
    ~150 hits, each ~0.19 µs instead of ~0.34, and reads their fields ~1.5x as fast."""

    __slots__ = ("point", "score")
    __match_args__ = ("point", "score")
    point: StoredPoint
    score: float

    def __init__(self, point: StoredPoint, score: float) -> None:
        _set_point(self, point)
        _set_score(self, score)

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.point, self.score) == (other.point, other.score)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((self.point, self.score))

    def __repr__(self) -> str:
        return f"Hit(point={self.point!r}, score={self.score!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return Hit, (self.point, self.score)


_set_point = Hit.__dict__["point"].__set__
_set_score = Hit.__dict__["score"].__set__


class ExactHits(list):  # type: ignore[type-arg]
    """A nearest-neighbour answer already in its final order and cut: best score first,
    equal scores by ascending id, no tie left open at the cut (a namespace snapshot's
    answer, :mod:`._snapshot_batch`). The engine's answers are plain lists: their order
    among equal scores changes from run to run."""

    in_memory = False
    """A namespace snapshot answered: the points it lists are in memory, their payloads
    read at no engine cost (a hybrid search then reads every candidate's payload in its
    scoring round: :func:`~langgraph_memory.store._hybrid._complete`)."""
    snapshot: Any = None
    """The snapshot that answered (when :attr:`in_memory`): a hybrid search whose lists one
    snapshot answered scores its candidates on it, without a round
    (:func:`~._snapshot_batch.candidates_scored`)."""


@dataclass(frozen=True)
class Where:
    """A conjunction of conditions; ``None`` means no condition on that field.

    Tuples mean "any of". Times are epoch seconds.
    """

    namespace: str | None = None
    namespace_prefix: str | None = None
    status: str | tuple[str, ...] | None = "live"
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
    channel_scope: str | None = None
    """Keep memories of no channel or of this one (seed 001's ``channel_scope``)."""
    fields: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Other keyword conditions, ``(payload key, any of these values)``: for the payloads
    of side collections (exchanges, room messages), whose keys the fields above do not name."""
    ranges: tuple[tuple[str, float | None, float | None, float | None, float | None], ...] = ()
    """Numeric bounds on other payload paths (``value.score``): ``(path, gte, gt, lte, lt)``."""


class FilterDialect(Protocol):
    """How one engine spells the few conditions a :class:`Where` needs."""

    def match(self, key: str, values: tuple[str, ...]) -> Any: ...
    def has_id(self, ids: tuple[str, ...]) -> Any: ...
    def range(
        self, key: str, *, gte: float | None = None, gt: float | None = None, lte: float | None = None,
        lt: float | None = None,
    ) -> Any: ...
    def is_null(self, key: str) -> Any: ...
    def is_empty(self, key: str) -> Any: ...
    def all_of(self, conditions: list[Any]) -> Any: ...
    def any_of(self, conditions: list[Any]) -> Any: ...


def translate(where: Where, dialect: FilterDialect) -> Any:
    """``where`` as the engine's filter, written once for both engines."""
    must: list[Any] = []
    keywords = (
        ("namespace", None if where.namespace is None else (where.namespace,)),
        ("ns_prefixes", None if where.namespace_prefix is None else (where.namespace_prefix,)),
        ("status", (where.status,) if isinstance(where.status, str) else where.status),
        ("kind", where.kinds),
        ("memory_type", where.memory_types),
        ("category", where.categories),
        ("subjects", where.subjects),
        *where.fields,
    )
    must += [dialect.match(key, values) for key, values in keywords if values is not None]
    if where.ids is not None:
        must.append(dialect.has_id(where.ids))
    if where.min_importance is not None:
        must.append(dialect.range("importance", gte=where.min_importance))
    if where.updated_since is not None:
        must.append(dialect.range("updated_at", gte=where.updated_since))
    if where.created_since is not None or where.created_until is not None:
        must.append(dialect.range("created_at", gte=where.created_since, lte=where.created_until))
    if where.alive_at is not None:
        must.append(dialect.any_of([dialect.is_null("expires_at"), dialect.range("expires_at", gt=where.alive_at)]))
    if where.expired_at is not None:
        must.append(dialect.range("expires_at", lte=where.expired_at))
    must += [dialect.range(key, gte=gte, gt=gt, lte=lte, lt=lt) for key, gte, gt, lte, lt in where.ranges]
    if where.any_of:
        must.append(dialect.any_of([translate(sub, dialect) for sub in where.any_of]))
    if where.channel_scope is not None:
        must.append(dialect.any_of([dialect.is_empty("channel"), dialect.match("channel", (where.channel_scope,))]))
    return dialect.all_of(must)


@dataclass(frozen=True)
class DenseQuery:
    vector: list[float]
    where: Where
    limit: int
    with_vectors: bool = False
    payload: bool | tuple[str, ...] = True
    """Each hit's payload: all of it, none, or these fields. Reading payloads is most of a
    query's cost in the engine, so candidate lists ask for none."""
    min_score: float | None = None
    """Only hits scoring at least this; the engine reads nothing of the others."""
    exact_limit: int | None = None
    """The hits the caller needs when ``limit`` asks more to see past a tie at its cut
    (:func:`~langgraph_memory.store._reads.ranked`): an answer that settles ties itself
    (an :class:`ExactHits`) may stop at this many."""


@dataclass(frozen=True)
class SparseQuery:
    indices: list[int]
    values: list[float]
    where: Where
    limit: int
    with_vectors: bool = False
    payload: bool | tuple[str, ...] = True
    rescore: list[float] | None = None
    """A dense vector: the BM25 hits come back scored by their cosine to it instead, in the
    engine (a prefetch), so that nobody has to bring their vectors home to score them."""
    exact_limit: int | None = None
    """As :attr:`DenseQuery.exact_limit`."""


def bm25_key(query: SparseQuery) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """What a BM25 query's scores depend on: its terms and their weights (a snapshot's key
    to the scores it learned from the engine)."""
    return tuple(query.indices), tuple(query.values)


@dataclass(frozen=True)
class FetchQuery:
    """Points matching ``where``, first by a float field (``order_by``; equal values by
    ascending id, on every backend: :mod:`._fetch_order`), else in id order.
    It rides in :meth:`Backend.query_batch` with the nearest-neighbour queries, so a
    turn's metadata channels cost no round trip of their own. Hits score 0."""

    where: Where
    limit: int
    order_by: str | None = None
    descending: bool = True
    with_vectors: bool = False
    payload: bool | tuple[str, ...] = True


Query = DenseQuery | SparseQuery | FetchQuery


def vectors_wanted(query: Query) -> list[str] | bool:
    """The named vectors a query's hits carry, as both engines spell it: the dense one
    (a point rewritten whole is read by :meth:`Backend.retrieve`, which brings both)."""
    return [DENSE] if query.with_vectors else False


class Backend(Protocol):
    """Storage engine. Every method is synchronous and safe to call from several threads."""

    name: str

    def setup(self, *, dim: int, meta: dict[str, Any]) -> dict[str, Any]:
        """Create collection, vectors and indexes on first use; return the stored meta.

        Raises SchemaMismatchError when an existing store has another vector size.
        """

    def stored_meta(self) -> dict[str, Any] | None:
        """The meta :meth:`setup` recorded, or ``None`` when nothing is stored yet."""

    def upsert(self, points: Sequence[StoredPoint], *, only_if: Where | None = None) -> None:
        """Write all points in one operation, so a memory and what it supersedes change together.

        With ``only_if``, a point that already exists is overwritten only if it matches
        that filter, atomically in the engine (new points are inserted): a compare-and-set,
        which leases across processes sharing a server rely on."""

    def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[StoredPoint]: ...

    def query_batch(self, queries: Sequence[Query], *, cached: bool = False) -> list[list[Hit]]:
        """Run nearest-neighbour and fetch queries in one round trip, one list each.
        ``cached``: the caller reads this namespace again and again (the pre-hook); an
        engine may answer from a copy it keeps up to date with its own writes, and hand
        out hits and payloads it shares between calls (read-only: copy one to change it)."""

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

    def set_payloads(self, updates: Sequence[tuple[Sequence[str], dict[str, Any]]]) -> None:
        """Several :meth:`set_payload` writes, in order, at once where the engine can (one
        round trip, one log entry); a failure may leave the earlier ones applied."""

    def delete(self, ids: Sequence[str]) -> None: ...

    def delete_where(self, where: Where) -> int: ...

    def sibling(self, name: str, *, keyword_fields: Sequence[str] = ()) -> "Backend":
        """Another collection of the same engine, for records that are not memories
        (exchanges, room messages): fact reads never see it. ``keyword_fields`` are payload
        keys to index for :attr:`Where.fields`. Call :meth:`setup` on it before use; closing
        it leaves this one open."""

    def field_indexes(self) -> dict[str, str]:
        """Indexed payload fields and their index type (``keyword``, ``float``, ...)."""

    def create_field_index(self, key: str, kind: str) -> None:
        """Index payload field ``key`` (a JSON path) as ``keyword`` or ``float``."""

    def facet(self, key: str, where: Where, *, limit: int, exact: bool = True) -> list[tuple[str, int]]:
        """The distinct values of keyword field ``key`` among points matching ``where``,
        each with how many points hold it: exact counts, or with ``exact=False`` the
        engine's estimate (the same values, every point still checked against ``where``;
        several times faster on Qdrant Edge)."""

    def optimize(self) -> bool:
        """Build the vector index over what was written since the last build, blocking;
        ``True`` when anything changed. A no-op where the engine does it by itself."""

    def close(self) -> None: ...
