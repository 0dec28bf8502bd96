"""What the pre-hook injects: channels, dedup, budgets, and the rendered memory block.

Layer 4 of the design: pure selection policy over a :class:`~langgraph_memory.MemoryStore`,
with no LangGraph import. The LangGraph nodes and middleware call :func:`select_memories`
and keep the :class:`MemoryLedger` in graph state.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Callable, Literal

from typing_extensions import NotRequired, TypedDict

from langgraph_memory.agent._reasons import similar_reason
from langgraph_memory.agent._render import render_memories
from langgraph_memory.agent._rows import VectorCache, VectorRows
from langgraph_memory.agent._plans import turn_filters
from langgraph_memory.store.records import Memory, Namespace, namespace_key, utcnow
from langgraph_memory.store import MemoryStore, QueryVectors, SearchMode
from langgraph_memory.store._search import Found, SearchHit, search_plan

__all__ = [
    "Channel",
    "Chosen",
    "Injection",
    "InjectionConfig",
    "InjectedEntry",
    "MemoryLedger",
    "VectorCache",
    "render_memories",
    "select_memories",
    "aselect_memories",
]

Channel = Literal["identity", "important", "recent", "similar"]


@dataclass(frozen=True)
class InjectionConfig:
    """Settings of the pre-hook's selection; every field can be overridden per run.

    Defaults follow seed 001's ``PrehookConfig`` (6 h recent window, 0.85 cosine dedup,
    a semantic buffer of 100, at most 20 memories).
    """

    channels: tuple[Channel, ...] = ("identity", "important", "similar", "recent")
    """Which channels run, in priority order when the budget is short."""
    identity_limit: int = 5
    important_min: float = 0.8
    important_limit: int = 5
    recent_window: timedelta = timedelta(hours=6)
    recent_limit: int = 10
    similar_limit: int = 20
    similar_mode: SearchMode = "hybrid"
    similar_links: bool = True
    """Also inject the memories linked to the best similar hits (search's ``follow_links``)."""
    similar_min_cosine: float = 0.4
    """Floor of the similar channel on the dense signal: a nonsense query injects nothing.
    With MiniLM, one-word or mashed messages ("hmm", "zzzzzz") reach 0.36 on short chit-chat
    memories. On LoCoMo the pre-hook's recall is the same from 0.25 to 0.4
    (``docs/benchmarks.md``)."""
    similar_min_bm25: float | None = 1.0
    """Floor on the BM25 signal. A hit passing either floor, or tagged with a subject the
    message names, or created within a time it names ("in May", "last week") is kept
    (``SearchHit.matched``); ``None`` disables this floor."""
    similar_bm25_min_cosine: float = 0.2
    """A hit passing on BM25 alone needs at least this cosine too: a message sharing one
    word with a memory ("ok", "sit" in "lorem ipsum dolor sit amet") but nothing of its
    meaning is not about it. With the 0.4 dense floor, 30 nonsense messages over the five
    LoCoMo conversations inject 0.007 memories each (0.57 with a 0.3 floor and no such
    rule), for the same recall; at 0.25 the pre-hook starts losing recall."""
    semantic_threshold: float = 0.85
    """A candidate this close (cosine) to one already chosen or recently injected is dropped."""
    semantic_same_day_only: bool = True
    """Compare memories of different days only above ``_rows.PARAPHRASE_COSINE`` (0.95): the
    block shows each memory's date, so similar words about another day may be another event
    ("went to the support group" in May and again in July; comparing across days at 0.85 cost
    LoCoMo's pre-hook 0.014 recall), but a paraphrase is a repeat whatever its day."""
    max_semantic_buffer: int = 100
    max_injection_count: int = 20
    max_tokens: int = 1500
    """Token budget of the injected block (estimated at 4 characters a token)."""
    reinject_after_turns: int = 10
    """A memory injected within this many turns is still in the model's view: not again."""
    kinds: tuple[str, ...] | None = None
    """Restrict injection to these kinds (``fact``, ``self``, ``goal``); ``None``: all."""
    channel_scope: bool = False
    """Seed 001's ``channel_scope``: a run naming a ``channel_id`` sees the user's memories
    of no channel plus that channel's, and its recent channel only that channel's."""
    channel: str | None = None
    """The run's channel under ``channel_scope`` (the pre-hook sets it from the runtime)."""

    def replace(self, **changes: Any) -> "InjectionConfig":
        from dataclasses import replace

        return replace(self, **changes)

    def override(self, changes: Any, *, narrow_only: bool = False) -> "InjectionConfig":
        """These settings with ``changes`` (a mapping of field to value, e.g. a run's
        ``configurable["memory_config"]``) applied, each checked against its field.
        ``narrow_only`` (the pre-hook sets it on a server with auth, where a client sends
        the run's settings): a change may lower a limit or budget, drop channels or kinds
        and turn ``channel_scope`` on, never the reverse.

        Raises:
            InvalidMemoryError: an unknown field, a value of the wrong type, or with
                ``narrow_only`` a change that widens these settings.
        """
        from langgraph_memory.agent._settings import check_overrides

        return self.replace(**check_overrides(self, changes, narrow_only=narrow_only))


class InjectedEntry(TypedDict):
    """One memory in the model's view, as graph state keeps it: its id, why and when it
    was injected, never its text. Checkpoints keep every past state, so text there could
    never be erased; the block is rendered from the store at each model call, so an
    expired, deleted, superseded or erased memory leaves the model's view at once."""

    id: str
    channel: str
    reason: str
    turn: int
    score: NotRequired[float | None]
    scope: NotRequired[str]
    """Where the id lives (a namespace key): the user's memories, the agent's identity or a
    room's live messages."""


class MemoryLedger(TypedDict, total=False):
    """Per-thread injection bookkeeping, checkpointed with the thread (ids and turns only)."""

    turn: int
    """Turns closed so far; the pre-hook works on ``turn + 1``."""
    last_human_id: str | None
    """The last human message an injection answered: no second injection for it."""
    injected: dict[str, int]
    """Memory id -> the turn it was last shown (injected, or stored by a tool)."""
    buffer: list[str]
    """The last injected ids, oldest first, bounded: the semantic dedup buffer."""
    context: list[InjectedEntry]
    """Everything the model sees now: memories injected within the window."""
    latest: list[InjectedEntry]
    """What the pre-hook newly chose this turn."""
    query: str | None
    """The text the pre-hook searched with this turn."""
    pending: bool
    """A turn was injected and not yet closed by the post-hook."""


@dataclass(frozen=True)
class Chosen:
    """A memory the pre-hook selected, and why."""

    memory: Memory
    channel: Channel
    score: float | None
    reason: str

    def entry(self, turn: int) -> InjectedEntry:
        return InjectedEntry(
            id=self.memory.id,
            channel=self.channel,
            reason=self.reason,
            turn=turn,
            score=None if self.score is None else round(self.score, 4),
            scope=namespace_key(self.memory.namespace),
        )


def _chosen(memory: Memory, channel: Channel, score: float | None, reason: str) -> Chosen:
    """``Chosen(memory, channel, score, reason)``, its fields set without the frozen
    ``__init__`` (~0.3 µs against ~0.7; ``Chosen`` has no ``__post_init__`` nor slots:
    ``tests/test_turn_speed.py`` holds this to the plain construction)."""
    chosen = _new(Chosen)
    fields = chosen.__dict__
    fields["memory"], fields["channel"], fields["score"], fields["reason"] = memory, channel, score, reason
    return chosen


_new = object.__new__


DROP_REASONS = {
    "in_window": "already in the model's view (injected within the last reinject_after_turns turns)",
    "similar": "too close in meaning to a memory already chosen or in view",
    "budget": "over the injection budget (max_injection_count or max_tokens)",
    "floor": "found by search but not relevant enough (below the similarity floors)",
}
"""Each key of :attr:`Injection.dropped`, in words."""


@dataclass
class Injection:
    """The pre-hook's decision for one turn."""

    query: str | None
    chosen: list[Chosen] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)
    """Why candidates were left out: ``in_window``, ``similar``, ``budget``, ``floor``
    (:data:`DROP_REASONS` says each in words; :meth:`dropped_in_words` counts them)."""
    tokens: int = 0

    def dropped_in_words(self) -> str:
        """What was left out and why, for people: ``"13 already in the model's view (...)"``."""
        if not self.dropped:
            return "nothing left out"
        return "; ".join(f"{n} {DROP_REASONS.get(key, key)}" for key, n in self.dropped.most_common())


