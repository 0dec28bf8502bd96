"""How BaseStore items live in the memories' collection, and how their filters run.

Three kinds of points share the collection, told apart by ``status``:

* a memory written by :class:`~langgraph_memory.MemoryStore` (``live``; ``superseded`` ones
  are history, never items): its item key is its id, its value its fields;
* an item written through the BaseStore face (``item``), at a point id derived from its
  namespace and key, with ``item_key``, its value (:mod:`._payloads`) and the first
  indexed text's vector. Memory reads ask for ``live`` points only, so they never see
  it. An app that opts in (``memory_field``) stores it as a ``live`` memory too, which
  the pre-hook then finds;
* one extra vector of an item (``item_vector``), for each indexed text after the first,
  pointing at its item through ``item_of``. A search scores an item by its best vector.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import uuid
from datetime import datetime
from typing import Any, Callable, Iterable, Mapping

from langgraph.store.base import InvalidNamespaceError, Item, MatchCondition

from langgraph_memory.errors import InvalidMemoryError, LangGraphMemoryError
from langgraph_memory.store._checks import (
    MAX_NAMESPACE_PART_CHARS, MAX_NAMESPACE_PARTS, TIME_MIN, check_minutes, stored_object,
    stored_time,
)
from langgraph_memory.store._labels import identity_fault
from langgraph_memory.store.backends import StoredPoint
from langgraph_memory.store.records import Memory, namespace_from_key, namespace_key

MEMORY, ITEM, ITEM_VECTOR = "live", "item", "item_vector"
ITEM_STATUSES = (MEMORY, ITEM)
_POINT_IDS = uuid.UUID("8d1e5c8e-2f7a-4c55-9a43-6f0c1b7e2a10")
_POINT_ID_BYTES = _POINT_IDS.bytes
_MAX_EXACT_INT = 2**53


class InvalidItemNamespaceError(InvalidNamespaceError, LangGraphMemoryError):
    """A namespace LangGraph's stores refuse: empty, or a label empty, not a string, or
    holding a period."""


class InvalidItemValueError(LangGraphMemoryError, TypeError):
    """An item's value is not a JSON object (a mapping of JSON-serialisable data)."""


class InvalidItemTextError(InvalidMemoryError):
    """A key, namespace label, query or value holds text the engines cannot store (a lone
    surrogate)."""


class InvalidEmbeddingError(InvalidMemoryError):
    """The index's embedder returned vectors of another size than the index's ``dims``."""


def check_namespace(namespace: Any, *, allow_empty: bool = False) -> tuple[str, ...]:
    """``namespace`` as a tuple, checked as LangGraph's stores check labels."""
    if isinstance(namespace, list):
        namespace = tuple(namespace)
    if not isinstance(namespace, tuple):
        raise InvalidItemNamespaceError(f"Namespace must be a tuple of strings, got {namespace!r}.")
    if not namespace and not allow_empty:
        raise InvalidItemNamespaceError("Namespace cannot be empty.")
    for label in namespace:
        if not isinstance(label, str):
            raise InvalidItemNamespaceError(f"Namespace labels must be strings, got {label!r} in {namespace}.")
        if not label or "." in label or "\x00" in label:
            raise InvalidItemNamespaceError(
                f"Invalid namespace label {label!r} in {namespace}: labels are non-empty and hold no "
                "period or NUL byte."
            )
        try:
            label.encode("utf-8")
        except UnicodeEncodeError:
            raise InvalidItemNamespaceError(
                f"Invalid namespace label {label!r} in {namespace}: it holds a lone surrogate."
            ) from None
    return namespace


