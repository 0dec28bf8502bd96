"""Small namespaces read once: which snapshots a shard keeps, and how they stay up to date.

On Qdrant Edge a pre-hook turn over a few hundred memories spends more time in Python
around the engine than in it: ~100 records converted and ~10 filters built a turn, over
three engine rounds. A namespace of at most :func:`snapshot_points` points that is
searched again and again (a conversation's turns) is read once, payloads and dense
vectors, and a batch's dense and fetch queries on it are answered by its
:class:`~._snapshot.Snapshot` in numpy. BM25 too: on a store whose IDF is ours
(:mod:`._bm25_idf`) the snapshot holds the sparse vectors and scores every row itself
(:mod:`._bm25_local`); on an older store the engine scores (its IDF counts the whole
shard), one query per query vector scoring the whole namespace. The snapshot filters
and cuts each list from those scores. Only reads that ask for it (``query_batch(cached=True)``: the
pre-hook) use snapshots.

Writes: every write of the backend logs the ids it touched (or "anything", for a delete
by filter) once it returns. Before answering, a snapshot re-reads the ids logged since it
was read (or its whole namespace), so a read sees every write that completed before it,
from any thread. The post-hook's access counts (``set_payloads``) bring the snapshots they
touch up to date in the writing thread (:meth:`Snapshots.forward`), so the next turn finds
them current. Qdrant Edge holds its directory exclusively: no other process writes there.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterable, Sequence

from langgraph_memory.store._checks import engine_exact
from langgraph_memory.store.backends._base import (
    DenseQuery, FetchQuery, Hit, Query, SparseQuery, StoredPoint, bm25_key, env_count,
)

if TYPE_CHECKING:  # numpy loads with the first snapshot, not with the store: the CLI's `list` needs neither
    import numpy as np

    from langgraph_memory.store.backends._snapshot import Snapshot


SNAPSHOT_POINTS_ENV = "LANGGRAPH_MEMORY_SNAPSHOT_POINTS"
DEFAULT_SNAPSHOT_POINTS = 2_000
SNAPSHOT_BUDGET_ENV = "LANGGRAPH_MEMORY_SNAPSHOT_BUDGET"
DEFAULT_SNAPSHOT_BUDGET = 20_000
"""All snapshots together hold at most this many points: ~4.2 MB per 1k points measured
(1.5 MB of float32 vectors at 384 dimensions, the rest payloads), so ~85 MB; a
client-IDF store's also hold sparse vectors (~0.7-0.9 MB per 1k one-sentence memories as
Python lists, estimated). In points, not namespaces: a larger cap holds fewer namespaces,
not more memory."""
READS_BEFORE_SNAPSHOT = 2
POINTS_PER_SEARCH = 100
"""A namespace is read whole once it has been searched once per this many of its points
(and at least :data:`READS_BEFORE_SNAPSHOT` times): reading it costs about as much as
that many turns through the engine (1k memories: ~40 ms, ~10 turns), so a conversation
that stops right after the read has paid at most about twice what the engine would have
cost, and a longer one wins."""
RECENT_S = 60.0
"""A snapshot used this recently is not dropped to make room for another: with more busy
namespaces than the budget holds, the others read the engine rather than take turns
being read whole."""
"""A namespace read once (one search, one store call) is not worth reading whole."""
LOG_KEEP = 4_096


def snapshot_points() -> int:
    """Namespaces of at most this many points are read once and served from memory:
    ``$LANGGRAPH_MEMORY_SNAPSHOT_POINTS``, default 2,000; 0 turns snapshots off."""
    return env_count(SNAPSHOT_POINTS_ENV, DEFAULT_SNAPSHOT_POINTS, 0, "points")


def snapshot_budget() -> int:
    """All snapshots of a store hold at most this many points together:
    ``$LANGGRAPH_MEMORY_SNAPSHOT_BUDGET``, default 20,000; 0 turns snapshots off."""
    return env_count(SNAPSHOT_BUDGET_ENV, DEFAULT_SNAPSHOT_BUDGET, 0, "points")


Patches = tuple[tuple[frozenset[str], dict[str, Any]], ...]
"""Several ``set_payload`` writes logged as one entry (:meth:`EdgeBackend.set_payloads`),
oldest first: each one's ids and the plain payload keys it set."""
Written = tuple[frozenset[str], "frozenset[str] | None", bool, "dict[str, Any] | Patches | None"]
"""A write's ids, the namespaces it may have added points to (``None``: any), whether it
may have changed vectors (an upsert; else only payloads changed, or points left), and the
payload keys it set when they are plain values (a snapshot applies them without a read),
or a batch of such patches."""


