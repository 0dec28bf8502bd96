"""BM25's IDF computed by us, not by the engine: the statistics of a Qdrant Edge shard's
live points, and each query's weights multiplied by their IDF.

Why: the engine's IDF (the sparse vector's ``Modifier.Idf``) counts a term's posting list
and the index's vector count, which keep a deleted or replaced point until its segment is
rebuilt (a built segment keeps it across restarts): scores drift with a store's history,
and nothing outside the engine can know them. A store created without the modifier
(meta ``"bm25_idf": "client"``) gets its query weights multiplied here by
``idf = ln((N - df + 0.5) / (df + 0.5) + 1)``, computed in float32 as the engine computes it
(a correctly rounded log), with ``N`` the shard's live points holding a non-empty sparse
vector and ``df`` those holding the term. On data only ever inserted those are the
engine's own counts, so the engine's scores are the same bits as with its modifier.

The counts are read by one scroll of every sparse vector at first need (~0.14 s at 20k
points), then kept by every write that changes vectors: the vectors it replaces or deletes
are read first and subtracted. A write that fails midway leaves them unknown: counted
again at the next need. Stores without the field (made before it) keep the engine's IDF:
a shard cannot be reopened with another modifier.
"""

from __future__ import annotations

import math
import reprlib
import threading
import uuid
from collections import Counter
from typing import Any, Callable, Iterable, Iterator, Sequence

import qdrant_edge as qe

from langgraph_memory.errors import StorageError
from langgraph_memory.store.backends._base import SPARSE, StoredPoint, id_string

IDF_KEY = "bm25_idf"
CLIENT = "client"
"""Query weights multiplied by our IDF; the shard has no IDF modifier (new stores)."""
ENGINE = "engine"
"""The engine's ``Modifier.Idf`` (stores made before :data:`CLIENT`, whose meta has no field)."""

_SCROLL_PAGE = 2_048

Terms = tuple[int, ...]
"""A point's sparse vector's distinct terms (empty: no vector, or an empty one)."""


def idf_mode(stored: dict[str, Any] | None, where: object) -> str:
    """How the store at ``where`` (its stored meta, ``None`` for a new store) weights BM25:
    :data:`CLIENT` for a new store, else what its meta says (absent: :data:`ENGINE`).
    Any other value is a damaged meta file (our typed error, never a guess)."""
    if stored is None:
        return CLIENT
    value = stored.get(IDF_KEY, ENGINE)
    if type(value) is str and value in (CLIENT, ENGINE):
        return value
    raise StorageError(
        f"{where} is damaged: its {IDF_KEY!r} is {reprlib.repr(value)}, not {CLIENT!r} or {ENGINE!r}; "
        "restore it from a backup or an export")


def idf(n: int, df: int) -> Any:
    """The engine's float32 IDF of a term ``df`` of ``n`` points hold (qdrant's
    ``fancy_idf``): each operation rounded to float32, the log correctly rounded (Rust's
    ``f32::ln``; numpy's float32 log is an ulp off for ~6.5% of arguments)."""
    import numpy as np  # here, not at import: opening a store (the CLI's `list`) needs no numpy

    f32 = np.float32
    n32, df32, half = f32(n), f32(df), f32(0.5)
    arg = (n32 - df32 + half) / (df32 + half) + f32(1.0)
    return f32(math.log(float(arg)))


def terms_of(record: Any) -> Terms:
    """The distinct terms of an engine record's sparse vector (read with ``[SPARSE]``)."""
    vectors = record.vector
    sparse = vectors.get(SPARSE) if vectors else None
    return distinct(sparse.indices) if sparse is not None else ()


def distinct(indices: Iterable[int]) -> Terms:
    """A sparse vector's distinct terms (an index may repeat in a vector given to us)."""
    return tuple(set(indices))


def signed(values: Iterable[float]) -> bool:
    """Whether any of a sparse vector's ``values`` is negative (each compared: ``min()`` of
    values starting with ``nan`` is ``nan``, which hid a negative value beside it from the
    engine path's margin, :mod:`._bm25_local`)."""
    return any(v < 0 for v in values)


