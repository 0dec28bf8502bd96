"""What the model sees at each call: the memories and live excerpts in its view, read from
the store by the ids in the thread's ledger, rendered into its system message."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from langchain_core.messages import BaseMessage, SystemMessage
from langgraph.config import get_config
from langgraph.runtime import get_runtime

from langgraph_memory.agent.identity import run_user
from langgraph_memory.agent.injection import Chosen, render_memories
from langgraph_memory.agent.prompts import MEMORY_INSTRUCTIONS
from langgraph_memory.agent.rooms import render_live
from langgraph_memory.store import MemoryStore
from langgraph_memory.store._rooms import RoomMessage
from langgraph_memory.store.records import Memory, Namespace, namespace_from_key, namespace_key

__all__ = ["memory_prompt", "visible_context", "visible_memories", "with_memories"]


def message_text(message: BaseMessage) -> str:
    return message.text if hasattr(message, "text") and not callable(message.text) else str(message.content)


def visible_context(
    state: Mapping[str, Any], store: MemoryStore, namespace: Namespace
) -> tuple[list[RoomMessage], list[Chosen]]:
    """What is in the model's view now: the ledger's ids, read from the store (each from
    the scope it was injected from: the user's namespace, the agent's identity, a room), so
    what expired, was deleted, superseded, erased or digested since is left out."""
    entries = (state.get("memory") or {}).get("context", [])
    if not entries:
        return [], []
    user = namespace_key(namespace)
    users_root = namespace_key(namespace[:1]) + "/"
    by_scope: dict[tuple[bool, str], list[str]] = {}
    for e in entries:
        scope = e.get("scope") or user
        if scope != user and scope.startswith(users_root):
            continue  # graph state is client-writable: never another user's namespace
        by_scope.setdefault((e["channel"] == "live", scope), []).append(e["id"])
    memories: dict[str, Memory] = {}
    live: dict[str, RoomMessage] = {}
    for (is_live, scope), ids in by_scope.items():
        if is_live:
            live.update((m.id, m) for m in store.room_messages(ids, namespace=namespace_from_key(scope)))
        else:
            memories.update((m.id, m) for m, _ in store.get_many(ids, namespace=namespace_from_key(scope)))
    live = _members_only(store, live)
    return (
        [live[e["id"]] for e in entries if e["channel"] == "live" and e["id"] in live],
        [
            Chosen(memories[e["id"]], e["channel"], e.get("score"), e["reason"])  # type: ignore[arg-type]
            for e in entries if e["channel"] != "live" and e["id"] in memories
        ],
    )


def _members_only(store: MemoryStore, live: dict[str, RoomMessage]) -> dict[str, RoomMessage]:
    """``live`` without the excerpts of rooms closed to the run's user. The ledger is graph
    state, which a client can write: an excerpt id must not open a room to a non-member.
    Outside a run (the app calling with a state it built) there is no user to check."""
    if not live:
        return live
    try:
        config = get_config()
    except RuntimeError:
        return live
    try:
        context = get_runtime().context
    except Exception:  # a node of a graph without a runtime context
        context = None
    user = run_user(config, context)
    rooms: dict[Namespace, set[str]] = {}
    for m in live.values():
        rooms.setdefault(m.namespace, set()).add(m.room)
    visible = {(ns, room) for ns, names in rooms.items()
               for room in store.visible_rooms(sorted(names), user, namespace=ns)}
    return {key: m for key, m in live.items() if (m.namespace, m.room) in visible}


def visible_memories(state: Mapping[str, Any], store: MemoryStore, namespace: Namespace) -> list[Chosen]:
    """The memories in the model's view now (see :func:`visible_context`)."""
    return visible_context(state, store, namespace)[1]


def memory_prompt(
    state: Mapping[str, Any],
    *,
    store: MemoryStore,
    namespace: Namespace,
    base: str | None = None,
    instructions: str | None = MEMORY_INSTRUCTIONS,
) -> str:
    """The system prompt with memory: ``base``, the memory instructions, then the block of
    memories the model should see now (the ids in ``state["memory"]``, read from the store
    at each call: live room excerpts first, then the memories)."""
    live, memories = visible_context(state, store, namespace)
    parts = [base, instructions, render_live(live), render_memories(memories)]
    return "\n\n".join(p for p in parts if p)


def with_memories(
    messages: Sequence[BaseMessage],
    state: Mapping[str, Any],
    *,
    store: MemoryStore,
    namespace: Namespace,
    system_prompt: str | None = None,
    instructions: str | None = MEMORY_INSTRUCTIONS,
) -> list[BaseMessage]:
    """The model's input for this call: one system message (the thread's own system
    message if any, ``system_prompt``, the memory instructions and the injected block)
    followed by the thread's other messages.

    The block is built from ``state["memory"]`` and ``store`` on every call and never
    stored in the thread, so the checkpointed ``messages`` stay exactly what was said.
    """
    rest = list(messages)
    bases = [message_text(rest.pop(0))] if rest and isinstance(rest[0], SystemMessage) else []
    if system_prompt:
        bases.append(system_prompt)
    text = memory_prompt(
        state, store=store, namespace=namespace, base="\n\n".join(bases) or None, instructions=instructions
    )
    return ([SystemMessage(text)] if text else []) + rest