def check_written_namespace(namespace: Any) -> tuple[str, ...]:
    """The namespace of an item being written: checked as :func:`check_namespace`, bounded
    as a memory's (at most 16 labels of at most 256 characters), and each label checked as
    an identity is (:func:`~langgraph_memory.store._labels.identity_fault`: no invisible,
    format, bidi or odd space characters, no spaces around, NFC). Each item stores
    the keys of all its namespace's prefixes, so its size grows with the square of the
    namespace's: 10 writes of a 15 KB request naming 3,000 labels took 180 MiB of disk.
    Reads and deletes take any namespace, so items stored before the bound stay reachable."""
    namespace = check_namespace(namespace)
    if len(namespace) > MAX_NAMESPACE_PARTS:
        raise InvalidItemNamespaceError(
            f"Namespace has {len(namespace)} labels; an item's namespace has at most {MAX_NAMESPACE_PARTS}.")
    for label in namespace:
        if len(label) > MAX_NAMESPACE_PART_CHARS:
            raise InvalidItemNamespaceError(
                f"Namespace label {label[:40]!r}... has {len(label)} characters; the limit is {MAX_NAMESPACE_PART_CHARS}.")
        # A client names its own sub-namespaces: none may look like another (an admin, the
        # browser and the CLI would show "notes" and "notes" + U+200B alike), as identities.
        fault = identity_fault(label)
        if fault:
            raise InvalidItemNamespaceError(f"Namespace label {ascii(label[:40])} {fault}.")
    return namespace


def check_unicode(field: str, text: str) -> str:
    """``text`` if UTF-8 can encode it (the engines cannot store a lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidItemTextError(field, "is not valid Unicode (it holds a lone surrogate)") from None
    return text


def check_ttl_config(ttl: Any) -> dict[str, Any] | None:
    """LangGraph's TTL config, checked before anything is stored with it: ``default_ttl``
    is ``None`` or a bounded TTL in minutes (``inf`` would fail every later put),
    ``sweep_interval_minutes`` a positive finite number, ``refresh_on_read`` and
    ``omit_expired`` booleans."""
    if ttl is None:
        return None
    if not isinstance(ttl, Mapping):
        raise InvalidMemoryError("ttl", "expected a TTLConfig mapping")
    config = dict(ttl)
    if config.get("default_ttl") is not None:
        config["default_ttl"] = check_minutes("ttl.default_ttl", config["default_ttl"])
    if config.get("sweep_interval_minutes") is not None:
        config["sweep_interval_minutes"] = check_minutes("ttl.sweep_interval_minutes", config["sweep_interval_minutes"])
    for flag in ("refresh_on_read", "omit_expired"):
        if flag in config and not isinstance(config[flag], bool):
            raise InvalidMemoryError(f"ttl.{flag}", f"expected True or False, got {config[flag]!r}")
    return config


def check_key(key: Any) -> str:
    """An item key: a string UTF-8 can encode. LangGraph's own stores turn any key into
    ``str(key)``; this store refuses a non-string one, which is a caller's bug."""
    if not isinstance(key, str):
        raise InvalidMemoryError("key", f"expected a string, got {type(key).__name__}")
    return check_unicode("key", key)


