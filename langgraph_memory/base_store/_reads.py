"""Get, search and list-namespaces operations over the shared collection.

Searches push what the engine can check (namespace prefix, expiry, the simple parts of the
filter) into the query and check the whole filter again in Python; when Python drops hits,
the query asks for more until the page is full or the engine has nothing left.
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from typing import Any, Sequence

from langgraph.store.base import GetOp, Item, ListNamespacesOp, SearchItem, SearchOp

from langgraph_memory.base_store._items import (
    ITEM,
    ITEM_STATUSES,
    ITEM_VECTOR,
    MEMORY,
    check_filter,
    check_key,
    check_namespace,
    check_unicode,
    condition_path,
    expired,
    is_memory,
    item_value,
    literal_prefix,
    matches,
    namespace_matches,
    pushed_filter,
    to_item,
)
from langgraph_memory.base_store._cache import Read, ReadCache, cached_items, handed_out, page_key
from langgraph_memory.base_store._writes import Key, candidate_ids, lookup
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import MAX_QUERY_CHARS, check_minutes
from langgraph_memory.store.backends import Backend, DenseQuery, FetchQuery, StoredPoint, Where
from langgraph_memory.store.backends._base import env_count
from langgraph_memory.store.records import namespace_from_key, namespace_key

FACET_LIMIT = 1_000_000
"""At most this many distinct namespaces are listed."""


FIELD_INDEXES_ENV = "LANGGRAPH_MEMORY_FACE_FIELD_INDEXES"
DEFAULT_FIELD_INDEXES = 32
"""At most this many value fields get a payload index of their own (see :class:`FieldIndexes`)."""


def field_index_limit() -> int:
    """How many value fields searches may index: ``$LANGGRAPH_MEMORY_FACE_FIELD_INDEXES``,
    default 32; 0 indexes none (every filter is then checked without an index)."""
    return env_count(FIELD_INDEXES_ENV, DEFAULT_FIELD_INDEXES, 0, "indexes")


class FieldIndexes:
    """Payload indexes on the value fields that searches filter on, made on first use.

    An unindexed condition makes the engine read every candidate's payload (ten times
    slower at a few thousand items); one index per filtered field, of the type its first
    filter needs, keeps filtered searches on the index. A field indexed with another type
    is filtered in Python.

    Filter keys come from clients (the server's store API), and every index costs the
    whole store: a fraction of a second to build, then time on every write and on every
    opening (600 indexes made writes 2.3x slower on Qdrant Edge). So at most
    :func:`field_index_limit` value fields are indexed, counting those the store already
    has; a filter on any other field is still exact, checked without an index.
    """

    def __init__(self, backend: Backend) -> None:
        self._backend = backend
        self._known: dict[str, str] | None = None
        self._limit = field_index_limit()
        self._lock = threading.Lock()

    def usable(self, path: str, kind: str) -> bool:
        with self._lock:
            if self._known is None:
                self._known = self._backend.field_indexes()
            if path not in self._known:
                if sum(p.startswith("value.") for p in self._known) >= self._limit:
                    return False
                self._backend.create_field_index(path, kind)
                self._known[path] = kind
            return self._known[path] == kind


MAX_PAGE = 2**53 - 1
"""The largest ``limit`` or ``offset`` a read takes: a server's store API passes any integer
on, and the engine cannot hold a page end past 64 bits (``OverflowError``)."""


def _check_page(op: SearchOp | ListNamespacesOp) -> None:
    for name in ("limit", "offset"):
        value = getattr(op, name)
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_PAGE:
            raise InvalidMemoryError(name, f"expected an integer from 0 to {MAX_PAGE}, got {value!r}"[:200])


def check_search(op: SearchOp) -> None:
    check_namespace(op.namespace_prefix, allow_empty=True)
    check_filter(op.filter)
    _check_page(op)
    if op.query is not None and not isinstance(op.query, str):
        raise InvalidMemoryError("query", f"expected a string, got {type(op.query).__name__}")
    if op.query is not None:
        check_unicode("query", op.query)
        if len(op.query) > MAX_QUERY_CHARS:
            # Embedding costs its length (17 s of CPU for 10 MB with MiniLM), and a server's
            # store API takes bodies of hundreds of MB: bounded as MemoryStore.search is.
            raise InvalidMemoryError("query", f"is {len(op.query)} characters; the limit is {MAX_QUERY_CHARS}")


def check_list(op: ListNamespacesOp) -> None:
    for condition in op.match_conditions or ():
        if condition.match_type not in ("prefix", "suffix"):
            raise InvalidMemoryError("match_type", f"expected prefix or suffix, got {condition.match_type!r}")
        check_namespace(condition_path(condition), allow_empty=True)
    _check_page(op)
    if op.max_depth is not None and (not isinstance(op.max_depth, int) or op.max_depth < 1):
        raise InvalidMemoryError("max_depth", f"expected a positive integer, got {op.max_depth!r}")


def refresh(backend: Backend, points: Sequence[StoredPoint], now: float) -> None:
    """Restart the TTL of the items read (memories keep their own expiry). An item stored
    before TTLs were bounded, with a TTL out of range, is left as it is."""
    by_ttl: dict[float, list[str]] = defaultdict(list)
    for p in points:
        ttl = p.payload.get("ttl_minutes")
        if ttl and not is_memory(p.payload) and _valid_minutes(ttl):
            by_ttl[ttl].append(p.id)
    for ttl, ids in by_ttl.items():
        backend.set_payload(ids, {"expires_at": now + ttl * 60})


def _valid_minutes(ttl: Any) -> bool:
    try:
        check_minutes("ttl", ttl)
    except InvalidMemoryError:
        return False
    return True


def get_items(
    backend: Backend, ops: Sequence[GetOp], *, refresh_on_read: bool = True, cache: ReadCache | None = None,
) -> list[Item | None]:
    """``refresh_on_read``: the store's TTL config allows reads to restart TTLs (each op
    still says whether it wants to). ``cache``: the face's read cache (Qdrant Edge only)."""
    now = time.time()
    keys = [(check_namespace(op.namespace, allow_empty=True), check_key(op.key)) for op in ops]
    if cache is not None:
        return _cached_get(backend, ops, keys, now, cache, refresh_on_read)
    found = lookup(backend, keys, now)
    if refresh_on_read:
        refresh(backend, [found[k] for op, k in zip(ops, keys) if op.refresh_ttl and k in found], now)
    return [to_item(found[k]) if k in found else None for k in keys]


