"""The :class:`RoomObserver` node: a room fed from a graph, a webhook or a websocket."""

from __future__ import annotations

import asyncio
from datetime import datetime, timezone
from typing import Any, Iterable, Mapping, Sequence

from langchain_core.messages import BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from langgraph_memory.agent.hooks import MemoryScopeError, resolve_namespace
from langgraph_memory.agent.identity import (
    DEFAULT_AGENT_ID,
    authenticated_identity,
    pinned_agent_ids,
    run_user,
    with_agent_default,
)
from langgraph_memory.agent.rooms import DEFAULT_ROOM_NAMESPACE, rooms_from_runtime
from langgraph_memory.errors import AccessDeniedError
from langgraph_memory.store import MemoryStore
from langgraph_memory.store.records import Namespace

__all__ = ["RoomObserver"]


def _content(message: BaseMessage) -> str:
    return message.content if isinstance(message.content, str) else message.text


def _get(source: Any, key: str) -> Any:
    return source.get(key) if isinstance(source, Mapping) else getattr(source, key, None)


class RoomObserver:
    """Graph node (and plain callable) that feeds the room a run names with its new
    human messages, so an app can observe a room from a graph, a webhook or a websocket
    handler. Messages addressing the agent by name are left out (the agent answers them).

    As a node it observes the human messages after the last AI or tool message, into the
    run's room (``room`` in the context or ``configurable``, else the first of ``rooms``),
    with the author from ``message.name``, else the run's ``user_id``. It changes no state.

    On a server with auth the poster is the authenticated identity, recorded beside the
    author: a message whose ``name`` differs is shown as ``"<poster> (as <name>)"`` in the
    live block and the digest, so neither takes it for the named person's. A room with a member list
    (:meth:`~langgraph_memory.MemoryStore.set_room_members`) takes messages from its members
    only (without auth: from member authors only); others raise
    :class:`~langgraph_memory.errors.AccessDeniedError` and nothing is observed.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore`.
        namespace: the rooms' namespace template, as for the pre-hook.
        agent_names: names addressing the agent; default the store's ``agent_names``.
        default_agent_id: fills ``{agent_id}`` when the runtime gives none.
        agent_ids: other agent ids a run may name, as for the pre-hook.
    """

    def __init__(
        self,
        store: MemoryStore,
        *,
        namespace: Sequence[str] = DEFAULT_ROOM_NAMESPACE,
        agent_names: Sequence[str] | None = None,
        default_agent_id: str = DEFAULT_AGENT_ID,
        agent_ids: Iterable[str] | None = None,
    ) -> None:
        pinned_agent_ids(default_agent_id, agent_ids)  # a slip fails here, not in a run
        self.agent_ids = None if agent_ids is None else tuple(agent_ids)
        self.store = store
        self.namespace = tuple(namespace)
        self.agent_names = None if agent_names is None else tuple(agent_names)
        self.default_agent_id = default_agent_id

    def scope(self, config: RunnableConfig | None = None, context: Any = None) -> Namespace:
        """The rooms' namespace for this runtime."""
        return resolve_namespace(self.namespace, **with_agent_default(config, context, self.default_agent_id, self.agent_ids))

    def observe(
        self, text: str, *, room: str = "lobby", author: str, at: datetime | None = None,
        config: RunnableConfig | None = None, context: Any = None,
    ) -> str | None:
        """Observe one message (the plain-callable face); returns its id or ``None``.
        A room with members takes its members' messages only (the author, or on a server
        with auth the authenticated poster, must be one)."""
        namespace = self.scope(config, context)
        poster = authenticated_identity(config)
        self._check_member(room, poster or author, namespace)
        return self.store.observe(
            text, namespace=namespace, room=room, author=author,
            at=at, agent_names=self.agent_names, poster=poster,
        )

    def _check_member(self, room: str, who: str, namespace: Namespace) -> None:
        members = self.store.room_members(room, namespace=namespace)
        if members is not None and who not in members:
            raise AccessDeniedError(f"{who!r} is not a member of room {room!r}: nothing was observed")

    async def aobserve(self, text: str, **kwargs: Any) -> str | None:
        """Async twin of :meth:`observe`."""
        return await asyncio.to_thread(lambda: self.observe(text, **kwargs))

    def _batch(self, state: Mapping[str, Any], config: RunnableConfig | None, context: Any) -> list[dict[str, Any]]:
        configurable = (config or {}).get("configurable") or {}
        room = _get(context, "room")
        room = room or configurable.get("room") or next(iter(rooms_from_runtime(config, context)), None)
        if room is None:
            raise MemoryScopeError("RoomObserver needs the run's room: context={'room': ...} or configurable")
        poster = authenticated_identity(config)
        user = run_user(config, context)
        namespace = self.scope(config, context)
        batch: list[dict[str, Any]] = []
        for message in reversed(state.get("messages", [])):
            if not isinstance(message, HumanMessage):
                break
            author = message.name or user
            if not author:
                continue
            self._check_member(room, poster or author, namespace)
            batch.append({"text": _content(message), "author": author, "room": room, "poster": poster,
                          "at": datetime.now(timezone.utc)})
        return list(reversed(batch))

    def __call__(self, state: Mapping[str, Any], config: RunnableConfig = None, runtime: Any = None) -> None:  # type: ignore[assignment]
        context = getattr(runtime, "context", None)
        batch = self._batch(state, config, context)
        if batch:
            self.store.observe_many(batch, namespace=self.scope(config, context), agent_names=self.agent_names)
        return None

    async def acall(self, state: Mapping[str, Any], config: RunnableConfig = None, runtime: Any = None) -> None:  # type: ignore[assignment]
        """Async twin of calling the node."""
        return await asyncio.to_thread(self, state, config, runtime)
