"""Qdrant Edge: Qdrant's engine in-process, one shard in a directory. The embedded default."""

from __future__ import annotations

import contextlib
import os
import threading
import uuid
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import qdrant_edge as qe

from langgraph_memory.store.backends._base import (
    DENSE,
    FLOAT_FIELDS,
    FULL_SCAN_KB,
    HNSW_EF_CONSTRUCT,
    HNSW_M,
    HNSW_PAYLOAD_M,
    KEYWORD_FIELDS,
    SPARSE,
    Hit,
    Query,
    SparseQuery,
    StoredPoint,
    Where,
    env_count,
)
from langgraph_memory.store.backends import _two_step
from langgraph_memory.store.backends._bm25_idf import CLIENT, IDF_KEY, TermCounts, idf_mode
from langgraph_memory.store.backends._edge_meta import read_meta, write_meta
from langgraph_memory.store.backends._edge_types import engine_call, to_answer, to_filter, to_point, to_request
from langgraph_memory.store.backends._fetch_order import read_in_key_order
from langgraph_memory.store.backends._snapshots import Snapshots, WriteLog, answer_batch, plain_patch
from langgraph_memory.errors import SchemaMismatchError, StorageError, StoreLockedError

if TYPE_CHECKING:
    from langgraph_memory.store.backends._snapshot import Snapshot

META_FILE = "langgraph_memory.json"
SHARD_DIR = "shard"
SIDE_DIR = "collections"
SEARCH_THREADS_ENV = "LANGGRAPH_MEMORY_SEARCH_THREADS"


def search_threads() -> int:
    """Threads of a shard's search pool: ``$LANGGRAPH_MEMORY_SEARCH_THREADS``, default 1.

    The pool runs a query's per-segment reads in parallel, but a memory shard is one or
    two segments and a query's reads take tens of microseconds: handing them to a pool of
    several threads cost more than it saved. Measured on 2 cores, one thread against the
    engine's default (one per CPU), alternated in one process: a dedup write 0.71-0.75x
    the time, a pre-hook without its embedding 0.87-0.90x, a search 0.87x; four threads
    sharing one store ran as many pre-hooks and searches a second either way (Python, not
    the engine, is what they queue for). Raise it for large namespaces on many cores,
    where a shard holds more segments."""
    return env_count(SEARCH_THREADS_ENV, 1, 1, "threads")


def _side_name(name: str) -> str:
    if not name.isidentifier():
        raise ValueError(f"a side collection's name is an identifier, not {name!r}")
    return name


