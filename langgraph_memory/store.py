"""MemoryStore: remember, search and forget, on Qdrant Edge (embedded) or a Qdrant server."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Iterator, Literal, Sequence

from langchain_core.embeddings import Embeddings
from langchain_qdrant.sparse_embeddings import SparseEmbeddings

from langgraph_memory._backends import (
    SCHEMA_VERSION,
    Backend,
    DenseQuery,
    Hit,
    SparseQuery,
    StoredPoint,
    Where,
)
from langgraph_memory._dedup import DedupPolicy
from langgraph_memory._hybrid import hybrid_plan
from langgraph_memory._reads import Plan, memories_plan, run_plans
from langgraph_memory._writing import RememberMixin, RememberResult, _async_twin, _normalise
from langgraph_memory.embeddings import (
    Bm25SparseEmbeddings,
    LazyEmbeddings,
    default_embeddings,
    embedder_name,
)
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.records import (
    Memory,
    Namespace,
    namespace_key,
    parse_since,
    utcnow,
    validate_kind,
    validate_memory_type,
    validate_namespace,
    validate_subjects,
    KIND_CATEGORIES,
)

__all__ = ["MemoryStore", "RememberResult", "SearchHit", "QueryVectors", "SearchMode"]

logger = logging.getLogger("langgraph_memory")

SearchMode = Literal["hybrid", "dense", "bm25"]


@dataclass(frozen=True)
class QueryVectors:
    """A query embedded once (dense + sparse), reusable by every search of a turn."""

    text: str
    dense: list[float]
    sparse: tuple[list[int], list[float]]


@dataclass(frozen=True)
class SearchHit:
    memory: Memory
    score: float
    """Cosine for ``dense``, BM25 for ``bm25``, weighted fusion in [0, 1] for ``hybrid``."""
    dense_score: float | None = None
    sparse_score: float | None = None
    vector: list[float] | None = field(default=None, repr=False)
    """The memory's dense vector, when asked for (the pre-hook's cosine dedup uses it)."""
    matched: tuple[str, ...] = ()
    """For ``hybrid``: what the query named that this memory matches, and that raised its
    score: ``"subject:<tag>"`` (a subject, or an alias of one) and ``"time"`` (created
    within a time the query names, e.g. "in May 2023", "last week")."""


def _tuple(values: str | Sequence[str] | None) -> tuple[str, ...] | None:
    if values is None:
        return None
    return (values,) if isinstance(values, str) else tuple(values)


class MemoryStore(RememberMixin):
    """Long-term memories of many users in one Qdrant collection, isolated by namespace.

    Build it with :meth:`open` (embedded Qdrant Edge, the default), :meth:`connect` (a Qdrant
    server) or ``MemoryStore(client=QdrantClient(...))``. Every operation takes the
    ``namespace`` (a tuple of strings, e.g. ``("memories", user_id)``) and never reads or
    changes another namespace. Each method has an async twin prefixed with ``a``.

    Args:
        client: a ``QdrantClient`` (server, cluster, or ``":memory:"`` local mode).
        embeddings: any LangChain ``Embeddings``; default: :func:`default_embeddings`.
        collection_name: the Qdrant collection, for the client backend.
        dedup: the policy deciding duplicate / refinement / correction on remember;
            default: :meth:`DedupPolicy.for_embedder` of the embedder's name.
        sparse_embeddings: the BM25 encoder; default: Qdrant Edge's, English stemming.
    """

    def __init__(
        self,
        *,
        client: Any = None,
        embeddings: Embeddings | None = None,
        collection_name: str = "langgraph_memory",
        dedup: DedupPolicy | None = None,
        sparse_embeddings: SparseEmbeddings | None = None,
        _backend: Backend | None = None,
    ) -> None:
        if _backend is None:
            if client is None:
                raise TypeError(
                    "MemoryStore needs a backend: use MemoryStore.open(path) for the embedded "
                    "store, MemoryStore.connect(url) for a server, or MemoryStore(client=...)."
                )
            from langgraph_memory._backends.qdrant import QdrantClientBackend

            _backend = QdrantClientBackend(client, collection_name)
        self.embeddings = embeddings or default_embeddings()
        self.sparse_embeddings = sparse_embeddings or Bm25SparseEmbeddings()
        self.embedder = embedder_name(self.embeddings)
        self.dedup = dedup or DedupPolicy.for_embedder(self.embedder)
        self._backend = _backend
        lazy = isinstance(self.embeddings, LazyEmbeddings) and not self.embeddings.loaded
        stored = self._backend.stored_meta() if lazy else None
        if stored is not None and stored.get("embedder") == self.embedder and isinstance(stored.get("dim"), int):
            dim = stored["dim"]  # the same model made them: no need to load it to measure
        else:
            dim = len(self.embeddings.embed_query("dimension probe"))
        self.meta = self._backend.setup(
            dim=dim, meta={"schema_version": SCHEMA_VERSION, "embedder": self.embedder}
        )
        if self.meta.get("embedder") != self.embedder:
            logger.warning(
                "store was built with embedder %r, now opened with %r: similarity across "
                "the two is meaningless", self.meta.get("embedder"), self.embedder,
            )
        self.dim = dim
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._locks_guard = threading.Lock()

    # -- construction -------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        embeddings: Embeddings | None = None,
        dedup: DedupPolicy | None = None,
        sparse_embeddings: SparseEmbeddings | None = None,
    ) -> "MemoryStore":
        """Open (or create) the embedded store in directory ``path`` (Qdrant Edge).

        Raises:
            StoreLockedError: ``path`` is already open, here or in another process.
            SchemaMismatchError: it was created with an embedder of another size.
        """
        from langgraph_memory._backends.edge import EdgeBackend

        if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
            raise InvalidMemoryError("path", "expected a directory path")
        return cls(
            embeddings=embeddings, dedup=dedup, sparse_embeddings=sparse_embeddings,
            _backend=EdgeBackend(path),
        )

    @classmethod
    def connect(
        cls,
        url: str,
        api_key: str | None = None,
        *,
        collection_name: str = "langgraph_memory",
        embeddings: Embeddings | None = None,
        dedup: DedupPolicy | None = None,
        sparse_embeddings: SparseEmbeddings | None = None,
        **client_kwargs: Any,
    ) -> "MemoryStore":
        """Use a Qdrant server or cluster at ``url`` (``api_key`` for Qdrant Cloud)."""
        from qdrant_client import QdrantClient

        return cls(
            client=QdrantClient(url=url, api_key=api_key, **client_kwargs),
            collection_name=collection_name, embeddings=embeddings, dedup=dedup,
            sparse_embeddings=sparse_embeddings,
        )

    @property
    def backend_name(self) -> str:
        return self._backend.name

    def close(self) -> None:
        """Flush and release the store; the embedded directory can then be opened again."""
        self._backend.close()

    def __enter__(self) -> "MemoryStore":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- embedding ----------------------------------------------------------------------

    def embed_query(self, text: str) -> QueryVectors:
        """Embed a query once; pass the result to :meth:`search` as many times as needed."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidMemoryError("query", "is empty")
        dense = _normalise(self.embeddings.embed_query(text))
        sparse = self.sparse_embeddings.embed_query(text)
        return QueryVectors(text, dense, (list(sparse.indices), list(sparse.values)))

    # -- reading ------------------------------------------------------------------------

    def _live(self, namespace: Namespace, **conditions: Any) -> Where:
        return Where(
            namespace=namespace_key(validate_namespace(namespace)),
            alive_at=utcnow().timestamp(),
            **conditions,
        )

    def _filters(
        self,
        namespace: Namespace,
        kinds: str | Sequence[str] | None = None,
        memory_types: str | Sequence[str] | None = None,
        categories: str | Sequence[str] | None = None,
        subjects: str | Sequence[str] | None = None,
        since: str | timedelta | datetime | None = None,
        until: datetime | None = None,
        min_importance: float | None = None,
    ) -> Where:
        kinds_t = _tuple(kinds)
        for k in kinds_t or ():
            validate_kind(k)
        types_t = _tuple(memory_types)
        for t in types_t or ():
            validate_memory_type(t)
        cats_t = _tuple(categories)
        known = set().union(*KIND_CATEGORIES.values())
        for c in cats_t or ():
            if c not in known:
                raise InvalidMemoryError("categories", f"unknown category {c!r}")
        return self._live(
            namespace,
            kinds=kinds_t,
            memory_types=types_t,
            categories=cats_t,
            subjects=validate_subjects(_tuple(subjects)) or None,
            created_since=None if since is None else parse_since(since).timestamp(),
            created_until=None if until is None else parse_since(until).timestamp(),
            min_importance=min_importance,
        )

    def search(
        self,
        query: str | QueryVectors,
        *,
        namespace: Namespace,
        limit: int = 10,
        mode: SearchMode = "hybrid",
        kinds: str | Sequence[str] | None = None,
        memory_types: str | Sequence[str] | None = None,
        categories: str | Sequence[str] | None = None,
        subjects: str | Sequence[str] | None = None,
        since: str | timedelta | datetime | None = None,
        until: datetime | None = None,
        min_importance: float | None = None,
        min_score: float | None = None,
        with_vectors: bool = False,
    ) -> list[SearchHit]:
        """Live memories of ``namespace`` most relevant to ``query``, best first.

        Args:
            query: text, or :class:`QueryVectors` from :meth:`embed_query` to reuse an embedding.
            limit: at most this many hits (1..1000).
            mode: ``hybrid`` (dense + BM25, fused by weight; memories tagged with a
                subject the query names, or an alias of one, and memories from a time it
                names rank higher: see :attr:`SearchHit.matched`), ``dense`` or ``bm25``.
            kinds, memory_types, categories, subjects: keep memories matching any value given.
            since, until: creation time window (``since`` also takes ``"6h"``).
            min_importance: keep memories at least this important.
            min_score: drop hits scoring below this (in the mode's own scale, see :class:`SearchHit`).
            with_vectors: attach each memory's dense vector to its hit.
        """
        if not isinstance(limit, int) or not 1 <= limit <= 1000:
            raise InvalidMemoryError("limit", "must be an integer from 1 to 1000")
        if mode not in ("hybrid", "dense", "bm25"):
            raise InvalidMemoryError("mode", f"unknown mode {mode!r}; expected hybrid, dense or bm25")
        where = self._filters(namespace, kinds, memory_types, categories, subjects, since, until, min_importance)
        vectors = query if isinstance(query, QueryVectors) else self.embed_query(query)
        [hits] = self._read(self._search_plan(vectors, where, limit, mode, with_vectors))
        if min_score is not None:
            hits = [h for h in hits if h.score >= min_score]
        return hits[:limit]

    def _search_plan(
        self, vectors: QueryVectors, where: Where, limit: int, mode: SearchMode, with_vectors: bool
    ) -> Plan[list[SearchHit]]:
        if mode == "dense":
            [dense] = yield [DenseQuery(vectors.dense, where, limit, with_vectors)]
            return [SearchHit(_memory(h), h.score, dense_score=h.score, vector=h.point.dense) for h in dense]
        if mode == "bm25":
            [sparse] = yield [SparseQuery(*vectors.sparse, where, limit, with_vectors)]
            return [SearchHit(_memory(h), h.score, sparse_score=h.score, vector=h.point.dense) for h in sparse]
        fused = yield from hybrid_plan(self.sparse_embeddings, vectors, where, limit, with_vectors)
        return [
            SearchHit(_memory(f.hit), f.score, f.dense_score, f.sparse_score, f.hit.point.dense, why)
            for f, why in fused
        ]

    def _read(self, *plans: Plan[Any]) -> list[Any]:
        """The answers of several read plans, sharing the engine's round trips. Public
        reads run one plan; the pre-hook (:mod:`langgraph_memory.injection`) runs its
        channels together."""
        return run_plans(self._backend, plans)

    def recent(
        self,
        *,
        namespace: Namespace,
        since: str | timedelta | datetime | None = "6h",
        limit: int = 10,
        kinds: str | Sequence[str] | None = None,
    ) -> list[Memory]:
        """Live memories created or updated since ``since`` (``"6h"``, a timedelta or a
        datetime; ``None``: any time), newest first. This answers "what did we talk about?"."""
        [memories] = self._read(self._recent_plan(namespace, since, limit, kinds))
        return memories

    def _recent_plan(
        self, namespace: Namespace, since: str | timedelta | datetime | None, limit: int,
        kinds: str | Sequence[str] | None = None,
    ) -> Plan[list[Memory]]:
        where = self._filters(namespace, kinds)
        if since is not None:
            where = dataclasses.replace(where, updated_since=parse_since(since).timestamp())
        return memories_plan(where, limit, "updated_at")

    def identity(self, *, namespace: Namespace, limit: int = 10) -> list[Memory]:
        """Who the user is (``identity`` memories) and the agent's own ``self`` context,
        most important first."""
        [memories] = self._read(self._identity_plan(namespace, limit))
        return memories

    def _identity_plan(self, namespace: Namespace, limit: int) -> Plan[list[Memory]]:
        where = self._live(
            namespace,
            any_of=(
                Where(status=None, memory_types=("identity",)),
                Where(status=None, kinds=("self",), categories=("context",)),
            ),
        )
        return memories_plan(where, limit, "importance")

    def important(
        self, *, namespace: Namespace, min_importance: float = 0.8, limit: int = 10
    ) -> list[Memory]:
        """Live memories with importance >= ``min_importance``, most important first."""
        [memories] = self._read(self._important_plan(namespace, min_importance, limit))
        return memories

    def _important_plan(
        self, namespace: Namespace, min_importance: float, limit: int
    ) -> Plan[list[Memory]]:
        return memories_plan(self._live(namespace, min_importance=min_importance), limit, "importance")

    def get(self, memory_id: str, *, namespace: Namespace) -> Memory | None:
        """The live memory ``memory_id`` of ``namespace``, or ``None`` (also when it belongs
        to another namespace, was superseded, or expired)."""
        found = self._get_points([memory_id], namespace, live_only=True)
        return Memory.from_payload(found[0].id, found[0].payload) if found else None

    def get_many(self, memory_ids: Sequence[str], *, namespace: Namespace, with_vectors: bool = False) -> list[tuple[Memory, list[float] | None]]:
        """Live memories among ``memory_ids`` of ``namespace``, with their vectors if asked."""
        points = self._get_points(list(memory_ids), namespace, live_only=True, with_vectors=with_vectors)
        return [(Memory.from_payload(p.id, p.payload), p.dense) for p in points]

    def _get_points(
        self, ids: Sequence[str], namespace: Namespace, *, live_only: bool, with_vectors: bool = False
    ) -> list[StoredPoint]:
        key = namespace_key(validate_namespace(namespace))
        valid = [_check_id(i) for i in ids]
        now = utcnow().timestamp()
        out = []
        for p in self._backend.retrieve(valid, with_vectors=with_vectors):
            if p.payload.get("namespace") != key:
                continue  # another user's memory: as if it did not exist
            if live_only:
                expires = p.payload.get("expires_at")
                if p.payload.get("status") != "live" or (expires is not None and expires <= now):
                    continue
            out.append(p)
        return out

    def history(self, memory_id: str, *, namespace: Namespace) -> list[Memory]:
        """Every version of the fact ``memory_id`` belongs to, oldest first: the memories it
        superseded, itself, and whatever superseded it."""
        seen: dict[str, Memory] = {}
        frontier = [memory_id]
        while frontier:
            points = self._get_points([i for i in frontier if i not in seen], namespace, live_only=False)
            frontier = []
            for p in points:
                m = Memory.from_payload(p.id, p.payload)
                seen[m.id] = m
                frontier.extend(i for i in (*m.supersedes, m.superseded_by) if i and i not in seen)
        return sorted(seen.values(), key=lambda m: (m.updated_at, m.created_at))

    # -- forgetting ---------------------------------------------------------------------

    def delete(self, memory_id: str, *, namespace: Namespace, reason: str | None = None) -> Memory | None:
        """Forget the live memory ``memory_id`` and the older versions it superseded.

        Returns the deleted memory, or ``None`` when ``namespace`` has no such live memory
        (another user's id behaves exactly like an unknown one).
        """
        if reason is not None and not isinstance(reason, str):
            raise InvalidMemoryError("reason", "must be a string")
        target = self.get(memory_id, namespace=namespace)
        if target is None:
            return None
        chain = [m.id for m in self.history(memory_id, namespace=namespace)]
        self._backend.delete(chain)
        logger.info("deleted memory %s (%d versions): %s", memory_id, len(chain), reason or "no reason given")
        return target

    def erase(self, namespace: Namespace) -> int:
        """Forget everything of ``namespace`` and of the namespaces under it, history
        included. Returns how many records were removed."""
        key = namespace_key(validate_namespace(namespace))
        return self._backend.delete_where(Where(namespace_prefix=key, status=None))

    def purge_expired(self, namespace: Namespace | None = None) -> int:
        """Remove expired memories (reads already hide them). Returns how many."""
        prefix = None if namespace is None else namespace_key(validate_namespace(namespace))
        return self._backend.delete_where(
            Where(namespace_prefix=prefix, status=None, expired_at=utcnow().timestamp())
        )

    # -- bookkeeping --------------------------------------------------------------------

    def record_access(self, memory_ids: Sequence[str], *, namespace: Namespace, injected: bool = False) -> None:
        """Count an access (and an injection) on each memory; used off the hot path."""
        now = utcnow().timestamp()
        with self._lock(validate_namespace(namespace), "__stats__"):
            for p in self._get_points(list(memory_ids), namespace, live_only=True):
                payload = {
                    "last_accessed_at": now,
                    "access_count": int(p.payload.get("access_count") or 0) + 1,
                }
                if injected:
                    payload["injection_count"] = int(p.payload.get("injection_count") or 0) + 1
                self._backend.set_payload([p.id], payload)

    def count(self, *, namespace: Namespace | None = None, include_superseded: bool = False) -> int:
        """How many live memories (in ``namespace`` and below, or in the whole store)."""
        prefix = None if namespace is None else namespace_key(validate_namespace(namespace))
        where = Where(
            namespace_prefix=prefix,
            status=None if include_superseded else "live",
            alive_at=None if include_superseded else utcnow().timestamp(),
        )
        return self._backend.count(where)

    def iter_points(
        self, *, namespace: Namespace | None = None, include_superseded: bool = True,
        with_vectors: bool = False, batch: int = 256,
    ) -> Iterator[StoredPoint]:
        """Every stored record (payload and vectors), for export and inspection."""
        prefix = None if namespace is None else namespace_key(validate_namespace(namespace))
        where = Where(namespace_prefix=prefix, status=None if include_superseded else "live")
        offset = None
        while True:
            points, offset = self._backend.scroll(where, limit=batch, with_vectors=with_vectors, offset=offset)
            yield from points
            if offset is None:
                return

    asearch = _async_twin(search)
    arecent = _async_twin(recent)
    aidentity = _async_twin(identity)
    aimportant = _async_twin(important)
    aget = _async_twin(get)
    aget_many = _async_twin(get_many)
    ahistory = _async_twin(history)
    adelete = _async_twin(delete)
    aerase = _async_twin(erase)
    apurge_expired = _async_twin(purge_expired)
    arecord_access = _async_twin(record_access)
    aembed_query = _async_twin(embed_query)
    acount = _async_twin(count)

    async def aclose(self) -> None:
        """Async twin of :meth:`close`."""
        await asyncio.to_thread(self.close)

    async def __aenter__(self) -> "MemoryStore":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _memory(hit: Hit) -> Memory:
    return Memory.from_payload(hit.point.id, hit.point.payload)


def _check_id(memory_id: Any) -> str:
    import uuid

    try:
        return str(uuid.UUID(str(memory_id)))
    except (ValueError, TypeError, AttributeError):
        raise InvalidMemoryError("memory_id", f"{memory_id!r} is not a memory id") from None