def _cached_get(
    backend: Backend, ops: Sequence[GetOp], keys: list[Key], now: float, cache: ReadCache, refresh_on_read: bool,
) -> list[Item | None]:
    def read(missing: Sequence[Key]) -> Read:
        found = lookup(backend, missing, now)
        return {k: (found.get(k), tuple(i for i in candidate_ids(k) if i is not None)) for k in missing}

    entries = cached_items(cache, keys, now, read)
    if refresh_on_read:
        refresh(backend, [e[0] for op, k in zip(ops, keys) if op.refresh_ttl and (e := entries[k]) is not None], now)
    return [handed_out(e[1]) if (e := entries[k]) is not None else None for k in keys]


def _scope(op: SearchOp, now: float) -> dict[str, Any]:
    prefix = tuple(op.namespace_prefix)
    return {"namespace_prefix": namespace_key(prefix) if prefix else None, "alive_at": now}


def _wheres(op: SearchOp, now: float, statuses: tuple[str, ...], indexes: FieldIndexes) -> list[Where]:
    """The engine filters of a search over points of ``statuses``. With a filter the engine
    can partly check, items get it and the other points (memories, which hold no ``value``,
    and extra vectors) a query of their own: two plain conjunctions, which the engine runs
    far faster than one filter with a disjunction."""
    scope = _scope(op, now)
    pushed = pushed_filter(check_filter(op.filter), indexes.usable)
    if pushed is None:
        return [Where(status=statuses, **scope)]
    others = tuple(s for s in statuses if s != ITEM)
    return [Where(status=ITEM, **pushed, **scope), Where(status=others, **scope)]


def _recent(
    backend: Backend, op: SearchOp, now: float, skip: set[str], want: int, indexes: FieldIndexes
) -> tuple[list[StoredPoint], bool]:
    """Items matching the op, most recently updated first, at least ``want`` of them unless
    there are fewer; ``skip`` ids are left out. Also says whether that is all there are."""
    flt = check_filter(op.filter)
    wheres = _wheres(op, now, ITEM_STATUSES, indexes)
    # Without a filter left to Python every row is kept: ask for the page, not more (each
    # row read costs its payload's conversion).
    n = want + len(skip) if not flt else max(want + len(skip), 16)
    while True:
        rows = backend.query_batch([FetchQuery(w, n, order_by="updated_at") for w in wheres])
        points = sorted((h.point for hits in rows for h in hits), key=lambda p: -p.payload["updated_at"])
        # Without a filter no value is read here (an item's value is a copy, a memory's a conversion).
        kept = [p for p in points if p.id not in skip and (not flt or matches(item_value(p), flt))]
        complete = all(len(hits) < n for hits in rows)
        if len(kept) >= want or complete:
            return kept, complete
        n *= 4


