"""MemoryStore: remember, search and forget, on Qdrant Edge (embedded) or a Qdrant server."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any, Callable, Iterator, Mapping, Sequence

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store import _forgetting, _garden
from langgraph_memory.store._checks import check_limit, check_number
from langgraph_memory.store._connection import StoreConnection
from langgraph_memory.store._lifecycle import Lifecycle
from langgraph_memory.store._links import HISTORY, Link
from langgraph_memory.store._room_members import RoomMembers
from langgraph_memory.store._moving import Moving
from langgraph_memory.store._rooms import RoomMessage, RoomMessages
from langgraph_memory.store._reads import Plan, QueryVectors, check_ids, history_chain, points_by_id, run_plans
from langgraph_memory.store._search import (
    SearchHit,
    SearchMode,
    identity_plan,
    important_plan,
    recent_plan,
    search_filters,
    search_plan,
)
from langgraph_memory.store._twins import async_twin
from langgraph_memory.store.conversations import COLLECTION, conversations
from langgraph_memory.store._writing import RememberResult, check_context, check_updates
from langgraph_memory.store.backends import StoredPoint, Where
from langgraph_memory.store.records import (
    MemoryInput,
    Memory,
    Namespace,
    namespace_key,
    new_memory,
    utcnow,
    validate_namespace,
)
from langgraph_memory.store.vitality import DecaySettings, boosted_vitality

# A memory's record in every state it can be in (archived ones are history too); BaseStore
# items, which share the collection, are none of these.
HISTORY_STATUSES = HISTORY  # live, superseded, archived, forgotten

__all__ = ["Link", "MemoryStore", "RememberResult", "RoomMessage", "SearchHit", "QueryVectors", "SearchMode"]

logger = logging.getLogger("langgraph_memory")


class MemoryStore(Lifecycle, RoomMembers, Moving, RoomMessages, StoreConnection):
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
        sparse_embeddings: the BM25 encoder; default: Qdrant Edge's, English stemming. A
            custom one's vectors are checked (``store/_sparse_checks.py``): a bad one is an
            ``InvalidMemoryError`` and nothing is stored.

    Set :attr:`decay` to fix the gardener's calibration; while it is ``None`` each pass reads
    the defaults and ``MEMORY_DECAY_*`` variables (:meth:`DecaySettings.from_env`).
    """

    decay: DecaySettings | None = None
    """The gardener's calibration (``None``: defaults and ``MEMORY_DECAY_*``)."""

    # -- writing ------------------------------------------------------------------------

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
        updates: str | None = None,
        channel: str | None = None,
        **unknown: Any,
    ) -> RememberResult:
        """Store one memory, letting the dedup policy merge it with what is already known.

        Args:
            content: the fact, one statement (at most :data:`~langgraph_memory.store.records.MAX_CONTENT_CHARS`).
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
            updates: the id of a live memory of ``namespace`` (and the same ``kind``) that
                this one replaces, e.g. a decision the user changed: it is superseded and
                kept in ``history``, whatever the dedup policy would have said. An id
                unknown in ``namespace`` (another user's included) raises and stores nothing.
            channel: the channel it was learned in (the runtime's ``channel_id``), for
                channel-scoped reads (``channel=`` of :meth:`search` and :meth:`recent`).

        Returns:
            A :class:`RememberResult`: ``inserted``, ``updated`` (with ``replaced``) or
            ``duplicate`` (with the existing memory).

        Raises:
            InvalidMemoryError: bad input; nothing was stored.
        """
        if unknown:
            # e.g. user_id=...: whose memory it is comes from ``namespace`` alone.
            raise InvalidMemoryError(sorted(unknown)[0], "is not an argument of remember")
        if not isinstance(dedup, bool):
            raise InvalidMemoryError("dedup", "must be True or False")
        memory = new_memory(
            content, namespace=namespace, kind=kind, memory_type=memory_type, category=category,
            subjects=subjects, importance=importance, ttl=ttl, source=source, metadata=metadata,
            created_at=created_at, channel=channel,
        )
        target = check_updates(updates)
        if target is not None:
            self._writer.update_target(memory, target)  # fail before embedding; checked again under the lock
        [(dense, sparse)] = self._writer.embed_memories([memory], [check_context(context)])
        return self._writer.write(memory, dense, sparse, dedup=dedup, updates=target)

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

        Each item is a text or a dict of :meth:`remember` arguments (``updates`` included);
        ``defaults`` apply to every item. All items are validated, and the memories they
        update looked up, before anything is written. With
        ``dedup=False`` (imports, benchmarks) they are written in large batches.
        ``progress(done, total)`` is called as batches complete. Texts are embedded by
        batches of 256 as they are written: an embedder that fails on a later batch (or
        returns an invalid vector) leaves the earlier batches stored, each memory whole;
        calling again with ``dedup=True`` resumes.
        """
        if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
            raise InvalidMemoryError("items", "expected a list of texts or dicts")
        if not isinstance(dedup, bool):
            raise InvalidMemoryError("dedup", "must be True or False")
        memories = []
        contexts: list[str | None] = []
        targets: list[str | None] = []
        for i, item in enumerate(items):
            args = dict(defaults, **(item if isinstance(item, Mapping) else {"content": item}))
            try:
                contexts.append(check_context(args.pop("context", None)))
                target = check_updates(args.pop("updates", None))
                memories.append(new_memory(namespace=namespace, **args))
                if target is not None:
                    if target in targets:
                        raise InvalidMemoryError("updates", f"{target} is updated by an earlier item already")
                    self._writer.update_target(memories[-1], target)
                targets.append(target)
            except InvalidMemoryError as exc:
                raise InvalidMemoryError(f"items[{i}].{exc.field}", str(exc).split(": ", 1)[-1]) from exc
            except TypeError as exc:
                raise InvalidMemoryError(f"items[{i}]", str(exc)) from exc
        return self._writer.write_many(
            memories, contexts, dedup=dedup, progress=progress, updates=targets if any(targets) else None)

    # -- reading ------------------------------------------------------------------------

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
        follow_links: bool = True,
        channel: str | None = None,
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
            follow_links: add the memories linked to the best hits (one hop, a few per
                hit, within the same filter), each scored below the hit it came from and
                saying so in :attr:`SearchHit.via`; ``False``: the three ranked sources only.
            channel: only memories of no channel or of this one (the user's memories plus
                this channel's: seed 001's ``channel_scope``).
        """
        check_limit("limit", limit)
        if min_score is not None:
            check_number("min_score", min_score)
        if mode not in ("hybrid", "dense", "bm25"):
            raise InvalidMemoryError("mode", f"unknown mode {mode!r}; expected hybrid, dense or bm25")
        where = search_filters(namespace, kinds, memory_types, categories, subjects, since, until, min_importance, channel)
        vectors = self.query_vectors(query)
        if not isinstance(follow_links, bool):
            raise InvalidMemoryError("follow_links", "must be True or False")
        [hits] = self._read(search_plan(self.sparse_embeddings, vectors, where, limit, mode, with_vectors, follow_links))
        if min_score is not None:
            hits = [h for h in hits if h.score >= min_score]
        return hits[:limit]

    def _read(self, *plans: Plan[Any], cached: bool = False) -> list[Any]:
        """The answers of several read plans, sharing the engine's round trips. Public
        reads run one plan; the pre-hook (:mod:`langgraph_memory.agent.injection`) runs its
        channels together, ``cached`` (it reads one namespace turn after turn)."""
        return run_plans(self._backend, plans, cached=cached)

    def recent(
        self,
        *,
        namespace: Namespace,
        since: str | timedelta | datetime | None = "6h",
        limit: int = 10,
        kinds: str | Sequence[str] | None = None,
        channel: str | None = None,
    ) -> list[Memory]:
        """Live memories created or updated since ``since`` (``"6h"``, a timedelta or a
        datetime; ``None``: any time), newest first (equal times by ascending id). This
        answers "what did we talk about?".
        ``channel``: only the memories learned in that channel."""
        [memories] = self._read(recent_plan(namespace, since, limit, kinds, channel))
        return memories

    def identity(self, *, namespace: Namespace, limit: int = 10) -> list[Memory]:
        """Who the user is (``identity`` memories) and the agent's own ``self`` context,
        most important first."""
        [memories] = self._read(identity_plan(namespace, limit))
        return memories

    def important(
        self, *, namespace: Namespace, min_importance: float = 0.8, limit: int = 10
    ) -> list[Memory]:
        """Live memories with importance >= ``min_importance``, most important first."""
        [memories] = self._read(important_plan(namespace, min_importance, limit))
        return memories

    def get(self, memory_id: str, *, namespace: Namespace) -> Memory | None:
        """The live memory ``memory_id`` of ``namespace``, or ``None`` (also when it belongs
        to another namespace, was superseded, or expired)."""
        found = points_by_id(self._backend, [memory_id], namespace, live_only=True)
        return Memory.from_payload(found[0].id, found[0].payload) if found else None

    def get_many(self, memory_ids: Sequence[str], *, namespace: Namespace, with_vectors: bool = False) -> list[tuple[Memory, list[float] | None]]:
        """Live memories among ``memory_ids`` of ``namespace``, with their vectors if asked."""
        points = points_by_id(self._backend, check_ids(memory_ids), namespace, live_only=True, with_vectors=with_vectors)
        return [(Memory.from_payload(p.id, p.payload), p.dense) for p in points]

    def history(self, memory_id: str, *, namespace: Namespace) -> list[Memory]:
        """Every version of the fact ``memory_id`` belongs to, oldest first: the memories it
        superseded, itself, and whatever superseded it."""
        return history_chain(self._backend, memory_id, namespace)

    def erase(self, namespace: Namespace) -> int:
        """Forget everything of ``namespace`` and of the namespaces under it, history
        included, and what was said (exchanges and summaries of the side collections).
        Returns how many records were removed."""
        key = namespace_key(validate_namespace(namespace))
        where = Where(namespace_prefix=key, status=None)
        removed = self._backend.delete_where(where)
        if self._backend.sibling(COLLECTION).stored_meta() is not None:
            conversations(self)  # opened by an earlier process: erase there too
        for side in list(self._sides.values()):
            removed += side.delete_where(where)
        return removed

    def purge_expired(self, namespace: Namespace | None = None) -> int:
        """Remove expired memories (reads already hide them; the garden's pass does this
        too). Returns how many."""
        return _forgetting.purge_expired(self, namespace)

    # -- bookkeeping --------------------------------------------------------------------

    def record_access(
        self, memory_ids: Sequence[str], *, namespace: Namespace, injected: bool = False, now: datetime | None = None,
    ) -> None:
        """Count an access (and an injection) on each memory and boost its vitality; used
        off the hot path. ``now``: the access time (replays, tests), within the storable range (1970 to 2200,
        else :class:`InvalidMemoryError`); default the current time."""
        now = _garden.check_now(now)
        settings = self.decay_settings()
        with self._writer.lock(validate_namespace(namespace), "__stats__"):
            updates: list[tuple[list[str], dict[str, Any]]] = []
            for p in points_by_id(self._backend, check_ids(memory_ids), namespace, live_only=True):
                stored = p.payload.get("vitality")
                vitality = float(p.payload.get("importance", 0.6) if stored is None else stored)
                payload = {
                    "last_accessed_at": now,
                    "access_count": int(p.payload.get("access_count") or 0) + 1,
                    "vitality": boosted_vitality(vitality, settings),
                    "vitality_at": now,
                }
                if injected:
                    payload["injection_count"] = int(p.payload.get("injection_count") or 0) + 1
                updates.append(([p.id], payload))
            try:
                self._backend.set_payloads(updates)  # one write for them all where the engine can
            except Exception:
                # One was deleted since it was read: the others one by one (the values are
                # those read, so one written twice still counts once).
                for ids, payload in updates:
                    try:
                        self._backend.set_payload(ids, payload)
                    except Exception:
                        if self._backend.retrieve(ids):
                            raise
                        # Deleted since it was read: there is nothing left to count.

    # -- gardening ----------------------------------------------------------------------

    def decay_settings(self) -> DecaySettings:
        """The calibration a pass uses now: :attr:`decay`, else defaults and environment."""
        return self.decay if self.decay is not None else DecaySettings.from_env()

    def garden(
        self, namespace: Namespace | None = None, now: datetime | None = None, dry_run: bool = False,
        *, settings: DecaySettings | None = None,
    ) -> "_garden.GardenReport":
        """One gardening pass over ``namespace`` (and below) or the whole store: fade the
        vitality of unused memories, archive those below the minimum or unused for
        ``archive_days``, purge archives past ``retention_days``.

        Args:
            namespace: e.g. ``("memories", "alice")``; ``None``: every namespace.
            now: the pass's clock (tests, replays); default the current time.
            dry_run: compute and report only; nothing is written.
            settings: this pass's calibration instead of :meth:`decay_settings`.

        Returns:
            A :class:`~langgraph_memory.store._garden.GardenReport` (a dict), also logged
            as JSON. A namespace another pass is working on is skipped and listed in
            ``skipped_busy``: passes never wait for each other.
        """
        return _garden.garden(self, namespace, now, dry_run, settings or self.decay_settings())

    def count(self, *, namespace: Namespace | None = None, include_superseded: bool = False) -> int:
        """How many live memories (in ``namespace`` and below, or in the whole store)."""
        prefix = None if namespace is None else namespace_key(validate_namespace(namespace))
        where = Where(
            namespace_prefix=prefix,
            status=HISTORY_STATUSES if include_superseded else "live",  # not BaseStore items
            alive_at=None if include_superseded else utcnow().timestamp(),
        )
        return self._backend.count(where)

    def iter_points(
        self, *, namespace: Namespace | None = None, include_superseded: bool = True,
        with_vectors: bool = False, batch: int = 256,
    ) -> Iterator[StoredPoint]:
        """Every stored record (payload and vectors), for export and inspection."""
        prefix = None if namespace is None else namespace_key(validate_namespace(namespace))
        where = Where(namespace_prefix=prefix, status=HISTORY_STATUSES if include_superseded else "live")
        check_limit("batch", batch)
        offset = None
        while True:
            points, offset = self._backend.scroll(where, limit=batch, with_vectors=with_vectors, offset=offset)
            yield from points
            if offset is None:
                return

    # -- faces --------------------------------------------------------------------------

    def as_base_store(self, **options: Any) -> Any:
        """This engine and collection as a LangGraph ``BaseStore``: see :meth:`QdrantStore.over`."""
        from langgraph_memory.base_store import QdrantStore  # the face above this layer, on use

        return QdrantStore.over(self, **options)

    aremember = async_twin(remember)
    aremember_many = async_twin(remember_many)
    asearch = async_twin(search)
    arecent = async_twin(recent)
    aidentity = async_twin(identity)
    aimportant = async_twin(important)
    aget = async_twin(get)
    aget_many = async_twin(get_many)
    ahistory = async_twin(history)
    aerase = async_twin(erase)
    apurge_expired = async_twin(purge_expired)
    arecord_access = async_twin(record_access)
    acount = async_twin(count)
    agarden = async_twin(garden)
