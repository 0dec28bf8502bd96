"""Small namespaces read once: a namespace's points held in memory, and reads answered there.

On Qdrant Edge a pre-hook turn over a few hundred memories spends more time in Python
around the engine than in it: ~100 records converted and ~10 filters built a turn, over
three engine rounds. For a namespace of at most :func:`snapshot_points` points that is read
again and again (a conversation's turns), its payloads and dense vectors are read once, and
a batch's dense and fetch queries on it are answered here with numpy; BM25 queries still go
to the engine (their IDF counts the whole shard).

Writes: every write of the backend logs the ids it touched (or "anything", for a delete by
filter) after it returns. Before answering, a snapshot re-reads the ids logged since it was
read (or reads its namespace again), so a read sees every write that completed before it,
from any thread. Qdrant Edge holds its directory exclusively: no other process writes there.

Semantics follow the engine's filters (a missing field fails a range, ``is_null`` needs
the key, ``is_empty`` takes missing, null or ``[]``); equal scores, and equal values of an
``order_by``, come by ascending id (rows are kept in id order and sorted stably).
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict, deque
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from langgraph_memory.store.backends._base import DenseQuery, FetchQuery, Hit, Query, StoredPoint, Where

SNAPSHOT_POINTS_ENV = "LANGGRAPH_MEMORY_SNAPSHOT_POINTS"
DEFAULT_SNAPSHOT_POINTS = 2_000
BUDGET_FACTOR = 10
"""All snapshots together hold at most this many namespaces' worth of the per-namespace cap."""
READS_BEFORE_SNAPSHOT = 2
"""A namespace read once (one search, one store call) is not worth reading whole."""
LOG_KEEP = 4_096


def snapshot_points() -> int:
    """Namespaces of at most this many points are read once and served from memory:
    ``$LANGGRAPH_MEMORY_SNAPSHOT_POINTS``, default 2,000; 0 turns snapshots off."""
    raw = os.environ.get(SNAPSHOT_POINTS_ENV, "").strip() or str(DEFAULT_SNAPSHOT_POINTS)
    try:
        points = int(raw)
    except ValueError:
        raise ValueError(f"${SNAPSHOT_POINTS_ENV} must be a whole number of points, not {raw!r}") from None
    if points < 0:
        raise ValueError(f"${SNAPSHOT_POINTS_ENV} must be 0 or more, not {points}")
    return points


class WriteLog:
    """The ids each write touched, in order; ``None`` for a write whose ids are unknown."""

    def __init__(self, keep: int = LOG_KEEP) -> None:
        self._lock = threading.Lock()
        self.seq = 0
        self._entries: deque[tuple[int, frozenset[str] | None]] = deque(maxlen=keep)

    def wrote(self, ids: Iterable[str] | None) -> None:
        entry = None if ids is None else frozenset(ids)
        with self._lock:
            self.seq += 1
            self._entries.append((self.seq, entry))

    def since(self, seq: int) -> tuple[int, set[str] | None]:
        """The current sequence number, and the ids written after ``seq`` (``None``: read
        everything again: a write by filter, or one the log no longer holds)."""
        with self._lock:
            now = self.seq
            if now == seq:
                return now, set()
            if not self._entries or self._entries[0][0] > seq + 1:
                return now, None
            ids: set[str] = set()
            for at, entry in reversed(self._entries):
                if at <= seq:
                    break
                if entry is None:
                    return now, None
                ids |= entry
            return now, ids


_last_vector: tuple[Any, np.ndarray] = (None, np.zeros(0, dtype=np.float32))


def _unit(vector: Sequence[float]) -> np.ndarray:
    """``vector`` made unit length as float32; a turn's rounds reuse one query vector
    (the same list), converted once."""
    global _last_vector
    last, converted = _last_vector
    if last is vector:
        return converted
    array = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(array))
    converted = array / np.float32(norm) if norm > 0 else array
    _last_vector = (vector, converted)  # holding the list keeps its identity from being reused
    return converted


def _strings(value: Any) -> frozenset[str]:
    if isinstance(value, str):
        return frozenset((value,))
    if isinstance(value, list):
        return frozenset(v for v in value if isinstance(v, str))
    return frozenset()