def item_point_id(namespace: tuple[str, ...], key: str) -> str:
    """The point of item ``key`` of ``namespace``: distinct for every (namespace, key).

    ``str(uuid.uuid5(_POINT_IDS, name))``, computed from the SHA-1 directly: the ``uuid``
    module builds two UUID objects and formats through an int, several times the hash's
    cost on every put and get."""
    digest = bytearray(hashlib.sha1(_POINT_ID_BYTES + (namespace_key(namespace) + "\x00" + key).encode()).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # RFC 4122 variant
    h = digest.hex()
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def as_uuid(key: str) -> str | None:
    """``key`` as a canonical UUID string, or ``None`` (most keys: no parse attempted)."""
    if len(key) < 32:  # no form ``uuid.UUID`` accepts is shorter than its 32 hex digits
        return None
    try:
        return str(uuid.UUID(key))
    except (ValueError, TypeError, AttributeError):
        return None


def is_memory(payload: Mapping[str, Any]) -> bool:
    """A memory written by MemoryStore (not an item stored through this face)."""
    return "item_key" not in payload


def owns(point: StoredPoint, namespace: tuple[str, ...], key: str, now: float) -> bool:
    """``point`` is the live item ``key`` of ``namespace``."""
    p = point.payload
    if p.get("namespace") != namespace_key(namespace) or p.get("status") not in ITEM_STATUSES:
        return False
    if (p.get("item_key") if "item_key" in p else point.id) != key:
        return False
    return not expired(p, now)


def expired(payload: Mapping[str, Any], now: float) -> bool:
    expires = payload.get("expires_at")
    return expires is not None and expires <= now


def _dt(seconds: float) -> datetime:
    return stored_time(seconds) or TIME_MIN  # clamped: an old point may hold any number


def memory_value(memory: Memory) -> dict[str, Any]:
    """A memory's fields as an item's value."""
    return {
        "content": memory.content,
        "kind": memory.kind,
        "memory_type": memory.memory_type,
        "category": memory.category,
        "subjects": list(memory.subjects),
        "importance": memory.importance,
        "source": memory.source,
        "metadata": dict(memory.metadata),
    }


def item_value(point: StoredPoint) -> dict[str, Any]:
    p = point.payload
    if is_memory(p):
        return memory_value(Memory.from_payload(point.id, p))
    # value_json: written beside a value the engine would not give back as it is.
    return stored_object(p.get("value_json"), p.get("value"))


def to_item(point: StoredPoint, cls: type[Item] = Item, value: dict[str, Any] | None = None, **extra: Any) -> Item:
    """``point`` as an item; ``value``: its value when already read (a write's own copy)."""
    p = point.payload
    created = _dt(p["created_at"])
    return cls(
        value=item_value(point) if value is None else value,
        key=point.id if is_memory(p) else p["item_key"],
        namespace=namespace_from_key(p["namespace"]),
        created_at=created,
        updated_at=created if p["updated_at"] == p["created_at"] else _dt(p["updated_at"]),  # a new item: one date
        **extra,
    )


# -- filters --------------------------------------------------------------------------------

_OPERATORS = ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte")
_FILTER_KEY = re.compile(r"[a-zA-Z0-9_.-]+")


class InvalidFilterKeyError(InvalidMemoryError):
    """A filter key SqliteStore and PostgresStore refuse (their message, word for word):
    anything but letters, digits, ``_``, ``.`` and ``-``."""

    def __init__(self, key: Any) -> None:
        LangGraphMemoryError.__init__(
            self,
            f"Invalid filter key: '{key}'. Filter keys must contain only alphanumeric characters, "
            "underscores, dots, and hyphens.",
        )
        self.field = "filter"


def check_filter(flt: Any) -> dict[str, Any]:
    if flt is None:
        return {}
    if not isinstance(flt, Mapping):
        raise InvalidMemoryError("filter", f"expected a mapping, got {type(flt).__name__}")
    for key in flt:
        if not isinstance(key, str) or not _FILTER_KEY.fullmatch(key):
            raise InvalidFilterKeyError(key)
    try:
        json.dumps(dict(flt), ensure_ascii=False, default=str).encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidItemTextError("filter", "is not valid Unicode (it holds a lone surrogate)") from None
    except (ValueError, RecursionError) as exc:
        raise InvalidMemoryError("filter", f"must be JSON data: {exc}") from None
    for key, condition in flt.items():
        if isinstance(condition, Mapping) and any(str(k).startswith("$") for k in condition):
            unknown = [op for op in condition if op not in _OPERATORS]
            if unknown:
                raise InvalidMemoryError("filter", f"unsupported operator {unknown[0]!r} on {key!r}")
    return dict(flt)


def _lookup(value: Mapping[str, Any], key: str) -> Any:
    """``value[key]``, or the nested field a dotted key names."""
    if key in value or "." not in key:
        return value.get(key)
    node: Any = value
    for part in key.split("."):
        if not isinstance(node, Mapping):
            return None
        node = node.get(part)
    return node


def _number(x: Any) -> float | None:
    if not isinstance(x, (int, float)) or isinstance(x, bool):
        return None
    try:
        return float(x)
    except OverflowError:  # an integer past any float (JSON takes it): beyond every finite bound
        return math.inf if x > 0 else -math.inf


def _compare(actual: Any, op: str, expected: Any) -> bool:
    if op == "$eq":
        return _equal(actual, expected)
    if op == "$ne":
        return not _equal(actual, expected)
    a, b = _number(actual), _number(expected)
    if a is None or b is None:
        if not (isinstance(actual, str) and isinstance(expected, str)):
            return False
        a, b = actual, expected  # type: ignore[assignment]  # strings order as text
    return {"$gt": a > b, "$gte": a >= b, "$lt": a < b, "$lte": a <= b}[op]  # type: ignore[operator]


def _equal(actual: Any, expected: Any) -> bool:
    """JSON equality: a mapping matches on the keys it names, a list element by element."""
    if isinstance(expected, Mapping):
        if any(str(k).startswith("$") for k in expected):
            return all(_compare(actual, op, v) for op, v in expected.items())
        return isinstance(actual, Mapping) and all(_equal(actual.get(k), v) for k, v in expected.items())
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(actual, (list, tuple)) and len(actual) == len(expected)
            and all(_equal(a, e) for a, e in zip(actual, expected))
        )
    return actual == expected


