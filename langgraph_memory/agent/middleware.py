"""Memory for LangChain 1.x ``create_agent``: one middleware, tools attached."""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Iterable, Sequence

from langchain.agents.middleware.types import (
    AgentMiddleware,
    AgentState,
    ModelRequest,
    ModelResponse,
)
from langchain_core.messages import SystemMessage
from langgraph.config import get_config
from langgraph.runtime import Runtime
from typing_extensions import Annotated, NotRequired

from langgraph_memory.agent.availability import GatedMemory, MemoryGate, OnUnavailable
from langgraph_memory.agent.capture import CaptureConfig
from langgraph_memory.background.daily import start_daily_gardening
from langgraph_memory.agent.hooks import (
    DEFAULT_NAMESPACE,
    MemoryPosthook,
    MemoryPrehook,
    _text,
    memory_prompt,
    merge_memory,
    resolve_namespace,
)
from langgraph_memory.agent.identity import DEFAULT_AGENT_ID, DEFAULT_AGENT_NAMESPACE, AgentWrites
from langgraph_memory.agent.injection import InjectionConfig, MemoryLedger
from langgraph_memory.agent.rooms import DEFAULT_ROOM_NAMESPACE
from langgraph_memory.agent.prompts import MEMORY_INSTRUCTIONS
from langgraph_memory.agent.recall import ConversationRecorder
from langgraph_memory.store import MemoryStore
from langgraph_memory.agent.tools import memory_tools

__all__ = ["MemoryMiddleware", "MemoryAgentState"]


class MemoryAgentState(AgentState):
    """``create_agent`` state with the thread's memory ledger."""

    memory: Annotated[NotRequired[MemoryLedger], merge_memory]
    """What was injected and when; visible in LangGraph Studio."""


def _config() -> Any:
    try:
        return get_config()
    except RuntimeError:  # called outside a graph run
        return {}


