"""The pre-hook and post-hook nodes and the thread state they share (the user's scope is
:mod:`.scope`'s).

A graph with memory runs ``MemoryPrehook`` before the model, renders the injected
memories into the model's input with :func:`with_memories` (never into the thread's
``messages``), and runs ``MemoryPosthook`` once the model has answered.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Callable, Iterable, Mapping, Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import MessagesState
from typing_extensions import Annotated, NotRequired

from langgraph_memory.background.worker import worker_for
from langgraph_memory.agent.injection import (
    Injection,
    InjectionConfig,
    MemoryLedger,
    VectorCache,
    aselect_memories,
    select_memories,
)
from langgraph_memory.agent.identity import (
    DEFAULT_AGENT_ID,
    DEFAULT_AGENT_NAMESPACE,
    authenticated_identity,
    pinned_agent_ids,
    run_user,
    with_agent_default,
)
from langgraph_memory.agent.scope import (
    DEFAULT_NAMESPACE,
    MemoryScopeError,
    resolve_namespace,
    runtime_channel,
    runtime_thread,
)
from langgraph_memory.agent.view import memory_prompt, message_text, visible_memories, with_memories
from langgraph_memory.agent.recall import ConversationRecorder, is_summary, turn_humans
from langgraph_memory.store._checks import clean_query, visible
from langgraph_memory.agent.rooms import DEFAULT_ROOM_NAMESPACE, LiveConfig, rooms_from_runtime
from langgraph_memory.agent.turn import TurnScopes, aselect_turn, select_turn
from langgraph_memory.agent.capture import CaptureConfig, capturing
from langgraph_memory.store._garden import turn_in_flight
from langgraph_memory.store.records import Namespace
from langgraph_memory.store import MemoryStore

__all__ = [
    "DEFAULT_NAMESPACE",
    "MemoryPosthook",
    "MemoryPrehook",
    "MemoryScopeError",
    "MemoryState",
    "memory_prompt",
    "merge_memory",
    "visible_memories",
    "resolve_namespace",
    "with_memories",
]

logger = logging.getLogger("langgraph_memory")



def merge_memory(left: MemoryLedger | None, right: MemoryLedger | Mapping[str, Any] | None) -> MemoryLedger:
    """Reducer of the ``memory`` state key.

    Nodes write the whole ledger; tools send small notes instead, because several tool
    calls can finish in one step: ``{"remembered": [ids]}`` marks memories the model just
    stored as already known this turn, ``{"forgotten": [ids]}`` takes deleted or
    superseded memories out of the model's view.
    """
    left = left or {}
    if not right:
        return left
    if "remembered" not in right and "forgotten" not in right:
        return right  # type: ignore[return-value]
    merged: MemoryLedger = {**left}  # type: ignore[typeddict-item]
    turn = int(left.get("turn", 0)) + 1
    remembered = list(right.get("remembered", ()))
    forgotten = set(right.get("forgotten", ()))
    merged["injected"] = {
        **{k: v for k, v in left.get("injected", {}).items() if k not in forgotten},
        **{i: turn for i in remembered},
    }
    merged["buffer"] = [i for i in left.get("buffer", []) if i not in forgotten] + remembered
    merged["context"] = [e for e in left.get("context", []) if e["id"] not in forgotten]
    merged["latest"] = [e for e in left.get("latest", []) if e["id"] not in forgotten]
    return merged


class MemoryState(MessagesState):
    """Graph state with memory: ``messages`` plus the thread's injection ledger."""

    memory: Annotated[NotRequired[MemoryLedger], merge_memory]
    """What the pre-hook injected and when; visible in LangGraph Studio."""


_text = message_text


def default_should_inject(message: BaseMessage, skip_sources: frozenset[str]) -> bool:
    """Human messages start an injection unless they come from a skipped source (a
    ``source`` in ``additional_kwargs`` or the message ``name``, e.g. ``"system"``)."""
    if not isinstance(message, HumanMessage) or is_summary(message):
        return False  # a thread summary (SummarizationMiddleware) is not new input
    source = message.additional_kwargs.get("source") or message.name
    return source not in skip_sources


def human_burst(
    messages: Sequence[BaseMessage], should_inject: Callable[[BaseMessage], bool]
) -> list[BaseMessage]:
    """The human messages at the end of the thread since the last AI or tool message:
    a burst is answered by one injection and one query embedding."""
    burst: list[BaseMessage] = []
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            if should_inject(message):
                burst.append(message)
            continue
        break
    return list(reversed(burst))


