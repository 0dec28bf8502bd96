"""Memory for LangChain 1.x ``create_agent``: one middleware, tools attached."""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Sequence

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

from langgraph_memory.agent.hooks import (
    DEFAULT_NAMESPACE,
    MemoryPosthook,
    MemoryPrehook,
    _text,
    memory_prompt,
    merge_memory,
)
from langgraph_memory.agent.identity import DEFAULT_AGENT_NAMESPACE, AgentWrites
from langgraph_memory.agent.injection import InjectionConfig, MemoryLedger
from langgraph_memory.agent.rooms import DEFAULT_ROOM_NAMESPACE
from langgraph_memory.agent.prompts import MEMORY_INSTRUCTIONS
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

    ``before_model`` runs the pre-hook when new human input arrived; ``wrap_model_call``
    adds the memory instructions and the injected memories to the system message of that
    call only (the thread's messages never hold them); ``after_model`` closes the turn once
    the model answers without calling tools. The memory tools are attached.

    The user comes from the runtime context or ``config["configurable"]["user_id"]``.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore`.
        namespace: namespace template, default ``("memories", "{user_id}")``.
        agent_namespace: where the agent's ``self`` and ``goal`` memories live, default
            ``("agent", "{agent_id}")``, shared by all users; ``None``: per user.
        agent_writes: whether a run may store or delete them (a flag, or a function of
            the run's context).
        room_namespace: where the rooms named by the runtime (``rooms``) live.
        config: the pre-hook's :class:`~langgraph_memory.agent.injection.InjectionConfig`.
        kinds: which tool families to attach (``fact``, ``self``, ``goal``); ``()`` for none.
        instructions: memory guidance added to the system prompt; ``None`` to omit.
        skip_sources: human-message sources that start no injection.
        background_stats: record injection statistics off the hot path.
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
        config: InjectionConfig | None = None,
        kinds: Sequence[str] = ("fact", "self", "goal"),
        instructions: str | None = MEMORY_INSTRUCTIONS,
        skip_sources: Sequence[str] = ("system",),
        background_stats: bool = True,
    ) -> None:
        super().__init__()
        self.store = store
        self.prehook = MemoryPrehook(
            store, namespace=namespace, config=config, agent_namespace=agent_namespace,
            room_namespace=room_namespace, skip_sources=skip_sources)
        self.posthook = MemoryPosthook(
            store, namespace=namespace,
            max_semantic_buffer=self.prehook.config.max_semantic_buffer,
            background=background_stats,
        )
        self.instructions = instructions
        self.tools = memory_tools(
            store, kinds=kinds, namespace=namespace, agent_namespace=agent_namespace, agent_writes=agent_writes,
        ) if kinds else []

    def before_model(self, state: MemoryAgentState, runtime: Runtime) -> dict[str, Any] | None:
        return self.prehook(state, _config(), runtime)

    async def abefore_model(self, state: MemoryAgentState, runtime: Runtime) -> dict[str, Any] | None:
        return await self.prehook.acall(state, _config(), runtime)

    def _with_memory(self, request: ModelRequest) -> ModelRequest:
        base = _text(request.system_message) if request.system_message is not None else None
        text = memory_prompt(request.state, base=base, instructions=self.instructions)
        return request.override(system_message=SystemMessage(text)) if text else request

    def wrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], ModelResponse]
    ) -> ModelResponse:
        return handler(self._with_memory(request))

    async def awrap_model_call(
        self, request: ModelRequest, handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
    ) -> ModelResponse:
        return await handler(self._with_memory(request))

    def after_model(self, state: MemoryAgentState, runtime: Runtime) -> dict[str, Any] | None:
        return self.posthook(state, _config(), runtime)

    async def aafter_model(self, state: MemoryAgentState, runtime: Runtime) -> dict[str, Any] | None:
        return await self.posthook.acall(state, _config(), runtime)
