"""The agent's own identity: where its ``self`` and ``goal`` memories live.

Seed 002's pet has one identity whatever user it talks to: what it learns about itself
while talking with Mickael it still knows when David talks to it. So ``self`` and ``goal``
memories live in the agent's namespace, ``("agent", "{agent_id}")`` by default, shared by
all its users, while facts stay in each user's namespace. ``agent_namespace=None`` puts
them back in the user's namespace (one identity per user).

Which agent a run is for comes from its runtime (``agent_id`` in the context or
``configurable``), a value the client sends. On a server with auth that value is
untrusted: a run may name ``default_agent_id`` or one of the ``agent_ids`` the app pinned
when it built its graph, and any other raises :class:`AgentScopeError` (never silently
used, never silently replaced). Without auth the app's own code sets it and is trusted,
unless the app pinned ``agent_ids``, which then hold everywhere.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any, Callable, Iterable, Mapping, Union

from langchain_core.runnables import RunnableConfig

from langgraph_memory.errors import MemoryScopeError


__all__ = [
    "AGENT_KINDS",
    "AgentScopeError",
    "DEFAULT_AGENT_ID",
    "DEFAULT_AGENT_NAMESPACE",
    "AgentWrites",
    "agent_writes_allowed",
    "authenticated_identity",
    "authenticated_context",
    "pinned_agent_ids",
    "run_user",
    "with_agent_default",
]

DEFAULT_AGENT_NAMESPACE: tuple[str, ...] = ("agent", "{agent_id}")
"""Where the agent's ``self`` and ``goal`` memories live, shared by all its users."""
DEFAULT_AGENT_ID = "agent"
"""The ``agent_id`` when the runtime names none: one app, one agent."""
AGENT_KINDS = ("self", "goal")

AgentWrites = Union[bool, Callable[[Any], bool]]
"""Whether a run may add to (or delete from) the agent's identity: a flag, or a function of
the run's context (e.g. ``lambda ctx: ctx["user_id"] in ADMINS``)."""


class AgentScopeError(MemoryScopeError):
    """A run names an ``agent_id`` the app did not allow: on a server with auth, one other
    than ``default_agent_id`` and the ``agent_ids`` given when the graph was built. Nothing
    was read or stored. A :class:`MemoryScopeError` (so a ``ValueError``): the run fails
    loudly, and memory is not switched off as if the store were down."""


def pinned_agent_ids(default_agent_id: Any, agent_ids: Iterable[str] | None) -> frozenset[str] | None:
    """The agent ids runs may name (``default_agent_id`` plus ``agent_ids``), or ``None``
    when the app pinned none (``agent_ids=None``). Checked when a graph is built.

    Raises:
        ValueError: ``default_agent_id`` is not a non-blank string, ``agent_ids`` is a single
            string (a likely slip for a one-item list) or holds something else.
    """
    if not isinstance(default_agent_id, str) or not default_agent_id.strip():
        raise ValueError(f"default_agent_id: expected a non-blank string, got {default_agent_id!r}")
    if agent_ids is None:
        return None
    if isinstance(agent_ids, str):
        raise ValueError(f"agent_ids: expected a collection of agent ids, not one string ({agent_ids!r})")
    ids = tuple(agent_ids)
    if not all(isinstance(a, str) and a.strip() for a in ids):
        raise ValueError(f"agent_ids: expected non-blank strings, got {ids!r}")
    return frozenset((default_agent_id, *ids))


def with_agent_default(
    config: RunnableConfig | None,
    context: Any,
    default_agent_id: str = DEFAULT_AGENT_ID,
    agent_ids: Iterable[str] | None = None,
) -> dict[str, Any]:
    """``config`` and ``context`` for :func:`resolve_namespace`, with ``agent_id`` filled
    with ``default_agent_id`` when neither names one, and ``trusted=("agent_id",)``: the
    value is checked here, so a server run may use it.

    A run that names one (context first, then ``configurable``, as the namespace reads it)
    must name ``default_agent_id`` or one of ``agent_ids``; with ``agent_ids=None`` that
    holds on a server with auth only (an embedded app's own code is trusted).

    Raises:
        AgentScopeError: the run names an agent id outside those.
    """
    configurable = dict((config or {}).get("configurable") or {})
    given = context.get("agent_id") if isinstance(context, Mapping) else getattr(context, "agent_id", None)
    if given is None:
        given = configurable.get("agent_id")
    if given is None:
        configurable["agent_id"] = default_agent_id
    else:
        allowed = pinned_agent_ids(default_agent_id, agent_ids)
        if allowed is None and authenticated_identity(config) is not None:
            allowed = frozenset((default_agent_id,))
        if allowed is not None and str(given) not in allowed:
            raise AgentScopeError(
                f"agent_id {str(given)[:80]!r} is not an agent of this app (allowed: {sorted(allowed)}); "
                "the app pins its agents with default_agent_id= and agent_ids= when it builds the graph"
            )
    # The agent id is one the app allows (or the app's own code's): resolve_namespace may use it
    # on a server too, above the user's namespace.
    return {"config": {**(config or {}), "configurable": configurable}, "context": context, "trusted": ("agent_id",)}


def authenticated_identity(config: RunnableConfig | None) -> str | None:
    """The user a LangGraph server with custom auth authenticated for this run
    (``configurable["langgraph_auth_user_id"]``, which the server sets and a client cannot),
    or ``None`` without auth."""
    value = ((config or {}).get("configurable") or {}).get("langgraph_auth_user_id")
    return value if isinstance(value, str) and value.strip() else None


def run_user(config: RunnableConfig | None, context: Any) -> str | None:
    """Who this run is for: the authenticated identity on a server with auth, else the
    ``user_id`` of the runtime context or ``configurable`` (the app's own code set it)."""
    identity = authenticated_identity(config)
    if identity is not None:
        return identity
    value = context.get("user_id") if isinstance(context, Mapping) else getattr(context, "user_id", None)
    if value is None:
        value = ((config or {}).get("configurable") or {}).get("user_id")
    return str(value) if value is not None and str(value).strip() else None


def authenticated_context(context: Any, config: RunnableConfig | None) -> Any:
    """``context`` as a rule should see it: on a server with auth its ``user_id`` is the
    authenticated identity, whatever the client sent; without auth, ``context`` unchanged.

    A mapping comes back as a new dict, a dataclass or pydantic model as a copy, any other
    object as a :class:`~types.SimpleNamespace` of its attributes; ``context`` itself is
    never changed (the run shares it)."""
    identity = authenticated_identity(config)
    if identity is None:
        return context
    if context is None:
        return {"user_id": identity}
    if isinstance(context, Mapping):
        return {**context, "user_id": identity}
    if dataclasses.is_dataclass(context) and any(f.name == "user_id" for f in dataclasses.fields(context)):
        return dataclasses.replace(context, user_id=identity)  # type: ignore[arg-type]
    if hasattr(context, "model_copy"):  # pydantic
        return context.model_copy(update={"user_id": identity})
    return SimpleNamespace(**{**getattr(context, "__dict__", {}), "user_id": identity})


def agent_writes_allowed(rule: AgentWrites, context: Any, config: RunnableConfig | None = None) -> bool:
    """Whether ``rule`` lets the run with ``context`` write the agent's identity.

    A callable rule sees :func:`authenticated_context`: on a server with auth, ``user_id``
    is the authenticated identity, so ``lambda ctx: ctx["user_id"] in ADMINS`` judges who
    the server authenticated, never a ``user_id`` the client put in its context."""
    return bool(rule(authenticated_context(context, config))) if callable(rule) else bool(rule)
