"""The agent's own identity: where its ``self`` and ``goal`` memories live.

Seed 002's pet has one identity whatever user it talks to: what it learns about itself
while talking with Mickael it still knows when David talks to it. So ``self`` and ``goal``
memories live in the agent's namespace, ``("agent", "{agent_id}")`` by default, shared by
all its users, while facts stay in each user's namespace. ``agent_namespace=None`` puts
them back in the user's namespace (one identity per user).
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any, Callable, Mapping, Union

from langchain_core.runnables import RunnableConfig


__all__ = [
    "AGENT_KINDS",
    "DEFAULT_AGENT_ID",
    "DEFAULT_AGENT_NAMESPACE",
    "AgentWrites",
    "agent_writes_allowed",
    "authenticated_identity",
    "authenticated_context",
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


def with_agent_default(config: RunnableConfig | None, context: Any, default_agent_id: str = DEFAULT_AGENT_ID) -> dict[str, Any]:
    """``config`` and ``context`` for :func:`resolve_namespace`, with ``agent_id`` filled
    with ``default_agent_id`` when neither names one."""
    configurable = dict((config or {}).get("configurable") or {})
    given = context.get("agent_id") if isinstance(context, Mapping) else getattr(context, "agent_id", None)
    if given is None and configurable.get("agent_id") is None:
        configurable["agent_id"] = default_agent_id
    return {"config": {**(config or {}), "configurable": configurable}, "context": context}


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
