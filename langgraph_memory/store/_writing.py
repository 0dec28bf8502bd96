"""The write path of :class:`~langgraph_memory.store.MemoryStore`: embedding memories,
the check-then-write under a lock that dedup needs, and supersession. The store validates
a call into :class:`~langgraph_memory.store.records.Memory` records and hands them here."""

from __future__ import annotations

import logging
import math
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Literal, Mapping, Sequence

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._dedup import DedupPolicy, DedupVerdict, subject_probe
from langgraph_memory.store._fusion import index_text
from langgraph_memory.store._links import repoint_peers, supersede_links
from langgraph_memory.store._reads import check_memory_id, live_where, points_by_id
from langgraph_memory.store._reasons import in_words
from langgraph_memory.store._reconcile import reconcile
from langgraph_memory.store.backends import Backend, DenseQuery, Hit, SparseQuery, StoredPoint
from langgraph_memory.store.records import MAX_CONTENT_CHARS, Memory, Namespace, metadata_fields, namespace_key

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings
    from langchain_qdrant.sparse_embeddings import SparseEmbeddings

logger = logging.getLogger("langgraph_memory")

# How many nearest live memories of the same kind the dedup policy looks at.
DEDUP_CANDIDATES = 5
JUDGED_FIELDS = ("content", "subjects")
"""What the dedup policy reads of a candidate: payloads are most of a query's cost in the
engine, so the rest is read only for the candidate acted on."""
UPSERT_BATCH = 256
OPTIMIZE_AFTER = 5_000
"""Once bulk writes have added this many memories since the last index build, the next
one to finish builds it: below that the engine's filtered scan is as fast as the graph."""

Vectors = tuple[list[float], tuple[list[int], list[float]]]


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