def _number(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else np.nan


class Snapshot:
    """One namespace's points (any status), in id order, with their dense vectors."""

    def __init__(
        self, namespace: str, seq: int, ids: list[str], payloads: list[dict[str, Any]],
        vectors: np.ndarray, has_dense: np.ndarray, memories: list[Any],
    ) -> None:
        self.namespace, self.seq = namespace, seq
        self.ids, self.payloads, self.vectors, self.has_dense = ids, payloads, vectors, has_dense
        self._memories = memories
        self.row = {i: r for r, i in enumerate(ids)}
        self._memo: dict[Any, np.ndarray] = {}

    @classmethod
    def of(cls, namespace: str, seq: int, points: Sequence[StoredPoint], dim: int) -> "Snapshot":
        points = sorted(points, key=lambda p: p.id)
        vectors = np.zeros((len(points), dim), dtype=np.float32)
        has_dense = np.zeros(len(points), dtype=bool)
        for r, p in enumerate(points):
            if p.dense is not None and len(p.dense) == dim:
                vectors[r] = p.dense
                has_dense[r] = True
        snapshot = cls(namespace, seq, [p.id for p in points], [p.payload for p in points], vectors, has_dense,
                       [None] * len(points))
        for row in range(len(points)):
            # Built now (~25 µs each), with the read, rather than a few on each later turn.
            snapshot.memory(row)
        return snapshot

    def patched(self, seq: int, points: Sequence[StoredPoint], dirty: set[str]) -> "Snapshot":
        """This snapshot with the ``dirty`` ids re-read as ``points`` (absent: deleted;
        of another namespace: moved out)."""
        keep = [r for r, i in enumerate(self.ids) if i not in dirty]
        mine = sorted((p for p in points if p.payload.get("namespace") == self.namespace), key=lambda p: p.id)
        fresh = Snapshot.of(self.namespace, seq, mine, self.vectors.shape[1])
        rows = [(self.ids[r], 0, r) for r in keep] + [(i, 1, r) for r, i in enumerate(fresh.ids)]
        rows.sort()
        sources = (self, fresh)
        take = [(sources[s], r) for _, s, r in rows]
        vectors = np.stack([src.vectors[r] for src, r in take]) if take else self.vectors[:0]
        return Snapshot(
            self.namespace, seq, [src.ids[r] for src, r in take], [src.payloads[r] for src, r in take],
            vectors, np.array([src.has_dense[r] for src, r in take], dtype=bool),
            [src._memories[r] for src, r in take],
        )

    # -- the engine's filter conditions, as masks over the rows ----------------------------

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
            return self._cached(("match", key, values[0]), lambda: self._rows_mask(by_value[values[0]]))
        out = np.zeros(len(self.ids), dtype=bool)
        for v in values:
            rows = by_value.get(v)
            if rows is not None:
                out[rows] = True
        return out

    def _rows_mask(self, rows: np.ndarray | None) -> np.ndarray:
        out = np.zeros(len(self.ids), dtype=bool)
        if rows is not None:
            out[rows] = True
        return out

    def floats(self, key: str) -> np.ndarray:
        return self._cached(("float", key), lambda: np.fromiter(
            (_number(p.get(key)) for p in self.payloads), dtype=np.float64, count=len(self.ids)))

    def is_null(self, key: str) -> np.ndarray:
        return self._cached(("null", key), lambda: np.fromiter(
            (key in p and p[key] is None for p in self.payloads), dtype=bool, count=len(self.ids)))

    def is_empty(self, key: str) -> np.ndarray:
        return self._cached(("empty", key), lambda: np.fromiter(
            (p.get(key) is None or p.get(key) == [] for p in self.payloads), dtype=bool, count=len(self.ids)))

    def _range(self, key: str, gte: float | None = None, gt: float | None = None, lte: float | None = None,
               lt: float | None = None) -> np.ndarray:
        values = self.floats(key)
        out = ~np.isnan(values)
        for bound, test in ((gte, np.greater_equal), (gt, np.greater), (lte, np.less_equal), (lt, np.less)):
            if bound is not None:
                out &= test(values, bound)
        return out

    def mask(self, where: Where) -> np.ndarray:
        """Which rows ``where`` keeps (the conditions of ``backends._base.translate``)."""
        n = len(self.ids)
        if where.namespace is not None and where.namespace != self.namespace:
            return np.zeros(n, dtype=bool)
        if where.ids is not None:
            out = np.zeros(n, dtype=bool)
            out[[r for i in where.ids if (r := self.row.get(i)) is not None]] = True
        else:
            out = np.ones(n, dtype=bool)
        if where.status is not None:
            out &= self.match("status", (where.status,) if isinstance(where.status, str) else tuple(where.status))
        keywords = (
            ("ns_prefixes", None if where.namespace_prefix is None else (where.namespace_prefix,)),
            ("kind", where.kinds), ("memory_type", where.memory_types), ("category", where.categories),
            ("subjects", where.subjects), *where.fields,
        )
        for key, values in keywords:
            if values is not None:
                out &= self.match(key, tuple(values))
        if where.min_importance is not None:
            out &= self._range("importance", gte=where.min_importance)
        if where.updated_since is not None:
            out &= self._range("updated_at", gte=where.updated_since)
        if where.created_since is not None or where.created_until is not None:
            out &= self._range("created_at", gte=where.created_since, lte=where.created_until)
        if where.alive_at is not None:
            out &= self.is_null("expires_at") | self._range("expires_at", gt=where.alive_at)
        if where.expired_at is not None:
            out &= self._range("expires_at", lte=where.expired_at)
        for key, gte, gt, lte, lt in where.ranges:
            out &= self._range(key, gte=gte, gt=gt, lte=lte, lt=lt)
        if where.any_of:
            out &= np.logical_or.reduce([self.mask(sub) for sub in where.any_of])
        if where.channel_scope is not None:
            out &= self.is_empty("channel") | self.match("channel", (where.channel_scope,))
        return out

    # -- answers -----------------------------------------------------------------------------

    def memory(self, row: int) -> Any:
        """The row as a :class:`~langgraph_memory.store.records.Memory`, built once;
        ``None`` for a point that is not a memory (then readers build nothing from it)."""
        found = self._memories[row]
        if found is None:
            from langgraph_memory.store.records import Memory

            try:
                found = Memory.from_payload(self.ids[row], self.payloads[row])
            except Exception:  # the plain path then raises the same, reading the copy
                found = False
            self._memories[row] = found
        return found or None

    def _point(self, row: int, payload: bool | tuple[str, ...], with_vectors: bool) -> StoredPoint:
        stored = self.payloads[row]
        if payload is True:
            mine: dict[str, Any] = dict(stored)
        elif payload is False:
            mine = {}
        else:
            mine = {k: stored[k] for k in payload if k in stored}
        # The vector as a float32 array (a copy): the pre-hook's dedup keeps it as one.
        point = StoredPoint(self.ids[row], mine, self.vectors[row].copy() if with_vectors else None)  # type: ignore[arg-type]
        if payload is True:
            point.memory = self.memory(row)
        return point

    def answer(self, query: DenseQuery | FetchQuery, masks: dict[Any, np.ndarray]) -> list[Hit]:
        keep = masks.get(query.where)
        if keep is None:
            keep = masks[query.where] = self.mask(query.where)
        if isinstance(query, DenseQuery):
            rows = np.flatnonzero(keep & self.has_dense)
            # A batch's dense queries share one query vector: every row is scored once (the
            # engine scores cosine against the vector made unit length).
            every = masks.get(id(query.vector))
            if every is None:
                every = masks[id(query.vector)] = self.vectors @ _unit(query.vector)
            scores = every[rows]
            if query.min_score is not None:
                rows, scores = rows[scores >= query.min_score], scores[scores >= query.min_score]
            if len(scores) > 2 * query.limit:
                # The best ``limit`` and every row tied with the last of them, then in order.
                cut = np.partition(scores, len(scores) - query.limit)[len(scores) - query.limit]
                rows, scores = rows[scores >= cut], scores[scores >= cut]
            order = np.argsort(-scores, kind="stable")[: query.limit]
            return [Hit(self._point(int(rows[o]), query.payload, query.with_vectors), float(scores[o]))
                    for o in order.tolist()]
        rows = np.flatnonzero(keep)
        if query.order_by is not None:
            values = self.floats(query.order_by)[rows]
            rows, values = rows[~np.isnan(values)], values[~np.isnan(values)]
            rows = rows[np.argsort(-values if query.descending else values, kind="stable")]
        return [Hit(self._point(int(r), query.payload, query.with_vectors), 0.0) for r in rows[: query.limit].tolist()]


class Snapshots:
    """The snapshots of one shard, least recently used dropped first, and its write log."""

    def __init__(self, max_points: int | None = None) -> None:
        self.max_points = snapshot_points() if max_points is None else max_points
        self.log = WriteLog()
        self._lock = threading.Lock()
        self._held: OrderedDict[str, Snapshot] = OrderedDict()
        self._reads: dict[str, int] = {}
        """Reads of a namespace without a snapshot, or the log's seq when it was counted too large."""
        self._large: dict[str, int] = {}

    def clear(self) -> None:
        with self._lock:
            self._held.clear()
            self._reads.clear()
            self._large.clear()

    def get(
        self, namespace: str, count: Callable[[str], int], read_all: Callable[[str, int], list[StoredPoint]],
        read_ids: Callable[[list[str]], list[StoredPoint]], dim: int, searched: bool = True,
    ) -> Snapshot | None:
        """The snapshot of ``namespace``, brought up to date; ``None`` when it is not worth
        one. ``searched``: this read searches the namespace (it counts towards reading it whole)."""
        if not self.max_points:
            return None
        with self._lock:
            snap = self._held.get(namespace)
            if snap is not None:
                self._held.move_to_end(namespace)
            elif not searched or self._large.get(namespace) == self.log.seq:
                return None
            else:
                self._reads[namespace] = reads = self._reads.get(namespace, 0) + 1
                if len(self._reads) > 100_000:
                    self._reads.clear()
                if reads < READS_BEFORE_SNAPSHOT:
                    return None
        if snap is not None:
            seq, dirty = self.log.since(snap.seq)
            if dirty is not None and not dirty:
                return snap
            if dirty is not None and len(dirty) <= max(64, len(snap.ids) // 4):
                fresh: Snapshot | None = snap.patched(seq, read_ids(sorted(dirty)), dirty)
            else:
                fresh = self._read(namespace, count, read_all, dim)
        else:
            fresh = self._read(namespace, count, read_all, dim)
        with self._lock:
            if fresh is None or len(fresh.ids) > self.max_points:
                self._held.pop(namespace, None)
                return None
            held = self._held.get(namespace)
            if held is None or held.seq <= fresh.seq:
                self._held[namespace] = fresh
                self._held.move_to_end(namespace)
            budget = self.max_points * BUDGET_FACTOR
            while sum(len(s.ids) for s in self._held.values()) > budget and len(self._held) > 1:
                self._held.popitem(last=False)
        return fresh

    def _read(
        self, namespace: str, count: Callable[[str], int], read_all: Callable[[str, int], list[StoredPoint]],
        dim: int,
    ) -> Snapshot | None:
        seq = self.log.seq  # before reading: a write landing meanwhile is logged after it
        n = count(namespace)
        if n > self.max_points:
            with self._lock:
                if len(self._large) > 100_000:
                    self._large.clear()
                self._large[namespace] = seq
            return None
        return Snapshot.of(namespace, seq, read_all(namespace, n), dim)


def local_answers(
    snapshots: Snapshots, queries: Sequence[Query], snapshot_of: Callable[[str, bool], Snapshot | None],
) -> list[list[Hit] | None]:
    """Each query's hits when a snapshot can answer it (a dense or fetch query on one
    namespace), else ``None``: the engine answers those."""
    out: list[list[Hit] | None] = [None] * len(queries)
    if not snapshots.max_points:
        return out
    # A search's first round (a dense query over the namespace, not over given ids) counts
    # as a read of the namespace; its later rounds use a snapshot only if one is held.
    searched = {q.where.namespace for q in queries if isinstance(q, DenseQuery) and q.where.ids is None}
    found: dict[str, Snapshot | None] = {}
    masks: dict[str, dict[Any, np.ndarray]] = {}  # per namespace: by Where, and by id() of a query vector
    for i, q in enumerate(queries):
        ns = q.where.namespace
        if ns is None or not isinstance(q, (DenseQuery, FetchQuery)):
            continue
        if ns not in found:
            found[ns] = snapshot_of(ns, ns in searched)
        snap = found[ns]
        if snap is not None:
            out[i] = snap.answer(q, masks.setdefault(ns, {}))
    return out
