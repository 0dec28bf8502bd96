"""One namespace's points held in memory, and the engine's queries answered on them.

Semantics follow the engine's filters (``backends._base.translate``): a missing field
fails a range, ``is_null`` needs the key, ``is_empty`` takes missing, null or ``[]``,
a keyword condition matches a string or any string of a list. Equal scores, and equal
values of an ``order_by``, come by ascending id: rows are kept in id order and sorted
stably. Cosines are float32, as the engine's (they may differ from its in the last
bits: its dot product adds in another order). BM25 scores are the engine's own: one
query scores the whole namespace (:meth:`Snapshot.bm25_query`), and each BM25 list of a
turn is filtered and cut from those scores. :mod:`._snapshots` keeps snapshots fresh.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, Callable, Sequence

import numpy as np

from langgraph_memory.store.backends._base import (
    DenseQuery, ExactHits, FetchQuery, Hit, SparseQuery, StoredPoint, Where,
)
from langgraph_memory.store.backends._snapshot_points import RowObjects, fetched_hits, memory, scored_hits
from langgraph_memory.store.backends._snapshot_scores import bm25_key, best_rows, cosines, settled_limit


BM25_DEPTH = 128
"""Hits of the engine's namespace-wide BM25 query at most: every matching point of a
namespace of up to this many, else the best this many (a common word matches hundreds
of a 1k namespace, and each hit costs its conversion). Lists the best ones do not settle
go to the engine."""

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


class Snapshot:
    """One namespace's points (any status), in id order, with their dense vectors."""

    def __init__(
        self, namespace: str, seq: int, ids: list[str], payloads: list[dict[str, Any]],
        vectors: np.ndarray, has_dense: np.ndarray, objects: RowObjects | None = None,
        row: dict[str, int] | None = None, memo: dict[Any, Any] | None = None,
    ) -> None:
        self.namespace, self.seq = namespace, seq
        self.ids, self.payloads, self.vectors, self.has_dense = ids, payloads, vectors, has_dense
        self.objects = RowObjects(len(ids)) if objects is None else objects
        """Memories, points and hits built from the rows (:mod:`._snapshot_points`)."""
        self.row = {i: r for r, i in enumerate(ids)} if row is None else row
        self._memo: dict[Any, Any] = {} if memo is None else memo
        self._bm25: dict[tuple[tuple[int, ...], tuple[float, ...]], tuple[np.ndarray, float | None]] = {}
        """The engine's BM25 scores of the rows, by query (:meth:`learn_bm25`); every new
        snapshot (a new sequence number) starts without."""
        self._orders: dict[Any, Any] = {}
        """Rows by score, per query vector (:mod:`._snapshot_batch`): a turn's rounds reuse them."""

    def at(self, seq: int) -> "Snapshot":
        """The same rows, current as of ``seq`` (no write since concerned them)."""
        return Snapshot(self.namespace, seq, self.ids, self.payloads, self.vectors, self.has_dense,
                        self.objects, self.row, self._memo)

    @classmethod
    def of(cls, namespace: str, seq: int, points: Sequence[StoredPoint], dim: int) -> "Snapshot":
        points = sorted(points, key=lambda p: p.id)
        vectors = np.zeros((len(points), dim), dtype=np.float32)
        has_dense = np.array([p.dense is not None and len(p.dense) == dim for p in points], dtype=bool)
        if has_dense.any():  # one conversion of every vector, not one a row
            vectors[has_dense] = np.array([p.dense for p, ok in zip(points, has_dense) if ok], dtype=np.float32)
        # Memories are built when first read (~25 µs each), not all with the read: a 1k
        # namespace read whole took ~70 ms with them, ~30 ms without, and a turn reads ~20.
        return cls(namespace, seq, [p.id for p in points], [p.payload for p in points], vectors, has_dense)

    def patched(self, seq: int, points: Sequence[StoredPoint], dirty: set[str], vectors: bool = True) -> "Snapshot":
        """This snapshot with the ``dirty`` ids re-read as ``points`` (absent: deleted;
        of another namespace: moved out). ``vectors``: they were read with their vectors
        (else those rows keep theirs: only payloads changed)."""
        found = {p.id: p for p in points if p.payload.get("namespace") == self.namespace}
        if len(found) == len(dirty) and all(i in self.row for i in dirty):
            return self._changed(seq, found, vectors)
        if not vectors:
            # Re-read without vectors: only payload changes and deletions, of rows it holds.
            for p in found.values():
                r = self.row[p.id]
                p.dense = self.vectors[r].tolist() if self.has_dense[r] else None
        keep = [r for r, i in enumerate(self.ids) if i not in dirty]
        mine = sorted(found.values(), key=lambda p: p.id)
        fresh = Snapshot.of(self.namespace, seq, mine, self.vectors.shape[1])
        rows = [(self.ids[r], 0, r) for r in keep] + [(i, 1, r) for r, i in enumerate(fresh.ids)]
        rows.sort()
        sources = (self, fresh)
        take = [(sources[s], r) for _, s, r in rows]
        vectors = np.stack([src.vectors[r] for src, r in take]) if take else self.vectors[:0]
        return Snapshot(
            self.namespace, seq, [src.ids[r] for src, r in take], [src.payloads[r] for src, r in take],
            vectors, np.array([src.has_dense[r] for src, r in take], dtype=bool),
            RowObjects.taken([(src.objects, r) for src, r in take]),
        )

    def _changed(self, seq: int, points: dict[str, StoredPoint], with_vectors: bool) -> "Snapshot":
        """The same rows, some rewritten (the common write: a payload change, such as the
        access counts the post-hook records each turn): what was derived from the other
        rows is kept, and only the fields that changed are derived again."""
        rows = {self.row[i]: p for i, p in points.items()}
        payloads = list(self.payloads)
        vectors, has_dense = self.vectors, self.has_dense
        dim = vectors.shape[1]
        fields: set[str] = set()
        for r, p in rows.items():
            old = self.payloads[r]
            fields.update(k for k in old.keys() | p.payload.keys() if old.get(k, _ABSENT) != p.payload.get(k, _ABSENT))
            payloads[r] = p.payload
            if not with_vectors:
                continue
            dense_ok = p.dense is not None and len(p.dense) == dim
            if dense_ok != bool(has_dense[r]) or (dense_ok and not np.array_equal(vectors[r], np.float32(p.dense))):
                if vectors is self.vectors:
                    vectors, has_dense = vectors.copy(), has_dense.copy()
                vectors[r], has_dense[r] = (p.dense, True) if dense_ok else (0.0, False)
        memo: dict[Any, Any] = {}
        # A copy: the memo is shared with this snapshot's readers (and with its ``at`` twins),
        # whose masks (``_live_at``, ``_cached``) land in it from other threads meanwhile.
        for key, derived in list(self._memo.items()):
            kind, field = key[0], key[1]
            if kind == "alive":  # :meth:`_live_at`: built again when asked
                if "status" not in fields and "expires_at" not in fields:
                    memo[key] = derived
            elif field not in fields:
                memo[key] = derived
            elif kind == "values":
                memo[key] = by_value = dict(derived)
                for r in rows:
                    old, new = _strings(self.payloads[r].get(field)), _strings(payloads[r].get(field))
                    for v in old - new:
                        by_value[v] = by_value[v][by_value[v] != r]
                    for v in new - old:
                        by_value[v] = np.sort(np.append(by_value.get(v, np.zeros(0, dtype=np.intp)), r))
            elif kind in _DERIVE:
                derived = derived.copy()
                for r in rows:
                    derived[r] = _DERIVE[kind](payloads[r], field, key)
                memo[key] = derived
            # else (the sorted expiry times): built again when asked
        return Snapshot(self.namespace, seq, self.ids, payloads, vectors, has_dense, self.objects.without(rows),
                        self.row, memo)

    def cosines(self, vector: Sequence[float]) -> np.ndarray:
        """Every row's cosine to ``vector`` (float32; 0 for a row without a dense vector)."""
        return cosines(self.vectors, vector)

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
            (_is_null(p, key) for p in self.payloads), dtype=bool, count=len(self.ids)))

    def is_empty(self, key: str) -> np.ndarray:
        return self._cached(("empty", key), lambda: np.fromiter(
            (_is_empty(p, key) for p in self.payloads), dtype=bool, count=len(self.ids)))

    def _range(self, key: str, gte: float | None = None, gt: float | None = None, lte: float | None = None,
               lt: float | None = None) -> np.ndarray:
        values = self.floats(key)
        out = ~np.isnan(values)
        for bound, test in ((gte, np.greater_equal), (gt, np.greater), (lte, np.less_equal), (lt, np.less)):
            if bound is not None:
                out &= test(values, bound)
        return out

    def _live_at(self, at: float) -> np.ndarray:
        """The live rows with no expiry or one after ``at`` (shared: never written to).
        It is the same for every ``at`` between two expiry times of the namespace, so it
        is kept by how many of them ``at`` has passed: a turn's filters each carry their
        own ``at`` (the time they were built), and most namespaces have no expiry at all."""
        expiries = self._memo.get(("expiries", "expires_at"))
        if expiries is None:
            values = self.floats("expires_at")
            expiries = self._memo[("expiries", "expires_at")] = sorted(values[~np.isnan(values)].tolist())
        key = ("alive", "expires_at", bisect_right(expiries, at))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self.match("status", ("live",)) & (
                self.is_null("expires_at") | self._range("expires_at", gt=at))
        return found

    def mask(self, where: Where) -> np.ndarray:
        """Which rows ``where`` keeps (the conditions of ``backends._base.translate``)."""
        n = len(self.ids)
        if where.namespace is not None and where.namespace != self.namespace:
            return np.zeros(n, dtype=bool)
        # Most filters: live memories alive now, one cached mask (:meth:`_live_at`).
        live = where.alive_at is not None and where.status == "live"
        if where.ids is not None:
            out = np.zeros(n, dtype=bool)
            out[[r for i in where.ids if (r := self.row.get(i)) is not None]] = True
            if live:
                out &= self._live_at(where.alive_at)  # type: ignore[arg-type]
        elif live:
            out = self._live_at(where.alive_at).copy()  # type: ignore[arg-type]  # (``out`` is written)
        else:
            out = np.ones(n, dtype=bool)
        if where.status is not None and not live:
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
        if where.alive_at is not None and not live:
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

    # -- BM25: the engine scores, the snapshot filters and cuts ---------------------------

    def bm25_query(self, query: SparseQuery) -> SparseQuery:
        """The engine query scoring the points of this namespace that share a term with
        ``query`` (its IDF counts the whole shard, which no copy of one namespace knows):
        all of them, or the best :data:`BM25_DEPTH` in a larger namespace."""
        return SparseQuery(query.indices, query.values, Where(namespace=self.namespace, status=None),
                           max(1, min(len(self.ids), BM25_DEPTH)), payload=False)

    def bm25_known(self, query: SparseQuery) -> bool:
        return bm25_key(query) in self._bm25

    def learn_bm25(self, asked: SparseQuery, hits: list[Hit]) -> None:
        """:meth:`learn_bm25_scores` of the engine's hits."""
        self.learn_bm25_scores(asked, [h.point.id for h in hits], [h.score for h in hits])

    def learn_bm25_scores(self, asked: SparseQuery, ids: list[str], scores: list[float]) -> None:
        """Keep the engine's answer to :meth:`bm25_query` ``asked`` (the ``ids`` it returned,
        best first, and their ``scores``): each row's score, ``nan`` for a row it did not
        return. Fewer hits than asked: those rows share no term with the query; else they
        score at most the last hit's score (the cut). Valid as long as this snapshot is: a
        write anywhere in the shard gives the namespace a new one."""
        every = np.full(len(self.ids), np.nan)
        row = self.row
        # -1: a point written since this snapshot was brought up to date
        rows = np.fromiter((row.get(i, -1) for i in ids), dtype=np.intp, count=len(ids))
        known = rows >= 0
        every[rows[known]] = np.asarray(scores, dtype=np.float64)[known]
        if len(self._bm25) >= 16:
            self._bm25.clear()
        cut = min(scores) if ids and len(self.ids) > len(ids) >= asked.limit else None
        self._bm25[bm25_key(asked)] = (every, cut)

    # -- answers -----------------------------------------------------------------------------

    def answer(self, query: DenseQuery | SparseQuery | FetchQuery, masks: dict[Any, np.ndarray]) -> list[Hit] | None:
        """``query``'s hits; a sparse query once :meth:`learn_bm25` has its scores, and
        ``None`` when they do not settle it (fewer than its limit score above the cut)."""
        keep = masks.get(query.where)
        if keep is None:
            keep = masks[query.where] = self.mask(query.where)
        if isinstance(query, SparseQuery):
            known = self._bm25.get(bm25_key(query))
            if known is None:  # dropped by another thread's batch meanwhile: the engine answers
                return None
            every, cut = known
            rows = np.flatnonzero(keep & ~np.isnan(every))
            scores = every[rows]
            if cut is not None:
                # A row the engine did not return scores at most the cut: only the rows
                # above it are sure to hold the list's best.
                above = scores > cut
                rows, scores = rows[above], scores[above]
                if len(rows) < settled_limit(query):
                    return None
            return self._best(query, rows, scores, None)
        if isinstance(query, DenseQuery):
            rows = np.flatnonzero(keep & self.has_dense)
            # A batch's dense queries share one query vector: every row is scored once (the
            # engine scores cosine against the vector made unit length).
            every = masks.get(id(query.vector))
            if every is None:
                every = masks[id(query.vector)] = self.cosines(query.vector)
            return self._best(query, rows, every[rows], query.min_score)
        rows = np.flatnonzero(keep)
        if query.order_by is not None:
            values = self.floats(query.order_by)[rows]
            known = ~np.isnan(values)
            rows, values = rows[known], values[known]
            rows = rows[np.argsort(-values if query.descending else values, kind="stable")]
        return fetched_hits(self, query.payload, query.with_vectors, rows[: query.limit].tolist())

    def _best(self, query: DenseQuery | SparseQuery, rows: np.ndarray, scores: np.ndarray,
              min_score: float | None) -> list[Hit]:
        """The best ``query.limit`` of ``rows`` (``query.exact_limit``, when set: ties are
        settled here), equal scores by ascending id (rows are in id order)."""
        limit = settled_limit(query)
        if min_score is not None:
            enough = scores >= min_score
            rows, scores = rows[enough], scores[enough]
        rows, scores = best_rows(rows, scores, limit)
        return self.hits(query, rows.tolist(), scores.tolist())

    def memory(self, row: int) -> Any:
        """The row as a ``Memory``, built once (:func:`._snapshot_points.memory`)."""
        return memory(self, row)

    def hits(self, query: DenseQuery | SparseQuery, rows: list[int], scores: list[float]) -> ExactHits:
        """``query``'s hits on ``rows``, best first: a list it asked for as it is."""
        return scored_hits(self, query.payload, query.with_vectors, rows, scores)
