"""The ``digest`` graph: a room digest as a LangGraph graph, for LangGraph Platform crons.

``langgraph.json`` serves it next to the agent; a cron job then runs it on a schedule::

    client.crons.create(assistant_id="digest", schedule="0 1,5,9,13,17,21 * * *",
                        input={"rooms": ["lobby"]})

(Platform crons are in UTC: those hours are 02-22 h Paris time in winter.) The rooms'
namespace comes from the run's context or ``configurable`` like the agent's, never from
the input.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from langchain_core.language_models import BaseChatModel
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict

from langgraph_memory.agent.hooks import resolve_namespace
from langgraph_memory.agent.identity import DEFAULT_AGENT_ID, authenticated_identity, pinned_agent_ids, with_agent_default
from langgraph_memory.agent.rooms import DEFAULT_ROOM_NAMESPACE, rooms_from_runtime
from langgraph_memory.background.digest import DigestBusyError, DigestError, digest
from langgraph_memory.store import MemoryStore

__all__ = ["DigestState", "build_digest_graph"]


class DigestState(TypedDict, total=False):
    rooms: list[str]
    """The rooms to digest (default: the runtime's ``rooms``, else ``["lobby"]``)."""
    reports: list[dict[str, Any]]
    """One report per room (see :class:`~langgraph_memory.background.digest.DigestReport`)."""


def build_digest_graph(
    store: MemoryStore,
    model: BaseChatModel,
    *,
    namespace: Sequence[str] = DEFAULT_ROOM_NAMESPACE,
    default_agent_id: str = DEFAULT_AGENT_ID,
    agent_ids: Iterable[str] | None = None,
    **digest_options: Any,
) -> Any:
    """Compile a one-node graph that digests the rooms of its input.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore`.
        model: the chat model extracting facts (structured output).
        namespace: the rooms' namespace template, as for the pre-hook.
        default_agent_id: fills ``{agent_id}`` when the runtime names none.
        agent_ids: other agent ids a run may name, as for the pre-hook.
        digest_options: passed to :func:`~langgraph_memory.digest`.
    """
    template = tuple(namespace)
    pinned_agent_ids(default_agent_id, agent_ids)  # a slip fails here, not in a run
    agent_ids = None if agent_ids is None else tuple(agent_ids)

    def run(state: DigestState, config: RunnableConfig, runtime: Any = None) -> dict[str, Any]:
        context = getattr(runtime, "context", None)
        ns = resolve_namespace(template, **with_agent_default(config, context, default_agent_id, agent_ids))
        rooms = list(state.get("rooms") or rooms_from_runtime(config, context) or ["lobby"])
        reports = []
        identity = authenticated_identity(config)
        # On a server with auth, a run digests the rooms its user may see: a room with
        # members is digested by its members' runs (and crons) only.
        allowed = None if identity is None else set(store.visible_rooms(rooms, identity, namespace=ns))
        for room in rooms:
            if allowed is not None and room.strip() not in allowed:
                reports.append({"room": room, "namespace": list(ns), "error": f"{identity!r} is not a member of this room"})
                continue
            try:
                reports.append(digest(store, namespace=ns, room=room, model=model, **digest_options).as_dict())
            except (DigestBusyError, DigestError) as exc:
                reports.append({"room": room, "namespace": list(ns), "error": str(exc)})
        return {"reports": reports}

    builder = StateGraph(DigestState)
    builder.add_node("digest", run)
    builder.add_edge(START, "digest")
    builder.add_edge("digest", END)
    return builder.compile(name="digest")