class TermCounts:
    """A shard's live statistics (N and df) and the writes that keep them.

    ``lock`` orders every write of the backend (so a delete by filter reads the points it
    deletes, and nothing changes between the read and the write) and the readers of the
    counts: a reader sees the counts before or after a write, never halfway."""

    def __init__(self, shard: Callable[[], qe.EdgeShard]) -> None:
        self._shard = shard
        self.lock = threading.RLock()
        self.known = False
        """Whether the counts are those of the live points (else counted at next need)."""
        self.n = 0
        self.df: Counter[int] = Counter()
        self.negative = False
        """Whether a stored sparse value may be negative (:func:`._bm25_local.settled`'s margin)."""
        self.version = 0
        """Changes whenever the counts may have: weights computed before are stale."""
        self._weights: dict[tuple[Terms, tuple[float, ...]], tuple[int, list[float]]] = {}
        self._idf: dict[int, Any] = {}
        """Each term's :func:`idf` at :attr:`_idf_version` (a turn's query is new, its terms
        mostly not: ``idf`` per term was ~1.2 µs, ten a query)."""
        self._idf_version = -1

    # -- reading ---------------------------------------------------------------------------

    def recount(self) -> None:
        """Count every live point's sparse vector: one scroll of the shard."""
        with self.lock:
            n, df, negative = 0, Counter[int](), False
            for r in self._scrolled(None):
                terms = terms_of(r)
                if terms:
                    n += 1
                    df.update(terms)
                    negative = negative or signed(r.vector[SPARSE].values)
            self.n, self.df, self.known, self.negative = n, df, True, negative
            self.version += 1

    def weights(self, indices: Sequence[int], values: Sequence[float]) -> list[float]:
        """A BM25 query's weights times their IDF, as float32 values (the engine's own
        products: ``f32(weight) * idf``), kept per query until the counts change."""
        key = (tuple(indices), tuple(values))
        with self.lock:
            if not self.known:
                self.recount()
            found = self._weights.get(key)
            if found is not None and found[0] == self.version:
                return found[1]
            import numpy as np  # loaded with the first BM25 query (see idf)

            known = self._idf
            if self._idf_version != self.version or len(known) >= 65_536:
                known.clear()
                self._idf_version = self.version
            idfs, mine = [], []
            for t, v in zip(indices, values):
                term_idf = known.get(t)
                if term_idf is None:
                    term_idf = known[t] = idf(self.n, self.df.get(t, 0))
                idfs.append(term_idf)
                mine.append(v)
            # The float32 product ``np.float32(v) * idf`` of each term, in one call.
            weighted = (np.asarray(mine, dtype=np.float32) * np.asarray(idfs, dtype=np.float32)).tolist()
            if len(self._weights) >= 256:
                self._weights.clear()
            self._weights[key] = (self.version, weighted)
            return weighted

    # -- writing ---------------------------------------------------------------------------

    def upserted(self, points: Sequence[StoredPoint], conditional: bool) -> dict[str, Terms] | None:
        """The terms of ``points`` once upserted (``None`` when a condition may leave some
        as they were: read again after the write); a negative value is noted."""
        if any(p.sparse is not None and signed(p.sparse[1]) for p in points):
            self.negative = True
        return None if conditional else {
            p.id: distinct(p.sparse[0]) if p.sparse is not None else () for p in points}

    def _read(self, ids: Iterable[str]) -> dict[str, Terms]:
        records = self._shard().retrieve([uuid.UUID(i) for i in ids], with_payload=False, with_vector=[SPARSE])
        return {id_string(r.id): terms_of(r) for r in records}

    def _matching(self, flt: qe.Filter) -> dict[str, Terms]:
        return {id_string(r.id): terms_of(r) for r in self._scrolled(flt)}

    def _scrolled(self, flt: qe.Filter | None) -> Iterator[Any]:
        """Every point ``flt`` matches (``None``: every point), with its sparse vector only."""
        offset = None
        while True:
            records, offset = self._shard().scroll(qe.ScrollRequest(
                offset=offset, limit=_SCROLL_PAGE, filter=flt, with_payload=False, with_vector=[SPARSE]))
            yield from records
            if offset is None:
                return

    def written(
        self, write: Callable[[], None], ids: Sequence[str] | None = None, flt: qe.Filter | None = None,
        new: dict[str, Terms] | None = None,
    ) -> None:
        """Run ``write``, which changes the vectors of ``ids`` (or of the points ``flt``
        matches), and keep the counts: their old vectors read first, their new ones are
        ``new`` (``None``: read after the write, e.g. a conditional upsert; a point absent
        from ``new``: deleted). Before the first count nothing is read: the count will see it."""
        with self.lock:
            if not self.known:
                write()
                return
            try:
                old = self._read(ids) if ids is not None else self._matching(flt)  # type: ignore[arg-type]
                write()
                now = self._read(old.keys() | set(ids or ())) if new is None else new
            except BaseException:
                self.known = False  # applied in part, perhaps: never kept wrong
                self.version += 1
                raise
            for terms in old.values():
                if terms:
                    self.n -= 1
                    self.df.subtract(terms)
            for terms in now.values():
                if terms:
                    self.n += 1
                    self.df.update(terms)
            self.version += 1

    def forget(self) -> None:
        """The counts are no longer known (the shard was closed): counted at the next need."""
        with self.lock:
            self.known, self.n, self.df = False, 0, Counter()
            self.version += 1
