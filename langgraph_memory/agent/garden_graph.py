"""A graph that runs one gardening pass, for LangGraph Platform crons.

``langgraph.json`` lists it beside the agent (``examples/studio_agent.py:garden_graph``), so
a deployment can schedule it (``client.crons.create(assistant_id="garden", schedule="0 3 * * *",
input={})``) and Studio can run it by hand. Input: ``namespace`` (slash-separated text such
as ``"memories/alice"``, or a list of parts; absent for the whole store) and ``dry_run``;
output: ``report``, the pass's :class:`~langgraph_memory.store._garden.GardenReport`.

On a server with auth the ``namespace`` input is a client value: a pass decays and archives
memories, so a run may garden only what ``may_garden(identity, namespace)`` allows. Without
that rule a user may garden their own ``("memories", <identity>, ...)`` namespace and nothing
else (not the whole store); runs without an authenticated user (the app's own code, a cron
of a deployment without auth) garden what they name.
"""

from __future__ import annotations

from typing import Any, Callable

from langchain_core.runnables import RunnableConfig, RunnableLambda
from langgraph.graph import END, START, StateGraph
from typing_extensions import NotRequired, TypedDict

from langgraph_memory.agent.identity import authenticated_identity
from langgraph_memory.errors import AccessDeniedError, InvalidMemoryError
from langgraph_memory.store import MemoryStore
from langgraph_memory.store.records import Namespace, namespace_from_key, validate_namespace

__all__ = ["GardenState", "MayGarden", "build_garden_graph", "parse_garden_namespace"]

MayGarden = Callable[[str, "Namespace | None"], bool]
"""Whether the authenticated identity may garden a namespace (``None``: the whole store),
e.g. ``lambda who, ns: policy.is_admin(who) or (ns is not None and policy.allows(who, "write", ns))``."""


class GardenState(TypedDict):
    namespace: NotRequired[str | list[str] | None]
    """``"memories/alice"`` (``%2F`` for a ``/`` inside a part) or ``["memories", "alice"]``."""
    dry_run: NotRequired[bool]
    report: NotRequired[dict[str, Any]]


def parse_garden_namespace(value: Any) -> Namespace | None:
    """A run's ``namespace`` input as a tuple; ``None`` for the whole store."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        return validate_namespace(namespace_from_key(value.strip().strip("/")))
    if isinstance(value, (list, tuple)):
        return validate_namespace(tuple(value))
    raise InvalidMemoryError("namespace", f"expected text like 'memories/alice' or a list, got {value!r}")


def _dry_run(state: GardenState) -> bool:
    value = state.get("dry_run", False)
    if not isinstance(value, bool):
        raise InvalidMemoryError("dry_run", "must be a boolean")
    return value


def _own_namespace_only(identity: str, namespace: Namespace | None) -> bool:
    return namespace is not None and namespace[:2] == ("memories", identity)


def build_garden_graph(store: MemoryStore, *, may_garden: MayGarden | None = None) -> Any:
    """Compile the one-node gardening graph over ``store``.

    ``may_garden`` decides, on a server with auth, which namespaces the run's authenticated
    user may garden (see the module's docstring); by default their own memories only."""
    rule = may_garden or _own_namespace_only

    def target(state: GardenState, config: RunnableConfig) -> Namespace | None:
        namespace = parse_garden_namespace(state.get("namespace"))
        identity = authenticated_identity(config)
        if identity is not None and not rule(identity, namespace):
            where = "the whole store" if namespace is None else "/".join(namespace)
            raise AccessDeniedError(f"{identity!r} may not garden {where}")
        return namespace

    def garden(state: GardenState, config: RunnableConfig) -> dict[str, Any]:
        report = store.garden(target(state, config), dry_run=_dry_run(state))
        return {"report": dict(report)}

    async def agarden(state: GardenState, config: RunnableConfig) -> dict[str, Any]:
        report = await store.agarden(target(state, config), dry_run=_dry_run(state))
        return {"report": dict(report)}

    builder = StateGraph(GardenState)
    builder.add_node("garden", RunnableLambda(garden, afunc=agarden, name="garden"))
    builder.add_edge(START, "garden")
    builder.add_edge("garden", END)
    return builder.compile(name="garden")
