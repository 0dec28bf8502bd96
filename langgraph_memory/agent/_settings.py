"""Checks of the pre-hook's per-run settings (``configurable["memory_config"]``): a run's
configuration comes from a client, so a wrong field or type is a typed error, not a crash
deep inside the selection.

On a LangGraph server with auth the client is not the app: a run may narrow what the app
configured (fewer memories, fewer channels, a channel scope turned on) but not widen it.
Raising a budget would let any user multiply the tokens the app pays for, and turning
``channel_scope`` off would undo the app's separation of channels."""

from __future__ import annotations

from dataclasses import fields
from datetime import timedelta
from typing import Any, Mapping

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import check_number
from langgraph_memory.store.records import parse_ttl

__all__ = ["check_overrides"]


_BUDGETS = frozenset({"identity_limit", "important_limit", "recent_limit", "similar_limit", "max_semantic_buffer",
                      "max_injection_count", "max_tokens", "reinject_after_turns"})
"""Settings that bound how much is read and injected: a client run may lower them only.
(``reinject_after_turns`` is how many turns an injected memory stays in the rendered view:
raised, every turn's memories pile up in the prompt past ``max_tokens``.)"""


def check_overrides(config: Any, changes: Any, *, narrow_only: bool = False) -> dict[str, Any]:
    """``changes`` to an :class:`~langgraph_memory.agent.injection.InjectionConfig`, each
    checked against the type of the field it sets; with ``narrow_only`` (a run on a server
    with auth), also refused when it widens what ``config`` allows."""
    if not isinstance(changes, Mapping):
        raise InvalidMemoryError("memory_config", "must be a mapping of setting to value")
    known = {f.name for f in fields(config)}
    checked = {}
    for name, value in changes.items():
        if name not in known:
            raise InvalidMemoryError(f"memory_config.{name}"[:80], f"unknown setting; expected one of {sorted(known)}")
        checked[name] = _check_setting(name, value, getattr(config, name))
        if narrow_only:
            _check_narrows(name, checked[name], getattr(config, name))
    return checked


def _check_narrows(name: str, value: Any, app_value: Any) -> None:
    field_name = f"memory_config.{name}"
    if name in _BUDGETS and value > app_value:
        raise InvalidMemoryError(field_name, f"a run on a server with auth may lower it, not raise it above the app's {app_value}")
    if name == "channel_scope" and app_value and not value:
        raise InvalidMemoryError(field_name, "the app scopes memories by channel; a run on a server with auth cannot turn it off")
    if name in ("channels", "kinds") and app_value is not None and (value is None or not set(value) <= set(app_value)):
        raise InvalidMemoryError(field_name, f"a run on a server with auth may only choose among the app's {list(app_value)}")


def _check_setting(name: str, value: Any, default: Any) -> Any:
    field_name = f"memory_config.{name}"
    if name == "channel":
        raise InvalidMemoryError(field_name, "comes from the runtime's channel_id, not from settings")
    if value is None and name in ("similar_min_bm25", "kinds"):
        return None
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise InvalidMemoryError(field_name, "must be true or false")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1_000_000:
            raise InvalidMemoryError(field_name, "must be an integer from 0 to 1000000")
        return value
    if isinstance(default, float) or name == "similar_min_bm25":
        return check_number(field_name, value, low=0.0, high=None if "bm25" in name and "cosine" not in name else 1.0)
    if isinstance(default, timedelta):
        delta = value if isinstance(value, timedelta) else parse_ttl(value) if isinstance(value, str) else None
        if delta is None or delta <= timedelta(0):
            raise InvalidMemoryError(field_name, "must be a positive duration such as '6h'")
        return delta
    if name == "similar_mode":
        if value not in ("hybrid", "dense", "bm25"):
            raise InvalidMemoryError(field_name, "must be hybrid, dense or bm25")
        return value
    allowed = {"channels": ("identity", "important", "recent", "similar"), "kinds": ("fact", "self", "goal")}[name]
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not all(
        isinstance(v, str) and v in allowed for v in value
    ):
        raise InvalidMemoryError(field_name, f"must be a list drawn from {list(allowed)}")
    return tuple(value)
