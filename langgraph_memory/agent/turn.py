"""One turn's selection across every scope a run may see, with one query embedding.

A run sees its user's memories, the agent's own identity (``self`` and ``goal``, shared by
all users: :mod:`langgraph_memory.agent.identity`) and, when its runtime names rooms, their
live excerpts and the facts the digest learned from them. The query is embedded once; each
scope is selected by :func:`~langgraph_memory.agent.injection.select_memories` within what
is left of the turn's count and token budgets, so the budgets cover all of it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from langgraph_memory.agent.identity import AGENT_KINDS
from langgraph_memory.agent.injection import (
    Injection,
    InjectionConfig,
    InjectedEntry,
    MemoryLedger,
    VectorCache,
    select_memories,
)
from langgraph_memory.agent.rooms import LiveConfig, live_entries
from langgraph_memory.store import MemoryStore, QueryVectors
from langgraph_memory.store.records import Namespace

__all__ = ["TurnScopes", "TurnInjection", "select_turn", "aselect_turn"]


@dataclass(frozen=True)
class TurnScopes:
    """Whose memories a run sees, resolved from its runtime."""

    user: Namespace
    agent: Namespace
    """The agent's identity namespace (the user's own when identity is per user)."""
    rooms_namespace: Namespace | None = None
    rooms: tuple[str, ...] = ()
    room_facts: bool = True
    """Whether the rooms' digested facts are shown: not when a room of the namespace is
    closed to this run's user: a fact's rooms are provenance in its metadata (``rooms``),
    which reads do not filter on."""
    channel: str | None = None
    """The run's channel (``runtime_channel``), checked with the rest of the runtime."""

    @property
    def shared(self) -> bool:
        """Whether this run sees anything beyond the user's namespace."""
        return self.agent != self.user or bool(self.rooms)


@dataclass(frozen=True)
class _LiveChosen:
    """A live excerpt among a turn's choices; it becomes a ledger entry like a memory."""

    live: InjectedEntry

    @property
    def channel(self) -> str:
        return "live"

    def entry(self, turn: int) -> InjectedEntry:
        return {**self.live, "turn": turn}  # type: ignore[return-value]


@dataclass
class TurnInjection(Injection):
    """An :class:`Injection` across scopes; live excerpts are among ``chosen``."""

    gone: set[str] = field(default_factory=set)
    """Live excerpts still in the thread's window that the room no longer holds (the
    digest turned them into facts): they leave the model's view."""


def _merge(into: TurnInjection, part: Injection) -> None:
    into.chosen += part.chosen
    into.dropped.update(part.dropped)
    into.tokens += part.tokens


def select_turn(
    store: MemoryStore,
    *,
    scopes: TurnScopes,
    query: str | QueryVectors | None,
    ledger: MemoryLedger | None = None,
    config: InjectionConfig | None = None,
    live: LiveConfig | None = None,
    cache: VectorCache | None = None,
) -> TurnInjection:
    """Choose what to inject for one turn: live excerpts of the named rooms first (at most
    ``live.limit``), then the agent's identity, the user's memories and the rooms' facts,
    each within what the others left of the budgets. ``query`` is the turn's text, embedded
    once here, or its :class:`QueryVectors`."""
    config = config or InjectionConfig()
    live = live or LiveConfig()
    ledger = ledger or {}
    cache = cache if cache is not None else VectorCache()
    if isinstance(query, QueryVectors):
        vectors: QueryVectors | None = query.checked(store.dim)
    else:
        vectors = store.embed_query(query) if query and query.strip() else None
    injection = TurnInjection(query=vectors.text if vectors is not None else query)
    turn = int(ledger.get("turn", 0)) + 1

    def left() -> InjectionConfig:
        return config.replace(
            max_injection_count=max(0, config.max_injection_count - len(injection.chosen)),
            max_tokens=max(0, config.max_tokens - injection.tokens),
        )

    if scopes.rooms and scopes.rooms_namespace is not None:
        shown = [e["id"] for e in ledger.get("context", []) if e.get("channel") == "live"]
        injection.gone = set(shown) - store.live_ids(shown, namespace=scopes.rooms_namespace)
        if vectors is not None:
            entries, tokens = live_entries(
                store, namespace=scopes.rooms_namespace, rooms=scopes.rooms, vectors=vectors,
                in_window=ledger.get("injected", {}), turn=turn, settings=live,
                window=config.reinject_after_turns, max_count=config.max_injection_count,
                max_tokens=config.max_tokens,
            )
            injection.chosen += [_LiveChosen(e) for e in entries]  # type: ignore[misc]
            injection.tokens += tokens
    searched: Any = vectors if vectors is not None else query
    if scopes.agent != scopes.user:
        agent_config = left().replace(kinds=AGENT_KINDS, channels=tuple(
            c for c in config.channels if c in ("identity", "important", "similar")))
        _merge(injection, select_memories(
            store, namespace=scopes.agent, query=searched, ledger=ledger, config=agent_config, cache=cache))
    _merge(injection, select_memories(
        store, namespace=scopes.user, query=searched, ledger=ledger, config=left(), cache=cache))
    if scopes.rooms and scopes.rooms_namespace is not None and scopes.room_facts:
        # What the digest learned from these rooms: facts relevant to this message.
        room_config = left().replace(channels=("similar",))
        _merge(injection, select_memories(
            store, namespace=scopes.rooms_namespace, query=searched, ledger=ledger, config=room_config, cache=cache))
    return injection


async def aselect_turn(store: MemoryStore, **kwargs: Any) -> TurnInjection:
    """Async twin of :func:`select_turn` (runs in a worker thread)."""
    return await asyncio.to_thread(lambda: select_turn(store, **kwargs))