class MemoryMiddleware(AgentMiddleware):
    """Long-term memory for ``create_agent(model, tools, middleware=[MemoryMiddleware(store)])``.

    ``before_model`` runs the pre-hook when new human input arrived (and indexes a thread
    summary left by ``SummarizationMiddleware``: list this middleware after it);
    ``wrap_model_call`` adds the memory instructions and the injected memories to the
    system message of that call only (the thread's messages never hold them);
    ``after_model`` closes the turn once the model answers without calling tools;
    ``after_agent`` hands the exchange to the background worker. The memory tools are
    attached.

    Memory is optional: while the store or the embedder is unavailable (and with
    ``on_unavailable="skip"``), the model is offered no memory tool and no memory
    instructions, nothing is injected or indexed, and one warning is logged per cause;
    memory comes back by itself (see :class:`~langgraph_memory.agent.availability.MemoryGate`).
    Pass a function that opens the store (or a :class:`~langgraph_memory.DeferredStore`)
    so that a store unreachable at startup does not stop the app either.

    The user comes from the runtime context or ``config["configurable"]["user_id"]``.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore`, a ``DeferredStore``, or a
            function returning a store (opened on first use, retried after failures).
        namespace: namespace template, default ``("memories", "{user_id}")``.
        agent_namespace: where the agent's ``self`` and ``goal`` memories live, default
            ``("agent", "{agent_id}")``, shared by all users; ``None``: per user.
        agent_writes: whether a run may store or delete them (a flag, or a function of
            the run's context).
        room_namespace: where the rooms named by the runtime (``rooms``) live.
        default_agent_id, agent_ids: the agent this app is (``{agent_id}`` when the
            runtime names none) and the other agent ids a run may name. With
            ``agent_ids=None`` a run on a server with auth may name ``default_agent_id``
            only (an embedded app, without auth, any); a run naming another gets
            :class:`~langgraph_memory.agent.identity.AgentScopeError`, nothing read or stored.
        config: the pre-hook's :class:`~langgraph_memory.agent.injection.InjectionConfig`.
        kinds: which tool families to attach (``fact``, ``self``, ``goal``); ``()`` for none.
        instructions: memory guidance added to the system prompt; ``None`` to omit.
        skip_sources: human-message sources that start no injection.
        background_stats: record injection statistics off the hot path.
        index_exchanges: index every exchange and thread summary for ``search_conversations``.
        on_unavailable: ``"skip"`` (default) goes on without memory; ``"raise"`` fails the turn.
        retry_interval: seconds between attempts to reach an unavailable store.
        inject_exchanges: past exchanges and summaries of other threads the pre-hook adds
            to the model's input (0, the default: none; the model searches them itself).
        capture: what is captured from the user's messages (preferences, intentions,
            constraints) and which events are raised (``preference_captured``,
            ``proactive_hint``): a :class:`~langgraph_memory.agent.capture.CaptureConfig`;
            on by default (``True``), ``False`` turns it off. It runs on the background
            worker after the turn.
        garden_daily: start the store's daily gardening (fade, archive, purge expired and
            forgotten memories; :mod:`langgraph_memory.background.daily`); ``False`` when a
            LangGraph Platform cron runs the ``garden`` graph instead.
    """

    state_schema = MemoryAgentState

    def __init__(
        self,
        store: MemoryStore,
        *,
        namespace: Sequence[str] = DEFAULT_NAMESPACE,
        agent_namespace: Sequence[str] | None = DEFAULT_AGENT_NAMESPACE,
        agent_writes: AgentWrites = True,
        room_namespace: Sequence[str] = DEFAULT_ROOM_NAMESPACE,
        default_agent_id: str = DEFAULT_AGENT_ID,
        agent_ids: Iterable[str] | None = None,
        config: InjectionConfig | None = None,
        kinds: Sequence[str] = ("fact", "self", "goal"),
        instructions: str | None = MEMORY_INSTRUCTIONS,
        skip_sources: Sequence[str] = ("system",),
        background_stats: bool = True,
        index_exchanges: bool = True,
        on_unavailable: OnUnavailable = "skip",
        retry_interval: float = 5.0,
        inject_exchanges: int = 0,
        capture: CaptureConfig | bool | None = True,
        garden_daily: bool = True,
    ) -> None:
        super().__init__()
        gate = MemoryGate(store, on_unavailable=on_unavailable, retry_interval=retry_interval)
        if garden_daily:
            start_daily_gardening(gate.store)
        self.store = store = gate.store
        self.prehook = MemoryPrehook(
            store, namespace=namespace, config=config, agent_namespace=agent_namespace,
            room_namespace=room_namespace, skip_sources=skip_sources,
            default_agent_id=default_agent_id, agent_ids=agent_ids)
        self.posthook = MemoryPosthook(
            store, namespace=namespace,
            max_semantic_buffer=self.prehook.config.max_semantic_buffer,
            background=background_stats, index_exchanges=False,  # after_agent does it
            skip_sources=skip_sources, capture=capture,
        )
        recorder = ConversationRecorder(store, include=self.prehook.should_inject) if index_exchanges else None
        self.memory = GatedMemory(gate, self.prehook, self.posthook, recorder, inject_exchanges=inject_exchanges)
        self.gate = gate
        self.instructions = instructions
        self.tools = memory_tools(
            store, kinds=kinds, namespace=namespace, agent_namespace=agent_namespace, agent_writes=agent_writes,
            channel_scope=self.prehook.config.channel_scope, default_agent_id=default_agent_id, agent_ids=agent_ids,
        ) if kinds else []
        self._tool_names = {t.name for t in self.tools}

    def before_model(self, state: MemoryAgentState, runtime: Runtime) -> dict[str, Any] | None:
        return self.memory.before(state, _config(), runtime)

    async def abefore_model(self, state: MemoryAgentState, runtime: Runtime) -> dict[str, Any] | None:
        return await self.memory.abefore(state, _config(), runtime)

    def _without_memory(self, request: ModelRequest) -> ModelRequest:
        tools = [t for t in request.tools if getattr(t, "name", None) not in self._tool_names]
        return request.override(tools=tools)

    def _with_memory(self, request: ModelRequest) -> ModelRequest:
        if not self.gate.up:  # memory is off this turn: offer none of it
            return self._without_memory(request)
        base = _text(request.system_message) if request.system_message is not None else None
        recalled = self.memory.recalled(request.state, _config(), request.runtime)
        base = "\n\n".join(p for p in (base, recalled) if p) or None
        context = getattr(request.runtime, "context", None)
        namespace = resolve_namespace(self.prehook.namespace, config=_config(), context=context)
        text = self.gate.run(
            memory_prompt, request.state, store=self.store, namespace=namespace, base=base,
            instructions=self.instructions,
        )
        if text is None:  # the store failed just now: answer without memory
            return self._without_memory(request)
        return request.override(system_message=SystemMessage(text)) if text else request

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        return handler(self._with_memory(request))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        return await handler(await asyncio.to_thread(self._with_memory, request))

    def after_model(self, state: MemoryAgentState, runtime: Runtime) -> dict[str, Any] | None:
        return self.memory.after(state, _config(), runtime)

    async def aafter_model(self, state: MemoryAgentState, runtime: Runtime) -> dict[str, Any] | None:
        return await self.memory.aafter(state, _config(), runtime)

    def after_agent(self, state: MemoryAgentState, runtime: Runtime) -> dict[str, Any] | None:
        self.memory.end_turn(state, _config(), runtime)
        return None

    async def aafter_agent(self, state: MemoryAgentState, runtime: Runtime) -> dict[str, Any] | None:
        self.memory.end_turn(state, _config(), runtime)  # validation and a queue push: no I/O
        return None