def matches(value: Mapping[str, Any], flt: Mapping[str, Any]) -> bool:
    return all(_equal(_lookup(value, key), expected) for key, expected in flt.items())


def _plain(key: str) -> bool:
    return key.isidentifier()


def pushed_filter(flt: Mapping[str, Any], usable: Callable[[str, str], bool]) -> dict[str, Any] | None:
    """The part of ``flt`` the engine can check on items (``status == item``), as
    :class:`Where` arguments, or ``None``.

    It may let through more than ``flt`` (every hit is checked again in Python), never
    less: equality on strings, numeric equality and bounds as ranges (a range
    holds for integer and float payloads alike). The rest is checked in Python only.
    ``usable(path, "keyword" | "float")`` says whether the engine has (or can make) an index
    of that type on ``path``; a condition without one stays in Python.
    """
    exact: list[tuple[str, tuple[str, ...]]] = []
    bounds: list[tuple[str, float | None, float | None, float | None, float | None]] = []
    for key, expected in flt.items():
        if not _plain(key):
            continue
        path = f"value.{key}"
        conditions: Iterable[tuple[str, Any]]
        if isinstance(expected, Mapping) and any(str(k).startswith("$") for k in expected):
            conditions = expected.items()
        else:
            conditions = [("$eq", expected)]
        for op, v in conditions:
            if isinstance(v, str) and op == "$eq":
                if usable(path, "keyword"):
                    exact.append((path, (v,)))
                continue
            x = _number(v)  # booleans stay in Python: the engines match them unlike JSON
            if x is None or not math.isfinite(x) or abs(x) >= _MAX_EXACT_INT or op == "$ne":
                continue
            if op == "$eq" and x in (0, 1):
                continue  # the matcher takes ``True == 1`` and ``False == 0``; a range finds no boolean
            if not usable(path, "float"):
                continue
            gte, gt, lte, lt = {
                "$eq": (x, None, x, None), "$gt": (None, x, None, None), "$gte": (x, None, None, None),
                "$lt": (None, None, None, x), "$lte": (None, None, x, None),
            }[op]
            bounds.append((path, gte, gt, lte, lt))
    if not exact and not bounds:
        return None
    return {"fields": tuple(exact), "ranges": tuple(bounds)}


# -- namespaces -----------------------------------------------------------------------------


def condition_path(condition: MatchCondition) -> tuple[str, ...]:
    """A condition's labels; a bare string is one label."""
    return (condition.path,) if isinstance(condition.path, str) else tuple(condition.path)


def namespace_matches(namespace: tuple[str, ...], conditions: Iterable[MatchCondition]) -> bool:
    for condition in conditions:
        path = condition_path(condition)
        if len(namespace) < len(path):
            return False
        part = namespace[: len(path)] if condition.match_type == "prefix" else namespace[len(namespace) - len(path):]
        if not all(p == "*" or p == n for p, n in zip(path, part)):
            return False
    return True


def literal_prefix(conditions: Iterable[MatchCondition]) -> tuple[str, ...]:
    """The leading labels of the prefix condition before any wildcard: what the engine can
    narrow the namespaces to."""
    for condition in conditions:
        if condition.match_type == "prefix":
            out = []
            for label in condition_path(condition):
                if label == "*":
                    break
                out.append(label)
            return tuple(out)
    return ()
