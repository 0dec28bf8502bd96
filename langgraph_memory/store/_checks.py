"""Checks shared by every entry point: text, numbers, limits, times and JSON metadata.

Each check raises :class:`~langgraph_memory.errors.InvalidMemoryError` naming the field,
so the same bad value gets the same typed error from ``remember``, ``remember_many``,
``search``, import and the tools, on both backends. They cover everything an engine
would refuse or store differently (lone surrogates, NaN, sets, datetimes in metadata,
numbers a ``datetime`` cannot hold), so a write never fails half way.
"""

from __future__ import annotations

import json
import math
import sys
import unicodedata
from datetime import datetime, timedelta, timezone
from typing import Any, Mapping

from langgraph_memory.errors import InvalidMemoryError

MAX_LIMIT = 1000
"""The largest ``limit`` a read takes."""
MAX_NAMESPACE_PARTS = 16
MAX_NAMESPACE_PART_CHARS = 256
MAX_SOURCE_CHARS = 128
MAX_METADATA_BYTES = 16_384
"""Metadata is provenance, not a document: its JSON is capped at 16 KiB."""
MAX_QUERY_CHARS = 8_000
MAX_JSON_DEPTH = 64
"""How deeply a stored JSON value (an item's value, a memory's metadata) may nest. The
engine's payload decoder stops at 128 levels: a record nested deeper is written but can
never be read back, and every scroll that meets it (the gardener, the TTL sweep, export,
re-embedding) fails for the whole store."""
MAX_TTL = timedelta(days=36_500)
"""A TTL longer than a century is a mistake (and overflows a date)."""
TIME_MIN = datetime(1970, 1, 1, tzinfo=timezone.utc)
TIME_MAX = datetime(2200, 1, 1, tzinfo=timezone.utc)
"""Every time stored (a memory's dates, an expiry, a room message's ``at``) lies in
[1970, 2200): now plus the longest TTL fits, and any time zone can show it (a year-1 or
year-9999 time cannot be shifted into every zone)."""
EPOCH_MIN = TIME_MIN.timestamp()
EPOCH_MAX = TIME_MAX.timestamp()

# Control characters other than tab and line breaks are never text a user meant.
_ALLOWED_CONTROLS = frozenset("\t\n\r")