def normalise(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


class Writer:
    """Writes memories into one backend. The store owns it and passes what a write needs.

    Args:
        backend: the engine.
        embeddings: the dense embedder; ``dim`` its vector size.
        sparse_embeddings: a callable returning the store's BM25 encoder (built on first use).
        dedup: a callable returning the store's current dedup policy.
    """

    def __init__(
        self, backend: Backend, embeddings: Embeddings, sparse_embeddings: Callable[[], SparseEmbeddings],
        dim: int, dedup: Callable[[], DedupPolicy],
    ) -> None:
        self.backend = backend
        self.embeddings = embeddings
        self._sparse_embeddings = sparse_embeddings
        self.dim = dim
        self._dedup = dedup
        self._locks: dict[tuple[str, str], threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._bulk_unindexed = 0

    # -- embedding ----------------------------------------------------------------------

    def embed_documents(
        self, texts: list[str], sparse_texts: list[str] | None = None
    ) -> list[Vectors]:
        dense = self.embeddings.embed_documents(texts)
        if len(dense) != len(texts) or any(len(v) != self.dim for v in dense):
            raise InvalidMemoryError("embeddings", f"the embedder must return {self.dim}-dim vectors")
        if not all(math.isfinite(x) for v in dense for x in v):
            raise InvalidMemoryError("embeddings", "the embedder returned a vector with NaN or infinity")
        sparse = self._sparse_embeddings().embed_documents(texts if sparse_texts is None else sparse_texts)
        return [
            (normalise(d), (list(s.indices), list(s.values))) for d, s in zip(dense, sparse)
        ]

    def embed_memories(
        self, memories: Sequence[Memory], contexts: Sequence[str | None]
    ) -> list[Vectors]:
        """Dense vectors of the content alone (dedup and the pre-hook compare those), BM25
        vectors of the content after its context: on LoCoMo, context in the dense text
        drowned short memories (and it would move dedup's cosines)."""
        if not any(contexts):
            return self.embed_documents([m.content for m in memories])
        sparse = [index_text(m.content, context=c) for m, c in zip(memories, contexts)]
        return self.embed_documents([m.content for m in memories], sparse)

    # -- writing ------------------------------------------------------------------------

    def lock(self, namespace: Namespace, kind: str) -> threading.Lock:
        # Dedup is check-then-write: two writers of one user and kind must take turns,
        # or both could insert the same fact.
        key = (namespace_key(namespace), kind)
        with self._locks_guard:
            return self._locks.setdefault(key, threading.Lock())

    def write_many(
        self, memories: Sequence[Memory], contexts: Sequence[str | None], *, dedup: bool,
        progress: Callable[[int, int], None] | None = None, build_index: bool = True,
        updates: Sequence[str | None] | None = None,
    ) -> list[RememberResult]:
        """Write validated memories, embedding them in batches; with ``dedup=False``
        (imports, benchmarks) each batch is one upsert, and counts toward the automatic
        index build. Background jobs pass ``build_index=False``: a build holds the GIL, so
        one started from a job would freeze every turn of the process.

        Not all-or-nothing (the engine has no multi-batch transaction) but always
        consistent: memories are written in order, each one (with what it supersedes) in a
        single upsert, so a stop at any point leaves the first ones stored whole and the
        rest absent. Calling again with ``dedup=True`` resumes: the stored ones come back
        as duplicates."""
        results: list[RememberResult] = []
        total = len(memories)
        for start in range(0, total, UPSERT_BATCH):
            chunk = memories[start : start + UPSERT_BATCH]
            vectors = self.embed_memories(chunk, contexts[start : start + UPSERT_BATCH])
            named = list(updates[start : start + UPSERT_BATCH]) if updates else [None] * len(chunk)
            if dedup or any(named):
                results.extend(
                    self.write(m, d, s, dedup=dedup, updates=u) for m, (d, s), u in zip(chunk, vectors, named))
            else:
                self.backend.upsert(
                    [StoredPoint(m.id, m.to_payload(), d, s) for m, (d, s) in zip(chunk, vectors)]
                )
                results.extend(RememberResult("inserted", m) for m in chunk)
            if progress is not None:
                progress(min(start + UPSERT_BATCH, total), total)
        if not dedup and build_index:
            with self._locks_guard:
                self._bulk_unindexed += total
                build = self._bulk_unindexed >= OPTIMIZE_AFTER
                if build:
                    self._bulk_unindexed = 0
            if build:
                self.backend.optimize()
        return results

    def write(
        self, memory: Memory, dense: list[float], sparse: tuple[list[int], list[float]], *, dedup: bool,
        updates: str | None = None,
    ) -> RememberResult:
        if updates is not None:
            with self.lock(memory.namespace, memory.kind):
                result = self._write_update(memory, dense, sparse, updates)
            if getattr(self.backend, "exclusive", False):
                return result
            return reconcile(self.backend, self._dedup(), result, dense, {result.memory.id, updates})
        if not dedup:
            self.backend.upsert([StoredPoint(memory.id, memory.to_payload(), dense, sparse)])
            return RememberResult("inserted", memory)
        with self.lock(memory.namespace, memory.kind):
            result, seen = self._write_checked(memory, dense, sparse)
        if result.action == "duplicate" or getattr(self.backend, "exclusive", False):
            return result
        # Another store object or process on the same collection may have written the
        # same fact meanwhile: the lock above only orders this object's threads.
        return reconcile(self.backend, self._dedup(), result, dense, seen | {result.memory.id})

    def _write_checked(
        self, memory: Memory, dense: list[float], sparse: tuple[list[int], list[float]]
    ) -> tuple[RememberResult, set[str]]:
        """The dedup check and the write; also the ids of the candidates it looked at."""
        candidates = self.dedup_candidates(memory, dense)
        seen = {hit.point.id for hit in candidates}
        policy = self._dedup()
        closest_different: tuple[DedupVerdict, str] | None = None
        for hit in candidates:
            if hit.score < policy.subject_floor:
                break
            content = hit.point.payload["content"]
            verdict = policy.decide(
                memory.content, content, hit.score,
                new_subjects=memory.subjects, old_subjects=tuple(hit.point.payload.get("subjects") or ()),
            )
            if verdict.decision == "different":
                closest_different = closest_different or (verdict, content)
                continue
            # The candidate acted on is read whole, with its vectors if it is to be rewritten;
            # deleted meanwhile (by another store or process), it no longer holds the fact.
            found = self.backend.retrieve([hit.point.id], with_vectors=verdict.decision != "duplicate")
            if not found or found[0].payload.get("status") != "live":  # deleted (or forgotten) meanwhile
                continue
            old = Memory.from_payload(found[0].id, found[0].payload)
            # Only the verdict acted on is put in words (it is what the caller reads).
            verdict = in_words(verdict, memory.content, old.content)
            if verdict.decision == "duplicate":
                merged = _merge_metadata(old.metadata, memory.metadata)
                if merged != old.metadata:
                    try:
                        self.backend.set_payload([old.id], metadata_fields(merged))
                    except Exception:
                        if self.backend.retrieve([old.id]):
                            raise
                        continue  # deleted meanwhile: it no longer holds the fact
                    old = old.evolve(metadata=merged)
                return RememberResult("duplicate", old, verdict=verdict), seen
            return self._supersede(old, memory, dense, sparse, verdict, old_point=found[0]), seen
        self.backend.upsert([StoredPoint(memory.id, memory.to_payload(), dense, sparse)])
        # The closest candidate's "different" verdict explains why nothing was merged.
        explained = in_words(closest_different[0], memory.content, closest_different[1]) if closest_different else None
        return RememberResult("inserted", memory, verdict=explained), seen

    def update_target(self, memory: Memory, updates: str, *, with_vectors: bool = False) -> StoredPoint:
        """The live memory ``updates`` names, of ``memory``'s namespace and kind; a typed error
        otherwise (another namespace's id behaves exactly like an unknown one)."""
        found = points_by_id(self.backend, [updates], memory.namespace, live_only=True, with_vectors=with_vectors)
        if not found or found[0].payload.get("kind", "fact") != memory.kind:
            raise InvalidMemoryError(
                "updates", f"no live {memory.kind} memory {updates} here (search first to get a valid id)")
        return found[0]

    def _write_update(
        self, memory: Memory, dense: list[float], sparse: tuple[list[int], list[float]], updates: str
    ) -> RememberResult:
        """Supersede the memory the caller named (the model saying what a new memory updates,
        seed 001's "Association: Updates"). The policy only tells whether it is the same fact
        said in more detail (a refinement keeps the original ``created_at``) or a new value."""
        point = self.update_target(memory, updates, with_vectors=True)
        old = Memory.from_payload(point.id, point.payload)
        cosine = sum(a * b for a, b in zip(dense, point.dense or ()))
        judged = self._dedup().decide(
            memory.content, old.content, cosine, new_subjects=memory.subjects, old_subjects=old.subjects)
        decision = "refinement" if judged.decision == "refinement" else "correction"
        verdict = DedupVerdict(decision, f"updates {old.id}, as the caller said (policy alone: {judged.decision})")
        return self._supersede(old, memory, dense, sparse, verdict, old_point=point)

    def dedup_candidates(self, memory: Memory, dense: list[float]) -> list[Hit]:
        """The nearest live memories of the same kind, plus, in the same engine round, those
        :func:`subject_probe` reaches by name and slot (a conversational correction is far
        from what it corrects: "Non en fait David a déménagé à Toulouse" is 0.42 from "David
        habite à Ordizan" on MiniLM); closest first, each scored by its cosine, each with
        the payload fields the policy reads (:data:`JUDGED_FIELDS`) and no vectors."""
        where = live_where(memory.namespace, kinds=(memory.kind,))
        # The engine reads nothing of the nearest below the policy's lowest floor.
        floor = self._dedup().subject_floor
        queries: list[DenseQuery | SparseQuery] = [
            DenseQuery(dense, where, DEDUP_CANDIDATES, payload=JUDGED_FIELDS, min_score=floor)]
        probe = subject_probe(memory.content, memory.subjects)
        if probe is not None:
            words = self._sparse_embeddings().embed_query(probe)
            queries.append(SparseQuery(
                list(words.indices), list(words.values), where, DEDUP_CANDIDATES, payload=JUDGED_FIELDS, rescore=dense))
        nearest, *probed = self.backend.query_batch(queries)
        seen = {hit.point.id for hit in nearest}
        extra = [hit for hit in (probed[0] if probed else ()) if hit.point.id not in seen]
        return sorted([*nearest, *extra], key=lambda hit: -hit.score)

    def _supersede(
        self, old: Memory, memory: Memory, dense: list[float],
        sparse: tuple[list[int], list[float]], verdict: DedupVerdict, old_point: StoredPoint | None = None,
    ) -> RememberResult:
        """Write ``memory`` in place of ``old``; ``old_point``, if given, is ``old`` as just
        read with both vectors (otherwise they are read here)."""
        survivor = memory.evolve(
            supersedes=(old.id,),
            subjects=tuple(dict.fromkeys(old.subjects + memory.subjects)),
            importance=max(old.importance, memory.importance),
            metadata=_merge_metadata(old.metadata, memory.metadata),
            # A refinement is the same fact, known since it was first learned.
            created_at=old.created_at if verdict.decision == "refinement" else memory.created_at,
        )
        survivor_links, retired_links = supersede_links(old, survivor)
        survivor = survivor.evolve(links=survivor_links)
        retired = old.evolve(status="superseded", superseded_by=survivor.id, links=retired_links)
        if old_point is None:
            # Deleted since it was read (by another store or process)? Then there is
            # nothing left to supersede and this is a plain new memory.
            found = self.backend.retrieve([old.id], with_vectors=True)
            if not found or found[0].payload.get("status") != "live":
                self.backend.upsert([StoredPoint(memory.id, memory.to_payload(), dense, sparse)])
                return RememberResult("inserted", memory)
            old_point = found[0]
        # One write for both points: a failure leaves either the old state or the new one.
        self.backend.upsert(
            [
                StoredPoint(retired.id, retired.to_payload(), old_point.dense, old_point.sparse),
                StoredPoint(survivor.id, survivor.to_payload(), dense, sparse),
            ]
        )
        repoint_peers(self.backend, old, survivor.id)
        logger.info("memory %s supersedes %s (%s)", survivor.id, old.id, verdict.reason)
        return RememberResult("updated", survivor, replaced=retired, verdict=verdict)


def check_updates(updates: Any) -> str | None:
    """The id a new memory updates, in canonical form; ``None`` when none is named."""
    if updates is None:
        return None
    try:
        return check_memory_id(updates)
    except InvalidMemoryError as exc:
        raise InvalidMemoryError("updates", str(exc).split(": ", 1)[-1]) from None


def check_context(context: Any) -> str | None:
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
