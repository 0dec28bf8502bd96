"""QdrantStore: LangGraph's ``BaseStore`` on Qdrant Edge or a Qdrant server."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading
import time
from typing import Any, Iterable

from langgraph.store.base import (
    BaseStore,
    GetOp,
    NOT_PROVIDED,
    IndexConfig,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    ensure_embeddings,
)

from langgraph_memory.base_store._cache import read_cache
from langgraph_memory.base_store._items import (
    ITEM_STATUSES,
    ITEM_VECTOR,
    InvalidEmbeddingError,
    check_key,
    check_namespace,
    check_ttl_config,
)
from langgraph_memory.base_store._reads import (
    FieldIndexes,
    check_list,
    check_search,
    get_items,
    list_namespaces,
    search_items,
)
from langgraph_memory.base_store._writes import (
    PlannedPut, plan_puts, reread_previous, write_gate, write_puts, written_items)
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.backends import SCHEMA_VERSION, Backend, Where
from langgraph_memory.store.embeddings import Bm25SparseEmbeddings, embedder_name

logger = logging.getLogger("langgraph_memory")

_Plan = tuple[list[Op], list[PlannedPut], list[str], int]  # ops, puts, queries, the write count planned at


class QdrantStore(BaseStore):
    """LangGraph's ``BaseStore`` (``compile(store=...)``, ``runtime.store``, LangMem, the
    server's store API) over the same Qdrant collection as :class:`~langgraph_memory.MemoryStore`.

    Build it with :meth:`open` (embedded Qdrant Edge), :meth:`connect` (a Qdrant server),
    ``QdrantStore(client=QdrantClient(...))``, or ``memory_store.as_base_store()`` to share a
    memory store's engine: its memories are then items of their namespace, keyed by memory
    id, with their fields as the value. Items written here never show up in the memory
    store's reads unless ``memory_field`` opts them in.

    Args:
        client: a ``QdrantClient`` (server, cluster, or ``":memory:"`` local mode).
        collection_name: the Qdrant collection, for the client backend.
        index: LangGraph's index config: ``dims``, ``embed`` (an ``Embeddings``, a function
            or a ``"provider:model"`` string) and ``fields`` (JSON paths to embed, default
            ``["$"]``, the whole value). Without it, search filters but does not rank.
        ttl: LangGraph's TTL config: ``default_ttl`` (minutes), ``refresh_on_read``
            (default ``False``, as SqliteStore: when ``True``, a read with ``refresh_ttl``
            restarts the TTL of the items it returns) and ``sweep_interval_minutes`` for
            :meth:`start_ttl_sweeper`. Expired items are never returned, swept or not.
            Every TTL is bounded (above 0, at most a century); a bad config is refused here.
        memory_field: when set, an item whose value holds non-empty text at this key is also
            a memory of its namespace (the pre-hook and the memory tools find it).
    """

    supports_ttl = True

    def __init__(
        self,
        *,
        client: Any = None,
        collection_name: str = "langgraph_memory",
        index: IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        memory_field: str | None = None,
        _backend: Backend | None = None,
        _memory_store: Any = None,
    ) -> None:
        self.index_config: dict[str, Any] | None = None
        self.embeddings = None
        self._fields: list[str] | None = None
        """The paths embedded when a put names none; ``None``: no index."""
        if index is not None:
            dims = index.get("dims")
            if isinstance(dims, bool) or not isinstance(dims, int) or dims < 1:
                raise InvalidMemoryError("index.dims", f"expected a positive integer, got {dims!r}")
            # As LangGraph's stores: the config as given (``fields`` stays None when not
            # given), the whole value (``$``) embedded by default.
            self.index_config = {**index, "fields": index.get("fields")}
            self._fields = list(index.get("fields") or ["$"])
            self.embeddings = ensure_embeddings(index.get("embed"))
        self.ttl_config = check_ttl_config(ttl)
        if memory_field is not None and (not isinstance(memory_field, str) or not memory_field):
            raise InvalidMemoryError("memory_field", "expected a field name")
        self.memory_field = memory_field
        self._memory_store = _memory_store
        self._owns_backend = _memory_store is None
        if _memory_store is not None:
            self._backend = _memory_store._backend
            self._sparse = _memory_store.sparse_embeddings
        else:
            if _backend is None:
                if client is None:
                    raise TypeError(
                        "QdrantStore needs a backend: QdrantStore.open(path), QdrantStore.connect(url), "
                        "QdrantStore(client=...) or memory_store.as_base_store()."
                    )
                from langgraph_memory.store.backends.qdrant import QdrantClientBackend

                _backend = QdrantClientBackend(client, collection_name)
            self._backend = _backend
            self._sparse = Bm25SparseEmbeddings()
            stored = _backend.stored_meta() or {}
            dim = self.index_config["dims"] if self.index_config else stored.get("dim", 1)
            name = embedder_name(self.embeddings) if self.embeddings is not None else stored.get("embedder")
            _backend.setup(dim=dim, meta={"schema_version": SCHEMA_VERSION, "embedder": name})
        self._indexes = FieldIndexes(self._backend)
        self._cache = read_cache(self._backend)
        """Reads kept while no write says otherwise: Qdrant Edge only (:mod:`._cache`)."""
        self._gate = write_gate(self._backend)
        self._sweeper: tuple[threading.Thread, threading.Event, concurrent.futures.Future[None]] | None = None

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def open(
        cls, path: str | os.PathLike[str], *, index: IndexConfig | None = None, ttl: TTLConfig | None = None,
        memory_field: str | None = None,
    ) -> "QdrantStore":
        """Open (or create) the embedded store in directory ``path`` (Qdrant Edge).

        Raises:
            StoreLockedError: ``path`` is already open; to share a ``MemoryStore``'s
                directory, use ``memory_store.as_base_store()``.
        """
        from langgraph_memory.store.backends.edge import EdgeBackend

        if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
            raise InvalidMemoryError("path", "expected a directory path")
        return cls(index=index, ttl=ttl, memory_field=memory_field, _backend=EdgeBackend(path))

    @classmethod
    def connect(
        cls, url: str, api_key: str | None = None, *, collection_name: str = "langgraph_memory",
        index: IndexConfig | None = None, ttl: TTLConfig | None = None, memory_field: str | None = None,
        **client_kwargs: Any,
    ) -> "QdrantStore":
        """Use a Qdrant server or cluster at ``url`` (``api_key`` for Qdrant Cloud)."""
        from qdrant_client import QdrantClient

        return cls(client=QdrantClient(url=url, api_key=api_key, **client_kwargs),
                   collection_name=collection_name, index=index, ttl=ttl, memory_field=memory_field)

    @classmethod
    def over(
        cls, memory_store: Any, *, fields: list[str] | None = None, ttl: TTLConfig | None = None,
        memory_field: str | None = None,
    ) -> "QdrantStore":
        """A BaseStore over a :class:`~langgraph_memory.MemoryStore`'s engine and collection (what
        ``memory_store.as_base_store()`` returns). Items are embedded with the memory
        store's embedder, by default their ``content`` field, as memories are, so both rank
        on one scale; ``fields`` changes that. Closing it leaves the memory store open."""
        index: IndexConfig = {"dims": memory_store.dim, "embed": memory_store.embeddings,
                              "fields": list(fields or ["content"])}
        return cls(index=index, ttl=ttl, memory_field=memory_field, _memory_store=memory_store)

    @property
    def memory_store(self) -> Any:
        """The :class:`~langgraph_memory.MemoryStore` this face shares its engine with
        (``memory_store.as_base_store()``), or ``None``: the memory browser mounted in a
        LangGraph server reads the server's store through it."""
        return self._memory_store

    def close(self) -> None:
        """Stop the sweeper and release the engine (unless it belongs to a MemoryStore)."""
        self.stop_ttl_sweeper()
        if self._owns_backend:
            self._backend.close()

    def __enter__(self) -> "QdrantStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def _refresh_on_read(self) -> bool:
        # As SqliteStore: reads restart TTLs only when the TTL config says ``refresh_on_read``.
        return bool(self.ttl_config and self.ttl_config.get("refresh_on_read", False))

    # -- keys and namespaces ----------------------------------------------------------------
    # LangGraph's ``BaseStore`` turns any key into ``str(key)`` before a batch sees it (an
    # int key would silently become another key than the caller's) and iterates the
    # namespace unchecked (``None`` raises a bare ``TypeError``): both are checked here
    # first, with typed errors.

    def get(self, namespace: tuple[str, ...], key: str, *, refresh_ttl: bool | None = None) -> Item | None:
        # What ``BaseStore.get`` does through ``batch``, without a batch's planning: a get
        # is the face's most frequent call, and the batch around one cost as much as the read.
        namespace = check_namespace(namespace, allow_empty=True)
        if refresh_ttl is None:
            refresh_ttl = self.ttl_config.get("refresh_on_read", True) if self.ttl_config is not None else True
        op = GetOp(namespace, check_key(key), refresh_ttl)
        return get_items(self._backend, [op], refresh_on_read=self._refresh_on_read, cache=self._cache)[0]

    async def aget(self, namespace: tuple[str, ...], key: str, *, refresh_ttl: bool | None = None) -> Item | None:
        check_namespace(namespace, allow_empty=True)
        return await super().aget(namespace, check_key(key), refresh_ttl=refresh_ttl)

    def put(self, namespace: tuple[str, ...], key: str, value: dict[str, Any], index: Any = None, *,
            ttl: Any = NOT_PROVIDED) -> None:
        check_namespace(namespace)
        super().put(namespace, check_key(key), value, index, ttl=ttl)

    async def aput(self, namespace: tuple[str, ...], key: str, value: dict[str, Any], index: Any = None, *,
                   ttl: Any = NOT_PROVIDED) -> None:
        check_namespace(namespace)
        await super().aput(namespace, check_key(key), value, index, ttl=ttl)

    def delete(self, namespace: tuple[str, ...], key: str) -> None:
        check_namespace(namespace)
        super().delete(namespace, check_key(key))

    async def adelete(self, namespace: tuple[str, ...], key: str) -> None:
        check_namespace(namespace)
        await super().adelete(namespace, check_key(key))

    def search(self, namespace_prefix: tuple[str, ...], /, **kwargs: Any) -> list[SearchItem]:
        """As ``BaseStore.search`` (``query``, ``filter``, ``limit``, ``offset``, ``refresh_ttl``)."""
        check_namespace(namespace_prefix, allow_empty=True)
        return super().search(namespace_prefix, **kwargs)

    async def asearch(self, namespace_prefix: tuple[str, ...], /, **kwargs: Any) -> list[SearchItem]:
        """As ``BaseStore.asearch``."""
        check_namespace(namespace_prefix, allow_empty=True)
        return await super().asearch(namespace_prefix, **kwargs)

    # -- batches ----------------------------------------------------------------------------

    def _prepare(self, ops: Iterable[Op]) -> _Plan:
        """Check every op and plan the puts; nothing is written here."""
        ops = list(ops)
        for op in ops:
            if isinstance(op, SearchOp):
                check_search(op)
            elif isinstance(op, ListNamespacesOp):
                check_list(op)
            elif isinstance(op, GetOp):
                check_namespace(op.namespace, allow_empty=True)
            elif not isinstance(op, PutOp):
                raise InvalidMemoryError("op", f"unknown operation {type(op).__name__}")
        planned_at = self._gate.count
        puts = plan_puts(self._backend, [op for op in ops if isinstance(op, PutOp)],
                         fields=self._fields, memory_field=self.memory_field, cache=self._cache)
        queries = sorted({op.query for op in ops if isinstance(op, SearchOp) and op.query and self.embeddings})
        return ops, puts, queries, planned_at

    def _execute(self, plan: _Plan, texts_vectors: list[list[float]], query_vectors: dict[str, list[float]]) -> list[Result]:
        """Reads first (they see the store as it was before the batch), then the writes."""
        ops, puts, _, planned_at = plan
        dims = self.index_config["dims"] if self.index_config else None
        for vector in query_vectors.values():
            if dims is not None and len(vector) != dims:
                raise InvalidEmbeddingError("embed", f"the query embedding has {len(vector)} dimensions, the index has {dims}")
        results: list[Result] = [None] * len(ops)
        gets = [(i, op) for i, op in enumerate(ops) if isinstance(op, GetOp)]
        if gets:
            found = get_items(self._backend, [op for _, op in gets], refresh_on_read=self._refresh_on_read,
                              cache=self._cache)
            for (i, _), item in zip(gets, found):
                results[i] = item
        for i, op in enumerate(ops):
            if isinstance(op, SearchOp):
                results[i] = search_items(
                    self._backend, op, query_vectors.get(op.query) if op.query else None, self._indexes,
                    refresh_on_read=self._refresh_on_read, cache=self._cache)
            elif isinstance(op, ListNamespacesOp):
                results[i] = list_namespaces(self._backend, op, self._cache)
        if puts:
            self._write(puts, texts_vectors, planned_at)
        return results

    def _write(self, puts: list[PlannedPut], texts_vectors: list[list[float]], planned_at: int) -> None:
        """Write planned puts (one face write at a time over this backend: see :class:`WriteGate`)."""
        dims = self.index_config["dims"] if self.index_config else None
        with self._gate.lock:
            if self._gate.count != planned_at:
                reread_previous(self._backend, puts)
            seq = self._cache.mark() if self._cache is not None else 0
            try:
                logged = write_puts(self._backend, puts, texts_vectors, dims=dims, sparse=self._sparse)
            finally:
                self._gate.count += 1
            if self._cache is not None:
                self._cache.keep_written(seq, logged, written_items(puts),
                                         {(p.namespace, p.key): p.value for p in puts if p.value is not None})

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        if len(ops) == 1 and type(ops[0]) is PutOp:
            # A lone put or delete (what ``put`` and ``delete`` send): no reads to plan around it.
            planned_at = self._gate.count
            puts = plan_puts(self._backend, ops, fields=self._fields, memory_field=self.memory_field, cache=self._cache)
            texts = puts[0].texts
            self._write(puts, self.embeddings.embed_documents(texts) if texts and self.embeddings else [], planned_at)
            return [None]
        plan = self._prepare(ops)
        texts = [t for put in plan[1] for t in put.texts]
        vectors = self.embeddings.embed_documents(texts) if texts and self.embeddings else []
        queries = {q: self.embeddings.embed_query(q) for q in plan[2]} if self.embeddings else {}
        return self._execute(plan, vectors, queries)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        # The engine calls run in a worker thread (Qdrant Edge is in-process and
        # synchronous); embeddings use the embedder's own async methods.
        plan = await asyncio.to_thread(self._prepare, list(ops))
        texts = [t for put in plan[1] for t in put.texts]
        vectors: list[list[float]] = []
        queries: dict[str, list[float]] = {}
        if self.embeddings is not None:
            if texts:
                vectors = await self.embeddings.aembed_documents(texts)
            if plan[2]:
                found = await asyncio.gather(*(self.embeddings.aembed_query(q) for q in plan[2]))
                queries = dict(zip(plan[2], found))
        return await asyncio.to_thread(self._execute, plan, vectors, queries)

    # -- TTL --------------------------------------------------------------------------------

    def sweep_ttl(self) -> int:
        """Delete expired items (and expired memories) now; returns how many (reads hide them already)."""
        now = time.time()
        where = Where(status=ITEM_STATUSES, expired_at=now)
        removed = 0
        while True:
            with self._gate.lock:  # no face write between reading what expired and deleting it
                points, _ = self._backend.scroll(where, limit=256)
                if not points:
                    return removed
                self._gate.count += 1
                self._backend.delete([p.id for p in points])
                for p in points:
                    if p.payload.get("extra_vectors"):
                        self._backend.delete_where(Where(status=ITEM_VECTOR, fields=(("item_of", (p.id,)),)))
            removed += len(points)

    async def asweep_ttl(self) -> int:
        """Async twin of :meth:`sweep_ttl`."""
        return await asyncio.to_thread(self.sweep_ttl)

    def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> concurrent.futures.Future[None]:
        """Sweep every ``sweep_interval_minutes`` (default: the TTL config's, else 5) in a
        daemon thread until :meth:`stop_ttl_sweeper`. Returns a future done when it stops."""
        if self._sweeper is not None:
            return self._sweeper[2]
        interval = sweep_interval_minutes or (self.ttl_config or {}).get("sweep_interval_minutes") or 5
        stop = threading.Event()
        done: concurrent.futures.Future[None] = concurrent.futures.Future()

        def run() -> None:
            try:
                while not stop.wait(interval * 60):
                    try:
                        self.sweep_ttl()
                    except Exception:  # the store may be closing; the next round retries
                        logger.exception("TTL sweep failed")
            finally:
                done.set_result(None)

        thread = threading.Thread(target=run, name="qdrant-store-ttl-sweeper", daemon=True)
        self._sweeper = (thread, stop, done)
        thread.start()
        return done

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper; ``True`` when it has stopped within ``timeout`` seconds."""
        if self._sweeper is None:
            return True
        thread, stop, _ = self._sweeper
        stop.set()
        thread.join(timeout)
        if thread.is_alive():
            return False
        self._sweeper = None
        return True