def check_text(field: str, value: Any, max_chars: int, *, required: bool = True) -> str:
    """``value`` stripped, or an error: not a string, not encodable as UTF-8 (a lone
    surrogate), holding control characters, empty or invisible when ``required``, or
    longer than ``max_chars``."""
    if not isinstance(value, str):
        raise InvalidMemoryError(field, f"expected a string, got {type(value).__name__}")
    if len(value) > max_chars:
        raise InvalidMemoryError(field, f"is {len(value)} characters; the limit is {max_chars}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidMemoryError(field, "is not valid Unicode (it holds a lone surrogate)") from None
    if any(unicodedata.category(c) == "Cc" and c not in _ALLOWED_CONTROLS for c in value):
        raise InvalidMemoryError(field, "holds control characters")
    text = value.strip()
    if required and not visible(text):
        raise InvalidMemoryError(field, "is empty")
    return text


def visible(text: str) -> bool:
    """Whether ``text`` has a character a reader can see (not only spaces, zero-width or
    format characters)."""
    return any(not c.isspace() and unicodedata.category(c) not in ("Cc", "Cf", "Zs", "Zl", "Zp") for c in text)


def check_number(field: str, value: Any, *, low: float | None = None, high: float | None = None) -> float:
    """A finite real number (``bool`` is not one) within ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidMemoryError(field, f"expected a number, got {value!r}")
    try:
        number = float(value)
    except OverflowError:
        raise InvalidMemoryError(field, "is too large") from None
    if not math.isfinite(number):
        raise InvalidMemoryError(field, f"must be a finite number, got {value!r}")
    if (low is not None and number < low) or (high is not None and number > high):
        raise InvalidMemoryError(field, f"must be within [{low}, {high}], got {value!r}")
    return number


def check_limit(field: str, value: Any, high: int = MAX_LIMIT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise InvalidMemoryError(field, f"must be an integer from 1 to {high}, got {value!r}")
    return value


def check_epoch(field: str, value: Any) -> float:
    """Epoch seconds within [:data:`TIME_MIN`, :data:`TIME_MAX`]."""
    return check_number(field, value, low=EPOCH_MIN, high=EPOCH_MAX)


def check_minutes(field: str, value: Any) -> float:
    """A TTL in minutes (LangGraph's unit): a finite number above zero, at most
    :data:`MAX_TTL`."""
    minutes = check_number(field, value)
    if not 0 < minutes <= MAX_TTL.total_seconds() / 60:
        raise InvalidMemoryError(field, f"must be above 0 and at most {MAX_TTL.days} days in minutes, got {value!r}")
    return minutes


def stored_time(value: Any, *, expiry: bool = False) -> datetime | None:
    """A time read back from storage, never an error: data written before times were
    bounded (or by hand) may hold any number. ``None`` stays ``None``; an ``expiry`` past
    :data:`TIME_MAX` (or not a number) reads as "no expiry"; any other time is clamped
    into [:data:`TIME_MIN`, :data:`TIME_MAX`] (not a number: :data:`TIME_MIN`)."""
    if type(value) is float and EPOCH_MIN < value < EPOCH_MAX:  # what the store writes: every read's dates
        return datetime.fromtimestamp(value, tz=timezone.utc)
    if value is None:
        return None
    number = value if isinstance(value, (int, float)) and not isinstance(value, bool) else math.nan
    try:
        number = float(number)
    except OverflowError:  # an int too large for a float
        number = math.inf if number > 0 else -math.inf
    if math.isnan(number):
        return None if expiry else TIME_MIN
    if number >= EPOCH_MAX:
        return None if expiry else TIME_MAX
    if number <= EPOCH_MIN:
        return TIME_MIN
    return datetime.fromtimestamp(number, tz=timezone.utc)


def check_datetime(field: str, value: Any) -> datetime:
    """An aware datetime (naive ones are taken as UTC) within the storable range."""
    if not isinstance(value, datetime):
        raise InvalidMemoryError(field, f"expected a datetime, got {type(value).__name__}")
    aware = value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    try:
        check_epoch(field, aware.timestamp())
    except (OverflowError, ValueError):
        raise InvalidMemoryError(field, "is out of range") from None
    return aware


def check_metadata(value: Any, field: str = "metadata") -> dict[str, Any]:
    """Metadata as plain JSON (objects with string keys, lists, strings, finite numbers,
    booleans, null), at most :data:`MAX_METADATA_BYTES`. Tuples become lists, so both
    backends store and return the same thing."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidMemoryError(field, "must be a mapping")
    try:
        encoded = json.dumps(dict(value), ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidMemoryError(field, f"must be plain JSON data: {exc}") from None
    except UnicodeEncodeError:
        raise InvalidMemoryError(field, "is not valid Unicode (it holds a lone surrogate)") from None
    if len(encoded) > MAX_METADATA_BYTES:
        raise InvalidMemoryError(field, f"is {len(encoded)} bytes as JSON; the limit is {MAX_METADATA_BYTES}")
    return check_json_depth(field, json.loads(encoded))


def check_json_depth(field: str, value: Any, limit: int = MAX_JSON_DEPTH) -> Any:
    """``value`` (JSON data) if its objects and lists nest at most ``limit`` deep
    (:data:`MAX_JSON_DEPTH`), else :class:`InvalidMemoryError`. Walked without recursion."""
    level = [value]
    for _ in range(limit):
        level = [v for node in level if isinstance(node, (dict, list))
                 for v in (node.values() if isinstance(node, dict) else node)]
        if not level:
            return value
    raise InvalidMemoryError(field, f"nests deeper than {limit} levels of objects and lists")


def stored_object(exact: Any, engine_copy: Any) -> dict[str, Any]:
    """A JSON object read back from storage, never an error: the exact copy (``value_json``,
    ``metadata_json``: JSON text written beside a value holding floats, see
    :func:`engine_exact`) when :func:`exact_object` reads one in it, else the engine's copy
    (within a last unit of each float), else ``{}``.

    The copy is a payload field like any other: a record written by hand, by an older or
    foreign writer, or damaged, may hold anything there. One such record must not fail
    every listing, search, export or page that meets it; it reads as its engine copy."""
    value = exact_object(exact)
    if value is not None:
        return value
    return dict(engine_copy) if isinstance(engine_copy, Mapping) else {}


def exact_object(exact: Any) -> dict[str, Any] | None:
    """The JSON object an exact copy holds, or ``None`` when it holds none: not text, not
    JSON, not an object, ``NaN``/``Infinity`` (no plain JSON holds them), or nesting
    deeper than the parser follows."""
    if type(exact) is not str:
        return None
    try:
        value = json.loads(exact, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return None
    return value if type(value) is dict else None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON data")  # NaN, Infinity: no plain JSON holds them


def engine_exact(value: Any) -> bool:
    """Whether Qdrant Edge gives ``value`` back as it is: an integer outside 64 bits comes
    back a float, and a float may come back one unit in the last place off (its JSON parser;
    ``docs/upstream/qdrant-edge-floats.md``)."""
    if type(value) is dict:
        return all(engine_exact(v) for v in value.values())
    if type(value) is list:
        return all(engine_exact(v) for v in value)
    if type(value) is float:
        return False
    return type(value) is not int or -(2**63) <= value < 2**64


def engine_number(value: int) -> int | float:
    """An integer as an engine can hold it: itself within 64 bits, else a float (what Qdrant
    Edge makes of it), the largest finite one past a float's range (Edge's binding takes no
    larger integer: the write failed with its bare ``TypeError``). Readers take the exact
    copy written beside; as a float it still compares with every bound below 2**53 as the
    integer does."""
    if engine_exact(value):
        return value
    try:
        return float(value)
    except OverflowError:
        return sys.float_info.max if value > 0 else -sys.float_info.max


def engine_copy(value: Any) -> Any:
    """A copy of JSON data as the engine can hold it (:func:`engine_number` for each integer):
    written beside its exact copy when :func:`engine_exact` says the engine changes it."""
    if type(value) is dict:
        return {k: engine_copy(v) for k, v in value.items()}
    if type(value) is list:
        return [engine_copy(v) for v in value]
    return engine_number(value) if type(value) is int else value


def clean_query(text: str, max_chars: int = MAX_QUERY_CHARS) -> str:
    """User text made safe to embed, never an error: lone surrogates and control
    characters become spaces, and it is cut to ``max_chars``. The pre-hook searches with
    this, because a user's message must never fail a turn."""
    # Pairs of surrogates become the character they encode; lone ones become U+FFFD.
    text = text[:max_chars].encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return "".join(" " if unicodedata.category(c) == "Cc" and c not in _ALLOWED_CONTROLS else c for c in text)