def plain_patch(payload: dict[str, Any]) -> bool:
    """Whether a ``set_payload`` of ``payload`` sets only plain JSON scalars on points that
    stay where they are: a snapshot then applies it as the engine does, without a read.
    Not ``None``: Qdrant Edge then drops the key (a point set ``expires_at=None`` reads as
    having no expiry key, which the alive filter's ``is_null`` rejects). Not a float: it
    may store one a unit in the last place away (its parse is not exact: ~1 in 8 of
    ``time.time()`` values, measured). Nor an integer past 64 bits (signed, or unsigned
    above): it stores one as a float (:func:`~langgraph_memory.store._checks.engine_exact`).
    Those points are read again instead."""
    return "namespace" not in payload and all(isinstance(v, (bool, int, str)) and engine_exact(v) for v in payload.values())


class WriteLog:
    """What each write touched, in order; ``None`` for a write whose ids are unknown."""

    def __init__(self, keep: int = LOG_KEEP) -> None:
        self._lock = threading.Lock()
        self.seq = 0
        self._entries: deque[tuple[int, Written | None]] = deque(maxlen=keep)

    def wrote(
        self, ids: Iterable[str] | None, into: Iterable[str] | None = (), vectors: bool = True,
        patch: dict[str, Any] | Patches | None = None,
    ) -> None:
        """``ids`` were written (``None``: unknown, a delete by filter); ``into``: the
        namespaces they may have joined (an upsert's; ``None``: any, e.g. a namespace set
        by ``set_payload``; empty: none, the points stayed where they were or left);
        ``vectors``: their vectors may have changed; ``patch``: the top-level payload keys
        ``set_payload`` set, if every value is a plain JSON scalar (as the engine returns it),
        or a batch of such patches (:data:`Patches`, ``ids`` their union)."""
        entry = None if ids is None else (
            frozenset(ids), None if into is None else frozenset(into), vectors,
            patch if patch is None or isinstance(patch, tuple) else dict(patch))
        with self._lock:
            self.seq += 1
            self._entries.append((self.seq, entry))

    def since(self, seq: int) -> tuple[int, list[Written] | None]:
        """The current sequence number, and the writes after ``seq`` (``None``: read
        everything again: a write by filter, or one the log no longer holds)."""
        with self._lock:
            now = self.seq
            if now == seq:
                return now, []
            if not self._entries or self._entries[0][0] > seq + 1:
                return now, None
            writes: list[Written] = []
            for at, entry in reversed(self._entries):
                if at <= seq:
                    break
                if entry is None:
                    return now, None
                writes.append(entry)
            return now, writes


def concerning(
    snapshot: Snapshot, writes: list[Written],
) -> tuple[set[str], bool, list[tuple[Collection[str], dict[str, Any]]] | None]:
    """The ids among ``writes`` (newest first) that may change ``snapshot`` (those it
    holds, and those written into its namespace or into any), whether their vectors must
    be read too, and, when every such write set plain payload keys of points it holds,
    those patches oldest first (then nothing needs reading)."""
    out: set[str] = set()
    vectors = False
    patches: list[tuple[Collection[str], dict[str, Any]]] | None = []
    for ids, into, changed_vectors, patch in writes:
        if into is None or snapshot.namespace in into:
            mine: list[str] = list(ids)
        elif snapshot.row.keys().isdisjoint(ids):  # most writes, another namespace's: one C call
            continue
        else:
            mine = [i for i in ids if i in snapshot.row]
        if mine:
            out.update(mine)
            vectors = vectors or changed_vectors
            if patches is not None and patch is not None and all(i in snapshot.row for i in mine):
                if isinstance(patch, tuple) and len(mine) == len(ids):  # a batch on its rows alone
                    patches.extend(reversed(patch))  # oldest first: newest first here, as the writes
                elif isinstance(patch, tuple):
                    patches.extend((held, p) for ids_p, p in reversed(patch)
                                   if (held := [i for i in ids_p if i in snapshot.row]))
                else:
                    patches.append((mine, patch))
            else:
                patches = None
    return out, vectors, None if patches is None else patches[::-1]


