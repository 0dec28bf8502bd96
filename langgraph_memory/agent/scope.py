"""Whose memories a run reaches: namespace templates filled from the runtime, never the model.

On a LangGraph server with custom auth, ``{user_id}`` is the authenticated identity.

Every value filling a placeholder goes through :func:`namespace_label`: LangGraph's stores
(and so a server's store API) refuse labels holding a period, so ``.`` is written ``%2E``
and the escape itself, ``%``, ``%25`` (an e-mail identity ``alice@example.com`` owns
``("memories", "alice@example%2Ecom")``). A value holding neither keeps its label.
"""

from __future__ import annotations

import string
from typing import Any, Mapping, Sequence

from langchain_core.runnables import RunnableConfig

from langgraph_memory.agent.identity import authenticated_identity
from langgraph_memory.errors import MemoryScopeError
from langgraph_memory.store._labels import (
    InvalidIdentityError,
    namespace_label,
    namespace_value,
    shown_label,
    shown_namespace,
)
from langgraph_memory.store._lines import identifier_fault
from langgraph_memory.store.records import Namespace

__all__ = [
    "DEFAULT_NAMESPACE",
    "InvalidIdentityError",
    "MemoryScopeError",
    "namespace_label",
    "namespace_value",
    "resolve_namespace",
    "runtime_channel",
    "runtime_thread",
    "shown_label",
    "shown_namespace",
]

DEFAULT_NAMESPACE: tuple[str, ...] = ("memories", "{user_id}")
"""Where a user's memories live; placeholders come from the runtime, never the model."""


def _lookup(source: Any, key: str) -> Any:
    if source is None:
        return None
    if isinstance(source, Mapping):
        return source.get(key)
    return getattr(source, key, None)


def runtime_channel(config: RunnableConfig | None, context: Any) -> str | None:
    """The run's ``channel_id`` (context first, then ``configurable``), trimmed, or ``None``.

    Raises:
        InvalidIdentityError: the channel holds characters a reader cannot see or tell
            apart, or is not NFC (see :func:`namespace_label`): channels are shown beside
            memories and select which ones a run reads.
    """
    value = _lookup(context, "channel_id")
    if value is None:
        value = ((config or {}).get("configurable") or {}).get("channel_id")
    # Plain spaces around are trimmed, as ``remember`` stores a channel: a run's reads must
    # name it the same way (any other space around it is refused below).
    return None if value is None or not str(value).strip() else _runtime_identifier("channel_id", str(value).strip(" "))


def runtime_thread(config: RunnableConfig | None) -> str | None:
    """The run's ``thread_id`` (``configurable``), or ``None``.

    Raises:
        InvalidIdentityError: as :func:`runtime_channel`.
    """
    value = ((config or {}).get("configurable") or {}).get("thread_id")
    return None if value is None else _runtime_identifier("thread_id", str(value))


def _runtime_identifier(name: str, value: str) -> str:
    fault = identifier_fault(value)
    if fault:
        raise InvalidIdentityError(f"{name} {ascii(value[:80])} {fault}")
    return value


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

    Each value is written as :func:`namespace_label` writes it (``.`` as ``%2E``, ``%``
    as ``%25``); a value no label can hold raises :class:`InvalidIdentityError`.
    """
    configurable = (config or {}).get("configurable", {}) or {}
    authenticated = authenticated_identity(config)
    parts = []
    for part in template:
        fields = [f for _, f, _, _ in string.Formatter().parse(part) if f]
        values = {}
        for name in fields:
            if name == "user_id" and authenticated is not None:
                values[name] = namespace_label(authenticated)
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
            values[name] = namespace_label(str(value))
        parts.append(part.format(**values))
    return tuple(parts)