def estimate_tokens(text: str) -> int:
    return max(1, math.ceil(len(text) / 4))


def _above_floor(config: InjectionConfig) -> Callable[[float | None, float | None, bool], bool]:
    """Whether a similar-channel hit (its dense and BM25 scores, whether it matched a
    subject or time the message names) is relevant enough to inject, under ``config``:
    built once a turn, asked for each of the turn's hits."""
    min_cosine, min_bm25, bm25_min_cosine = (
        config.similar_min_cosine, config.similar_min_bm25, config.similar_bm25_min_cosine)

    def above(dense: float | None, sparse: float | None, matched: bool) -> bool:
        # A memory matching a subject or time the message names is relevant by that alone:
        # a nonsense message names neither.
        return (
            (dense is not None and dense >= min_cosine)
            or (min_bm25 is not None and sparse is not None and sparse >= min_bm25
                and (dense or 0.0) >= bm25_min_cosine)
            or matched
        )

    return above


def _gather(
    store: MemoryStore,
    namespace: Namespace,
    vectors: QueryVectors | None,
    config: InjectionConfig,
    dropped: Counter[str],
    cache: VectorCache,
    pending: Future[QueryVectors] | None = None,
) -> list[tuple[Memory, Channel, float | None, str | SearchHit]]:
    """The candidates of every channel, in channel order: the memory, its channel, score and
    reason (a similar hit's reason is its hit, put in words only for the chosen)."""
    filters, now = turn_filters(namespace, config), utcnow()  # one time for all of the turn's filters
    above = _above_floor(config)
    metadata = filters.metadata_plan(now)  # identity, important, recent: one plan
    answers: dict[Channel, Any] = {}
    if pending is not None:
        if metadata is not None:
            # The metadata channels read while the message embeds (on a server, their
            # round trip hides behind the embedding call); the similar channel follows.
            [answers] = store._read(metadata, cached=True)
            metadata = None
        vectors = pending.result()
    similar = None
    if "similar" in config.channels and vectors is not None and config.similar_limit:
        # Without an embedding under way, every channel's first round shares one engine call.
        similar = search_plan(
            store.sparse_embeddings, vectors,
            filters.similar_where(now), config.similar_limit,
            # The vectors the semantic dedup will need ride in the fetch of the winners'
            # payloads (sparing it a retrieve round): those of winners above the floor
            # that the cache lacks. A winner below the floor is never compared.
            config.similar_mode,
            lambda f, matched: above(f.dense_score, f.sparse_score, matched) and f.hit.point.id not in cache,
            config.similar_links, keep=above,  # a hybrid winner below the floor: counted, not built
        )
    read = store._read(*(plan for plan in (metadata, similar) if plan is not None), cached=True)
    if metadata is not None:
        answers = read[0]
    if similar is not None:
        answers["similar"] = read[-1]
    found: list[tuple[Memory, Channel, float | None, str | SearchHit]] = []
    for channel in (c for c in config.channels if c in answers):
        answer = answers[channel]
        if channel == "identity":
            for m in answer:
                found.append((m, "identity", None, f"identity ({m.memory_type}, {m.kind})"))
        elif channel == "important":
            for m in answer:
                found.append((m, "important", m.importance, f"important ({m.importance:.1f})"))
        elif channel == "recent":
            for m in answer:
                found.append((m, "recent", None, f"recent (updated {m.updated_at:%Y-%m-%d %H:%M} UTC)"))
        else:
            floored = type(answer) is Found  # a hybrid search kept its hits by the floor
            below = answer.left_out if floored else 0
            for h in answer:
                if h.vector is not None:
                    cache.put(h.memory.id, h.vector, h.memory.created_at.toordinal())
                # A linked memory passed through the hit it came from (which passed its floor).
                if not floored and h.via is None and not above(h.dense_score, h.sparse_score, bool(h.matched)):
                    below += 1
                    continue
                found.append((h.memory, "similar", h.score, h))  # its reason, if it is chosen
            if below:
                dropped["floor"] += below
    if config.kinds is not None:
        found = [f for f in found if f[0].kind in config.kinds]
    return found


