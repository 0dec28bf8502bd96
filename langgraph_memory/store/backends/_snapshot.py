"""One namespace's points held in memory, and the engine's queries answered on them.

Filters are read as masks over the rows (:mod:`._snapshot_masks`). Equal scores, and equal
values of an ``order_by``, come by ascending id: rows are kept in id order and sorted
stably. Cosines are float32, as the engine's (they may differ from its in the last
bits: its dot product adds in another order). BM25 scores, on a store whose IDF is ours
(:mod:`._bm25_idf`), are computed here for every row (:meth:`Snapshot.score_bm25`), as
the engine path scores its candidates; on an older store they are the engine's own: one
query scores the whole namespace (:meth:`Snapshot.bm25_query`). Each BM25 list of a
turn is filtered and cut from those scores. :mod:`._snapshots` keeps snapshots fresh.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

import numpy as np

from langgraph_memory.store.backends._base import (
    DenseQuery, ExactHits, FetchQuery, Hit, SparseQuery, StoredPoint, Where, bm25_key, rows_of_ids,
)
from langgraph_memory.store.backends._snapshot_masks import (
    _ABSENT, _DERIVE, FETCHES, FETCHES_KEPT, Masks, _strings, fields_read,
)
from langgraph_memory.store.backends._snapshot_points import RowObjects, fetched_hits, memory, scored_hits
from langgraph_memory.store.backends._snapshot_scores import best_rows, cosines, settled_limit
from langgraph_memory.store.backends._bm25_local import Postings


BM25_DEPTH = 128
"""Hits of the engine's namespace-wide BM25 query at most: every matching point of a
namespace of up to this many, else the best this many (a common word matches hundreds
of a 1k namespace, and each hit costs its conversion). Lists the best ones do not settle
go to the engine."""


_FETCH_READS = frozenset(("namespace", "status", "expires_at", "updated_at"))
"""The fields a kept fetch's filter reads besides its conditions (:meth:`Masks.kept_key`)."""

_WHOLE: dict[str, Where] = {}


def _whole_namespace(namespace: str) -> Where:
    """The filter of every point of ``namespace``: one object per namespace (the engine
    backend keeps its translation)."""
    found = _WHOLE.get(namespace)
    if found is None:
        if len(_WHOLE) >= 4096:
            _WHOLE.clear()
        found = _WHOLE[namespace] = Where(namespace=namespace, status=None)
    return found


def _differing(old: dict[str, Any], new: dict[str, Any], keys: Iterable[str]) -> set[str]:
    """The ``keys`` whose value differs from ``old`` to ``new``, by type too (``1`` is not
    ``1.0``): a row none of whose values changed keeps the objects built from it."""
    return {k for k in keys if not _same(old.get(k, _ABSENT), new.get(k, _ABSENT))}


def _same(was: Any, now: Any) -> bool:
    """Equal and of the same types all the way down: ``{"a": True} == {"a": 1}``, but the
    engine gives back each as written, and a memory's metadata as the engine gives it."""
    if type(was) is not type(now) or was != now:
        return False
    if type(was) is dict:
        return all(_same(v, now[k]) for k, v in was.items())
    if type(was) is list:
        return all(map(_same, was, now))
    return True


