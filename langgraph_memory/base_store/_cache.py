"""A read cache of the BaseStore face, for an engine only this process writes (Qdrant Edge).

A ``get`` through the engine costs ~9x a dictionary lookup, and a search or a listing of
namespaces more than SqliteStore's: most of it is Python around the engine (the batch,
the read, payloads turned into items), not the engine. Qdrant Edge holds its directory
exclusively and every write of its backend is logged (``EdgeBackend.write_log``, the log
the pre-hook's snapshots follow), so what was read stays true until a logged write says
otherwise. Before answering, this cache applies the writes logged since it last looked:

* an item read by ``get`` (or found absent) is dropped when a write touches one of the
  points it was read from (its item point, or the memory its key names);
* a search page (no query) is dropped when a write touches one of the points it ranked,
  adds points to a namespace it covers, or may have changed points whose namespace the
  log does not say (a delete or a ``set_payload``);
* a listing of namespaces is dropped on any write.

A write by filter, or a gap in the log, drops everything. Expiry needs no write: an item
is checked against its expiry on each hit, a page and a listing are kept only until the
first expiry among the points they rest on. Entries are handed out as copies (a caller
may change the item it got), and entries read while a write landed are not kept.

A qdrant-client backend has no such log (a server may be written by other processes):
the face reads the engine every time.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Mapping, Sequence

from langgraph.store.base import Item, SearchOp

from langgraph_memory.base_store._items import is_memory, to_item
from langgraph_memory.store.backends import StoredPoint
from langgraph_memory.store.backends._base import env_count

CACHE_ITEMS_ENV = "LANGGRAPH_MEMORY_FACE_CACHE_ITEMS"
DEFAULT_CACHE_ITEMS = 4_096
PAGES_PER_ITEMS = 16
"""At most one search page held per this many items held, each ranking at most that many
points (4,096 items: 256 pages of up to 256 points); a listing holds at most as many
namespaces as items."""

Key = tuple[tuple[str, ...], str]
Entry = tuple[StoredPoint, Item]
"""A live item as read: its point (its TTL, for a refresh) and its item, never handed out."""
Read = dict[Key, tuple["StoredPoint | None", tuple[str, ...]]]
"""Per key: its live point (``None``: none) and the ids of the points it was read from."""


class _Held:
    """A key's point as read or written (``None``: no live item), its item, and the ids of
    the points it rests on."""

    __slots__ = ("point", "item", "ids")

    def __init__(self, point: StoredPoint | None, item: Item | None, ids: tuple[str, ...]) -> None:
        self.point, self.item, self.ids = point, item, ids


def _held(read: Read, items: dict[Key, Item]) -> dict[Key, _Held]:
    return {k: _Held(point, items.get(k), ids) for k, (point, ids) in read.items() if point is None or k in items}


def cache_items() -> int:
    """Items the face's read cache holds at most: ``$LANGGRAPH_MEMORY_FACE_CACHE_ITEMS``,
    default 4,096; 0 turns the cache off."""
    return env_count(CACHE_ITEMS_ENV, DEFAULT_CACHE_ITEMS, 0, "items")


def json_copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars), several times cheaper than ``copy.deepcopy``."""
    if type(value) is dict:
        return {k: json_copy(v) if type(v) in (dict, list) else v for k, v in value.items()}
    if type(value) is list:
        return [json_copy(v) if type(v) in (dict, list) else v for v in value]
    return value


def handed_out(item: Item, cls: type[Item] = Item, **extra: Any) -> Item:
    """A fresh item holding a copy of ``item``'s value (its other fields are immutable)."""
    return cls(value=json_copy(item.value), key=item.key, namespace=item.namespace,
               created_at=item.created_at, updated_at=item.updated_at, **extra)


def expires_at(point: StoredPoint) -> float:
    expires = point.payload.get("expires_at")
    return float("inf") if expires is None else expires


def _scopes_over(namespace: str) -> list[str | None]:
    """The search scopes (namespace prefix keys) that cover ``namespace``'s key."""
    labels = namespace.split("/")  # a label's own slashes are escaped in its key
    return [None] + ["/".join(labels[:n]) for n in range(1, len(labels) + 1)]


def page_key(op: SearchOp) -> Hashable | None:
    """What identifies a search page (no query), or ``None`` when its filter is not plain JSON."""
    try:
        flt = json.dumps(op.filter, sort_keys=True, allow_nan=False) if op.filter else ""
    except (TypeError, ValueError):
        return None
    return tuple(op.namespace_prefix), flt, op.offset, op.limit


