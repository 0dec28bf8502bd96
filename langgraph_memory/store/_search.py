"""The store's reads as plans: the filters a search takes, how each search mode becomes
engine queries, and the recent / identity / important listings.

:class:`~langgraph_memory.store.MemoryStore` validates a call and runs the plan; the
pre-hook runs the same plans beside its other channels (:mod:`._reads`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal, Sequence

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import MAX_NAMESPACE_PART_CHARS, check_datetime, check_limit, check_number, check_text
from langgraph_memory.store._fusion import Fused
from langgraph_memory.store._hybrid import Keep, Left, VectorsWanted, hybrid_plan
from langgraph_memory.store._linked import follow_links, has_links
from langgraph_memory.store._links import Link
from langgraph_memory.store._reads import Plan, QueryVectors, evolve, live_where, memories_plan, ranked
from langgraph_memory.store.backends import DenseQuery, Hit, SparseQuery, StoredPoint, Where
from langgraph_memory.store.records import (
    KIND_CATEGORIES,
    Memory,
    Namespace,
    parse_since,
    validate_kind,
    validate_memory_type,
    validate_subjects,
)

if TYPE_CHECKING:
    from langchain_qdrant.sparse_embeddings import SparseEmbeddings

SearchMode = Literal["hybrid", "dense", "bm25"]


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    score: float
    """Cosine for ``dense``, BM25 for ``bm25``, weighted fusion in [0, 1] for ``hybrid``."""
    dense_score: float | None = None
    sparse_score: float | None = None
    vector: list[float] | None = field(default=None, repr=False)
    """The memory's dense vector, when asked for (the pre-hook's cosine dedup uses it)."""
    matched: tuple[str, ...] = ()
    """For ``hybrid``: what the query named that this memory matches, and that raised its
    score: ``"subject:<tag>"`` (a subject, or an alias of one) and ``"time"`` (created
    within a time the query names, e.g. "in May 2023", "last week")."""
    via: Link | None = None
    """Set when the memory came by a link (the search's fourth source,
    :mod:`._linked`) rather than by its own scores: the link, whose other end
    (``via.other(hit.memory.id)``) is the search hit it was reached from."""


def as_tuple(values: str | Sequence[str] | None, field: str = "filter") -> tuple[str, ...] | None:
    if values is None:
        return None
    if isinstance(values, str):
        return (values,)
    if not isinstance(values, (list, tuple)) or not all(isinstance(v, str) for v in values):
        raise InvalidMemoryError(field, "expected a string or a list of strings")
    return tuple(values)


def search_filters(
    namespace: Namespace,
    kinds: str | Sequence[str] | None = None,
    memory_types: str | Sequence[str] | None = None,
    categories: str | Sequence[str] | None = None,
    subjects: str | Sequence[str] | None = None,
    since: str | timedelta | datetime | None = None,
    until: datetime | None = None,
    min_importance: float | None = None,
    channel: str | None = None,
) -> Where:
    """The validated filter of a search or listing over live memories of ``namespace``
    (with ``channel``: those of no channel or of this one)."""
    kinds_t = as_tuple(kinds, "kinds")
    for k in kinds_t or ():
        validate_kind(k)
    types_t = as_tuple(memory_types, "memory_types")
    for t in types_t or ():
        validate_memory_type(t)
    cats_t = as_tuple(categories, "categories")
    known = set().union(*KIND_CATEGORIES.values()) if cats_t else set()
    for c in cats_t or ():
        if c not in known:
            raise InvalidMemoryError("categories", f"unknown category {c!r}")
    return live_where(
        namespace,
        kinds=kinds_t,
        memory_types=types_t,
        categories=cats_t,
        subjects=validate_subjects(as_tuple(subjects, "subjects")) or None,
        created_since=None if since is None else parse_since(since).timestamp(),
        created_until=None if until is None else check_datetime("until", until).timestamp(),
        min_importance=None if min_importance is None else check_number("min_importance", min_importance, low=0.0, high=1.0),
        channel_scope=None if channel is None else check_text("channel", channel, MAX_NAMESPACE_PART_CHARS),
    )


def search_plan(
    sparse_embeddings: SparseEmbeddings, vectors: QueryVectors, where: Where, limit: int,
    mode: SearchMode, with_vectors: VectorsWanted, links: bool = True, keep: Keep | None = None,
) -> Plan[list[SearchHit]]:
    """The hits of one search, best first. ``with_vectors`` as a predicate picks the
    winners of a hybrid search that bring their vectors; the single-list modes read
    their hits in one query, so there it means all of them (and memories reached by a
    link bring theirs whenever any is wanted). ``links``: follow the best hits' links
    (:func:`~._linked.follow_links`).

    ``keep`` (a hybrid search; the pre-hook's floors): a hit it refuses that no link
    brought (``via`` unset) is of no use to the caller: the answer (a :class:`Found`)
    leaves it out and counts it, and most are never built."""
    if mode == "dense":
        [dense] = yield from ranked([DenseQuery(vectors.dense, where, limit, bool(with_vectors))])
        hits = [SearchHit(hit_memory(h), h.score, dense_score=h.score, vector=h.point.dense) for h in dense]
    elif mode == "bm25":
        [sparse] = yield from ranked([SparseQuery(*vectors.sparse, where, limit, bool(with_vectors))])
        hits = [SearchHit(hit_memory(h), h.score, sparse_score=h.score, vector=h.point.dense) for h in sparse]
    else:
        winners = yield from hybrid_plan(sparse_embeddings, vectors, where, limit, with_vectors, _fused_hit, keep)
        if keep is not None and not (links and has_links(winners)):
            # The refused winners stay unbuilt: no link can bring them back.
            found = Found([h for h in winners if type(h) is not Left])
            found.left_out = len(winners) - len(found)
            return found
        hits = [h.built(_fused_hit) if type(h) is Left else h for h in winners]
    if links and has_links(hits):
        hits = yield from follow_links(hits, where, limit, bool(with_vectors))
    if keep is None or mode != "hybrid":
        return hits
    found = Found(h for h in hits if h.via is not None or keep(h.dense_score, h.sparse_score, bool(h.matched)))
    found.left_out = len(hits) - len(found)
    return found


class Found(list):  # type: ignore[type-arg]
    """A hybrid search's hits that its ``keep`` kept, best first (:func:`search_plan`)."""

    left_out = 0
    """The hits ``keep`` refused: left out."""



def _fused_hit(point: StoredPoint, f: Fused, matched: tuple[str, ...]) -> SearchHit:
    """``SearchHit(memory, f.score, f.dense_score, f.sparse_score, point.dense, matched)``
    for a hybrid winner read whole (``point``), its fields set without the frozen
    ``__init__`` (one ``object.__setattr__`` per field, ~0.9 µs a hit against ~0.3 µs; a
    search builds one per winner). ``SearchHit`` has no ``__post_init__`` nor slots:
    ``tests/test_turn_speed.py`` holds this to the plain construction."""
    hit = _new(SearchHit)
    fields = hit.__dict__
    fields["memory"] = point.memory or Memory.from_payload(point.id, point.payload)
    fields["score"] = f.score
    fields["dense_score"] = f.dense_score
    fields["sparse_score"] = f.sparse_score
    fields["vector"] = point.dense
    fields["matched"] = matched
    fields["via"] = None
    return hit


_new = object.__new__


def recent_plan(
    namespace: Namespace, since: str | timedelta | datetime | None, limit: int,
    kinds: str | Sequence[str] | None = None, channel: str | None = None,
) -> Plan[list[Memory]]:
    """Newest first; with ``channel``, only that channel's (seed 001's ``get_recent_since``)."""
    check_limit("limit", limit)
    return memories_plan(recent_where(namespace, since, kinds, channel), limit, "updated_at")


def recent_where(
    namespace: Namespace, since: str | timedelta | datetime | None,
    kinds: str | Sequence[str] | None = None, channel: str | None = None,
) -> Where:
    """The filter of :func:`recent_plan`."""
    where = search_filters(namespace, kinds)
    if channel is not None:
        where = evolve(where, fields=(("channel", (check_text("channel", channel, MAX_NAMESPACE_PART_CHARS),)),))
    if since is not None:
        where = evolve(where, updated_since=parse_since(since).timestamp())
    return where


_IDENTITY = (
    Where(status=None, memory_types=("identity",)),
    Where(status=None, kinds=("self",), categories=("context",)),
)
"""What the identity channel reads (either), built once: a filter is immutable."""


def identity_plan(namespace: Namespace, limit: int, channel: str | None = None) -> Plan[list[Memory]]:
    check_limit("limit", limit)
    return memories_plan(identity_where(namespace, channel), limit, "importance")


def identity_where(namespace: Namespace, channel: str | None = None) -> Where:
    """The filter of :func:`identity_plan`."""
    return live_where(namespace, channel_scope=channel, any_of=_IDENTITY)


def important_plan(
    namespace: Namespace, min_importance: float, limit: int, channel: str | None = None,
) -> Plan[list[Memory]]:
    check_limit("limit", limit)
    return memories_plan(important_where(namespace, min_importance, channel), limit, "importance")


def important_where(namespace: Namespace, min_importance: float, channel: str | None = None) -> Where:
    """The filter of :func:`important_plan`."""
    floor = check_number("min_importance", min_importance, low=0.0, high=1.0)
    return live_where(namespace, min_importance=floor, channel_scope=channel)


def hit_memory(hit: Hit) -> Memory:
    return hit.point.memory or Memory.from_payload(hit.point.id, hit.point.payload)
