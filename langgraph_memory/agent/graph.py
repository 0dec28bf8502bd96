"""Ready-made wiring: the reference ``StateGraph`` and the ``create_react_agent`` hooks.

The reference graph is START → memory_prehook → agent ⇄ tools → memory_posthook → END,
built from the public nodes so it doubles as an example for hand-written graphs.
"""

from __future__ import annotations

import asyncio
from typing import Any, Iterable, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig, RunnableLambda
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode
from langgraph.prebuilt.chat_agent_executor import AgentState as ReactAgentState
from langgraph.runtime import get_runtime
from typing_extensions import Annotated, NotRequired

from langgraph_memory.agent.availability import GatedMemory, MemoryGate, OnUnavailable
from langgraph_memory.agent.capture import CaptureConfig
from langgraph_memory.background.daily import start_daily_gardening
from langgraph_memory.agent.hooks import (
    DEFAULT_NAMESPACE,
    MemoryPosthook,
    MemoryPrehook,
    MemoryState,
    merge_memory,
    resolve_namespace,
    with_memories,
)
from langgraph_memory.agent.identity import DEFAULT_AGENT_ID, DEFAULT_AGENT_NAMESPACE, AgentWrites
from langgraph_memory.agent.injection import InjectionConfig, MemoryLedger
from langgraph_memory.agent.rooms import DEFAULT_ROOM_NAMESPACE
from langgraph_memory.agent.prompts import MEMORY_INSTRUCTIONS
from langgraph_memory.agent.recall import ConversationRecorder
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
    default_agent_id: str = DEFAULT_AGENT_ID,
    agent_ids: Iterable[str] | None = None,
    config: InjectionConfig | None = None,
    kinds: Sequence[str] = ("fact", "self", "goal"),
    instructions: str | None = MEMORY_INSTRUCTIONS,
    checkpointer: Any = None,
    background_stats: bool = True,
    context_schema: Any = None,
    index_exchanges: bool = True,
    on_unavailable: OnUnavailable = "skip",
    retry_interval: float = 5.0,
    inject_exchanges: int = 0,
    capture: CaptureConfig | bool | None = True,
    garden_daily: bool = True,
) -> Any:
    """Compile the reference memory graph around ``model``.

    Args:
        model: any tool-calling chat model (``ChatOpenAI``, or :class:`ScriptedChatModel`
            offline).
        store: the :class:`~langgraph_memory.MemoryStore`, a ``DeferredStore``, or a
            function returning a store (opened on first use, retried after failures).
        tools: your own tools, next to the memory tools.
        system_prompt: your system prompt; memory instructions and memories follow it.
        namespace, config, kinds, instructions: as for :class:`MemoryMiddleware`.
        agent_namespace, agent_writes, room_namespace: as for :class:`MemoryMiddleware`.
        default_agent_id, agent_ids: the agent this app is (``{agent_id}`` when the
            runtime names none) and the other agent ids a run may name. With
            ``agent_ids=None`` a run on a server with auth may name ``default_agent_id``
            only (an embedded app, without auth, any); a run naming another gets
            :class:`~langgraph_memory.agent.identity.AgentScopeError`, nothing read or stored.
        checkpointer: keeps threads (and their ledgers) between invocations.
        background_stats: record injection statistics off the hot path.
        context_schema: the run's context type (e.g. a ``TypedDict`` with ``user_id``), so
            LangGraph Studio offers it as a form.
        index_exchanges, on_unavailable, retry_interval, inject_exchanges: as for
            :class:`MemoryMiddleware`; while memory is unavailable the model is bound
            without the memory tools.
        capture: what is captured from the user's messages and which events are raised
            (:class:`~langgraph_memory.agent.capture.CaptureConfig`), as for
            :class:`MemoryMiddleware`; on by default, ``False`` turns it off.
        garden_daily: start the store's daily gardening (fade, archive, purge expired and
            forgotten memories; :mod:`langgraph_memory.background.daily`); ``False`` when a
            LangGraph Platform cron runs the ``garden`` graph instead.

    Returns:
        The compiled graph; invoke it with ``{"messages": [...]}`` and a ``user_id`` in the
        context or ``configurable``.
    """
    gate = MemoryGate(store, on_unavailable=on_unavailable, retry_interval=retry_interval)
    store = gate.store
    if garden_daily:
        start_daily_gardening(store)
    prehook = MemoryPrehook(
        store, namespace=namespace, config=config, agent_namespace=agent_namespace,
        room_namespace=room_namespace, default_agent_id=default_agent_id, agent_ids=agent_ids)
    posthook = MemoryPosthook(
        store, namespace=namespace, max_semantic_buffer=prehook.config.max_semantic_buffer,
        background=background_stats, index_exchanges=index_exchanges,
        capture=capture,
    )
    recorder = ConversationRecorder(store, include=prehook.should_inject) if index_exchanges else None
    memory = GatedMemory(gate, prehook, posthook, recorder, inject_exchanges=inject_exchanges)
    memory_tool_list = memory_tools(
        store, kinds=kinds, namespace=namespace, agent_namespace=agent_namespace, agent_writes=agent_writes,
        channel_scope=prehook.config.channel_scope, default_agent_id=default_agent_id, agent_ids=agent_ids)
    all_tools = [*memory_tool_list, *tools] if kinds else list(tools)
    bound = model.bind_tools(all_tools) if all_tools else model
    without_memory = model.bind_tools(list(tools)) if tools else model

    def model_input(state: MemoryState, config: RunnableConfig) -> tuple[Any, list[Any]]:
        if gate.up:
            runtime = get_runtime()
            namespace = resolve_namespace(prehook.namespace, config=config, context=runtime.context)
            recalled = memory.recalled(state, config, runtime) if inject_exchanges else ""
            prompt = "\n\n".join(p for p in (system_prompt, recalled) if p) or None
            messages = gate.run(
                with_memories, state["messages"], state, store=store, namespace=namespace,
                system_prompt=prompt, instructions=instructions,
            )
            if messages is not None:
                return bound, messages
        # Memory is off this turn (or its store failed just now): no memory tools,
        # instructions or block. An empty ledger never reads the store.
        return without_memory, with_memories(
            state["messages"], {}, store=store, namespace=(), system_prompt=system_prompt, instructions=None
        )

    def agent(state: MemoryState, config: RunnableConfig) -> dict[str, Any]:
        runnable, messages = model_input(state, config)
        return {"messages": [runnable.invoke(messages, config)]}

    async def aagent(state: MemoryState, config: RunnableConfig) -> dict[str, Any]:
        runnable, messages = await asyncio.to_thread(model_input, state, config)
        return {"messages": [await runnable.ainvoke(messages, config)]}

    def memory_prehook(state: MemoryState, config: RunnableConfig, runtime: Any) -> dict[str, Any] | None:
        return memory.before(state, config, runtime)

    def memory_posthook(state: MemoryState, config: RunnableConfig, runtime: Any) -> dict[str, Any] | None:
        return memory.after(state, config, runtime)

    def route(state: MemoryState) -> str:
        last = state["messages"][-1]
        return "tools" if isinstance(last, AIMessage) and last.tool_calls else "memory_posthook"

    builder = StateGraph(MemoryState, context_schema=context_schema)
    builder.add_node("memory_prehook", memory_prehook)
    builder.add_node("agent", RunnableLambda(agent, afunc=aagent, name="agent"))
    builder.add_node("tools", ToolNode(all_tools))
    builder.add_node("memory_posthook", memory_posthook)
    builder.add_edge(START, "memory_prehook")
    builder.add_edge("memory_prehook", "agent")
    builder.add_conditional_edges("agent", route, ["tools", "memory_posthook"])
    builder.add_edge("tools", "agent")
    builder.add_edge("memory_posthook", END)
    graph = builder.compile(checkpointer=checkpointer, name="memory_agent")
    graph.memory_posthook = posthook  # type: ignore[attr-defined]  # tests and shutdown can wait()
    graph.memory_gate = gate  # type: ignore[attr-defined]  # whether memory is on, and why not
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
    default_agent_id: str = DEFAULT_AGENT_ID,
    agent_ids: Iterable[str] | None = None,
    config: InjectionConfig | None = None,
    kinds: Sequence[str] = ("fact", "self", "goal"),
    instructions: str | None = MEMORY_INSTRUCTIONS,
    background_stats: bool = True,
    capture: CaptureConfig | bool | None = True,
    garden_daily: bool = True,
) -> dict[str, Any]:
    """Keyword arguments that give a ``create_react_agent`` memory::

        agent = create_react_agent(model, **react_agent_hooks(store, tools=my_tools))

    Returns ``tools`` (memory tools plus yours), ``pre_model_hook`` (selects memories and
    hands the model an input with them, via ``llm_input_messages``, so the thread's
    messages stay clean), ``post_model_hook`` (closes the turn, and hands the user's
    messages to preference capture: ``capture`` as for :class:`MemoryMiddleware`) and
    ``state_schema``. ``default_agent_id`` and ``agent_ids`` pin the agents a run may name,
    as for :func:`build_memory_graph`. Like :func:`build_memory_graph`, it starts the store's daily gardening
    unless ``garden_daily=False`` (when a LangGraph Platform cron runs the ``garden`` graph).
    """
    if garden_daily:
        start_daily_gardening(store)
    prehook = MemoryPrehook(
        store, namespace=namespace, config=config, agent_namespace=agent_namespace,
        room_namespace=room_namespace, default_agent_id=default_agent_id, agent_ids=agent_ids)
    posthook = MemoryPosthook(
        store, namespace=namespace, max_semantic_buffer=prehook.config.max_semantic_buffer,
        background=background_stats, capture=capture,
    )

    def pre_model_hook(state: MemoryReactState, config: RunnableConfig, runtime: Any) -> dict[str, Any]:
        update = prehook(state, config, runtime) or {}
        view = {**state, **update}
        namespace = resolve_namespace(prehook.namespace, config=config, context=getattr(runtime, "context", None))
        messages = with_memories(state["messages"], view, store=store, namespace=namespace, instructions=instructions)
        return {**update, "llm_input_messages": messages}

    def post_model_hook(state: MemoryReactState, config: RunnableConfig, runtime: Any) -> dict[str, Any]:
        return posthook(state, config, runtime) or {}

    memory = memory_tools(
        store, kinds=kinds, namespace=namespace, agent_namespace=agent_namespace, agent_writes=agent_writes,
        channel_scope=prehook.config.channel_scope, default_agent_id=default_agent_id, agent_ids=agent_ids)
    all_tools = [*memory, *tools] if kinds else list(tools)
    return {
        "tools": all_tools,
        "pre_model_hook": pre_model_hook,
        "post_model_hook": post_model_hook,
        "state_schema": MemoryReactState,
    }
