"""Memory tools for a ``ToolNode``: search, recent, store and delete facts, ``self`` and goals.

The model never names whose memory it touches: every tool resolves the namespace from
the runtime (context or ``configurable``), so even a valid id of another user's memory
is out of reach. A bad argument comes back to the model as a tool error and the graph
goes on.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Iterable, Literal, Optional, Sequence

from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.prebuilt import ToolRuntime
from langgraph.types import Command
from pydantic import BaseModel, Field

from langgraph_memory.errors import LangGraphMemoryError
from langgraph_memory.agent.hooks import DEFAULT_NAMESPACE, resolve_namespace, runtime_channel
from langgraph_memory.agent.recall import SearchConversationsArgs, recall_search
from langgraph_memory.agent._render import render_line
from langgraph_memory.store._lines import bare_line
from langgraph_memory.agent.lifecycle import check_related, describe_delete, link_related
from langgraph_memory.agent.identity import (
    AGENT_KINDS,
    DEFAULT_AGENT_ID,
    DEFAULT_AGENT_NAMESPACE,
    AgentWrites,
    agent_writes_allowed,
    pinned_agent_ids,
    with_agent_default,
)
from langgraph_memory.store.records import KIND_CATEGORIES, Memory, Namespace
from langgraph_memory.store import MemoryStore, RememberResult

__all__ = ["memory_tools", "format_memories"]

logger = logging.getLogger("langgraph_memory")

MemoryTypeName = Literal["identity", "goal", "decision", "todo", "preference", "fact", "event", "observation"]
SelfCategory = Literal["context", "capability", "limitation", "preference", "relation"]
GoalCategory = Literal["capability_request", "understanding", "connection"]


class SearchArgs(BaseModel):
    query: str = Field(description="What to look for, in a few words.")
    subjects: Optional[list[str]] = Field(default=None, description="Only memories tagged with one of these subjects.")
    limit: int = Field(default=10, ge=1, le=20, description="At most this many results.")


class SearchSelfArgs(BaseModel):
    query: str = Field(description="What to look for about yourself.")
    category: Optional[SelfCategory] = Field(default=None, description="Only this category.")
    limit: int = Field(default=10, ge=1, le=20)


class SearchGoalsArgs(BaseModel):
    query: str = Field(description="What to look for among your goals.")
    category: Optional[GoalCategory] = Field(default=None, description="Only this category.")
    limit: int = Field(default=10, ge=1, le=20)


class RecentArgs(BaseModel):
    limit: int = Field(default=10, ge=1, le=20, description="How many of the latest memories.")


MAX_RELATED = 8
"""Memories one ``store_memory`` call may link the new fact to."""


class StoreArgs(BaseModel):
    content: str = Field(description="One self-contained fact about the user or their world, with names.")
    subjects: list[str] = Field(default_factory=list, description='Lowercase tags, e.g. ["mickael", "ski"].')
    memory_type: MemoryTypeName = Field(default="fact", description="identity, preference, decision, event, todo, fact...")
    importance: Optional[float] = Field(default=None, description="0 to 1; default depends on the type.")
    ttl: Optional[str] = Field(default=None, description=(
        'For temporary states: "1h", "7d", "2w", "3 days", "P7D". Omit for lasting facts.'))
    updates: Optional[str] = Field(default=None, description=(
        "The id of the memory this one replaces (from the <memories> block or a search), when the user "
        "changed a decision or a fact; it is kept in history. Omit for a new fact."))
    source: Optional[str] = Field(default=None, max_length=64, description=(
        "Where the fact comes from if not the conversation itself: document, web, tool, email..."))
    related_to: list[str] = Field(default_factory=list, max_length=MAX_RELATED, description=(
        "Ids of known memories this fact is related to (from search results or the <memories> block)."))


class StoreSelfArgs(BaseModel):
    content: str = Field(description='Something you learned about yourself, e.g. "I can read the Lobby".')
    category: SelfCategory = Field(description="context, capability, limitation, preference or relation.")


class StoreGoalArgs(BaseModel):
    content: str = Field(description='Something you would like, e.g. "I would like to search the web".')
    category: GoalCategory = Field(description="capability_request, understanding or connection.")


class DeleteArgs(BaseModel):
    id: str = Field(description="The memory id, as shown in search results or the <memories> block.")
    reason: str = Field(description="Why it is deleted: outdated, wrong, achieved, the user asked...")


def format_memories(memories: Sequence[Memory], *, empty: str = "No memories found.") -> str:
    """Memories as the tools show them: kind or category, id, content, subjects, date; one
    line each, the content quoted as data (:func:`~langgraph_memory.agent._render.render_line`)."""
    if not memories:
        return empty
    lines = []
    for m in memories:
        tag = m.category or (m.memory_type if m.kind == "fact" else m.kind)
        extra = f"subjects: {', '.join(bare_line(s) for s in m.subjects)}; " if m.subjects else ""
        expiry = f"; expires {m.expires_at:%Y-%m-%d %H:%M}" if m.expires_at else ""
        lines.append(f"- [{tag}] (id: {m.id}) {render_line(m.content)} ({extra}{m.created_at:%Y-%m-%d}{expiry})")
    return "\n".join(lines)


def _describe(result: RememberResult) -> str:
    m = result.memory
    if result.action == "duplicate":
        return f"Already known (id: {m.id}): {render_line(m.content)}. Nothing new stored."
    if result.action == "updated" and result.replaced is not None:
        why = result.verdict.decision if result.verdict else "update"
        return (f"Stored (id: {m.id}) as a {why} of {result.replaced.id} ({render_line(result.replaced.content)}), "
                "which it replaces.")
    return f"Stored (id: {m.id}): {render_line(m.content)}"


class _Tools:
    """Builds the tool functions around one store and namespace template."""

    def __init__(
        self, store: MemoryStore, namespace: Sequence[str], agent_namespace: Sequence[str] | None = None,
        agent_writes: AgentWrites = True, default_agent_id: str = DEFAULT_AGENT_ID, channel_scope: bool = False,
        agent_ids: Iterable[str] | None = None,
    ) -> None:
        pinned_agent_ids(default_agent_id, agent_ids)  # a slip fails here, not in a run
        self.agent_ids = None if agent_ids is None else tuple(agent_ids)
        self.store = store
        self.namespace = tuple(namespace)
        self.agent_namespace = None if agent_namespace is None else tuple(agent_namespace)
        self.agent_writes = agent_writes
        self.default_agent_id = default_agent_id
        self.channel_scope = channel_scope

    def scope(self, runtime: ToolRuntime, kind: str = "fact") -> Namespace:
        """The user's namespace, or the agent's for its own ``self`` and ``goal`` memories."""
        if kind in AGENT_KINDS and self.agent_namespace is not None:
            filled = with_agent_default(runtime.config, runtime.context, self.default_agent_id, self.agent_ids)
            return resolve_namespace(self.agent_namespace, **filled)
        return resolve_namespace(self.namespace, config=runtime.config, context=runtime.context)

    def check_write(self, runtime: ToolRuntime, kind: str) -> None:
        if kind in AGENT_KINDS and not agent_writes_allowed(self.agent_writes, runtime.context, runtime.config):
            raise ToolException(
                f"Error: this conversation may not change your {kind} memories. Nothing was changed."
            )

    def search(self, runtime: ToolRuntime, kind: str, query: str, limit: int, **filters: Any) -> str:
        namespace = self.scope(runtime, kind)
        if self.channel_scope and kind == "fact":
            filters["channel"] = runtime_channel(runtime.config, runtime.context)
        try:
            hits = self.store.search(query, namespace=namespace, limit=limit, kinds=kind, **filters)
        except LangGraphMemoryError as exc:
            raise ToolException(f"Error: {exc}") from exc
        memories = [h.memory for h in hits]
        self._touch([m.id for m in memories], namespace)
        return format_memories(memories)

    def recent(self, runtime: ToolRuntime, limit: int) -> str:
        namespace = self.scope(runtime)
        try:
            memories = self.store.recent(namespace=namespace, since=None, limit=limit, kinds="fact")
        except LangGraphMemoryError as exc:
            raise ToolException(f"Error: {exc}") from exc
        return format_memories(memories, empty="No memories stored yet.")

    def store_memory(
        self, runtime: ToolRuntime, kind: str, content: str, *, related_to: Sequence[str] = (),
        source: str | None = None, **fields: Any,
    ) -> Command:
        self.check_write(runtime, kind)
        namespace = self.scope(runtime, kind)
        try:
            # The ids are looked up in the runtime's namespace only: another user's id
            # reads as unknown, and nothing is stored.
            related = check_related(self.store, related_to, namespace)
            result = self.store.remember(
                content, namespace=namespace, kind=kind, source=source or "conversation",
                channel=runtime_channel(runtime.config, runtime.context) if kind == "fact" else None, **fields)
            linked = link_related(self.store, result.memory.id, related, namespace)
        except LangGraphMemoryError as exc:
            raise ToolException(f"Error: {exc}. Nothing was stored.") from exc
        note: dict[str, list[str]] = {"remembered": [result.memory.id]}
        if result.replaced is not None:
            note["forgotten"] = [result.replaced.id]
        return Command(
            update={
                "memory": note,
                "messages": [ToolMessage(_describe(result) + linked, tool_call_id=runtime.tool_call_id)],
            }
        )

    def delete(self, runtime: ToolRuntime, kind: str, id: str, reason: str) -> Command:
        self.check_write(runtime, kind)
        namespace = self.scope(runtime, kind)
        try:
            found = self.store.get(id, namespace=namespace)
            if found is None or found.kind != kind:
                raise ToolException(f"Error: no {kind} memory with id {id}. Search first to get a valid id.")
            self.store.delete(id, namespace=namespace, reason=reason)
        except LangGraphMemoryError as exc:
            raise ToolException(f"Error: {exc}") from exc
        return Command(
            update={
                "memory": {"forgotten": [id]},
                "messages": [ToolMessage(
                    describe_delete(self.store, found, reason), tool_call_id=runtime.tool_call_id
                )],
            }
        )

    def search_conversations(self, runtime: ToolRuntime, query: str, sources: list[str] | None, limit: int) -> str:
        try:
            return recall_search(self.store, self.scope(runtime), query, sources, limit)
        except LangGraphMemoryError as exc:
            raise ToolException(f"Error: {exc}") from exc

    def _touch(self, ids: list[str], namespace: Namespace) -> None:
        try:
            self.store.record_access(ids, namespace=namespace)
        except Exception as exc:  # statistics must never fail a search
            logger.warning("could not record memory access: %s", exc)


def _tool(name: str, description: str, schema: type[BaseModel], func: Any) -> BaseTool:
    # ToolNode injects ``runtime`` because ``func`` annotates it as ToolRuntime.
    async def coroutine(runtime: ToolRuntime, **kwargs: Any) -> Any:
        return await asyncio.to_thread(func, runtime, **kwargs)

    return StructuredTool.from_function(
        func=func,
        coroutine=coroutine,
        name=name,
        description=description,
        args_schema=schema,
        infer_schema=False,
        handle_tool_error=True,
    )


def _fact_tools(t: _Tools) -> list[BaseTool]:
    def search_memories(runtime: ToolRuntime, query: str, subjects: list[str] | None = None, limit: int = 10) -> str:
        return t.search(runtime, "fact", query, limit, subjects=subjects)

    def get_recent_memories(runtime: ToolRuntime, limit: int = 10) -> str:
        return t.recent(runtime, limit)

    def store_memory(runtime: ToolRuntime, content: str, **fields: Any) -> Command:
        return t.store_memory(runtime, "fact", content, **fields)

    def delete_memory(runtime: ToolRuntime, id: str, reason: str) -> Command:
        return t.delete(runtime, "fact", id, reason)

    def search_conversations(runtime: ToolRuntime, query: str, sources: list[str] | None = None, limit: int = 5) -> str:
        return t.search_conversations(runtime, query, sources, limit)

    return [
        _tool("search_memories", "Search your memory of the user and their world. Returns facts with ids.",
              SearchArgs, search_memories),
        _tool("get_recent_memories", "The latest facts you stored, newest first. Use it for 'what did we talk about?'.",
              RecentArgs, get_recent_memories),
        _tool("store_memory", "Remember a fact specific to the user or their world. When it replaces a "
              "memory you were shown (a changed decision, a corrected fact), pass that memory's id as "
              "updates; otherwise refinements and corrections are merged automatically.", StoreArgs, store_memory),
        _tool("delete_memory", "Forget a fact that is wrong or outdated, or that the user asked you to forget.",
              DeleteArgs, delete_memory),
        _tool("search_conversations", "Search what was said in past conversations (every exchange, "
              "thread summaries) and your stored facts at once. Each result says what it is, when "
              "and in which thread. Use it when the user refers to an earlier conversation.",
              SearchConversationsArgs, search_conversations),
    ]


def _categorised_tools(t: _Tools, kind: str, label: str, search_schema: type[BaseModel],
                       store_schema: type[BaseModel], texts: tuple[str, str, str]) -> list[BaseTool]:
    def search(runtime: ToolRuntime, query: str, category: str | None = None, limit: int = 10) -> str:
        return t.search(runtime, kind, query, limit, categories=category)

    def store(runtime: ToolRuntime, content: str, category: str) -> Command:
        return t.store_memory(runtime, kind, content, category=category)

    def delete(runtime: ToolRuntime, id: str, reason: str) -> Command:
        return t.delete(runtime, kind, id, reason)

    search_text, store_text, delete_text = texts
    return [
        _tool(f"search_{label}", search_text, search_schema, search),
        _tool(f"store_{kind}", store_text, store_schema, store),
        _tool(f"delete_{kind}", delete_text, DeleteArgs, delete),
    ]


def memory_tools(
    store: MemoryStore,
    *,
    kinds: Sequence[str] = ("fact", "self", "goal"),
    namespace: Sequence[str] = DEFAULT_NAMESPACE,
    agent_namespace: Sequence[str] | None = DEFAULT_AGENT_NAMESPACE,
    agent_writes: AgentWrites = True,
    default_agent_id: str = DEFAULT_AGENT_ID,
    channel_scope: bool = False,
    agent_ids: Iterable[str] | None = None,
) -> list[BaseTool]:
    """The memory tools of seed 002, ready for a ``ToolNode`` or ``create_agent``.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore`.
        kinds: which families to expose: ``fact`` (search_memories, get_recent_memories,
            store_memory, delete_memory, search_conversations), ``self`` (search_self, store_self, delete_self)
            and ``goal`` (search_goals, store_goal, delete_goal).
        namespace: namespace template filled from the runtime, as for the pre-hook.
        agent_namespace: where ``self`` and ``goal`` memories live: the agent's, shared by
            all its users, by default; ``None`` for the user's namespace.
        agent_writes: whether a conversation may store or delete ``self`` and ``goal``
            memories: ``True``, ``False``, or a function of the run's context (e.g. only
            for admins). Searching them is always allowed.
        default_agent_id: the ``agent_id`` when the runtime names none.
        agent_ids: other agent ids a run may name, as for the pre-hook.
        channel_scope: ``search_memories`` sees the user's memories of no channel plus
            those of the run's ``channel_id`` (as ``InjectionConfig.channel_scope`` does for
            the pre-hook). Facts are always stored with the run's channel.
    """
    unknown = set(kinds) - set(KIND_CATEGORIES)
    if unknown:
        raise ValueError(f"unknown memory kinds {sorted(unknown)}; expected fact, self or goal")
    t = _Tools(store, namespace, agent_namespace, agent_writes, default_agent_id, channel_scope, agent_ids)
    tools: list[BaseTool] = []
    if "fact" in kinds:
        tools += _fact_tools(t)
    if "self" in kinds:
        tools += _categorised_tools(t, "self", "self", SearchSelfArgs, StoreSelfArgs, (
            "Search what you know about yourself (context, capabilities, limitations, preferences, relations).",
            "Remember something you learned about yourself.",
            "Forget something about yourself that is no longer true (e.g. a limitation that became a capability).",
        ))
    if "goal" in kinds:
        tools += _categorised_tools(t, "goal", "goals", SearchGoalsArgs, StoreGoalArgs, (
            "Search your goals and aspirations.",
            "Remember something you would like to do, understand or connect with.",
            "Drop a goal that was achieved or abandoned.",
        ))
    return tools