class EdgeBackend:
    """One Qdrant Edge shard under ``path``; the schema meta lives beside it in a JSON file."""

    name = "edge"
    exclusive = True
    """One store object at a time holds the directory, so its lock orders every writer."""

    def __init__(self, path: str | os.PathLike[str], *, keyword_fields: Sequence[str] = ()) -> None:
        self.path = Path(path)
        self.keyword_fields = tuple(keyword_fields)
        self._shard: qe.EdgeShard | None = None
        # Edge is thread-safe; this only orders open/close against in-flight calls.
        self._lifecycle = threading.Lock()
        self._snapshots = Snapshots()
        """Small namespaces read whole, for :meth:`query_batch` ``(cached=True)``; every
        write below logs the ids it touched there (after it returns, even when it fails)."""
        self._dim = 0
        self._filters: dict[Where, qe.Filter] = {}
        """Snapshots' namespace-wide filters, translated (:meth:`_whole_namespace`)."""
        self._written = 0
        """Points upserted since the shard was opened or last built: see :meth:`_unindexed_estimate`."""
        self._counts: TermCounts | None = None
        """A client-IDF store's live BM25 statistics (:mod:`._bm25_idf`); ``None``: the engine's IDF."""

    @property
    def write_log(self) -> WriteLog:
        """Every write of this backend, in order: caches of what was read follow it (this
        process holds the directory alone, so no other writer can go unlogged)."""
        return self._snapshots.log

    @property
    def shard(self) -> qe.EdgeShard:
        if self._shard is None:
            raise RuntimeError("the memory store is closed")
        return self._shard

    def stored_meta(self) -> dict[str, Any] | None:
        return read_meta(self.path / META_FILE)

    @engine_call
    def setup(self, *, dim: int, meta: dict[str, Any]) -> dict[str, Any]:
        meta_path = self.path / META_FILE
        shard_path = self.path / SHARD_DIR
        stored = self.stored_meta()
        if stored is not None and stored.get("dim") != dim:
            raise SchemaMismatchError(
                f"{self.path} holds {stored.get('dim')}-dimensional vectors from "
                f"{stored.get('embedder')!r}; the embedder given makes {dim}. Open it with the "
                "same embedder, or use another path."
            )
        self._dim = dim
        if self._shard is not None and stored is not None:
            return stored  # already open: a second face over the same engine
        # What the data is: checked against a shard that exists, written with a new one.
        # BM25's IDF is ours in a new store, the engine's in one made before (its shard
        # refuses another modifier): :mod:`._bm25_idf`.
        client_idf = idf_mode(stored, self.path / META_FILE) == CLIENT
        schema = {
            "vectors": {DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine)},
            "sparse_vectors": {SPARSE: qe.EdgeSparseVectorParams(modifier=None if client_idf else qe.Modifier.Idf)},
        }
        threads = search_threads()
        try:
            if stored is not None and shard_path.exists():
                # The thread count is a setting of the process, not of the data: a shard
                # written elsewhere is opened with this machine's.
                self._shard = qe.EdgeShard.load(str(shard_path), qe.EdgeConfig(**schema, max_search_threads=threads))
            else:
                self.path.mkdir(parents=True, exist_ok=True)
                self._shard = qe.EdgeShard.create(str(shard_path), qe.EdgeConfig(
                    **schema, max_search_threads=threads,
                    hnsw_config=qe.HnswIndexConfig(
                        m=HNSW_M, ef_construct=HNSW_EF_CONSTRUCT, full_scan_threshold=FULL_SCAN_KB,
                        payload_m=HNSW_PAYLOAD_M),
                ))
                self._create_indexes()
        except Exception as exc:  # the binding raises a bare Exception
            if "WAL" in str(exc) or "WouldBlock" in str(exc) or "lock" in str(exc).lower():
                raise StoreLockedError(
                    f"{self.path} is already open by another program (a running server such as "
                    "`langgraph dev` holds its store while it runs: stop it, or go through its store "
                    "API) or by another MemoryStore of this process (share one between threads)."
                ) from exc
            if stored is None and shard_path.exists():  # deleted, or a link to nowhere (exists() is False)
                raise StorageError(f"{meta_path} is missing beside {shard_path}; restore it from a backup") from None
            if "modifier" in str(exc):  # the meta file says one IDF mode, the shard was made with the other
                raise StorageError(
                    f"{meta_path} does not match the shard beside it: its {IDF_KEY!r} says BM25's IDF is "
                    f"{'ours' if client_idf else 'the engine’s'}, the shard was made otherwise (a meta file "
                    "copied from another store, or edited); restore it from a backup or an export") from None
            raise
        self._counts = TermCounts(lambda: self.shard) if client_idf else None
        self._snapshots.local_bm25 = client_idf  # snapshots hold sparse vectors and score BM25
        self._sparse_too = [DENSE, SPARSE] if client_idf else [DENSE]
        if stored is None:
            stored = dict(meta, dim=dim, **{IDF_KEY: CLIENT})
            write_meta(meta_path, stored)
        return stored

    def _create_indexes(self) -> None:
        shard = self.shard
        shard.update(
            qe.UpdateOperation.create_field_index("namespace", qe.KeywordIndexParams(is_tenant=True))
        )
        for name in KEYWORD_FIELDS + self.keyword_fields:
            shard.update(qe.UpdateOperation.create_field_index(name, qe.KeywordIndexParams(enable_hnsw=False)))
        for name in FLOAT_FIELDS:
            shard.update(qe.UpdateOperation.create_field_index(name, qe.FloatIndexParams(enable_hnsw=False)))
        shard.update(qe.UpdateOperation.create_field_index("content", qe.PayloadSchemaType.Text))

    def sibling(self, name: str, *, keyword_fields: Sequence[str] = ()) -> "EdgeBackend":
        return EdgeBackend(self.path / SIDE_DIR / _side_name(name), keyword_fields=keyword_fields)

    @engine_call
    def upsert(self, points: Sequence[StoredPoint], *, only_if: Where | None = None) -> None:
        if not points:
            return
        edge_points = []
        for p in points:
            vector: dict[str, Any] = {}
            if p.dense is not None:
                vector[DENSE] = p.dense
            if p.sparse is not None:
                vector[SPARSE] = qe.SparseVector(indices=p.sparse[0], values=p.sparse[1])
            edge_points.append(qe.Point(uuid.UUID(p.id), vector, p.payload))
        self._written += len(edge_points)
        condition = None if only_if is None else to_filter(only_if)
        ids = [p.id for p in points]
        new = None if self._counts is None else self._counts.upserted(points, condition is not None)
        self._update(qe.UpdateOperation.upsert_points(edge_points, condition=condition), ids,
                     {p.payload.get("namespace") for p in points}, counted=(ids, None, new))

    def _writing(self) -> Any:
        """The lock ordering every write with the readers of the BM25 counts (:class:`TermCounts`)."""
        return contextlib.nullcontext() if self._counts is None else self._counts.lock

    def _update(
        self, operation: Any, ids: Sequence[str] | None, into: Any = (), vectors: bool = True, patch: Any = None,
        counted: tuple[Any, Any, Any] | None = None,
    ) -> None:
        """One write; what it touched (:meth:`._snapshots.WriteLog.wrote`) is logged for the
        snapshots once it returns, or fails (it may have been applied in part: then as unknown).
        ``counted``: the points whose sparse vectors it changes (:meth:`TermCounts.written`)."""
        done = False
        try:
            with self._writing():
                if counted is None or self._counts is None:
                    self.shard.update(operation)
                else:
                    self._counts.written(lambda: self.shard.update(operation), *counted)
            done = True
        finally:
            self._snapshots.log.wrote(ids, into, vectors, patch if done else None)

    @engine_call
    def retrieve(self, ids: Sequence[str], *, with_vectors: bool = False) -> list[StoredPoint]:
        if not ids:
            return []
        records = self.shard.retrieve(
            [uuid.UUID(i) for i in ids], with_payload=True, with_vector=with_vectors
        )
        return [to_point(r, with_vectors) for r in records]

    @engine_call
    def query_batch(self, queries: Sequence[Query], *, cached: bool = False) -> list[list[Hit]]:
        """With ``cached``, the dense and fetch queries on a small namespace read often
        are answered from its snapshot (:mod:`._snapshot`), the others by the engine."""
        if not cached:
            return self._engine_batch(queries)
        return answer_batch(self._snapshots, queries, self._snapshot, self._engine_batch,
                            None if self._counts is None else self._weights)

    def _snapshot(self, namespace: str, searched: bool) -> Snapshot | None:
        return self._snapshots.get(namespace, self._read_namespace, self.retrieve_dense, self._dim, searched,
                                   self._count_namespace)

    def _count_namespace(self, namespace: str) -> int:
        return self.shard.count(qe.CountRequest(exact=True, filter=to_filter(Where(namespace=namespace, status=None))))

    def retrieve_dense(self, ids: Sequence[str], with_vectors: bool) -> list[StoredPoint]:
        """The points among ``ids`` that exist, with their dense vector only if asked."""
        records = self.shard.retrieve([uuid.UUID(i) for i in ids], with_payload=True,
                                      with_vector=self._sparse_too if with_vectors else False)
        return [to_point(r, with_vectors) for r in records]

    def _read_namespace(self, namespace: str, at_most: int) -> list[StoredPoint] | None:
        """Every point of ``namespace`` with its dense vector; ``None`` past ``at_most``.
        The snapshots count the namespace before reading it; one point past the cap in
        the same scroll tells that it grew since."""
        records, _ = self.shard.scroll(qe.ScrollRequest(
            limit=at_most + 1, filter=to_filter(Where(namespace=namespace, status=None)), with_payload=True,
            with_vector=self._sparse_too))
        return None if len(records) > at_most else [to_point(r, True) for r in records]

    def _engine_batch(self, queries: Sequence[Query], scores_only: Sequence[Query] = ()) -> list[Any]:
        """Each query's hits; for a query of ``scores_only`` (a snapshot's namespace-wide
        BM25 query), the ids and scores as two lists: no hit objects (~1 µs each, ~128 a turn)."""
        if scores_only and len(scores_only) == len(queries):  # a small namespace's turn: nothing else asked
            return self._scores(scores_only)
        marked = frozenset(id(q) for q in scores_only)  # the batch holds them: no id is reused meanwhile
        run = self._one_round if not marked else lambda asked: self._one_round(asked, marked)
        # Dense queries on a big namespace: see _two_step (the engine's per-point checks).
        if self._written < _two_step.TWO_STEP_FROM:  # no namespace can need it: skip the per-query look
            return run(queries)
        return _two_step.batch_in_two_steps(queries, run, self._unindexed_estimate)

    def _scores(self, queries: Sequence[SparseQuery]) -> list[tuple[list[Any], list[float]]]:
        """The ids (as the engine gives them) and scores of the hits of snapshots'
        namespace-wide BM25 queries (:meth:`Snapshot.bm25_query`: no payload, no vector, no
        prefetch, filters by namespace alone: never two steps)."""
        requests = [to_request(q, self._whole_namespace(q.where), self._weights(q)) for q in queries]
        return [to_answer(q, rows, True)
                for q, rows in zip(queries, self.shard.query_batch(qe.QueryBatchRequest(requests)))]

    def _weights(self, query: Query) -> list[float] | None:
        """A BM25 query's weights times our IDF (:mod:`._bm25_idf`); ``None``: sent as they are."""
        if self._counts is None or not isinstance(query, SparseQuery):
            return None
        return self._counts.weights(query.indices, query.values)

    def _whole_namespace(self, where: Where) -> qe.Filter:
        """``where`` translated, kept per filter: a snapshot's namespace-wide filter is
        the same object turn after turn (a few µs to translate each time)."""
        found = self._filters.get(where)
        if found is None:
            if len(self._filters) >= 1024:
                self._filters.clear()
            found = self._filters[where] = to_filter(where)
        return found

    def _unindexed_estimate(self, namespace: str) -> int:
        """At most how many of ``namespace``'s points were written since the shard was
        opened or last built: only those make the engine's per-point checks slow
        (measured: 20k points just loaded check in ~0.5 ms, written in this process ~5 ms)."""
        # Only asked once TWO_STEP_FROM points were written (_engine_batch). The tenant index's own count: ~2 µs, where an exact count scans (~3 ms at 20k).
        where = to_filter(Where(namespace=namespace, status=None))
        return min(self._written, self.shard.count(qe.CountRequest(exact=False, filter=where)))

    def _one_round(self, queries: Sequence[Query], scores_only: frozenset[int] = frozenset()) -> list[Any]:
        filters: dict[Where, qe.Filter] = {}  # a batch often repeats one filter
        weights = [self._weights(q) for q in queries]
        # Ordered fetches: equal keys by ascending id, as a snapshot gives them.
        results = read_in_key_order(queries, lambda asked: self._records(asked, filters, weights), self._records)
        if all(w is None for w in weights):  # no BM25 list to score here (and no numpy to load)
            return [to_answer(q, rows, id(q) in scores_only) for q, rows in zip(queries, results)]
        from langgraph_memory.store.backends._bm25_local import answered  # numpy: not for the CLI's `list`

        return [answered(q, rows, w, self._counts.negative, id(q) in scores_only, lambda limit, bare, q=q, w=w:
                         self.shard.query(to_request(replace(q, limit=limit), filters[q.where], w, bare=bare)))
                for q, rows, w in zip(queries, results, weights)]

    def _records(self, queries: Sequence[Query], filters: dict[Where, qe.Filter] | None = None,
                 weights: Sequence[list[float] | None] | None = None) -> list[Any]:
        """The engine's records answering ``queries`` (BM25 ones sent with ``weights``), in one call."""
        filters = {} if filters is None else filters
        requests = []
        for i, q in enumerate(queries):
            flt = filters.get(q.where)
            if flt is None:
                flt = filters[q.where] = to_filter(q.where)
            requests.append(to_request(q, flt, None if weights is None else weights[i]))
        return self.shard.query_batch(qe.QueryBatchRequest(requests))  # type: ignore[no-any-return]

    @engine_call
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
        order = None
        if order_by is not None:
            direction = qe.Direction.Desc if descending else qe.Direction.Asc
            order = qe.OrderBy(order_by, direction=direction)
        records, next_offset = self.shard.scroll(qe.ScrollRequest(
            offset=uuid.UUID(offset) if isinstance(offset, str) else offset, limit=limit,
            filter=to_filter(where), with_payload=True, with_vector=with_vectors, order_by=order))
        return [to_point(r, with_vectors) for r in records], None if next_offset is None else str(next_offset)

    @engine_call
    def count(self, where: Where) -> int:
        return self.shard.count(qe.CountRequest(exact=True, filter=to_filter(where)))

    @engine_call
    def set_payload(self, ids: Sequence[str], payload: dict[str, Any]) -> None:
        if ids:
            moved = "namespace" in payload  # points may join another namespace: read them whole
            plain = not moved and plain_patch(payload)
            self._update(qe.UpdateOperation.set_payload([uuid.UUID(i) for i in ids], payload), ids,
                         None if moved else (), moved, payload if plain else None)

    @engine_call
    def set_payloads(self, updates: Sequence[tuple[Sequence[str], dict[str, Any]]]) -> None:
        """Several :meth:`set_payload` writes (the post-hook's access counts), logged as one
        entry when none moves points to another namespace; in order, stopping at the first
        that fails. The snapshots holding those points are brought up to date here, in the
        writing thread (:meth:`Snapshots.forward`): the next turn's read does not pay for them."""
        if not updates:
            return
        if any("namespace" in payload for _, payload in updates):
            for ids, payload in updates:
                self.set_payload(ids, payload)
            return
        plain = all(plain_patch(payload) for _, payload in updates)
        done: list[tuple[frozenset[str], dict[str, Any]]] = []
        try:
            with self._writing():
                for ids, payload in updates:
                    if ids:
                        self.shard.update(qe.UpdateOperation.set_payload([uuid.UUID(i) for i in ids], payload))
                    done.append((frozenset(ids), dict(payload)))
        finally:  # one that failed may have been applied in part: its ids are then read again
            tried = {i for ids, _ in updates[: len(done) + 1] for i in ids}
            self._snapshots.log.wrote(tried, (), False, tuple(done) if plain and len(done) == len(updates) else None)
        try:
            self._snapshots.forward(tried, self.retrieve_dense)
        except Exception:  # the write is done and logged: the next read catches up instead
            pass

    @engine_call
    def delete(self, ids: Sequence[str]) -> None:
        if ids:
            self._update(qe.UpdateOperation.delete_points([uuid.UUID(i) for i in ids]), ids, (), False,
                         counted=(ids, None, {}))

    @engine_call
    def delete_where(self, where: Where) -> int:
        flt = to_filter(where)
        with self._writing():
            n = self.shard.count(qe.CountRequest(exact=True, filter=flt))
            if n:
                self._update(qe.UpdateOperation.delete_points_by_filter(flt), None, counted=(None, flt, {}))
        return n

    @engine_call
    def field_indexes(self) -> dict[str, str]:
        schema = self.shard.info().payload_schema or {}
        return {key: str(info.data_type).rsplit(".", 1)[-1].lower() for key, info in schema.items()}

    @engine_call
    def create_field_index(self, key: str, kind: str) -> None:
        schema = {"keyword": qe.PayloadSchemaType.Keyword, "float": qe.PayloadSchemaType.Float}[kind]
        self.shard.update(qe.UpdateOperation.create_field_index(key, schema))

    @engine_call
    def facet(self, key: str, where: Where, *, limit: int, exact: bool = True) -> list[tuple[str, int]]:
        response = self.shard.facet(qe.FacetRequest(key, limit=limit, exact=exact, filter=to_filter(where)))
        return [(str(hit.value), int(hit.count)) for hit in response.hits]

    @engine_call
    def optimize(self) -> bool:
        # Edge runs no optimizer in the background: until this runs, every point sits in
        # an appendable segment without HNSW, and a query on a large namespace scans it.
        changed = bool(self.shard.optimize())
        self._written = 0
        return changed

    @engine_call
    def close(self) -> None:
        with self._lifecycle:
            if self._shard is not None:
                self._shard.flush()
                self._shard.close()
                self._shard = None
                self._snapshots.clear()
                if self._counts is not None:
                    self._counts.forget()