class Snapshot(Masks):
    """One namespace's points (any status), in id order, with their dense vectors."""

    def __init__(
        self, namespace: str, seq: int, ids: list[str], payloads: list[dict[str, Any]],
        vectors: np.ndarray, has_dense: np.ndarray, objects: RowObjects | None = None,
        row: dict[str, int] | None = None, memo: dict[Any, Any] | None = None, all_dense: bool | None = None,
        sparse: list[Any] | None = None, postings: list[Postings | None] | None = None,
    ) -> None:
        self.namespace, self.seq = namespace, seq
        self.ids, self.payloads, self.vectors, self.has_dense = ids, payloads, vectors, has_dense
        self.all_dense = bool(has_dense.all()) if all_dense is None else all_dense
        self.objects = RowObjects(len(ids)) if objects is None else objects
        """Memories, points and hits built from the rows (:mod:`._snapshot_points`)."""
        self.row = {i: r for r, i in enumerate(ids)} if row is None else row
        self._memo: dict[Any, Any] = {} if memo is None else memo
        self._bm25: dict[tuple[tuple[int, ...], tuple[float, ...]], tuple[np.ndarray, float | None]] = {}
        """The BM25 scores of the rows, by query (:meth:`score_bm25`, or the engine's:
        :meth:`learn_bm25_scores`); every new snapshot (a new sequence number: a write
        anywhere in the shard, which changes the IDF) starts without."""
        self._orders: dict[Any, Any] = {}
        """Rows by score, per query vector (:mod:`._snapshot_batch`): a turn's rounds reuse them."""
        self.sparse = sparse
        """Each row's sparse vector, on a client-IDF store (``None``: the engine scores BM25)."""
        self._postings = [None] if postings is None else postings
        """The rows by term (:class:`Postings`), built at the first BM25 query and shared
        by the versions holding the same sparse vectors."""

    def at(self, seq: int) -> "Snapshot":
        """The same rows, current as of ``seq`` (no write since concerned them)."""
        return Snapshot(self.namespace, seq, self.ids, self.payloads, self.vectors, self.has_dense,
                        self.objects, self.row, self._memo, self.all_dense, self.sparse, self._postings)

    @classmethod
    def of(cls, namespace: str, seq: int, points: Sequence[StoredPoint], dim: int,
           with_sparse: bool = False) -> "Snapshot":
        points = sorted(points, key=lambda p: p.id)
        vectors = np.zeros((len(points), dim), dtype=np.float32)
        has_dense = np.array([p.dense is not None and len(p.dense) == dim for p in points], dtype=bool)
        if has_dense.any():  # one conversion of every vector, not one a row
            vectors[has_dense] = np.array([p.dense for p, ok in zip(points, has_dense) if ok], dtype=np.float32)
        # Memories are built when first read (~25 µs each), not all with the read: a 1k
        # namespace read whole took ~70 ms with them, ~30 ms without, and a turn reads ~20.
        return cls(namespace, seq, [p.id for p in points], [p.payload for p in points], vectors, has_dense,
                   sparse=[p.sparse for p in points] if with_sparse else None)

    def patched(self, seq: int, points: Sequence[StoredPoint], dirty: set[str], vectors: bool = True) -> "Snapshot":
        """This snapshot with the ``dirty`` ids re-read as ``points`` (absent: deleted;
        of another namespace: moved out). ``vectors``: they were read with their vectors
        (else those rows keep theirs: only payloads changed)."""
        found = {p.id: p for p in points if p.payload.get("namespace") == self.namespace}
        if len(found) == len(dirty) and all(i in self.row for i in dirty):
            rows = {self.row[i]: p.payload for i, p in found.items()}
            changed = {r: _differing(self.payloads[r], payload, self.payloads[r].keys() | payload.keys())
                       for r, payload in rows.items()}
            dense, has_dense = self._dense_of(found) if vectors else (self.vectors, self.has_dense)
            sparse = self.sparse
            if vectors and sparse is not None:
                sparse = list(sparse)
                for i, p in found.items():
                    sparse[self.row[i]] = p.sparse
            return self._changed(seq, rows, set().union(*changed.values()), dense, has_dense,
                                 self.objects.rewritten(changed, rows), sparse)
        if not vectors:
            # Re-read without vectors: only payload changes and deletions, of rows it holds.
            for p in found.values():
                r = self.row[p.id]
                p.dense = self.vectors[r].tolist() if self.has_dense[r] else None
                p.sparse = None if self.sparse is None else self.sparse[r]
        keep = [r for r, i in enumerate(self.ids) if i not in dirty]
        mine = sorted(found.values(), key=lambda p: p.id)
        fresh = Snapshot.of(self.namespace, seq, mine, self.vectors.shape[1], self.sparse is not None)
        rows = [(self.ids[r], 0, r) for r in keep] + [(i, 1, r) for r, i in enumerate(fresh.ids)]
        rows.sort()
        sources = (self, fresh)
        take = [(sources[s], r) for _, s, r in rows]
        dense = np.stack([src.vectors[r] for src, r in take]) if take else self.vectors[:0]
        return Snapshot(
            self.namespace, seq, [src.ids[r] for src, r in take], [src.payloads[r] for src, r in take],
            dense, np.array([src.has_dense[r] for src, r in take], dtype=bool),
            RowObjects.taken([(src.objects, r) for src, r in take]),
            sparse=None if self.sparse is None else [src.sparse[r] for src, r in take],  # type: ignore[index]
        )

    def with_patches(self, seq: int, patches: Iterable[tuple[Iterable[str], dict[str, Any]]]) -> "Snapshot":
        """This snapshot with ``set_payload`` writes of plain values to rows it holds
        applied as the engine applies them (top-level keys), oldest first, without reading
        the engine (:func:`._snapshots.concerning`): the post-hook's access counts, every
        turn. Only the keys a patch set are compared, not every key of the rows."""
        rows: dict[int, dict[str, Any]] = {}
        keys: dict[int, set[str]] = {}
        for ids, patch in patches:
            for i in ids:
                r = self.row[i]
                payload = rows.get(r)
                if payload is None:
                    payload = rows[r] = dict(self.payloads[r])
                    keys[r] = set()
                payload.update(patch)
                keys[r].update(patch)
        changed = {r: _differing(self.payloads[r], payload, keys[r]) for r, payload in rows.items()}
        return self._changed(seq, rows, set().union(*changed.values()), self.vectors, self.has_dense,
                             self.objects.rewritten(changed, rows), self.sparse)

    def _dense_of(self, points: dict[str, StoredPoint]) -> tuple[np.ndarray, np.ndarray]:
        """The dense vectors and which rows have one, with ``points`` (rows it holds, read
        with their vectors) in their rows: these arrays when no vector changed."""
        vectors, has_dense = self.vectors, self.has_dense
        dim = vectors.shape[1]
        for i, p in points.items():
            r = self.row[i]
            dense_ok = p.dense is not None and len(p.dense) == dim
            if dense_ok != bool(has_dense[r]) or (dense_ok and not np.array_equal(vectors[r], np.float32(p.dense))):
                if vectors is self.vectors:
                    vectors, has_dense = vectors.copy(), has_dense.copy()
                vectors[r], has_dense[r] = (p.dense, True) if dense_ok else (0.0, False)
        return vectors, has_dense

    def _changed(self, seq: int, rows: dict[int, dict[str, Any]], fields: set[str], vectors: np.ndarray,
                 has_dense: np.ndarray, objects: RowObjects, sparse: list[Any] | None) -> "Snapshot":
        """The same rows, some rewritten (the common write: a payload change, such as the
        access counts the post-hook records each turn): ``rows``' new payloads, in which
        ``fields`` changed, and the ``objects`` of the new version. What was derived from
        the other rows is kept, and only the fields that changed are derived again."""
        payloads = list(self.payloads)
        for r, payload in rows.items():
            payloads[r] = payload
        memo: dict[Any, Any] = {}
        # A copy: the memo is shared with this snapshot's readers (and with its ``at`` twins),
        # whose masks (``_live_at``, ``_cached``) land in it from other threads meanwhile.
        for key, derived in list(self._memo.items()):
            kind, field = key[0], key[1]
            if kind == "alive":  # :meth:`_live_at`: built again when asked
                if "status" not in fields and "expires_at" not in fields:
                    memo[key] = derived
            elif kind == "wheres":  # filters' kept masks (:meth:`Masks.mask`): those reading no changed field
                memo[key] = {same: kept for same, kept in list(derived.items())  # (other threads add to it)
                             if fields_read(same).isdisjoint(fields)}
            elif kind == "fetches":  # fetches' kept rows (:meth:`_kept_fetch`): those reading no changed field
                memo[key] = {same: rows for same, rows in list(derived.items())
                             if same[1] not in fields and fields_read(same[0][2]).isdisjoint(fields)
                             } if _FETCH_READS.isdisjoint(fields) else {}
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
                derived.flags.writeable = kind != "match"  # a mask is shared read-only
                memo[key] = derived
            # else (sorted values and rows, masks by time): built again when asked
        return Snapshot(self.namespace, seq, self.ids, payloads, vectors, has_dense, objects, self.row, memo,
                        self.all_dense if has_dense is self.has_dense else None, sparse,
                        self._postings if sparse is self.sparse else None)

    def cosines(self, vector: Sequence[float]) -> np.ndarray:
        """Every row's cosine to ``vector`` (float32; 0 for a row without a dense vector)."""
        return cosines(self.vectors, vector)

    # -- BM25: scored here (client IDF), or by the engine; the snapshot filters and cuts --

    def score_bm25(self, query: SparseQuery, weights: list[float]) -> None:
        """Score every row for ``query`` with ``weights`` (its values times the store's
        IDF: :mod:`._bm25_idf`), as the engine path scores its candidates
        (:mod:`._bm25_local`): a client-IDF store's snapshot, which holds sparse vectors."""
        postings = self._postings[0]
        if postings is None:
            postings = self._postings[0] = Postings(self.sparse)  # type: ignore[arg-type]
        if len(self._bm25) >= 16:
            self._bm25.clear()
        self._bm25[bm25_key(query)] = (postings.scores(query.indices, weights), None)

    def bm25_query(self, query: SparseQuery) -> SparseQuery:
        """The engine query scoring the points of this namespace that share a term with
        ``query``, on a store whose IDF is the engine's (its N and df count the whole
        shard, and keep a deleted point, or one replaced after an index build, until its
        segment is rebuilt: no copy of one namespace knows them): all of them, or the best
        :data:`BM25_DEPTH` in a larger namespace. A client-IDF store's snapshot scores
        itself instead (:meth:`score_bm25`)."""
        return SparseQuery(query.indices, query.values, _whole_namespace(self.namespace),
                           max(1, min(len(self.ids), BM25_DEPTH)), payload=False)

    def bm25_known(self, query: SparseQuery) -> bool:
        return bm25_key(query) in self._bm25

    def learn_bm25(self, asked: SparseQuery, hits: list[Hit]) -> None:
        """:meth:`learn_bm25_scores` of the engine's hits."""
        self.learn_bm25_scores(asked, [h.point.id for h in hits], [h.score for h in hits])

    def learn_bm25_scores(self, asked: SparseQuery, ids: Sequence[Any], scores: list[float]) -> None:
        """Keep the engine's answer to :meth:`bm25_query` ``asked`` (the ids it returned,
        best first, as it gives them or as strings, and their ``scores``): each row's score,
        ``nan`` for a row it did not return. Fewer hits than asked: those rows share no term
        with the query; else they score at most the last hit's score (the cut). Valid as long
        as this snapshot is: a write anywhere in the shard gives the namespace a new one."""
        n = len(self.ids)
        # One row past the last takes the ids it does not hold (points written since it was
        # brought up to date): one write, no filtering of the lists.
        every = np.full(n + 1, np.nan)
        rows = rows_of_ids(ids, self.row, n)
        every[rows] = scores
        if len(self._bm25) >= 16:
            self._bm25.clear()
        # A full answer cuts the rows it left out, counting only the rows it holds: a hit of
        # a point written meanwhile took a row's place, and that row shares a term all the same.
        cut = min(scores) if ids and len(ids) >= asked.limit and n > len(ids) - rows.count(n) else None
        self._bm25[bm25_key(asked)] = (every[:n], cut)

    # -- answers -----------------------------------------------------------------------------

    def answer(self, query: DenseQuery | SparseQuery | FetchQuery, masks: dict[Any, np.ndarray]) -> list[Hit] | None:
        """``query``'s hits; a sparse query once :meth:`learn_bm25_scores` has its scores, and
        ``None`` when they do not settle it (fewer than its limit score above the cut)."""
        if isinstance(query, FetchQuery):
            kept = self._kept_fetch(query, masks)
            return kept if kept is not None else fetched_hits(
                self, query.payload, query.with_vectors, self._fetched_rows(query, masks))
        keep = self.kept(query.where, masks)
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
        raise TypeError(f"not a query: {type(query).__name__}")

    def _fetched_rows(self, query: FetchQuery, masks: dict[Any, np.ndarray]) -> tuple[int, ...]:
        """The rows of a fetch: those its filter keeps, by id or by its order, cut."""
        keep = self.kept(query.where, masks)
        if query.order_by is None:
            rows = np.flatnonzero(keep)
        else:  # the rows in that field's order (kept), those ``keep`` keeps
            rows = self.sorted_by(query.order_by, query.descending)
            rows = rows[keep[rows]]
        return tuple(rows[: query.limit].tolist())

    def _kept_fetch(self, query: FetchQuery, masks: dict[Any, np.ndarray]) -> list[Hit] | None:
        """A fetch on a filter :meth:`kept_key` knows (the pre-hook's metadata channels:
        the same filters and orders every turn): its rows, kept until a write changes a
        field they read (:meth:`_changed`), its hits built from them. ``None``: not kept."""
        mask_key = self.kept_key(query.where)
        if mask_key is None:
            return None
        fetches = self._memo.get(FETCHES)
        if fetches is None:
            fetches = self._memo[FETCHES] = {}
        key = (mask_key, query.order_by, query.descending, query.limit)
        try:
            rows = fetches.get(key)
        except TypeError:  # a list where a tuple belongs: not kept
            return None
        if rows is None:
            if len(fetches) >= FETCHES_KEPT:
                fetches.clear()
            rows = fetches[key] = self._fetched_rows(query, masks)
        return fetched_hits(self, query.payload, query.with_vectors, rows)

    def sorted_by(self, key: str, descending: bool) -> np.ndarray:
        """The rows holding a number in field ``key``, by it (equal values by ascending
        id), kept until a write changes that field: the metadata channels' order."""
        found = self._memo.get(("order", key, descending))
        if found is None:
            values = self.floats(key)
            rows = np.flatnonzero(~np.isnan(values))
            found = rows[np.argsort(-values[rows] if descending else values[rows], kind="stable")]
            found.flags.writeable = False
            self._memo[("order", key, descending)] = found
        return found  # type: ignore[no-any-return]

    def kept(self, where: Where, masks: dict[Any, np.ndarray]) -> np.ndarray:
        """:meth:`mask` of ``where``, once per batch (``masks``): by the filter object, as
        a plan's lists share theirs (hashing a filter, its subjects or ids, costs more than
        the rare equal filter built twice; the batch holds every query: no id is reused)."""
        key = ("where", id(where))
        keep = masks.get(key)
        if keep is None:
            keep = masks[key] = self.mask(where)
        return keep

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