class Snapshots:
    """The snapshots of one shard, least recently used dropped first, and its write log."""

    def __init__(self, max_points: int | None = None, budget: int | None = None) -> None:
        self.budget = snapshot_budget() if budget is None else budget
        """Points all snapshots hold at most together (:data:`DEFAULT_SNAPSHOT_BUDGET`)."""
        self.max_points = min(snapshot_points() if max_points is None else max_points, self.budget)
        """Points of the largest namespace held (at most the budget)."""
        self.log = WriteLog()
        self.local_bm25 = False
        """Snapshots hold their rows' sparse vectors and score BM25 themselves (a client-IDF
        store: :mod:`._bm25_local`); else the engine scores for them."""
        self._lock = threading.Lock()
        self._held: OrderedDict[str, Snapshot] = OrderedDict()
        self._reads: dict[str, int] = {}
        """Searches of each namespace that has no snapshot."""
        self._large: dict[str, int] = {}
        """The log's sequence number when a namespace was counted past the cap: counted again
        only after a write."""
        self._used: dict[str, float] = {}
        """When each held snapshot was last used (``time.monotonic``)."""
        self._sizes: dict[str, int] = {}
        """How many points a namespace held when first counted (to pace its whole read)."""

    def clear(self) -> None:
        with self._lock:
            self._held.clear()
            self._used.clear()
            self._sizes.clear()
            self._reads.clear()
            self._large.clear()

    def get(
        self, namespace: str, read_all: Callable[[str, int], list[StoredPoint] | None],
        read_ids: Callable[[list[str], bool], list[StoredPoint]], dim: int, searched: bool = True,
        count: Callable[[str], int] = lambda namespace: 0,
    ) -> Snapshot | None:
        """The snapshot of ``namespace``, brought up to date; ``None`` when it is not worth
        one. ``read_all(namespace, at_most)``: its points with their dense vectors, ``None``
        past ``at_most``; ``read_ids(ids, with_vectors)``: those points that still exist.
        ``searched``: this read searches the namespace (it counts towards reading it whole);
        ``count``: how many points it holds (it paces the whole read, :data:`POINTS_PER_SEARCH`)."""
        if not self.max_points:
            return None
        with self._lock:
            snap = self._held.get(namespace)
            if snap is not None:
                self._held.move_to_end(namespace)
                self._used[namespace] = time.monotonic()
            elif not searched or self._large.get(namespace) == self.log.seq:
                return None
            else:
                self._reads[namespace] = reads = self._reads.get(namespace, 0) + 1
                if len(self._reads) > 100_000:
                    self._reads.clear()
                if reads < READS_BEFORE_SNAPSHOT or self._full_of_recent():
                    return None
                size = self._sizes.get(namespace)
        if snap is None:
            if size is None:
                size = count(namespace)
                with self._lock:
                    if len(self._sizes) > 100_000:
                        self._sizes.clear()
                    self._sizes[namespace] = size
            if size > self.max_points:
                with self._lock:
                    self._large[namespace] = self.log.seq
                    self._sizes.pop(namespace, None)  # counted again after a write: it may shrink
                return None
            if reads < -(-size // POINTS_PER_SEARCH):
                return None
        if snap is not None:
            if snap.seq == self.log.seq:
                # No write since it was read (most turns): what :meth:`_caught_up` would find,
                # without its lock. The log counts a write once it is done: one counted after
                # this read is one this read preceded.
                return snap
            fresh, changed = self._caught_up(snap, read_ids)
            if fresh is not None and not changed:
                if fresh is not snap:  # nothing of it changed: later reads skip these writes
                    with self._lock:
                        if namespace in self._held and self._held[namespace].seq < fresh.seq:
                            self._held[namespace] = fresh
                return fresh
            if fresh is None:
                fresh = self._read(namespace, read_all, dim)
        else:
            fresh = self._read(namespace, read_all, dim)
        with self._lock:
            if fresh is None or len(fresh.ids) > self.max_points:
                self._held.pop(namespace, None)
                return None
            held = self._held.get(namespace)
            if held is None or held.seq <= fresh.seq:
                self._held[namespace] = fresh
                self._held.move_to_end(namespace)
            self._used[namespace] = time.monotonic()
            while sum(len(s.ids) for s in self._held.values()) > self.budget and len(self._held) > 1:
                dropped, _ = self._held.popitem(last=False)
                self._used.pop(dropped, None)
                self._sizes.pop(dropped, None)
                self._reads.pop(dropped, None)  # searched again as often before it is read whole again
        return fresh

    def _caught_up(
        self, snap: Snapshot, read_ids: Callable[[list[str], bool], list[StoredPoint]], vectors: bool = True,
    ) -> tuple[Snapshot | None, bool]:
        """``snap`` with the writes logged since it was read applied (their patches, or
        their ids read again with ``read_ids``), and whether any concerned it. ``None``
        when that takes reading its namespace whole (a write by filter, one the log no
        longer holds, too many of its rows), or vectors and not ``vectors``."""
        seq, writes = self.log.since(snap.seq)
        if writes is None:
            return None, True
        dirty, with_vectors, patches = concerning(snap, writes)
        if not dirty:
            return (snap if seq == snap.seq else snap.at(seq)), False
        if len(dirty) > max(64, len(snap.ids) // 4) or (with_vectors and not vectors):
            return None, True
        if patches is not None:
            return snap.with_patches(seq, patches), True
        return snap.patched(seq, read_ids(sorted(dirty), with_vectors), dirty, with_vectors), True

    def forward(self, ids: Iterable[str], read_ids: Callable[[list[str], bool], list[StoredPoint]]) -> None:
        """Bring each held snapshot holding one of ``ids`` up to date, in the thread that
        just changed their payloads and logged it (the post-hook's access counts, in the
        background): the next read of the namespace then finds it current and pays
        nothing for the write. Not when that takes a whole read or vectors (an upsert
        since: :meth:`get` does it). A read meanwhile brings it up to date itself: the
        newer version stays; a snapshot dropped meanwhile is not held again."""
        ids = frozenset(ids)
        with self._lock:
            mine = [snap for snap in self._held.values() if not snap.row.keys().isdisjoint(ids)]
        for snap in mine:
            fresh, _ = self._caught_up(snap, read_ids, vectors=False)
            if fresh is None or fresh is snap:
                continue
            with self._lock:
                held = self._held.get(snap.namespace)
                if held is not None and held.seq < fresh.seq:
                    self._held[snap.namespace] = fresh

    def _full_of_recent(self) -> bool:
        """Whether reading another namespace would drop a snapshot used within :data:`RECENT_S`."""
        if sum(len(s.ids) for s in self._held.values()) + self.max_points <= self.budget:
            return False
        oldest = next(iter(self._held), None)
        return oldest is not None and time.monotonic() - self._used.get(oldest, 0.0) < RECENT_S

    def _read(
        self, namespace: str, read_all: Callable[[str, int], list[StoredPoint] | None], dim: int,
    ) -> Snapshot | None:
        seq = self.log.seq  # before reading: a write landing meanwhile is logged after it
        points = read_all(namespace, self.max_points)
        if points is None:
            with self._lock:
                if len(self._large) > 100_000:
                    self._large.clear()
                self._large[namespace] = seq
            return None
        from langgraph_memory.store.backends._snapshot import Snapshot

        return Snapshot.of(namespace, seq, points, dim, self.local_bm25)


def local_answers(
    snapshots: Snapshots, queries: Sequence[Query], snapshot_of: Callable[[str, bool], Snapshot | None],
) -> tuple[list[list[Hit] | None], dict[str, Snapshot | None], dict[str, dict[Any, np.ndarray]]]:
    """Each query's hits when a snapshot can answer it (a dense or fetch query on one
    namespace), else ``None``; the snapshot of each namespace asked (``None``: none), and
    what its answers computed (masks by filter object, scores by query vector), to share."""
    out: list[list[Hit] | None] = [None] * len(queries)
    found: dict[str, Snapshot | None] = {}
    masks: dict[str, dict[Any, np.ndarray]] = {}  # per namespace: by id() of a filter and of a query vector
    if not snapshots.max_points:
        return out, found, masks
    # A search's first round (a dense query over the namespace, not over given ids) counts
    # as a read of the namespace; its later rounds use a snapshot only if one is held.
    searched = {q.where.namespace for q in queries if isinstance(q, DenseQuery) and q.where.ids is None}
    dense: dict[str, list[tuple[int, DenseQuery]]] = {}  # per namespace, answered together
    for i, q in enumerate(queries):
        ns = q.where.namespace
        if ns is None or not isinstance(q, (DenseQuery, SparseQuery, FetchQuery)):
            continue
        if ns not in found:
            found[ns] = snapshot_of(ns, ns in searched)
        snap = found[ns]
        if snap is None or isinstance(q, SparseQuery):
            continue
        if isinstance(q, DenseQuery):
            dense.setdefault(ns, []).append((i, q))
        else:
            out[i] = snap.answer(q, masks.setdefault(ns, {}))
    if dense:
        from langgraph_memory.store.backends._snapshot_batch import answer_nearest

        for ns, mine in dense.items():
            for i, hits in answer_nearest(found[ns], mine, masks.setdefault(ns, {})).items():
                out[i] = hits
    return out, found, masks


def answer_batch(
    snapshots: Snapshots, queries: Sequence[Query], snapshot_of: Callable[[str, bool], Snapshot | None],
    engine_batch: Callable[..., list[Any]], weigh: Callable[[SparseQuery], list[float] | None] | None = None,
) -> list[list[Hit]]:
    """Every query's hits: from a snapshot where one answers it, the rest from the engine
    in one call (``engine_batch(queries, scores_only)``: the answer to each query of
    ``scores_only`` is the engine's ``(ids, scores)``, not hits). A BM25 query on a
    namespace with a snapshot is scored by it, for every row, once per query vector: with
    ``weigh`` (the query's weights times the store's IDF, on a client-IDF store), by the
    snapshot itself; else the engine scores the whole namespace in that same call. The
    snapshot cuts every list of that vector from those scores (a hybrid search's later
    rounds too); a list the engine's best scores do not settle goes to the engine in a
    second call."""
    local, held, masks = local_answers(snapshots, queries, snapshot_of)
    out: list[list[Hit] | None] = list(local)
    rest: list[int] = []  # the queries the engine answers
    bm25: dict[int, tuple[Snapshot, list[tuple[int, SparseQuery]]]] = {}  # per snapshot, the lists it cuts
    wide: dict[Any, tuple[Snapshot, SparseQuery]] = {}  # the namespace-wide queries to ask
    for i, q in enumerate(queries):
        if local[i] is not None:
            continue
        if isinstance(q, SparseQuery) and q.rescore is None and (snap := held.get(q.where.namespace)) is not None:
            mine = bm25.get(id(snap))
            if mine is None:
                mine = bm25[id(snap)] = (snap, [])
            mine[1].append((i, q))
            key = bm25_key(q)
            if key in snap._bm25 or (id(snap), key) in wide:
                continue
            if weigh is not None and snap.sparse is not None:  # a client-IDF store: scored here
                snap.score_bm25(q, weigh(q))  # type: ignore[arg-type]
            else:
                wide[id(snap), key] = (snap, snap.bm25_query(q))
        else:
            rest.append(i)
    scores_only = [query for _, query in wide.values()]
    asked = [queries[i] for i in rest] + scores_only
    answers = engine_batch(asked, scores_only) if asked else []
    for i, hits in zip(rest, answers):
        out[i] = hits
    for (snap, query), (ids, scores) in zip(wide.values(), answers[len(rest):]):
        snap.learn_bm25_scores(query, ids, scores)
    if bm25:
        from langgraph_memory.store.backends._snapshot_batch import answer_nearest

        for snap, mine in bm25.values():
            for i, hits in answer_nearest(snap, mine, masks.setdefault(snap.namespace, {})).items():
                out[i] = hits
    # BM25 lists the best scores of a large namespace do not settle: the engine's own answer.
    late = [i for i, hits in enumerate(out) if hits is None]
    for i, hits in zip(late, engine_batch([queries[i] for i in late]) if late else []):
        out[i] = hits
    return out  # type: ignore[return-value]
