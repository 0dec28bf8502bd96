"""Namespaces: LangGraph's tuples of strings, checked, and the keyword each is stored under.

A namespace is stored as one key (:func:`namespace_key`) plus the keys of its prefixes
(:func:`prefix_keys`), so a filter by namespace or by namespace prefix is one keyword match.
"""

from __future__ import annotations

from itertools import accumulate
from typing import Any

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import MAX_NAMESPACE_PART_CHARS, MAX_NAMESPACE_PARTS, check_text

__all__ = ["Namespace", "namespace_from_key", "namespace_key", "prefix_keys", "validate_namespace"]

Namespace = tuple[str, ...]
"""LangGraph's namespace convention, e.g. ``("memories", user_id)``."""


def validate_namespace(namespace: Any) -> Namespace:
    """A namespace is a non-empty tuple of non-empty strings (LangGraph's convention)."""
    if not isinstance(namespace, tuple) or not namespace:
        raise InvalidMemoryError(
            "namespace", f"expected a non-empty tuple of strings, got {namespace!r}"[:200]
        )
    if len(namespace) > MAX_NAMESPACE_PARTS:
        raise InvalidMemoryError("namespace", f"has {len(namespace)} parts; the limit is {MAX_NAMESPACE_PARTS}")
    for part in namespace:
        if not isinstance(part, str):
            raise InvalidMemoryError("namespace", f"every part must be a non-empty string, got {part!r}"[:200])
        check_text("namespace", part, MAX_NAMESPACE_PART_CHARS)
    return namespace


def namespace_key(namespace: Namespace) -> str:
    """One keyword per namespace; ``/`` and ``%`` inside parts are escaped so keys never
    collide and a key is a prefix of its children's keys."""
    return "/".join(p.replace("%", "%25").replace("/", "%2F") for p in namespace)


def prefix_keys(key: str) -> list[str]:
    """The keys of a namespace key's prefixes, itself last (``ns_prefixes``: what a filter by
    namespace prefix matches). A part's own ``/`` is escaped in its key (:func:`namespace_key`),
    so each ``/`` of the key ends a prefix."""
    return list(accumulate(key.split("/"), _joined))


def _joined(prefix: str, part: str) -> str:
    return f"{prefix}/{part}"


def namespace_from_key(key: str) -> Namespace:
    if "%" not in key:  # nothing escaped: the common case, several times cheaper
        return tuple(key.split("/"))
    return tuple(p.replace("%2F", "/").replace("%25", "%") for p in key.split("/"))