def select_memories(
    store: MemoryStore,
    *,
    namespace: Namespace,
    query: str | QueryVectors | None,
    ledger: MemoryLedger | None = None,
    config: InjectionConfig | None = None,
    cache: VectorCache | None = None,
) -> Injection:
    """Choose what to inject before the model answers ``query``.

    Runs each configured channel (the similar channel reuses one query embedding), then
    walks the candidates in channel priority order, dropping a memory that is still in
    the thread's window (``ledger``), one closer than ``semantic_threshold`` to a memory
    already chosen or in the semantic buffer, and whatever exceeds the count or token
    budget. Pass ``query=None`` to run only the metadata channels.
    """
    config = config or InjectionConfig()
    ledger = ledger or {}
    cache = cache if cache is not None else VectorCache()
    text = query.text if isinstance(query, QueryVectors) else query
    vectors = query.checked(store.dim) if isinstance(query, QueryVectors) else None
    pending = None
    if vectors is None and text and text.strip() and "similar" in config.channels:
        if store.backend_name == "edge":
            # An in-process engine has no round trip to hide behind the embedding: reading
            # meanwhile only contends with it for the cores (measured 3% slower), and
            # embedding first lets every channel share one engine round.
            vectors = store.embed_query(text)
        else:
            pending = store.embed_query_soon(text)
    injection = Injection(query=text)

    candidates = _gather(store, namespace, vectors, config, injection.dropped, cache, pending)
    turn = int(ledger.get("turn", 0)) + 1
    injected = ledger.get("injected", {})
    buffer_ids = list(ledger.get("buffer", []))[-config.max_semantic_buffer :]

    missing = [i for i in {*buffer_ids, *(c[0].id for c in candidates)} if cache.get(i) is None]
    if missing:
        for memory, vector in store.get_many(missing, namespace=namespace, with_vectors=True):
            cache.put(memory.id, vector, memory.created_at.toordinal())

    # Stored vectors are unit length, so a dot product is a cosine. The buffer is stacked
    # once; what is chosen this turn (at most the budget) grows as it is chosen.
    buffer = VectorRows([(v, b, cache.day(b)) for b in buffer_ids if (v := cache.get(b)) is not None])
    chosen_rows = VectorRows([])
    chosen_ids: set[str] = set()
    chosen, dropped, tokens = injection.chosen, injection.dropped, 0
    threshold, same_day_only = config.semantic_threshold, config.semantic_same_day_only
    window, most, most_tokens = config.reinject_after_turns, config.max_injection_count, config.max_tokens
    for memory, channel, score, reason in candidates:
        memory_id = memory.id
        if memory_id in chosen_ids:
            continue  # found by two channels: the first (higher priority) one explains it
        last = injected.get(memory_id)
        if last is not None and turn - last < window:
            dropped["in_window"] += 1
            continue
        vector = cache.get(memory_id)
        day = memory.created_at.toordinal()
        if vector is not None and (
            chosen_rows.too_close(vector, memory_id, day, threshold, same_day_only)
            or (buffer.owners and buffer.too_close(vector, memory_id, day, threshold, same_day_only))
        ):
            dropped["similar"] += 1
            continue
        cost = estimate_tokens(memory.content) + 12  # the id and date around it
        if len(chosen) >= most or tokens + cost > most_tokens:
            dropped["budget"] += 1
            continue
        chosen.append(_chosen(memory, channel, score, reason if type(reason) is str else similar_reason(reason)))
        tokens += cost
        chosen_ids.add(memory_id)
        if vector is not None:
            chosen_rows.add(vector, memory_id, day)
    injection.tokens = tokens
    return injection


async def aselect_memories(
    store: MemoryStore,
    *,
    namespace: Namespace,
    query: str | QueryVectors | None,
    ledger: MemoryLedger | None = None,
    config: InjectionConfig | None = None,
    cache: VectorCache | None = None,
) -> Injection:
    """Async twin of :func:`select_memories` (runs in a worker thread)."""
    return await asyncio.to_thread(
        select_memories, store, namespace=namespace, query=query, ledger=ledger, config=config, cache=cache
    )
