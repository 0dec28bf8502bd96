"""Whose memories a run reaches: namespace templates filled from the runtime, never the model.

On a LangGraph server with custom auth, ``{user_id}`` is the authenticated identity, and
the other placeholders above the user's own namespace come from the authenticated user
object (see :func:`resolve_namespace`), never from a value only the client sent.

Every value filling a placeholder goes through :func:`namespace_label`: LangGraph's stores
(and so a server's store API) refuse labels holding a period, so ``.`` is written ``%2E``
and the escape itself, ``%``, ``%25`` (an e-mail identity ``alice@example.com`` owns
``("memories", "alice@example%2Ecom")``). A value holding neither keeps its label.
"""

from __future__ import annotations

import string
from typing import Any, Iterable, Mapping, Sequence

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
    "authenticated_user_field",
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
    trusted: Iterable[str] = (),
) -> Namespace:
    """Fill a namespace template such as ``("memories", "{user_id}")``.

    Values come from the runtime context (a dict or an object) first, then from
    ``config["configurable"]``. A missing value is an error: memories must never fall
    back to a shared namespace.

    On a LangGraph server with custom authentication (the run has a
    ``configurable["langgraph_auth_user_id"]``, which the server sets and a client cannot),
    the context and ``configurable`` are the client's, so a placeholder takes them only
    where they cannot reach anyone else's memories:

    * ``{user_id}`` is the authenticated identity, whatever ``user_id`` the client sent;
    * a placeholder in a label after the one holding ``{user_id}`` takes the client's
      value: the client chooses among its own sub-namespaces;
    * a placeholder named in ``trusted`` takes the runtime value: the caller checked it
      (``{agent_id}`` through :func:`~langgraph_memory.agent.identity.with_agent_default`,
      which refuses an agent the app did not pin);
    * any other (``{team_id}`` in ``("teams", "{team_id}", "memories")``) comes from the
      authenticated user the app's ``@auth.authenticate`` handler returned
      (``configurable["langgraph_auth_user"]``, as :func:`authenticated_user_field` reads
      it): a string is the value; a list of strings lists the values the client may
      choose from (its context or ``configurable`` names one). A client value is never
      used in its place.

    Each value is written as :func:`namespace_label` writes it (``.`` as ``%2E``, ``%``
    as ``%25``); a value no label can hold raises :class:`InvalidIdentityError`.

    Raises:
        MemoryScopeError: a value is missing, or on a server with auth a placeholder
            before ``{user_id}`` has no value the authenticated user vouches for.
        InvalidIdentityError: a value no label can hold.
    """
    configurable = (config or {}).get("configurable", {}) or {}
    authenticated = authenticated_identity(config)
    vouched = frozenset(trusted)
    fields_of = [[f for _, f, _, _ in string.Formatter().parse(part) if f] for part in template]
    # The client may choose the labels below the user's own (strictly after the label that
    # holds {user_id}: in the same label, "{user_id}{x}" would let "al" + "ice" be alice).
    owned_from = next((i + 1 for i, fields in enumerate(fields_of) if "user_id" in fields), len(template))
    parts = []
    for index, (part, fields) in enumerate(zip(template, fields_of)):
        values = {}
        for name in fields:
            if name == "user_id" and authenticated is not None:
                values[name] = namespace_label(authenticated)
                continue
            value = _lookup(context, name)
            if value is None:
                value = configurable.get(name)
            if authenticated is not None and index < owned_from and name not in vouched:
                value = _vouched_value(name, value, config, template)
            if value is None or not str(value).strip():
                raise MemoryScopeError(
                    f"no {name!r} for the memory namespace {tuple(template)}: pass it in the "
                    f"runtime context (context={{'{name}': ...}}) or in "
                    f"config['configurable']['{name}']"
                )
            values[name] = namespace_label(str(value))
        parts.append(part.format(**values))
    return tuple(parts)


def authenticated_user_field(config: RunnableConfig | None, name: str) -> str | tuple[str, ...] | None:
    """Field ``name`` of the user a LangGraph server's ``@auth.authenticate`` handler
    returned for this run (``configurable["langgraph_auth_user"]``: the dict, or the
    object, the handler returned, which a client cannot set), or ``None`` when it has none.

    A string (or an integer, as its decimal text) is one value; a list, tuple or set of
    them comes back as a tuple. Anything else (a boolean, a method, a nested object) is
    ``None``: it names no namespace."""
    user = ((config or {}).get("configurable") or {}).get("langgraph_auth_user")
    if user is None:
        return None
    getter = getattr(user, "get", None)
    value = getter(name) if callable(getter) else None
    if value is None:
        value = getattr(user, name, None)
    if isinstance(value, (list, tuple, set, frozenset)):
        values = tuple(_field_text(v) for v in value)
        return None if any(v is None for v in values) else values  # type: ignore[return-value]
    return _field_text(value)


def _field_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _vouched_value(name: str, sent: Any, config: RunnableConfig | None, template: Sequence[str]) -> str:
    """The value of placeholder ``name`` on a server with auth, where it sits above the
    user's own namespace: the authenticated user's field ``name`` (one of them, as the
    client chose, when it lists several), never a value only the client sent."""
    allowed = authenticated_user_field(config, name)
    how = (f"return {name!r} from the app's @auth.authenticate handler ({{'identity': ..., '{name}': ...}}; "
           f"a list lets the run choose one), or place {{{name}}} after {{user_id}} in the template")
    if allowed is None:
        raise MemoryScopeError(
            f"{{{name}}} of the memory namespace {tuple(template)} is not the authenticated user's: on a server "
            f"with auth a client value cannot fill it (any user could name another's namespace); {how}")
    if isinstance(allowed, str):
        return allowed
    if sent is None or str(sent) not in allowed:
        raise MemoryScopeError(
            f"{name} {ascii(str(sent)[:80]) if sent is not None else 'missing'} is not one of the authenticated "
            f"user's {name!r} values: name one of them in the runtime context or config['configurable']['{name}']")
    return str(sent)
