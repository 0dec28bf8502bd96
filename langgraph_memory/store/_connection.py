"""Opening and closing a store: the backend, the embedders, the stored meta, and the
background work attached to it. :class:`~langgraph_memory.store.MemoryStore` builds on it."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
import os
import threading
import warnings
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, Sequence

from langgraph_memory.errors import EmbedderMismatchError, InvalidMemoryError
from langgraph_memory.store._checks import MAX_QUERY_CHARS, check_text
from langgraph_memory.store._dedup import DedupPolicy
from langgraph_memory.store._reads import QueryVectors
from langgraph_memory.store._twins import async_twin
from langgraph_memory.store._writing import Writer, normalise
from langgraph_memory.store.backends import SCHEMA_VERSION, Backend
from langgraph_memory.store._embedder_catalog import rebuild_record
from langgraph_memory.store.embeddings import choose_embeddings, embedder_name, vector_size

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings
    from langchain_qdrant.sparse_embeddings import SparseEmbeddings

logger = logging.getLogger("langgraph_memory")


@lru_cache(maxsize=1)
def _embedding_pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=4, thread_name_prefix="langgraph-memory-embed")


class _Background(Protocol):
    def flush(self, timeout: float | None = None) -> bool: ...
    async def aflush(self, timeout: float | None = None) -> bool: ...
    def close(self, timeout: float | None = 5.0) -> None: ...



def _checked_encoder(encoder: SparseEmbeddings | None) -> SparseEmbeddings | None:
    """A custom BM25 encoder wrapped so its vectors are checked (``store/_sparse_checks.py``);
    ``None`` stays ``None`` (the default encoder, built on first use)."""
    if encoder is None:
        return None
    from langgraph_memory.store._bm25 import checked_encoder

    return checked_encoder(encoder)


def _where(backend: Backend) -> str:
    """How messages name a store: its directory, or its collection on a server."""
    path = getattr(backend, "path", None)
    return str(path) if path is not None else f"collection {getattr(backend, 'collection', '?')!r}"


class StoreConnection:
    """A store's engine and embedders, opened and closed; the API is :class:`MemoryStore`'s
    (whose docstring explains the constructor)."""

    def __init__(
        self,
        *,
        client: Any = None,
        embeddings: Embeddings | str | None = None,
        collection_name: str = "langgraph_memory",
        dedup: DedupPolicy | None = None,
        sparse_embeddings: SparseEmbeddings | None = None,
        _backend: Backend | None = None,
        _langchain_free: bool = False,
    ) -> None:
        sparse_embeddings = _checked_encoder(sparse_embeddings)
        if _backend is None:
            if client is None:
                raise TypeError(
                    "MemoryStore needs a backend: use MemoryStore.open(path) for the embedded "
                    "store, MemoryStore.connect(url) for a server, or MemoryStore(client=...)."
                )
            from langgraph_memory.store.backends.qdrant import QdrantClientBackend

            _backend = QdrantClientBackend(client, collection_name)
        stored = _backend.stored_meta()
        self.embeddings = choose_embeddings(embeddings, stored, _where(_backend), langchain=not _langchain_free)
        self._sparse_embeddings = sparse_embeddings
        self.embedder = embedder_name(self.embeddings)
        recorded = (stored or {}).get("embedder")
        if recorded and recorded != self.embedder:
            raise EmbedderMismatchError(
                f"{_where(_backend)} was built with the embedder {recorded!r}; the one given is "
                f"{self.embedder!r}, whose vectors are not comparable. Open it without embeddings= "
                "to use its own, or re-embed it: langgraph-memory reembed --embedder NAME",
                stored=str(recorded), given=self.embedder,
            )
        self.dedup = dedup or DedupPolicy.for_embedder(self.embedder)
        self._backend = _backend
        dim = vector_size(self.embeddings, self.embedder, lambda: stored)
        self.meta = self._backend.setup(dim=dim, meta={
            "schema_version": SCHEMA_VERSION, "embedder": self.embedder,
            "embedder_rebuild": rebuild_record(self.embeddings, self.embedder),
        })
        self.dim = dim
        self._writer = Writer(
            self._backend, self.embeddings, lambda: self.sparse_embeddings, dim, lambda: self.dedup
        )
        # Set by langgraph_memory.background.worker_for: the store only needs to wait for
        # it and stop it, so it knows it by this small interface, not by its class.
        self._background: _Background | None = None
        self._sides: dict[str, Backend] = {}
        self._sides_guard = threading.Lock()

    @property
    def sparse_embeddings(self) -> SparseEmbeddings:
        """The BM25 encoder. The default is built on first use: a store opened to read never
        imports langchain-qdrant (and with it qdrant-client, seconds)."""
        if self._sparse_embeddings is None:
            from langgraph_memory.store._bm25 import Bm25SparseEmbeddings

            self._sparse_embeddings = Bm25SparseEmbeddings()
        return self._sparse_embeddings

    @sparse_embeddings.setter
    def sparse_embeddings(self, value: SparseEmbeddings) -> None:
        self._sparse_embeddings = _checked_encoder(value)

    # -- construction -------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        embeddings: Embeddings | str | None = None,
        dedup: DedupPolicy | None = None,
        sparse_embeddings: SparseEmbeddings | None = None,
        _langchain_free: bool = False,
    ) -> "StoreConnection":
        """Open (or create) the embedded store in directory ``path`` (Qdrant Edge).

        ``embeddings``: ``None`` uses the embedder the store recorded when it was created
        (for a new store: :func:`default_embeddings`); a name (``"minilm"``, ``"e5"``,
        ``"openai"``, see :func:`~langgraph_memory.store.embeddings.named_embeddings`) or a
        LangChain ``Embeddings`` must be the store's own.

        Raises:
            StoreLockedError: ``path`` is already open, here or in another process.
            EmbedderMismatchError: the embedder given is not the one the store was built with.
            SchemaMismatchError: the store's vectors have another size than the embedder's.
        """
        from langgraph_memory.store.backends.edge import EdgeBackend

        if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
            raise InvalidMemoryError("path", "expected a directory path")
        sparse_embeddings = _checked_encoder(sparse_embeddings)  # refused before the store opens
        return cls(
            embeddings=embeddings, dedup=dedup, sparse_embeddings=sparse_embeddings,
            _backend=EdgeBackend(path), _langchain_free=_langchain_free,
        )

    @classmethod
    def connect(
        cls,
        url: str,
        api_key: str | None = None,
        *,
        collection_name: str = "langgraph_memory",
        embeddings: Embeddings | str | None = None,
        dedup: DedupPolicy | None = None,
        sparse_embeddings: SparseEmbeddings | None = None,
        **client_kwargs: Any,
    ) -> "StoreConnection":
        """Use a Qdrant server or cluster at ``url`` (``api_key`` for Qdrant Cloud)."""
        from qdrant_client import QdrantClient

        with warnings.catch_warnings():
            # A server that is down makes qdrant-client warn that it cannot check versions;
            # opening the collection then fails with the real reason, once.
            warnings.filterwarnings("ignore", message="Failed to obtain server version")
            client = QdrantClient(url=url, api_key=api_key, **client_kwargs)
        return cls(
            client=client,
            collection_name=collection_name, embeddings=embeddings, dedup=dedup,
            sparse_embeddings=sparse_embeddings,
        )

    @property
    def backend_name(self) -> str:
        return self._backend.name

    def side_collection(self, name: str, *, keyword_fields: Sequence[str] = ()) -> Backend:
        """The engine's collection ``name`` beside the memories, for records that are not
        memories (exchanges, summaries, room messages): vectors of the same embedder, never
        seen by memory reads. Created on first use, closed with the store."""
        with self._sides_guard:
            side = self._sides.get(name)
            if side is None:
                side = self._backend.sibling(name, keyword_fields=keyword_fields)
                side.setup(dim=self.dim, meta={"schema_version": SCHEMA_VERSION, "embedder": self.embedder})
                self._sides[name] = side
            return side

    def close(self) -> None:
        """Finish background work, flush and release the store; the embedded directory can
        then be opened again."""
        daily = self.__dict__.pop("_daily_gardening", None)  # background/daily.py's scheduler
        if daily is not None:
            daily.stop()
        if self._background is not None:
            self._background.close()
        for side in self._sides.values():
            side.close()
        self._backend.close()

    def optimize(self) -> bool:
        """Build the vector index (HNSW) over memories written since the last build,
        blocking; whether anything changed. Qdrant Edge indexes nothing by itself: until
        this runs, a query on a namespace of many thousands of memories scans them. Bulk
        loads (``remember_many(dedup=False)``, imports) call it once they have added
        :data:`~langgraph_memory.store._writing.OPTIMIZE_AFTER` memories; a large store fed
        one memory at a time should call it now and then (see ``docs/benchmarks.md``,
        "Large namespaces"). A Qdrant server indexes by itself: there it does nothing.

        Qdrant Edge holds the GIL for the whole build (about 11 s for 20k memories of 384
        dimensions on 2 cores): every thread of the process, the event loop included, waits
        for it, even when it runs in a background thread. Call it when no turn is served.
        Smaller segments built as they fill, or a build in a child process, were measured
        and do not avoid this (``docs/benchmarks.md``, "Index builds and query embedding");
        ``docs/upstream/qdrant-edge-gil.md`` asks the binding to release the GIL."""
        return self._backend.optimize()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every background job accepted for this store (statistics, indexing,
        digests) is done; ``False`` if ``timeout`` seconds ran out first."""
        return True if self._background is None else self._background.flush(timeout)

    async def aflush(self, timeout: float | None = None) -> bool:
        """Async twin of :meth:`flush`."""
        return True if self._background is None else await self._background.aflush(timeout)

    def __enter__(self) -> "StoreConnection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- embedding ----------------------------------------------------------------------

    def query_vectors(self, query: str | QueryVectors) -> QueryVectors:
        """``query``'s vectors: a text embedded (:meth:`embed_query`), vectors built by a
        caller checked for this store (:meth:`QueryVectors.checked`)."""
        return query.checked(self.dim) if isinstance(query, QueryVectors) else self.embed_query(query)

    def embed_query(self, text: str) -> QueryVectors:
        """Embed a query once; pass the result to :meth:`search` as many times as needed."""
        text = check_text("query", text, MAX_QUERY_CHARS)
        dense = normalise(self.embeddings.embed_query(text))
        # Marked as checked below, so never looked at again: a NaN or a wrong size would reach
        # the engines (Qdrant Edge searches a NaN vector). Normalised, the sum is finite iff all are.
        if len(dense) != self.dim or not math.isfinite(sum(dense)):
            raise InvalidMemoryError("embeddings", f"the embedder must return {self.dim} finite floats for a query")
        sparse = self.sparse_embeddings.embed_query(text)
        return QueryVectors(text, dense, (list(sparse.indices), list(sparse.values)))._marked_for(self.dim)

    def embed_query_soon(self, text: str) -> Future[QueryVectors]:
        """:meth:`embed_query` started on a helper thread, so the caller can read the
        store meanwhile (the pre-hook runs its metadata channels while the message
        embeds). Errors, a bad ``text`` included, surface from ``result()``."""
        return _embedding_pool().submit(contextvars.copy_context().run, self.embed_query, text)

    aembed_query = async_twin(embed_query)
    aoptimize = async_twin(optimize)

    async def aclose(self) -> None:
        """Async twin of :meth:`close`."""
        await asyncio.to_thread(self.close)

    async def __aenter__(self) -> "StoreConnection":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
