"""Vitality: how alive a memory is, how it fades while unused, and how use revives it.

Seed 003 ("Emergence") calibrated its gardener at a base decay of 0.03 per period, stale
after 14 days unused, archived after 45, a minimum vitality of 0.12. Here a period is a
day and the decay is multiplicative, so a pass's result does not depend on how often
passes run: a memory unused for ``d`` days has lost the same share of its vitality whether
one pass or thirty covered them. Past ``stale_days`` a memory fades ``stale_factor`` times
faster. Below ``min_vitality``, or once unused for ``archive_days``, it is archived (no
longer searched or injected; still in ``history`` and exports; ``restore`` brings it back),
and archived memories older than ``retention_days`` are purged.

With the defaults, an observation (importance 0.3) unused is archived after ~22 days, a
fact (0.6) after ~33, a decision (0.8) after ~38, anything after 45. Identity memories and
those at least ``protected_importance`` important never fall below the minimum and are
never archived unless ``protect=False``.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields, replace
from datetime import datetime
from typing import Any, Mapping

from langgraph_memory.errors import InvalidMemoryError

__all__ = ["DecaySettings", "ENV_PREFIX", "decayed_vitality", "is_protected", "ranking_prior"]

ENV_PREFIX = "MEMORY_DECAY_"
DAY = 86400.0

VITALITY_PRIOR_WEIGHT = 0.1
"""How much vitality moves a hybrid search score: ``score × (1 − w + w × vitality / importance)``.
A mild prior: a faded memory loses at most 10 % against a fresh or used one."""


@dataclass(frozen=True)
class DecaySettings:
    """The gardener's calibration. Each field can be overridden by the environment variable
    ``MEMORY_DECAY_<FIELD>`` (e.g. ``MEMORY_DECAY_ARCHIVE_DAYS=60``), read by :meth:`from_env`.

    Args:
        base: share of vitality lost per unused day while fresh (seed 003: 0.03).
        stale_days: after this many unused days a memory is stale (seed 003: 14).
        stale_factor: a stale memory fades this many times faster.
        archive_days: after this many unused days a memory is archived (seed 003: 45).
        min: below this vitality a memory is archived (seed 003: 0.12).
        boost: vitality added each time a memory is injected or returned by a tool.
        retention_days: archived memories are purged this many days after archiving.
        forgotten_days: deleted (forgotten) memories can be restored this many days, and
            are purged after.
        protected_importance: memories at least this important never fade below ``min``.
        protect: ``False`` lets identity and important memories fade and be archived too.
        buckets: inner edges of the vitality buckets reports count, ascending in (0, 1).
    """

    base: float = 0.03
    stale_days: float = 14.0
    stale_factor: float = 2.0
    archive_days: float = 45.0
    min: float = 0.12
    boost: float = 0.1
    retention_days: float = 90.0
    forgotten_days: float = 30.0
    protected_importance: float = 0.9
    protect: bool = True
    buckets: tuple[float, ...] = (0.2, 0.4, 0.6, 0.8)

    def __post_init__(self) -> None:
        for name in ("base", "min", "boost", "protected_importance"):
            _check_number(name, getattr(self, name), low=0.0, high=1.0)
        for name in ("stale_days", "archive_days", "retention_days", "forgotten_days", "stale_factor"):
            _check_number(name, getattr(self, name), low=0.0)
        if self.base * self.stale_factor >= 1.0:
            raise InvalidMemoryError("decay", "base × stale_factor must stay below 1")
        if self.stale_days > self.archive_days:
            raise InvalidMemoryError("stale_days", "must not exceed archive_days")
        if not isinstance(self.protect, bool):
            raise InvalidMemoryError("protect", "must be a boolean")
        edges = self.buckets
        if (
            not isinstance(edges, tuple) or not edges
            or any(isinstance(e, bool) or not isinstance(e, (int, float)) or not 0.0 < e < 1.0 for e in edges)
            or list(edges) != sorted(set(edges))
        ):
            raise InvalidMemoryError("buckets", f"expected ascending edges within (0, 1), got {edges!r}")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> "DecaySettings":
        """Defaults, then ``MEMORY_DECAY_*`` variables, then ``overrides``.

        Raises:
            InvalidMemoryError: a variable is not a number (or a boolean for ``PROTECT``),
                or a value is out of range.
        """
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is None or not raw.strip():
                continue
            values[f.name] = _parse_env(f.name, raw.strip())
        unknown = set(overrides) - {f.name for f in fields(cls)}
        if unknown:
            raise InvalidMemoryError("settings", f"unknown decay settings {sorted(unknown)}")
        return replace(cls(), **{**values, **overrides})

    def bucket_names(self) -> list[str]:
        """``"0.0-0.2"``, ``"0.2-0.4"``, ... for the configured edges."""
        edges = (0.0, *self.buckets, 1.0)
        return [f"{a:g}-{b:g}" for a, b in zip(edges, edges[1:])]

    def bucket_of(self, vitality: float) -> str:
        names = self.bucket_names()
        for name, edge in zip(names, self.buckets):
            if vitality < edge:
                return name
        return names[-1]


def _check_number(name: str, value: Any, *, low: float, high: float | None = None) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise InvalidMemoryError(name, f"expected a number, got {value!r}")
    if value < low or (high is not None and value > high):
        span = f"within [{low:g}, {high:g}]" if high is not None else f"at least {low:g}"
        raise InvalidMemoryError(name, f"must be {span}, got {value}")


def _parse_env(name: str, raw: str) -> Any:
    var = ENV_PREFIX + name.upper()
    if name == "protect":
        if raw.lower() in ("1", "true", "yes", "on"):
            return True
        if raw.lower() in ("0", "false", "no", "off"):
            return False
        raise InvalidMemoryError(var, f"expected true or false, got {raw!r}")
    if name == "buckets":
        try:
            return tuple(float(x) for x in raw.split(","))
        except ValueError:
            raise InvalidMemoryError(var, f"expected comma-separated numbers, got {raw!r}") from None
    try:
        return float(raw)
    except ValueError:
        raise InvalidMemoryError(var, f"expected a number, got {raw!r}") from None


def is_protected(memory_type: str, importance: float, settings: DecaySettings) -> bool:
    """Identity memories and very important ones never fade below the minimum."""
    return settings.protect and (memory_type == "identity" or importance >= settings.protected_importance)


def decayed_vitality(
    vitality: float, *, last_used: float, since: float, now: float, settings: DecaySettings
) -> float:
    """``vitality`` (as it was at ``since``) faded until ``now``, for a memory last used at
    ``last_used`` (epoch seconds). Days within ``stale_days`` of the last use cost ``base``
    each, later days ``base × stale_factor``; the result is the same however the interval
    is split between passes."""
    start = max(since, last_used)
    if now <= start:
        return vitality
    stale_from = last_used + settings.stale_days * DAY
    fresh_days = max(0.0, min(now, stale_from) - start) / DAY
    stale_days = max(0.0, now - max(start, stale_from)) / DAY
    kept = (1.0 - settings.base) ** fresh_days * (1.0 - settings.base * settings.stale_factor) ** stale_days
    return max(0.0, min(1.0, vitality * kept))


def boosted_vitality(vitality: float, settings: DecaySettings) -> float:
    """Vitality after one use (an injection or a tool returning it)."""
    return min(1.0, vitality + settings.boost)


def ranking_prior(vitality: float | None, importance: float | None) -> float:
    """The factor a hybrid search multiplies a memory's score by: 1 while the memory is
    as alive as it is important (fresh, or used), down to ``1 − w`` as it fades (see
    :data:`VITALITY_PRIOR_WEIGHT`). Relative to importance, so importance (which has its
    own pre-hook channel) is not counted twice, and scores stay within [0, 1]."""
    if vitality is None or not importance:
        return 1.0
    alive = vitality / importance
    # min(1.0, max(0.0, alive)) without the two calls (a search asks this for each winner)
    alive = alive if alive > 0.0 else 0.0
    alive = alive if alive < 1.0 else 1.0
    return 1.0 - VITALITY_PRIOR_WEIGHT + VITALITY_PRIOR_WEIGHT * alive


def epoch(value: datetime | float | None) -> float | None:
    if value is None or isinstance(value, (int, float)):
        return value
    return value.timestamp()
