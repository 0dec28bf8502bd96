"""Whose memories a run reaches: namespace templates filled from the runtime, never the model.

On a LangGraph server with custom auth, ``{user_id}`` is the authenticated identity.
"""

from __future__ import annotations

import string
from typing import Any, Mapping, Sequence

from langchain_core.runnables import RunnableConfig

from langgraph_memory.agent.identity import authenticated_identity
from langgraph_memory.errors import LangGraphMemoryError
from langgraph_memory.store.records import Namespace

__all__ = ["DEFAULT_NAMESPACE", "MemoryScopeError", "resolve_namespace", "runtime_channel"]

DEFAULT_NAMESPACE: tuple[str, ...] = ("memories", "{user_id}")
"""Where a user's memories live; placeholders come from the runtime, never the model."""


class MemoryScopeError(LangGraphMemoryError, ValueError):
    """The runtime does not say whose memories these are (no ``user_id``).

    A ``ValueError`` too, because the caller left out a value: servers that hide unexpected
    exceptions from clients (the LangGraph API server answers "An internal error occurred")
    pass a ``ValueError``'s message on, so a client reads what to pass."""



def _lookup(source: Any, key: str) -> Any:
    if source is None:
        return None
    if isinstance(source, Mapping):
        return source.get(key)
    return getattr(source, key, None)


def runtime_channel(config: RunnableConfig | None, context: Any) -> str | None:
    """The run's ``channel_id`` (context first, then ``configurable``), or ``None``."""
    value = _lookup(context, "channel_id")
    if value is None:
        value = ((config or {}).get("configurable") or {}).get("channel_id")
    return None if value is None or not str(value).strip() else str(value)


def resolve_namespace(
    template: Sequence[str],
    *,
    config: RunnableConfig | None = None,
    context: Any = None,
) -> Namespace:
    """Fill a namespace template such as ``("memories", "{user_id}")``.

    Values come from the runtime context (a dict or an object) first, then from
    ``config["configurable"]``. A missing value is an error: memories must never fall
    back to a shared namespace.

    On a LangGraph server with custom authentication, ``{user_id}`` is the authenticated
    user (``configurable["langgraph_auth_user_id"]``, which the server sets and a client
    cannot), whatever ``user_id`` the client put in the context or ``configurable``.
    """
    configurable = (config or {}).get("configurable", {}) or {}
    authenticated = authenticated_identity(config)
    parts = []
    for part in template:
        fields = [f for _, f, _, _ in string.Formatter().parse(part) if f]
        values = {}
        for name in fields:
            if name == "user_id" and authenticated is not None:
                values[name] = authenticated
                continue
            value = _lookup(context, name)
            if value is None:
                value = configurable.get(name)
            if value is None or not str(value).strip():
                raise MemoryScopeError(
                    f"no {name!r} for the memory namespace {tuple(template)}: pass it in the "
                    f"runtime context (context={{'{name}': ...}}) or in "
                    f"config['configurable']['{name}']"
                )
            values[name] = str(value)
        parts.append(part.format(**values))
    return tuple(parts)