def _nearest(
    backend: Backend, op: SearchOp, vector: list[float], now: float, want: int, indexes: FieldIndexes
) -> tuple[list[tuple[StoredPoint, float]], bool]:
    """Items by their best vector's similarity to ``vector``, best first."""
    flt = check_filter(op.filter)
    wheres = _wheres(op, now, (MEMORY, ITEM, ITEM_VECTOR), indexes)
    n = max(want * 2, 16)
    while True:
        rows = backend.query_batch([DenseQuery(vector, w, n) for w in wheres])
        hits = sorted((h for hits in rows for h in hits), key=lambda h: -h.score)
        owners = {h.point.payload["item_of"] for h in hits if h.point.payload.get("status") == ITEM_VECTOR}
        known = {h.point.id: h.point for h in hits if h.point.payload.get("status") != ITEM_VECTOR}
        missing = sorted(owners - set(known))
        known.update({p.id: p for p in backend.retrieve(missing)} if missing else {})
        seen: set[str] = set()
        scored: list[tuple[StoredPoint, float]] = []
        for h in hits:
            owner = known.get(h.point.payload.get("item_of", h.point.id))
            if owner is None or owner.id in seen:
                continue
            seen.add(owner.id)
            p = owner.payload
            if p.get("status") not in (MEMORY, ITEM) or expired(p, now) or (flt and not matches(item_value(owner), flt)):
                continue
            scored.append((owner, h.score))
        complete = all(len(r) < n for r in rows)
        if len(scored) >= want or complete:
            return scored, complete
        n *= 4


def _cached_recent(
    backend: Backend, op: SearchOp, now: float, want: int, indexes: FieldIndexes, cache: ReadCache, key: Any,
    refresh_on_read: bool,
) -> list[SearchItem]:
    """A search without a query, its page from the cache or read and kept."""
    entries = cache.page(key, now)
    if entries is None:
        seq = cache.mark()
        points, _ = _recent(backend, op, now, set(), want, indexes)
        entries = [(p, to_item(p)) for p in points[op.offset : want]]
        cache.keep_page(seq, key, _scope(op, now)["namespace_prefix"], points[:want], entries)
    if op.refresh_ttl and refresh_on_read:
        refresh(backend, [p for p, _ in entries], now)
    return [handed_out(item, SearchItem, score=None) for _, item in entries]  # type: ignore[misc]


def search_items(
    backend: Backend, op: SearchOp, vector: list[float] | None, indexes: FieldIndexes, *, refresh_on_read: bool = True,
    cache: ReadCache | None = None,
) -> list[SearchItem]:
    """One search: by similarity when ``vector`` is given (items without a vector follow,
    unscored), else most recently updated first (from ``cache``, when given, if it holds the page)."""
    now = time.time()
    want = op.offset + op.limit
    if op.limit == 0:
        return []
    if vector is None and cache is not None and (key := page_key(op)) is not None:
        return _cached_recent(backend, op, now, want, indexes, cache, key, refresh_on_read)
    if vector is None:
        points, _ = _recent(backend, op, now, set(), want, indexes)
        page = [(p, None) for p in points[op.offset : want]]
    else:
        scored, complete = _nearest(backend, op, vector, now, want, indexes)
        page: list[tuple[StoredPoint, float | None]] = list(scored[op.offset : want])  # type: ignore[no-redef]
        if len(page) < op.limit and complete:
            rest_offset = max(0, op.offset - len(scored))
            rest, _ = _recent(backend, op, now, {p.id for p, _ in scored}, rest_offset + op.limit - len(page), indexes)
            page += [(p, None) for p in rest[rest_offset : rest_offset + op.limit - len(page)]]
    if op.refresh_ttl and refresh_on_read:
        refresh(backend, [p for p, _ in page], now)
    return [to_item(p, SearchItem, score=score) for p, score in page]  # type: ignore[misc]


def _facet(backend: Backend, scope: str | None, now: float, cache: ReadCache | None) -> list[tuple[str, int]]:
    """The namespaces holding live items under ``scope``, with their counts."""
    where = Where(status=ITEM_STATUSES, namespace_prefix=scope, alive_at=now)
    # Exact counts, though only the values are used: the engine's estimated facets may
    # sample points, so a namespace holding few items could go unlisted.
    if cache is None:
        return backend.facet("namespace", where, limit=FACET_LIMIT)
    rows = cache.listing(scope, now)
    if rows is None:
        seq = cache.mark()
        rows = backend.facet("namespace", where, limit=FACET_LIMIT)
        # Without a write, the listing changes only when its first item expires.
        first, _ = backend.scroll(where, limit=1, order_by="expires_at", descending=False)
        until = first[0].payload.get("expires_at") if first else float("inf")
        if isinstance(until, (int, float)):  # else the engine ordered an item with no expiry first: not kept
            cache.keep_listing(seq, scope, rows, until)
    return rows


def list_namespaces(backend: Backend, op: ListNamespacesOp, cache: ReadCache | None = None) -> list[tuple[str, ...]]:
    conditions = tuple(op.match_conditions or ())
    prefix = literal_prefix(conditions)
    found: set[tuple[str, ...]] = set()
    # Every namespace is checked again here, so what is listed never rests on the engine's filter alone.
    for key, _ in _facet(backend, namespace_key(prefix) if prefix else None, time.time(), cache):
        namespace = namespace_from_key(key)
        if namespace_matches(namespace, conditions):
            found.add(namespace[: op.max_depth] if op.max_depth is not None else namespace)
    return sorted(found)[op.offset : op.offset + op.limit]


__all__ = ["FieldIndexes", "check_list", "check_search", "get_items", "list_namespaces", "search_items"]
