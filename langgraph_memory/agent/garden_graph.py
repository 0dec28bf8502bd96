"""A graph that runs one gardening pass, for LangGraph Platform crons.

``langgraph.json`` lists it beside the agent (``examples/studio_agent.py:garden_graph``), so
a deployment can schedule it (``client.crons.create(assistant_id="garden", schedule="0 3 * * *",
input={})``) and Studio can run it by hand. Input: ``namespace`` (slash-separated text such
as ``"memories/alice"``, or a list of parts; absent for the whole store) and ``dry_run``;
output: ``report``, the pass's :class:`~langgraph_memory.store._garden.GardenReport`.
"""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableLambda
from langgraph.graph import END, START, StateGraph
from typing_extensions import NotRequired, TypedDict

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store import MemoryStore
from langgraph_memory.store.records import Namespace, namespace_from_key, validate_namespace

__all__ = ["GardenState", "build_garden_graph", "parse_garden_namespace"]


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


def build_garden_graph(store: MemoryStore) -> Any:
    """Compile the one-node gardening graph over ``store``."""

    def garden(state: GardenState) -> dict[str, Any]:
        report = store.garden(parse_garden_namespace(state.get("namespace")), dry_run=_dry_run(state))
        return {"report": dict(report)}

    async def agarden(state: GardenState) -> dict[str, Any]:
        report = await store.agarden(parse_garden_namespace(state.get("namespace")), dry_run=_dry_run(state))
        return {"report": dict(report)}

    builder = StateGraph(GardenState)
    builder.add_node("garden", RunnableLambda(garden, afunc=agarden, name="garden"))
    builder.add_edge(START, "garden")
    builder.add_edge("garden", END)
    return builder.compile(name="garden")
