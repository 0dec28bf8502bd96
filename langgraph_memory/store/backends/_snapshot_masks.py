"""The engine's filter conditions as boolean masks over a snapshot's rows.

Semantics follow the engine's filters (``backends._base.translate``): a missing field
fails a range, ``is_null`` needs the key, ``is_empty`` takes missing, null or ``[]``,
a keyword condition matches a string or any string of a list.

What a mask is built from is kept in the snapshot's memo (``_memo``): columns (each
row's value of a field), one value's rows, and masks. A write that changes some rows
gives the namespace a new snapshot version whose memo keeps only what no changed field
went into (:meth:`~._snapshot.Snapshot._changed`); a version with rows added or removed
starts empty. A pre-hook turn's filters are the same from turn to turn but for their
times (``alive_at``, the recent channel's ``updated_since``): each filter's other
conditions are kept as one mask, by their values (:meth:`Masks.mask`), and the times'
masks by how many of the namespace's values the time has passed (:meth:`Masks._live_at`,
:meth:`Masks._since`), so a turn computes only what its own query adds (its subjects and
named times, the ids of its candidates: never kept, they rarely come again). Every kept
mask is read-only: a reader that wrote into one would fail, not change the next answer.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from typing import Any, Callable

import numpy as np

from langgraph_memory.store.backends._base import Where


def _strings(value: Any) -> frozenset[str]:
    if isinstance(value, str):
        return frozenset((value,))
    if isinstance(value, list):
        return frozenset(v for v in value if isinstance(v, str))
    return frozenset()


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else np.nan


_ABSENT = object()


def _is_null(payload: dict[str, Any], key: str) -> bool:
    return key in payload and payload[key] is None


def _is_empty(payload: dict[str, Any], key: str) -> bool:
    return payload.get(key) is None or payload.get(key) == []


_DERIVE: dict[str, Callable[[dict[str, Any], str, tuple], Any]] = {
    "match": lambda p, key, memo_key: memo_key[2] in _strings(p.get(key)),
    "float": lambda p, key, memo_key: _number(p.get(key)),
    "null": lambda p, key, memo_key: _is_null(p, key),
    "empty": lambda p, key, memo_key: _is_empty(p, key),
}
"""How one row's entry of each derived column is computed (the column's memo key is
``(kind, field, ...)``), to re-derive only the rows a write changed."""

WHERES = ("wheres", "")
"""The memo key of the filters' kept masks: ``{conditions: mask}``."""
WHERES_KEPT = 256
"""Filters' masks kept per snapshot at most (a turn adds one or two: its subjects)."""
FETCHES = ("fetches", "")
"""The memo key of fetches' kept rows (:meth:`~._snapshot.Snapshot.answer`):
``{(kept_key, order_by, descending, limit): rows}``."""
FETCHES_KEPT = 256
NOTHING = ("nothing", "")
"""The memo key of the mask keeping no row (:meth:`Masks.nothing`): it reads no field."""


def conditions(where: Where) -> tuple[Any, ...]:
    """``where``'s conditions but its namespace, status, ids and times: what stays the
    same from turn to turn (a tuple of its values, compared and hashed as such)."""
    return (where.namespace_prefix, where.kinds, where.memory_types, where.categories, where.subjects,
            where.min_importance, where.created_since, where.created_until, where.expired_at,
            where.channel_scope, where.any_of, where.fields, where.ranges)


_NO_CONDITIONS = conditions(Where())
"""The conditions of a filter that has none but its namespace, status, ids and times."""


@lru_cache(maxsize=4096)
def fields_read(same: tuple[Any, ...]) -> frozenset[str]:
    """The payload fields a filter's :func:`conditions` ``same`` read (to keep its mask
    across a write that changed none of them). Kept per filter: a write's carry-over
    (:meth:`~._snapshot.Snapshot._changed`) asks it of every kept filter, every turn."""
    (prefix, kinds, memory_types, categories, subjects, min_importance, created_since, created_until,
     expired_at, channel_scope, any_of, fields, ranges) = same
    out = {key for key, values in (
        ("ns_prefixes", prefix), ("kind", kinds), ("memory_type", memory_types), ("category", categories),
        ("subjects", subjects), ("importance", min_importance), ("channel", channel_scope)) if values is not None}
    if created_since is not None or created_until is not None:
        out.add("created_at")
    if expired_at is not None:
        out.add("expires_at")
    out.update(key for key, _ in fields)
    out.update(key for key, *_ in ranges)
    for sub in any_of:  # a sub-filter's every condition
        out.update(fields_read(conditions(sub)), ("status", "updated_at", "expires_at"))
    return frozenset(out)


def _readonly(mask: np.ndarray) -> np.ndarray:
    mask.flags.writeable = False
    return mask



def _turn_specific(where: Where) -> bool:
    """Whether ``where`` holds a turn's own words (subjects) or times (dated sub-filters):
    what neither a kept mask nor a kept fetch holds."""
    return where.subjects is not None or any(
        sub.created_since is not None or sub.created_until is not None for sub in where.any_of)

