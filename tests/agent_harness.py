"""Builds the three memory agents the same way, and runs them sync or async.

The behaviour tests run every scenario through the reference graph, the ``create_agent``
middleware and the ``create_react_agent`` hooks, so the three stay equivalent.
"""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver
from pydantic import Field

from langgraph_memory import MemoryMiddleware, build_memory_graph, react_agent_hooks
from langgraph_memory.testing import ScriptedChatModel

KINDS = ("graph", "middleware", "react")
MODES = ("sync", "async")


class CountingEmbeddings(Embeddings):
    """The real embedder, counting how often a query is embedded."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.model_name = getattr(inner, "model_name", "counting")
        self.queries = 0
        self.documents = 0

    def embed_query(self, text: str) -> list[float]:
        self.queries += 1
        return self.inner.embed_query(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.documents += 1
        return self.inner.embed_documents(texts)


class ToolRecordingModel(ScriptedChatModel):
    """Records the names of the tools it was offered at each call."""

    offered: list[list[str]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        return self.bind(offered_tools=[getattr(t, "name", None) or t["name"] for t in tools])

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):  # type: ignore[no-untyped-def]
        self.offered.append(list(kwargs.pop("offered_tools", [])))
        return super()._generate(messages, stop, run_manager, **kwargs)


def build_agent(kind: str, store: Any, model: ScriptedChatModel, **memory_options: Any) -> Any:
    checkpointer = InMemorySaver()
    options = {"background_stats": False, **memory_options}
    if kind == "graph":
        return build_memory_graph(model, store, checkpointer=checkpointer, **options)
    if kind == "middleware":
        from langchain.agents import create_agent

        return create_agent(model, tools=[], middleware=[MemoryMiddleware(store, **options)], checkpointer=checkpointer)
    if kind == "react":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # create_react_agent is deprecated, still used
            from langgraph.prebuilt import create_react_agent

            return create_react_agent(model, checkpointer=checkpointer, **react_agent_hooks(store, **options))
    raise ValueError(kind)


def config(user: str = "mickael", thread: str = "t1", **memory_config: Any) -> dict[str, Any]:
    configurable: dict[str, Any] = {"thread_id": thread, "user_id": user}
    if memory_config:
        configurable["memory_config"] = memory_config
    return {"configurable": configurable}


def run(agent: Any, mode: str, message: str | list[BaseMessage], cfg: dict[str, Any]) -> dict[str, Any]:
    messages = [HumanMessage(message)] if isinstance(message, str) else message
    if mode == "sync":
        return agent.invoke({"messages": messages}, cfg)
    return asyncio.run(agent.ainvoke({"messages": messages}, cfg))


def system_text(model: ScriptedChatModel, call: int = -1) -> str:
    """The system prompt of one model call ("" when there was none)."""
    first = model.received[call][0]
    return first.text if isinstance(first, SystemMessage) else ""
