"""MemoryStore: remember, search and forget, on Qdrant Edge (embedded) or a Qdrant server."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import math
import os
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import (
    Any,
    Awaitable,
    Callable,
    Concatenate,
    Iterator,
    Literal,
    Mapping,
    ParamSpec,
    Sequence,
    TypeVar,
)

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
from langgraph_memory._dedup import DedupPolicy, DedupVerdict
from langgraph_memory._fusion import index_text
from langgraph_memory._hybrid import hybrid_plan
from langgraph_memory._reads import Plan, memories_plan, run_plans
from langgraph_memory.embeddings import Bm25SparseEmbeddings, default_embeddings, embedder_name
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.records import (
    MAX_CONTENT_CHARS,
    Memory,
    MemoryInput,
    Namespace,
    namespace_key,
    new_memory,
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
P = ParamSpec("P")
R = TypeVar("R")

# How many nearest live memories of the same kind the dedup policy looks at.
DEDUP_CANDIDATES = 5
UPSERT_BATCH = 256


@dataclass(frozen=True)
class QueryVectors:
    """A query embedded once (dense + sparse), reusable by every search of a turn."""

    text: str
    dense: list[float]
    sparse: tuple[list[int], list[float]]


@dataclass(frozen=True)
class RememberResult:
    """What :meth:`MemoryStore.remember` did."""

    action: Literal["inserted", "updated", "duplicate"]
    """``inserted``: a new memory; ``updated``: it superseded ``replaced``;
    ``duplicate``: nothing new, ``memory`` is the existing one."""
    memory: Memory
    """The live memory that now holds the fact."""
    replaced: Memory | None = None
    """For ``updated``: the memory it superseded, now in ``history``."""
    verdict: DedupVerdict | None = None
    """The dedup policy's decision and reason; for ``inserted``, the verdict on the closest
    candidate (``None`` when no memory was similar enough to ask about)."""


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


def _async_twin(fn: Callable[Concatenate["MemoryStore", P], R]) -> Callable[Concatenate["MemoryStore", P], Awaitable[R]]:
    """The async twin of a store method: same arguments, run in a worker thread so the
    event loop never blocks on embedding or storage."""

    @functools.wraps(fn)
    async def twin(self: "MemoryStore", *args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(fn, self, *args, **kwargs)

    twin.__doc__ = f"Async twin of :meth:`{fn.__name__}`.\n\n{fn.__doc__ or ''}"
    twin.__name__ = twin.__qualname__ = f"a{fn.__name__}"
    return twin


def _normalise(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


def _tuple(values: str | Sequence[str] | None) -> tuple[str, ...] | None:
    if values is None:
        return None
    return (values,) if isinstance(values, str) else tuple(values)


class MemoryStore:
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

    def _embed_documents(
        self, texts: list[str], sparse_texts: list[str] | None = None
    ) -> list[tuple[list[float], tuple[list[int], list[float]]]]:
        dense = self.embeddings.embed_documents(texts)
        if len(dense) != len(texts) or any(len(v) != self.dim for v in dense):
            raise InvalidMemoryError("embeddings", f"the embedder must return {self.dim}-dim vectors")
        sparse = self.sparse_embeddings.embed_documents(texts if sparse_texts is None else sparse_texts)
        return [
            (_normalise(d), (list(s.indices), list(s.values))) for d, s in zip(dense, sparse)
        ]

    def _embed_memories(
        self, memories: Sequence[Memory], contexts: Sequence[str | None]
    ) -> list[tuple[list[float], tuple[list[int], list[float]]]]:
        """Dense vectors of the content alone (dedup and the pre-hook compare those), BM25
        vectors of the content after its context: on LoCoMo, context in the dense text
        drowned short memories (and it would move dedup's cosines)."""
        if not any(contexts):
            return self._embed_documents([m.content for m in memories])
        sparse = [index_text(m.content, context=c) for m, c in zip(memories, contexts)]
        return self._embed_documents([m.content for m in memories], sparse)

    # -- writing ------------------------------------------------------------------------

    def _lock(self, namespace: Namespace, kind: str) -> threading.Lock:
        # Dedup is check-then-write: two writers of one user and kind must take turns,
        # or both could insert the same fact.
        key = (namespace_key(namespace), kind)
        with self._locks_guard:
            return self._locks.setdefault(key, threading.Lock())

    def remember(
        self,
        content: str,
        *,
        namespace: Namespace,
        kind: str = "fact",
        memory_type: str | None = None,
        category: str | None = None,
        subjects: Sequence[str] | None = None,
        importance: float | None = None,
        ttl: str | timedelta | None = None,
        source: str = "conversation",
        metadata: Mapping[str, Any] | None = None,
        created_at: datetime | None = None,
        dedup: bool = True,
        context: str | None = None,
    ) -> RememberResult:
        """Store one memory, letting the dedup policy merge it with what is already known.

        Args:
            content: the fact, one statement (at most :data:`~langgraph_memory.records.MAX_CONTENT_CHARS`).
            namespace: whose memory, e.g. ``("memories", "alice")``.
            kind: ``fact``, ``self`` or ``goal``.
            memory_type: one of the 8 types; default ``fact`` (``goal`` for goals).
            category: for ``self`` and ``goal`` memories.
            subjects: flat tags, lowercased.
            importance: 0..1; default from the memory type.
            ttl: ``"30m"``, ``"1h"``, ``"7d"``, ``"2w"``; ``None`` for permanent.
            source: where it came from (conversation, chat, note, digest, import...).
            metadata: free JSON data, e.g. provenance; merged when memories merge.
            created_at: when the fact was learned, for imports of dated history.
            dedup: ``False`` skips the similarity check (bulk loads).
            context: text the memory came with, e.g. the message it answers; indexed for
                keyword (BM25) search only, never returned. It lets "Yes, a sunrise!" be
                found by a question about the painting it answers.

        Returns:
            A :class:`RememberResult`: ``inserted``, ``updated`` (with ``replaced``) or
            ``duplicate`` (with the existing memory).

        Raises:
            InvalidMemoryError: bad input; nothing was stored.
        """
        memory = new_memory(
            content, namespace=namespace, kind=kind, memory_type=memory_type, category=category,
            subjects=subjects, importance=importance, ttl=ttl, source=source, metadata=metadata,
            created_at=created_at,
        )
        [(dense, sparse)] = self._embed_memories([memory], [_check_context(context)])
        return self._write(memory, dense, sparse, dedup=dedup)

    def remember_many(
        self,
        items: Sequence[MemoryInput],
        *,
        namespace: Namespace,
        dedup: bool = True,
        progress: Callable[[int, int], None] | None = None,
        **defaults: Any,
    ) -> list[RememberResult]:
        """Store many memories with one embedding batch.

        Each item is a text or a dict of :meth:`remember` arguments; ``defaults`` apply to
        every item. All items are validated before anything is written. With
        ``dedup=False`` (imports, benchmarks) they are written in large batches.
        ``progress(done, total)`` is called as batches complete.
        """
        if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
            raise InvalidMemoryError("items", "expected a list of texts or dicts")
        memories = []
        contexts: list[str | None] = []
        for i, item in enumerate(items):
            args = dict(defaults, **(item if isinstance(item, Mapping) else {"content": item}))
            try:
                contexts.append(_check_context(args.pop("context", None)))
                memories.append(new_memory(namespace=namespace, **args))
            except InvalidMemoryError as exc:
                raise InvalidMemoryError(f"items[{i}].{exc.field}", str(exc).split(": ", 1)[-1]) from exc
            except TypeError as exc:
                raise InvalidMemoryError(f"items[{i}]", str(exc)) from exc
        results: list[RememberResult] = []
        total = len(memories)
        for start in range(0, total, UPSERT_BATCH):
            chunk = memories[start : start + UPSERT_BATCH]
            vectors = self._embed_memories(chunk, contexts[start : start + UPSERT_BATCH])
            if dedup:
                results.extend(self._write(m, d, s, dedup=True) for m, (d, s) in zip(chunk, vectors))
            else:
                self._backend.upsert(
                    [StoredPoint(m.id, m.to_payload(), d, s) for m, (d, s) in zip(chunk, vectors)]
                )
                results.extend(RememberResult("inserted", m) for m in chunk)
            if progress is not None:
                progress(min(start + UPSERT_BATCH, total), total)
        return results

    def _write(
        self, memory: Memory, dense: list[float], sparse: tuple[list[int], list[float]], *, dedup: bool
    ) -> RememberResult:
        if not dedup:
            self._backend.upsert([StoredPoint(memory.id, memory.to_payload(), dense, sparse)])
            return RememberResult("inserted", memory)
        with self._lock(memory.namespace, memory.kind):
            candidates = self._backend.query_batch(
                [
                    DenseQuery(
                        dense,
                        self._live(memory.namespace, kinds=(memory.kind,)),
                        DEDUP_CANDIDATES,
                        with_vectors=True,
                    )
                ]
            )[0]
            closest_different: DedupVerdict | None = None
            for hit in candidates:
                if hit.score < self.dedup.candidate_floor:
                    break
                old = Memory.from_payload(hit.point.id, hit.point.payload)
                verdict = self.dedup.decide(
                    memory.content, old.content, hit.score,
                    new_subjects=memory.subjects, old_subjects=old.subjects,
                )
                if verdict.decision == "different":
                    closest_different = closest_different or verdict
                    continue
                if verdict.decision == "duplicate":
                    merged = _merge_metadata(old.metadata, memory.metadata)
                    if merged != old.metadata:
                        self._backend.set_payload([old.id], {"metadata": merged})
                        old = old.evolve(metadata=merged)
                    return RememberResult("duplicate", old, verdict=verdict)
                return self._supersede(old, hit, memory, dense, sparse, verdict)
            self._backend.upsert([StoredPoint(memory.id, memory.to_payload(), dense, sparse)])
            # The closest candidate's "different" verdict explains why nothing was merged.
            return RememberResult("inserted", memory, verdict=closest_different)

    def _supersede(
        self, old: Memory, old_hit: Hit, memory: Memory, dense: list[float],
        sparse: tuple[list[int], list[float]], verdict: DedupVerdict,
    ) -> RememberResult:
        survivor = memory.evolve(
            supersedes=(old.id,),
            subjects=tuple(dict.fromkeys(old.subjects + memory.subjects)),
            importance=max(old.importance, memory.importance),
            metadata=_merge_metadata(old.metadata, memory.metadata),
            # A refinement is the same fact, known since it was first learned.
            created_at=old.created_at if verdict.decision == "refinement" else memory.created_at,
        )
        retired = old.evolve(status="superseded", superseded_by=survivor.id)
        # One write for both points: a failure leaves either the old state or the new one.
        old_point = self._backend.retrieve([old.id], with_vectors=True)[0]
        self._backend.upsert(
            [
                StoredPoint(retired.id, retired.to_payload(), old_point.dense, old_point.sparse),
                StoredPoint(survivor.id, survivor.to_payload(), dense, sparse),
            ]
        )
        logger.info("memory %s supersedes %s (%s)", survivor.id, old.id, verdict.reason)
        return RememberResult("updated", survivor, replaced=retired, verdict=verdict)

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
        with_vectors: bool = False,
    ) -> list[Memory]:
        """Live memories created or updated since ``since`` (``"6h"``, a timedelta or a
        datetime; ``None``: any time), newest first. This answers "what did we talk about?"."""
        [memories] = self._read(self._recent_plan(namespace, since, limit, kinds, with_vectors))
        return [m for m, _ in memories]

    def _recent_plan(
        self, namespace: Namespace, since: str | timedelta | datetime | None, limit: int,
        kinds: str | Sequence[str] | None = None, with_vectors: bool = False,
    ) -> Plan[list[tuple[Memory, list[float] | None]]]:
        where = self._filters(namespace, kinds)
        if since is not None:
            where = dataclasses.replace(where, updated_since=parse_since(since).timestamp())
        return memories_plan(where, limit, "updated_at", with_vectors)

    def identity(self, *, namespace: Namespace, limit: int = 10) -> list[Memory]:
        """Who the user is (``identity`` memories) and the agent's own ``self`` context,
        most important first."""
        [memories] = self._read(self._identity_plan(namespace, limit))
        return [m for m, _ in memories]

    def _identity_plan(self, namespace: Namespace, limit: int) -> Plan[list[tuple[Memory, list[float] | None]]]:
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
        return [m for m, _ in memories]

    def _important_plan(
        self, namespace: Namespace, min_importance: float, limit: int
    ) -> Plan[list[tuple[Memory, list[float] | None]]]:
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

    aremember = _async_twin(remember)
    aremember_many = _async_twin(remember_many)
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


def _check_context(context: Any) -> str | None:
    if context is None:
        return None
    if not isinstance(context, str):
        raise InvalidMemoryError("context", f"expected a string, got {type(context).__name__}")
    if len(context) > MAX_CONTENT_CHARS:
        raise InvalidMemoryError("context", f"is {len(context)} characters; the limit is {MAX_CONTENT_CHARS}")
    return context.strip() or None


def _merge_metadata(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """Union of two metadata dicts: list values (e.g. provenance) are joined without
    repeats, so a merged memory keeps the evidence of both; other values take the newer."""
    merged = {**old, **new}
    for key, value in new.items():
        if isinstance(old.get(key), list) and isinstance(value, list):
            joined = list(old[key])  # values may be unhashable (dicts), so no set here
            merged[key] = joined + [v for v in value if v not in joined]
    return merged
