"""Checks of the pre-hook's per-run settings (``configurable["memory_config"]``): a run's
configuration comes from a client, so a wrong field or type is a typed error, not a crash
deep inside the selection."""

from __future__ import annotations

from dataclasses import fields
from datetime import timedelta
from typing import Any, Mapping

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import check_number
from langgraph_memory.store.records import parse_ttl

__all__ = ["check_overrides"]


def check_overrides(config: Any, changes: Any) -> dict[str, Any]:
    """``changes`` to an :class:`~langgraph_memory.agent.injection.InjectionConfig`, each
    checked against the type of the field it sets."""
    if not isinstance(changes, Mapping):
        raise InvalidMemoryError("memory_config", "must be a mapping of setting to value")
    known = {f.name for f in fields(config)}
    checked = {}
    for name, value in changes.items():
        if name not in known:
            raise InvalidMemoryError(f"memory_config.{name}"[:80], f"unknown setting; expected one of {sorted(known)}")
        checked[name] = _check_setting(name, value, getattr(config, name))
    return checked


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