@dataclass
class _Page:
    scope: str | None
    """The namespace key the search covers (``None``: all)."""
    ranked: frozenset[str]
    """The points of every rank up to the page's end: a write elsewhere in its scope that
    changes none of them cannot change the page (unless it adds points, see ``scope``)."""
    until: float
    """The first expiry among ``ranked``: the page holds until then."""
    entries: list[Entry]


class ReadCache:
    """Items, search pages and namespace listings of one Edge backend, kept coherent by its write log."""

    def __init__(self, backend: Any, max_items: int) -> None:
        self._backend = backend
        self._log = backend.write_log
        self._max_items = max_items
        self._max_pages = max(1, max_items // PAGES_PER_ITEMS)
        self._lock = threading.Lock()
        self._seq = self._log.seq
        self._shard: Any = None
        self._items: OrderedDict[Key, _Held] = OrderedDict()
        self._by_id: dict[str, set[Key]] = {}
        self._pages: OrderedDict[Hashable, _Page] = OrderedDict()
        self._pages_by: dict[tuple[str, str | None], set[Hashable]] = {}
        """Page keys by scope and by each point they rank: a write finds its pages without a scan."""
        self._listings: dict[str | None, tuple[list[tuple[str, int]], float]] = {}

    # -- coherence -------------------------------------------------------------------------

    def _clear(self) -> None:
        self._items.clear()
        self._by_id.clear()
        self._pages.clear()
        self._pages_by.clear()
        self._listings.clear()

    def _sync(self) -> int:
        """Apply the writes logged since the last look (under the lock); the log's sequence number."""
        shard = self._backend.shard  # raises once the store is closed, as an engine read would
        if shard is not self._shard:  # closed and opened again: another process may have written
            self._clear()
            self._shard = shard
        seq, writes = self._log.since(self._seq)
        if writes is None:
            self._clear()
        elif writes:
            self._listings.clear()
            for ids, into, _, _ in writes:
                for point_id in ids:
                    for key in self._by_id.pop(point_id, ()):
                        self._items.pop(key, None)
                if not self._pages:
                    continue
                if not into:  # no namespace said (a delete, a set_payload) or any: it may change any page
                    self._pages.clear()
                    self._pages_by.clear()
                    continue
                stale = {k for point_id in ids for k in self._pages_by.get(("id", point_id), ())}
                for ns in into:
                    for scope in _scopes_over(ns) if ns is not None else [None]:
                        stale.update(self._pages_by.get(("scope", scope), ()))
                for k in stale:
                    self._drop_page(k)
        self._seq = seq
        return seq

    def mark(self) -> int:
        """The log's position before an engine read: what is read is kept only if no write
        was logged between this and :meth:`keep_items` (or ``keep_page``, ``keep_listing``)."""
        with self._lock:
            return self._sync()

    # -- items -----------------------------------------------------------------------------

    def items(self, keys: Sequence[Key], now: float) -> dict[Key, Entry | None]:
        """The cached state of those of ``keys`` the cache holds (``None``: no live item)."""
        out: dict[Key, Entry | None] = {}
        with self._lock:
            self._sync()
            for key in keys:
                held = self._items.get(key)
                if held is None:
                    continue
                point, item = held.point, held.item
                expired = point is None or item is None or expires_at(point) <= now  # expiry needs no write
                out[key] = None if expired else (point, item)  # type: ignore[assignment]
                self._items.move_to_end(key)
        return out

    def live_points(self, ids: Mapping[Key, str], now: float) -> dict[Key, StoredPoint]:
        """The live items the cache holds at their own points (``ids[key]``): what a write's
        lookup of the point it replaces would read from the engine. Keys held as absent (an
        expired point may still be there) or as a memory are left out: the engine is asked."""
        found = self.items(list(ids), now)
        return {k: e[0] for k, e in found.items() if e is not None and e[0].id == ids[k]}

    def _forget(self, key: Key) -> None:
        held = self._items.pop(key)
        for point_id in held.ids:
            keys = self._by_id.get(point_id)
            if keys is not None:
                keys.discard(key)
                if not keys:
                    del self._by_id[point_id]

    def keep_items(self, seq: int, read: Read, items: dict[Key, Item]) -> None:
        """Hold what was read since :meth:`mark` returned ``seq``: each key's point (``None``:
        no live item) and the ids it was read from, and the items of those points."""
        held = _held(read, items)
        with self._lock:
            if self._sync() != seq:
                return
            for key, entry in held.items():
                self._items[key] = entry
                self._items.move_to_end(key)
                for point_id in entry.ids:
                    self._by_id.setdefault(point_id, set()).add(key)
            while len(self._items) > self._max_items:
                self._forget(next(iter(self._items)))

    def keep_written(self, seq: int, logged: int, written: Read, values: Mapping[Key, dict[str, Any]]) -> None:
        """Hold the items a batch wrote (``None``: deleted), when its ``logged`` writes (each
        logged once; negative: unknown) are the only ones logged since :meth:`mark` returned
        ``seq``: what it wrote is then what the engine holds. A memory is left to be read:
        its value holds floats (its importance), which the engine may give back one unit in
        the last place off; an item's value is read back exactly (``value_json``), so the
        write's own copy of it (``values``, never handed out) is what a read would give."""
        if logged >= 0:
            self.keep_items(seq + logged, written, {
                k: to_item(point, value=values.get(k)) for k, (point, _) in written.items()
                if point is not None and not is_memory(point.payload)})

    # -- search pages ----------------------------------------------------------------------

    def _page_refs(self, page: _Page) -> list[Hashable]:
        return [("scope", page.scope)] + [("id", point_id) for point_id in page.ranked]

    def _drop_page(self, key: Hashable) -> None:
        page = self._pages.pop(key, None)
        if page is not None:
            for ref in self._page_refs(page):
                keys = self._pages_by.get(ref)
                if keys is not None:
                    keys.discard(key)
                    if not keys:
                        del self._pages_by[ref]

    def page(self, key: Hashable, now: float) -> list[Entry] | None:
        with self._lock:
            self._sync()
            page = self._pages.get(key)
            if page is None:
                return None
            if page.until <= now:
                self._drop_page(key)
                return None
            self._pages.move_to_end(key)
            return page.entries

    def keep_page(self, seq: int, key: Hashable, scope: str | None, ranked: Sequence[StoredPoint],
                  entries: list[Entry]) -> None:
        if len(ranked) > self._max_items // PAGES_PER_ITEMS:
            return  # a deep page: not worth its memory
        until = min((expires_at(p) for p in ranked), default=float("inf"))
        with self._lock:
            if self._sync() != seq:
                return
            self._drop_page(key)
            page = self._pages[key] = _Page(scope, frozenset(p.id for p in ranked), until, entries)
            for ref in self._page_refs(page):
                self._pages_by.setdefault(ref, set()).add(key)
            while len(self._pages) > self._max_pages:
                self._drop_page(next(iter(self._pages)))

    # -- namespace listings ----------------------------------------------------------------

    def listing(self, scope: str | None, now: float) -> list[tuple[str, int]] | None:
        with self._lock:
            self._sync()
            held = self._listings.get(scope)
            return held[0] if held is not None and held[1] > now else None

    def keep_listing(self, seq: int, scope: str | None, rows: list[tuple[str, int]], until: float) -> None:
        """``until``: the first expiry among the points listed (a namespace may go then)."""
        if len(rows) > self._max_items:
            return
        with self._lock:
            if self._sync() != seq:
                return
            if len(self._listings) >= self._max_pages:
                self._listings.clear()
            self._listings[scope] = (rows, until)


def read_cache(backend: Any) -> ReadCache | None:
    """The face's cache over ``backend``: only for an exclusive engine that logs its writes."""
    if not getattr(backend, "exclusive", False) or getattr(backend, "write_log", None) is None:
        return None
    size = cache_items()
    return ReadCache(backend, size) if size else None


def cached_items(cache: ReadCache, keys: Sequence[Key], now: float, read: Callable[[Sequence[Key]], Read]) -> dict[Key, Entry | None]:
    """Each key's live item, from the cache or read (``read(keys)``) and kept."""
    found = cache.items(keys, now)
    missing = [k for k in keys if k not in found]
    if missing:
        seq = cache.mark()
        fresh = read(missing)
        items = {k: to_item(point) for k, (point, _) in fresh.items() if point is not None}
        cache.keep_items(seq, fresh, items)
        found.update({k: (point, items[k]) if point is not None else None for k, (point, _) in fresh.items()})
    return found


__all__ = ["Read", "ReadCache", "cached_items", "handed_out", "page_key", "read_cache"]