class Masks:
    """A snapshot's masks (mixed into :class:`~._snapshot.Snapshot`: its ``ids``,
    ``payloads``, ``row``, ``namespace`` and ``_memo``)."""

    ids: list[str]
    payloads: list[dict[str, Any]]
    row: dict[str, int]
    namespace: str
    _memo: dict[Any, Any]

    def _cached(self, key: Any, build: Callable[[], np.ndarray]) -> np.ndarray:
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = build()
        return found

    def _rows_by_value(self, key: str) -> dict[str, np.ndarray]:
        found = self._memo.get(("values", key))
        if found is None:
            lists: dict[str, list[int]] = {}
            for r, p in enumerate(self.payloads):
                for v in _strings(p.get(key)):
                    lists.setdefault(v, []).append(r)
            found = self._memo[("values", key)] = {v: np.array(rows, dtype=np.intp) for v, rows in lists.items()}
        return found  # type: ignore[return-value]

    def match(self, key: str, values: tuple[str, ...]) -> np.ndarray:
        by_value = self._rows_by_value(key)
        if len(values) == 1 and values[0] in by_value:
            return self._cached(("match", key, values[0]), lambda: _readonly(self._rows_mask(by_value[values[0]])))
        # A turn's subjects are its message's ~20 words and phrases, few of them tags: their
        # rows are set at once, and no row at all is the shared :meth:`nothing`.
        found = [rows for v in values if (rows := by_value.get(v)) is not None]
        if not found:
            return self.nothing()
        return self._rows_mask(found[0] if len(found) == 1 else np.concatenate(found))

    def nothing(self) -> np.ndarray:
        """The mask keeping no row (shared: read-only). A filter with a keyword condition no
        row holds (an identity channel's alias sources where no memory is an identity) is
        this mask, its other conditions not evaluated, and its lists are empty at once."""
        found = self._memo.get(NOTHING)  # asked of every list of a turn: no closure built
        if found is None:
            found = self._memo[NOTHING] = _readonly(np.zeros(len(self.ids), dtype=bool))
        return found  # type: ignore[no-any-return]

    def _rows_mask(self, rows: np.ndarray | list[int]) -> np.ndarray:
        """A mask of this snapshot's rows holding ``rows``."""
        out = np.zeros(len(self.ids), dtype=bool)
        # A list of rows as an array first: numpy indexes by a list of ~25 ints ~3x slower
        # (a candidates' filter: ~8 µs against ~2.5, three or four a turn).
        out[np.asarray(rows, dtype=np.intp)] = True
        return out

    def floats(self, key: str) -> np.ndarray:
        return self._cached(("float", key), lambda: np.fromiter(
            (_number(p.get(key)) for p in self.payloads), dtype=np.float64, count=len(self.ids)))

    def is_null(self, key: str) -> np.ndarray:
        return self._cached(("null", key), lambda: np.fromiter(
            (_is_null(p, key) for p in self.payloads), dtype=bool, count=len(self.ids)))

    def is_empty(self, key: str) -> np.ndarray:
        return self._cached(("empty", key), lambda: np.fromiter(
            (_is_empty(p, key) for p in self.payloads), dtype=bool, count=len(self.ids)))

    def _range(self, key: str, gte: float | None = None, gt: float | None = None, lte: float | None = None,
               lt: float | None = None) -> np.ndarray:
        values = self.floats(key)
        if gte is None and gt is None and lte is None and lt is None:
            return ~np.isnan(values)
        out: np.ndarray | None = None  # nan fails every comparison: no separate check
        for bound, test in ((gte, np.greater_equal), (gt, np.greater), (lte, np.less_equal), (lt, np.less)):
            if bound is not None:
                kept = test(values, bound)
                out = kept if out is None else out & kept
        return out  # type: ignore[return-value]

    def _sorted(self, key: str) -> list[float]:
        """The values of float field ``key`` the rows hold, ascending (nan left out)."""
        found = self._memo.get(("sorted", key))
        if found is None:
            values = self.floats(key)
            found = self._memo[("sorted", key)] = sorted(values[~np.isnan(values)].tolist())
        return found  # type: ignore[no-any-return]

    def _live_at(self, at: float) -> np.ndarray:
        """The live rows with no expiry or one after ``at`` (shared: read-only).
        It is the same for every ``at`` between two expiry times of the namespace, so it
        is kept by how many of them ``at`` has passed: a turn's filters each carry their
        own ``at`` (the time they were built), and most namespaces have no expiry at all."""
        key = ("alive", "expires_at", bisect_right(self._sorted("expires_at"), at))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = _readonly(self.match("status", ("live",)) & (
                self.is_null("expires_at") | self._range("expires_at", gt=at)))
        return found

    def _since(self, key: str, at: float) -> np.ndarray:
        """The rows whose float field ``key`` is at least ``at`` (shared: read-only); kept,
        as :meth:`_live_at`, by how many of the rows' values lie below ``at``."""
        memo_key = ("since", key, bisect_left(self._sorted(key), at))
        found = self._memo.get(memo_key)
        if found is None:
            found = self._memo[memo_key] = _readonly(self._range(key, gte=at))
        return found

    def mask(self, where: Where) -> np.ndarray:
        """Which rows ``where`` keeps (the conditions of ``backends._base.translate``).
        May be a kept mask: read-only."""
        if where.namespace is not None and where.namespace != self.namespace:
            return np.zeros(len(self.ids), dtype=bool)
        if where.alive_at is None or where.status != "live":
            return self._built(where)
        # Most filters: live memories alive now, (the recent channel) updated since a
        # time, the same other conditions every turn, or given ids (a search's later rounds).
        out = self._live_at(where.alive_at)
        if where.updated_since is not None:
            out = out & self._since("updated_at", where.updated_since)
        if where.ids is not None:
            out = out & self._ids(where.ids)
        same = conditions(where)
        if same != _NO_CONDITIONS and not _turn_specific(where):
            wheres = self._memo.get(WHERES)
            if wheres is None:
                wheres = self._memo[WHERES] = {}
            try:
                kept = wheres.get(same)
            except TypeError:  # a list where a tuple belongs: evaluated, not kept
                return out & self._conditions(where, np.ones(len(self.ids), dtype=bool))
            if kept is None:
                if len(wheres) >= WHERES_KEPT:
                    wheres.clear()
                kept = wheres[same] = _readonly(self._conditions(where, np.ones(len(self.ids), dtype=bool)))
            out = out & kept
        elif same != _NO_CONDITIONS:
            # The turn's own words (subjects) or times (dated sub-filters): not kept.
            out = self._conditions(where, out.copy())
        return out

    def kept_key(self, where: Where) -> tuple[Any, ...] | None:
        """What :meth:`mask` of ``where`` reads besides this snapshot's rows, for a filter
        whose mask is made of kept parts only (live memories alive at a time, maybe updated
        since one, conditions but subjects, dated sub-filters and ids): how many expiry times
        ``alive_at`` has passed, how many ``updated_at`` values ``updated_since`` has, and its
        :func:`conditions`. Two such filters with one key keep the same rows. ``None``: any
        other filter."""
        if (where.namespace != self.namespace or where.alive_at is None or where.status != "live"
                or where.ids is not None or _turn_specific(where)):
            return None
        since = None if where.updated_since is None else bisect_left(self._sorted("updated_at"), where.updated_since)
        return bisect_right(self._sorted("expires_at"), where.alive_at), since, conditions(where)

    def _ids(self, ids: tuple[str, ...]) -> np.ndarray:
        # ``map`` reads the rows from C (a turn's candidates' filters hold ~30-45 ids each).
        return self._rows_mask([r for r in map(self.row.get, ids) if r is not None])

    def _built(self, where: Where) -> np.ndarray:
        """:meth:`mask` of a filter on its namespace that is not for live memories alive at
        a time: every condition evaluated (a new array, or :meth:`nothing`)."""
        out = self._ids(where.ids) if where.ids is not None else np.ones(len(self.ids), dtype=bool)
        if where.status is not None:
            out &= self.match("status", (where.status,) if isinstance(where.status, str) else tuple(where.status))
        if where.updated_since is not None:
            out &= self._range("updated_at", gte=where.updated_since)
        if where.alive_at is not None:
            out &= self.is_null("expires_at") | self._range("expires_at", gt=where.alive_at)
        return self._conditions(where, out)

    def _conditions(self, where: Where, out: np.ndarray) -> np.ndarray:
        """``out`` (written) and'ed with ``where``'s :func:`conditions`; :meth:`nothing` when a
        keyword condition holds on no row."""
        keywords = (
            ("ns_prefixes", None if where.namespace_prefix is None else (where.namespace_prefix,)),
            ("kind", where.kinds), ("memory_type", where.memory_types), ("category", where.categories),
            ("subjects", where.subjects), *where.fields,
        )
        for key, values in keywords:
            if values is not None:
                kept = self.match(key, tuple(values))
                if kept is self.nothing():
                    return kept  # no row holds any of the values: nothing else to read
                out &= kept
        if where.min_importance is not None:
            out &= self._range("importance", gte=where.min_importance)
        if where.created_since is not None or where.created_until is not None:
            out &= self._range("created_at", gte=where.created_since, lte=where.created_until)
        if where.expired_at is not None:
            out &= self._range("expires_at", lte=where.expired_at)
        for key, gte, gt, lte, lt in where.ranges:
            out &= self._range(key, gte=gte, gt=gt, lte=lte, lt=lt)
        if where.any_of:
            out &= np.logical_or.reduce([self.mask(sub) for sub in where.any_of])
        if where.channel_scope is not None:
            out &= self.is_empty("channel") | self.match("channel", (where.channel_scope,))
        return out