def _query(burst: Sequence[BaseMessage]) -> str | None:
    # Whatever the user typed (lone surrogates, control characters, a megabyte of text)
    # becomes something to search with: the user's text never fails a turn.
    text = clean_query("\n".join(_text(m) for m in burst))
    return text if visible(text) else None


def _message_key(messages: Sequence[BaseMessage], message: BaseMessage) -> str:
    return message.id or f"index:{len(messages)}"


class MemoryPrehook:
    """Graph node that chooses the memories to inject before the model answers.

    It acts only when new human input arrived since its last injection (tool results and
    system messages start nothing); a burst of human messages is one query, embedded once.
    It writes the ledger to the ``memory`` state key; the model's input is then rendered
    with :func:`with_memories`.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore`.
        namespace: namespace template; placeholders (``{user_id}``, ``{agent_id}``,
            ``{channel_id}``) are filled from the runtime context or ``configurable``.
        config: selection settings; override per run with
            ``config["configurable"]["memory_config"] = {...field: value}``; on a server
            with auth a run may only narrow these settings (lower limits and budgets,
            fewer channels or kinds, ``channel_scope`` on).
        skip_sources: human-message sources that start no injection.
        should_inject: replaces the rule deciding which messages count as new input.
        agent_namespace: where the agent's ``self`` and ``goal`` memories live, shared by
            all its users (``{agent_id}`` defaults to ``default_agent_id``); ``None``: in
            each user's namespace.
        room_namespace: where the rooms the runtime names (``rooms`` in the context or
            ``configurable``) live; their live excerpts and digested facts are injected.
        live: how live excerpts are chosen (:class:`~langgraph_memory.agent.rooms.LiveConfig`).
        default_agent_id: the ``agent_id`` when the runtime names none.
        agent_ids: other agent ids a run may name. ``None`` (default): on a server with
            auth only ``default_agent_id``, without auth any; another raises
            :class:`~langgraph_memory.agent.identity.AgentScopeError`.
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        namespace: Sequence[str] = DEFAULT_NAMESPACE,
        config: InjectionConfig | None = None,
        skip_sources: Sequence[str] = ("system",),
        should_inject: Callable[[BaseMessage], bool] | None = None,
        agent_namespace: Sequence[str] | None = DEFAULT_AGENT_NAMESPACE,
        room_namespace: Sequence[str] = DEFAULT_ROOM_NAMESPACE,
        live: LiveConfig | None = None,
        default_agent_id: str = DEFAULT_AGENT_ID,
        agent_ids: Iterable[str] | None = None,
    ) -> None:
        pinned_agent_ids(default_agent_id, agent_ids)  # a slip fails here, not in a run
        self.agent_ids = None if agent_ids is None else tuple(agent_ids)
        self.store = store
        self.namespace = tuple(namespace)
        self.agent_namespace = None if agent_namespace is None else tuple(agent_namespace)
        self.room_namespace = tuple(room_namespace)
        self.live = live or LiveConfig()
        self.default_agent_id = default_agent_id
        self.config = config or InjectionConfig()
        skipped = frozenset(skip_sources)
        self.should_inject = should_inject or (lambda m: default_should_inject(m, skipped))
        self.cache = VectorCache()
        self.last_injection: Injection | None = None
        """The last decision, with the counts of what was dropped and why (for debugging)."""

    def _plan(
        self, state: Mapping[str, Any], config: RunnableConfig | None, context: Any
    ) -> tuple[MemoryLedger, list[BaseMessage], TurnScopes, InjectionConfig] | None:
        ledger: MemoryLedger = state.get("memory") or {}
        messages = state.get("messages", [])
        burst = human_burst(messages, self.should_inject)
        if not burst or _message_key(messages, burst[-1]) == ledger.get("last_human_id"):
            return None
        scopes = self.scopes(config, context)
        overrides = ((config or {}).get("configurable") or {}).get("memory_config")
        # On a server with auth the client sends configurable: it may narrow the app's settings only.
        settings = self.config.override(overrides, narrow_only=authenticated_identity(config) is not None) \
            if overrides else self.config
        if settings.channel_scope:  # the run's channel, from the runtime only
            settings = settings.replace(channel=scopes.channel)
        return ledger, burst, scopes, settings

    def scopes(self, config: RunnableConfig | None, context: Any) -> TurnScopes:
        """Whose memories this run sees: its user's, the agent's identity, and the rooms
        its runtime names."""
        user = resolve_namespace(self.namespace, config=config, context=context)
        # Checked before anything is read: the recorder stores them beside what is said.
        runtime_thread(config)
        channel = runtime_channel(config, context)
        filled = with_agent_default(config, context, self.default_agent_id, self.agent_ids)
        agent = user if self.agent_namespace is None else resolve_namespace(self.agent_namespace, **filled)
        rooms = rooms_from_runtime(config, context)
        room_ns = resolve_namespace(self.room_namespace, **filled) if rooms else None
        room_facts = True
        if rooms:  # a room with a member list is seen by its members' runs only
            who = run_user(config, context)
            rooms = self.store.visible_rooms(rooms, who, namespace=room_ns)
            room_facts = not self.store.rooms_closed_to(who, namespace=room_ns)
        return TurnScopes(user=user, agent=agent, rooms_namespace=room_ns, rooms=rooms, room_facts=room_facts,
                          channel=channel)

    def _update(
        self, ledger: MemoryLedger, burst: list[BaseMessage], messages: Sequence[BaseMessage],
        injection: Injection, settings: InjectionConfig,
    ) -> dict[str, Any]:
        self.last_injection = injection
        turn = int(ledger.get("turn", 0)) + 1
        latest = [c.entry(turn) for c in injection.chosen]
        fresh = {e["id"] for e in latest}
        gone = getattr(injection, "gone", set())  # live excerpts the digest took away
        kept = [
            e for e in ledger.get("context", [])
            if turn - e["turn"] < settings.reinject_after_turns and e["id"] not in fresh and e["id"] not in gone
        ]
        return {
            "memory": {
                **ledger,
                "turn": int(ledger.get("turn", 0)),
                "last_human_id": _message_key(messages, burst[-1]),
                "context": kept + latest,
                "latest": latest,
                "query": injection.query,
                "pending": True,
            }
        }

    def __call__(self, state: Mapping[str, Any], config: RunnableConfig, runtime: Any = None) -> dict[str, Any] | None:
        plan = self._plan(state, config, getattr(runtime, "context", None))
        if plan is None:
            return None
        ledger, burst, scopes, settings = plan
        query = _query(burst)
        with turn_in_flight(self.store):  # a gardening pass waits meanwhile
            if scopes.shared:
                injection = select_turn(
                    self.store, scopes=scopes, query=query, ledger=ledger, config=settings, live=self.live,
                    cache=self.cache,
                )
            else:
                injection = select_memories(
                    self.store, namespace=scopes.user, query=query, ledger=ledger, config=settings, cache=self.cache
                )
        return self._update(ledger, burst, state["messages"], injection, settings)

    async def acall(self, state: Mapping[str, Any], config: RunnableConfig, runtime: Any = None) -> dict[str, Any] | None:
        """Async twin of calling the node."""
        plan = self._plan(state, config, getattr(runtime, "context", None))
        if plan is None:
            return None
        ledger, burst, scopes, settings = plan
        query = _query(burst)
        with turn_in_flight(self.store):
            if scopes.shared:
                injection = await aselect_turn(
                    self.store, scopes=scopes, query=query, ledger=ledger, config=settings, live=self.live,
                    cache=self.cache,
                )
            else:
                injection = await aselect_memories(
                    self.store, namespace=scopes.user, query=query, ledger=ledger, config=settings, cache=self.cache
                )
        return self._update(ledger, burst, state["messages"], injection, settings)


def _remembered_this_turn(ledger: Mapping[str, Any]) -> list[str]:
    """Ids the model stored with a tool during the turn being closed (the tools' notes put
    them in ``injected`` at the closing turn's number; the pre-hook's own are in ``latest``)."""
    turn = int(ledger.get("turn", 0)) + 1
    latest = {e["id"] for e in ledger.get("latest", [])}
    return [i for i, t in (ledger.get("injected") or {}).items() if t == turn and i not in latest]


class MemoryPosthook:
    """Graph node that closes the turn once the model has answered.

    It advances the turn counter, records the ids injected this turn (and bounds the
    semantic buffer), then counts the injection on each memory on the store's background
    worker (:func:`~langgraph_memory.background.worker.worker_for`) so the reply is not
    delayed. It does nothing while the model is still calling tools.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore`.
        namespace: the same template as the pre-hook's.
        max_semantic_buffer: how many injected ids the semantic buffer keeps.
        background: record statistics off the hot path (``False``: before returning).
        index_exchanges: hand each finished exchange (the human message(s) and the final
            answer) to the background worker, for ``search_conversations``.
        skip_sources: human-message sources left out of exchanges and preference capture,
            as for the pre-hook.
        capture: what to capture from the user's messages and which events to raise
            (:class:`~langgraph_memory.agent.capture.CaptureConfig`; ``True`` for the
            defaults). Off (``None``) for this building block; the ready-made paths
            (``MemoryMiddleware``, ``build_memory_graph``, ``react_agent_hooks``) turn it on.
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        namespace: Sequence[str] = DEFAULT_NAMESPACE,
        max_semantic_buffer: int = 100,
        background: bool = True,
        index_exchanges: bool = True,
        skip_sources: Sequence[str] = ("system",),
        capture: CaptureConfig | bool | None = None,
    ) -> None:
        self.store = store
        self.namespace = tuple(namespace)
        self.max_semantic_buffer = max_semantic_buffer
        self.background = background
        skipped = frozenset(skip_sources)
        self._include = lambda m: default_should_inject(m, skipped)
        self.recorder = ConversationRecorder(store, include=self._include) if index_exchanges else None
        self.capturing = capturing(capture, store)

    def _close(self, state: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]] | None:
        ledger: MemoryLedger = state.get("memory") or {}
        messages = state.get("messages", [])
        if not ledger.get("pending"):
            return None
        if messages and isinstance(messages[-1], AIMessage) and messages[-1].tool_calls:
            return None  # the model is still working through tools
        turn = int(ledger.get("turn", 0)) + 1
        latest = ledger.get("latest", [])
        injected = {**ledger.get("injected", {}), **{e["id"]: turn for e in latest}}
        # Live excerpts count in the window; they are not memories (no statistics, no buffer).
        ids = [e["id"] for e in latest if e.get("channel") != "live"]
        buffer = [i for i in ledger.get("buffer", []) if i not in ids] + ids
        closed = {
            **ledger,
            "turn": turn,
            "injected": injected,
            "buffer": buffer[-self.max_semantic_buffer :],
            "pending": False,
        }
        return {"memory": closed}, ids

    def _record(self, ids: list[str], namespace: Namespace) -> None:
        if not ids:
            return
        if not self.background:
            self.store.record_access(ids, namespace=namespace, injected=True)
            return
        worker_for(self.store).submit(
            self.store.record_access, ids, namespace=namespace, injected=True, label="statistics"
        )

    def wait(self, timeout: float | None = None) -> None:
        """Block until the background work accepted so far is done (tests, shutdown); the
        same as ``store.flush(timeout)``."""
        self.store.flush(timeout)

    def __call__(self, state: Mapping[str, Any], config: RunnableConfig, runtime: Any = None) -> dict[str, Any] | None:
        closed = self._close(state)
        if closed is None:
            return None
        update, ids = closed
        context = getattr(runtime, "context", None)
        namespace = resolve_namespace(self.namespace, config=config, context=context)
        self._record(ids, namespace)
        if self.recorder is not None:
            self.recorder.record_turn(state, namespace, config, context)
        if self.capturing is not None:
            # The user's own words: not a summary, nor a message from a skipped source.
            humans = [m for m in turn_humans(state.get("messages", [])) if self._include(m) and not is_summary(m)]
            source = {"thread_id": ((config or {}).get("configurable") or {}).get("thread_id"),
                      "source_message_ids": [m.id for m in humans if m.id]}
            self.capturing.after_turn(self.store, namespace, [_text(m) for m in humans], ids, self._submit, source,
                                      remembered=_remembered_this_turn(state.get("memory") or {}))
        return update

    def _submit(self, fn: Callable[..., Any], *args: Any, label: str, droppable: bool = True, **kwargs: Any) -> None:
        if self.background:
            worker_for(self.store).submit(fn, *args, label=label, droppable=droppable, **kwargs)
        else:
            fn(*args, **kwargs)

    async def acall(self, state: Mapping[str, Any], config: RunnableConfig, runtime: Any = None) -> dict[str, Any] | None:
        """Async twin of calling the node."""
        if not self.background:
            return await asyncio.to_thread(self, state, config, runtime)
        return self(state, config, runtime)
