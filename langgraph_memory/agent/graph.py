"""Ready-made wiring: the reference ``StateGraph`` and the ``create_react_agent`` hooks.

The reference graph is START → memory_prehook → agent ⇄ tools → memory_posthook → END,
built from the public nodes so it doubles as an example for hand-written graphs.
"""

from __future__ import annotations

from typing import Any, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.prebuilt.chat_agent_executor import AgentState as ReactAgentState
from typing_extensions import Annotated, NotRequired

from langgraph_memory.agent.hooks import (
    DEFAULT_NAMESPACE,
    MemoryPosthook,
    MemoryPrehook,
    MemoryState,
    merge_memory,
    with_memories,
)
from langgraph_memory.agent.identity import DEFAULT_AGENT_NAMESPACE, AgentWrites
from langgraph_memory.agent.injection import InjectionConfig, MemoryLedger
from langgraph_memory.agent.rooms import DEFAULT_ROOM_NAMESPACE
from langgraph_memory.agent.prompts import MEMORY_INSTRUCTIONS
from langgraph_memory.store import MemoryStore
from langgraph_memory.agent.tools import memory_tools

__all__ = ["build_memory_graph", "react_agent_hooks", "MemoryReactState"]


def build_memory_graph(
    model: BaseChatModel,
    store: MemoryStore,
    *,
    tools: Sequence[BaseTool] = (),
    system_prompt: str | None = None,
    namespace: Sequence[str] = DEFAULT_NAMESPACE,
    agent_namespace: Sequence[str] | None = DEFAULT_AGENT_NAMESPACE,
    agent_writes: AgentWrites = True,
    room_namespace: Sequence[str] = DEFAULT_ROOM_NAMESPACE,
    config: InjectionConfig | None = None,
    kinds: Sequence[str] = ("fact", "self", "goal"),
    instructions: str | None = MEMORY_INSTRUCTIONS,
    checkpointer: Any = None,
    background_stats: bool = True,
    context_schema: Any = None,
) -> Any:
    """Compile the reference memory graph around ``model``.

    Args:
        model: any tool-calling chat model (``ChatOpenAI``, or :class:`ScriptedChatModel`
            offline).
        store: the :class:`~langgraph_memory.MemoryStore`.
        tools: your own tools, next to the memory tools.
        system_prompt: your system prompt; memory instructions and memories follow it.
        namespace, config, kinds, instructions: as for :class:`MemoryMiddleware`.
        agent_namespace, agent_writes, room_namespace: as for :class:`MemoryMiddleware`.
        checkpointer: keeps threads (and their ledgers) between invocations.
        background_stats: record injection statistics off the hot path.
        context_schema: the run's context type (e.g. a ``TypedDict`` with ``user_id``), so
            LangGraph Studio offers it as a form.

    Returns:
        The compiled graph; invoke it with ``{"messages": [...]}`` and a ``user_id`` in the
        context or ``configurable``.
    """
    prehook = MemoryPrehook(
        store, namespace=namespace, config=config, agent_namespace=agent_namespace,
        room_namespace=room_namespace)
    posthook = MemoryPosthook(
        store, namespace=namespace, max_semantic_buffer=prehook.config.max_semantic_buffer,
        background=background_stats,
    )
    memory = memory_tools(
        store, kinds=kinds, namespace=namespace, agent_namespace=agent_namespace, agent_writes=agent_writes)
    all_tools = [*memory, *tools] if kinds else list(tools)
    bound = model.bind_tools(all_tools) if all_tools else model

    def agent(state: MemoryState, config: RunnableConfig) -> dict[str, Any]:
        messages = with_memories(state["messages"], state, system_prompt=system_prompt, instructions=instructions)
        return {"messages": [bound.invoke(messages, config)]}

    async def aagent(state: MemoryState, config: RunnableConfig) -> dict[str, Any]:
        messages = with_memories(state["messages"], state, system_prompt=system_prompt, instructions=instructions)
        return {"messages": [await bound.ainvoke(messages, config)]}

    def route(state: MemoryState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else "memory_posthook"

    builder = StateGraph(MemoryState, context_schema=context_schema)
    builder.add_node("memory_prehook", prehook)
    builder.add_node("agent", RunnableLambda(agent, afunc=aagent, name="agent"))
    builder.add_node("tools", ToolNode(all_tools))
    builder.add_node("memory_posthook", posthook)
    builder.add_edge(START, "memory_prehook")
    builder.add_edge("memory_prehook", "agent")
    builder.add_conditional_edges("agent", route, ["tools", "memory_posthook"])
    builder.add_edge("tools", "agent")
    builder.add_edge("memory_posthook", END)
    graph = builder.compile(checkpointer=checkpointer, name="memory_agent")
    graph.memory_posthook = posthook  # type: ignore[attr-defined]  # tests and shutdown can wait()
    return graph


class MemoryReactState(ReactAgentState):
    """``create_react_agent`` state with the thread's memory ledger."""

    memory: Annotated[NotRequired[MemoryLedger], merge_memory]


def react_agent_hooks(
    store: MemoryStore,
    *,
    tools: Sequence[BaseTool] = (),
    namespace: Sequence[str] = DEFAULT_NAMESPACE,
    agent_namespace: Sequence[str] | None = DEFAULT_AGENT_NAMESPACE,
    agent_writes: AgentWrites = True,
    room_namespace: Sequence[str] = DEFAULT_ROOM_NAMESPACE,
    config: InjectionConfig | None = None,
    kinds: Sequence[str] = ("fact", "self", "goal"),
    instructions: str | None = MEMORY_INSTRUCTIONS,
    background_stats: bool = True,
) -> dict[str, Any]:
    """Keyword arguments that give a ``create_react_agent`` memory::

        agent = create_react_agent(model, **react_agent_hooks(store, tools=my_tools))

    Returns ``tools`` (memory tools plus yours), ``pre_model_hook`` (selects memories and
    hands the model an input with them, via ``llm_input_messages``, so the thread's
    messages stay clean), ``post_model_hook`` (closes the turn) and ``state_schema``.
    """
    prehook = MemoryPrehook(
        store, namespace=namespace, config=config, agent_namespace=agent_namespace,
        room_namespace=room_namespace)
    posthook = MemoryPosthook(
        store, namespace=namespace, max_semantic_buffer=prehook.config.max_semantic_buffer,
        background=background_stats,
    )

    def pre_model_hook(state: MemoryReactState, config: RunnableConfig, runtime: Any) -> dict[str, Any]:
        update = prehook(state, config, runtime) or {}
        view = {**state, **update}
        return {**update, "llm_input_messages": with_memories(state["messages"], view, instructions=instructions)}

    def post_model_hook(state: MemoryReactState, config: RunnableConfig, runtime: Any) -> dict[str, Any]:
        return posthook(state, config, runtime) or {}

    memory = memory_tools(
        store, kinds=kinds, namespace=namespace, agent_namespace=agent_namespace, agent_writes=agent_writes)
    all_tools = [*memory, *tools] if kinds else list(tools)
    return {
        "tools": all_tools,
        "pre_model_hook": pre_model_hook,
        "post_model_hook": post_model_hook,
        "state_schema": MemoryReactState,
    }
