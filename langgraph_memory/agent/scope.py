"""Whose memories a run reaches: namespace templates filled from the runtime, never the model.

On a LangGraph server with custom auth, ``{user_id}`` is the authenticated identity.

Every value filling a placeholder goes through :func:`namespace_label`: LangGraph's stores
(and so a server's store API) refuse labels holding a period, so ``.`` is written ``%2E``
and the escape itself, ``%``, ``%25`` (an e-mail identity ``alice@example.com`` owns
``("memories", "alice@example%2Ecom")``). A value holding neither keeps its label.
"""

from __future__ import annotations

import re
import string
from typing import Any, Mapping, Sequence

from langchain_core.runnables import RunnableConfig

from langgraph_memory.agent.identity import authenticated_identity
from langgraph_memory.errors import InvalidMemoryError, MemoryScopeError
from langgraph_memory.store._checks import MAX_NAMESPACE_PART_CHARS, check_text
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
]

DEFAULT_NAMESPACE: tuple[str, ...] = ("memories", "{user_id}")
"""Where a user's memories live; placeholders come from the runtime, never the model."""


class InvalidIdentityError(MemoryScopeError):
    """An identity (or another runtime value filling a namespace placeholder, a run's
    channel or thread) that no namespace label can hold, even escaped: blank, holding
    control characters or a lone surrogate, longer than a label may be once escaped, or
    one a reader could take for another (invisible, bidi or line-separator characters,
    spaces around it, not in Unicode NFC). Nothing is read or stored."""


def namespace_label(value: str) -> str:
    """The namespace label standing for ``value`` (a user identity, an agent id, ...).

    ``%`` becomes ``%25`` and ``.`` becomes ``%2E`` (percent-encoding of those two
    characters only), so the label holds no period, which LangGraph's stores and a
    server's store API refuse, and two distinct values never share a label (decoding
    ``%25`` and ``%2E`` gives the value back). A value holding neither character is its
    own label: namespaces of ordinary ids do not change.

    A label is shown to people (the memory browser, the CLI), so no two values may look
    alike: ``value`` is refused when it holds a character a reader cannot see or tell from
    another (zero-width, bidi controls such as U+202E, line separators, any other Unicode
    format character, spaces other than U+0020), starts or ends with a space, or is not in
    Unicode normal form NFC. Non-NFC values are refused, not normalised: normalising would
    put two distinct identities ("é" as one code point and as ``e`` + U+0301) in one
    namespace, and :func:`namespace_value` would no longer give the value back. Labels
    stored before this rule still read: only new values are checked here.

    Raises:
        InvalidIdentityError: ``value`` is not a string, is blank, holds control,
            invisible or bidi characters or a lone surrogate, has spaces around it, is
            not NFC, or its label is longer than 256 characters.
    """
    if not isinstance(value, str):
        raise InvalidIdentityError(f"a namespace value must be a string, got {type(value).__name__}")
    fault = identifier_fault(value) or ("starts or ends with a space" if value != value.strip() else None)
    if fault:
        raise InvalidIdentityError(f"{ascii(value[:80])} cannot name a memory namespace: it {fault}")
    label = value.replace("%", "%25").replace(".", "%2E") if ("%" in value or "." in value) else value
    try:
        check_text("namespace", label, MAX_NAMESPACE_PART_CHARS)
    except InvalidMemoryError as exc:
        raise InvalidIdentityError(
            f"{value[:80]!r} cannot name a memory namespace: its label {str(exc).removeprefix('namespace: ')}"
        ) from None
    return label


def namespace_value(label: str) -> str | None:
    """The value whose :func:`namespace_label` is ``label`` (``"team%2Ealpha"`` ->
    ``"team.alpha"``), or ``None`` when ``label`` is the label of no value: it holds a
    period, or a ``%`` other than ``%25`` and ``%2E``. Decoding left to right is the exact
    inverse, so a value and its label stand for each other one to one."""
    if not isinstance(label, str):
        return None
    value = _ESCAPED.sub(lambda m: "%" if m.group(1) == "25" else ".", label) if "%" in label else label
    try:
        return value if namespace_label(value) == label else None
    except InvalidIdentityError:
        return None


_ESCAPED = re.compile("%(25|2E)")


def _lookup(source: Any, key: str) -> Any:
    if source is None:
        return None
    if isinstance(source, Mapping):
        return source.get(key)
    return getattr(source, key, None)


def runtime_channel(config: RunnableConfig | None, context: Any) -> str | None:
    """The run's ``channel_id`` (context first, then ``configurable``), or ``None``.

    Raises:
        InvalidIdentityError: the channel holds characters a reader cannot see or tell
            apart, or is not NFC (see :func:`namespace_label`): channels are shown beside
            memories and select which ones a run reads.
    """
    value = _lookup(context, "channel_id")
    if value is None:
        value = ((config or {}).get("configurable") or {}).get("channel_id")
    return None if value is None or not str(value).strip() else _runtime_identifier("channel_id", str(value))


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
