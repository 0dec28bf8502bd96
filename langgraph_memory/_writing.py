"""The write path of :class:`~langgraph_memory.store.MemoryStore`: remember with dedup
(embedding, the check-then-write under a lock, supersession). It lives apart from
``store.py`` so that module keeps to the read and forget API."""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import (
    TYPE_CHECKING,
    Any,
    Awaitable,
    Callable,
    Concatenate,
    Literal,
    Mapping,
    ParamSpec,
    Sequence,
    TypeVar,
)

from langchain_core.embeddings import Embeddings
from langchain_qdrant.sparse_embeddings import SparseEmbeddings

from langgraph_memory._backends import Backend, DenseQuery, Hit, StoredPoint, Where
from langgraph_memory._dedup import DedupPolicy, DedupVerdict
from langgraph_memory._fusion import index_text
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.records import (
    MAX_CONTENT_CHARS,
    Memory,
    MemoryInput,
    Namespace,
    namespace_key,
    new_memory,
)

if TYPE_CHECKING:
    from langgraph_memory.store import MemoryStore

logger = logging.getLogger("langgraph_memory")

P = ParamSpec("P")
R = TypeVar("R")

# How many nearest live memories of the same kind the dedup policy looks at.
DEDUP_CANDIDATES = 5
UPSERT_BATCH = 256


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


class RememberMixin:
    """The write path of MemoryStore: remember with dedup. Its attributes are set by ``MemoryStore.__init__``."""

    embeddings: Embeddings
    sparse_embeddings: SparseEmbeddings
    dim: int
    dedup: DedupPolicy
    _backend: Backend
    _locks: dict[tuple[str, str], threading.Lock]
    _locks_guard: threading.Lock
    _live: Callable[..., Where]

    # -- embedding ----------------------------------------------------------------------

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

    aremember = _async_twin(remember)
    aremember_many = _async_twin(remember_many)


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
