"""A digested fact's TTL, as the digest model wrote it ("7 days", "P7D", "3 mois").

:func:`understood_ttl` reads it with the store's own TTL parser
(:func:`~langgraph_memory.store.records.parse_ttl`), but where an entry point refuses an
unreadable TTL, the digest keeps the fact without one rather than dropping it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.records import parse_ttl

__all__ = ["understood_ttl"]


def understood_ttl(value: Any) -> timedelta | None:
    """A fact's TTL as a model gave it, understood as a duration within the store's
    bounds; ``None`` for an empty, unreadable, non-positive or too long one."""
    if not isinstance(value, str):
        return None
    try:
        return parse_ttl(value)
    except InvalidMemoryError:
        return None
