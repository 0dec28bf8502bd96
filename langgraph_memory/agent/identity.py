"""The agent's own identity: where its ``self`` and ``goal`` memories live.

Seed 002's pet has one identity whatever user it talks to: what it learns about itself
while talking with Mickael it still knows when David talks to it. So ``self`` and ``goal``
memories live in the agent's namespace, ``("agent", "{agent_id}")`` by default, shared by
all its users, while facts stay in each user's namespace. ``agent_namespace=None`` puts
them back in the user's namespace (one identity per user).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Union

from langchain_core.runnables import RunnableConfig


__all__ = [
    "AGENT_KINDS",
    "DEFAULT_AGENT_ID",
    "DEFAULT_AGENT_NAMESPACE",
    "AgentWrites",
    "agent_writes_allowed",
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


def agent_writes_allowed(rule: AgentWrites, context: Any) -> bool:
    """Whether ``rule`` lets the run with ``context`` write the agent's identity."""
    return bool(rule(context)) if callable(rule) else bool(rule)
