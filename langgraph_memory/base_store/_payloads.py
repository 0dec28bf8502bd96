"""How an item's value is held in its point's payload: the smallest shape every read keeps.

Qdrant Edge converts a payload from Python value by value, trying a boolean, then an
integer, a float, a string, a list and an object in turn, most failed tries raising a
Python error: a string costs ~2.6 µs, an empty list ~3.4 µs and an empty object ~4 µs
before their elements, where ``None`` or a boolean costs 0.1 µs and the engine's whole
write of a point ~10 µs. An item's value nested whole was the largest part of a put
(``docs/benchmarks.md``, issue #29, fourth round).

Yet the engine filters an item on top-level fields of its value only (``pushed_filter``:
a string equality or numeric bounds on ``value.<name>``; nested paths, lists, booleans and
nulls are checked in Python), and every reader reads the exact copy ``value_json`` first
(:func:`~langgraph_memory.store._checks.stored_object`). So an item's point holds:

* ``value``: the value's top-level scalars (strings, numbers, booleans, nulls), what the
  engine may filter on; no field when it has none (a missing ``value`` reads as ``{}``);
* ``value_json``: the whole value as JSON text, unless ``value`` already is all of it and
  exactly (no list or object at the top, no float: the engine may give one back a unit in
  the last place off, no integer past 64 bits: it comes back a float).

Points written before (the whole value nested, with ``value_json`` beside it when inexact)
read as they always did: the readers did not change.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from langgraph_memory.base_store._items import InvalidItemTextError, InvalidItemValueError
from langgraph_memory.store._checks import check_json_depth, engine_exact, engine_number

_SCALARS = frozenset({str, int, bool, float, type(None)})
_ENCODER = json.JSONEncoder(allow_nan=False, ensure_ascii=False)


def checked_value(value: Any) -> tuple[dict[str, Any], dict[str, Any], str | None]:
    """``value`` checked: a JSON copy of it (what reads give back), the part of it the
    engine holds (its top-level scalars) and, when that part is not all of it exactly, the
    whole as JSON text (else ``None``). Raises :class:`InvalidItemValueError` (not a JSON
    object) or :class:`InvalidItemTextError` (a lone surrogate)."""
    if not isinstance(value, Mapping):
        raise InvalidItemValueError(f"an item's value must be a mapping, got {type(value).__name__}")
    try:
        copy = dict(value)
    except Exception as exc:  # an app's mapping that fails to be read: its value is no JSON object
        raise InvalidItemValueError(f"an item's value could not be read as a mapping: {exc!r}") from None
    try:
        text = _ENCODER.encode(copy)
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidItemTextError("value", "is not valid Unicode (it holds a lone surrogate)") from None
    except (TypeError, ValueError, RecursionError) as exc:
        raise InvalidItemValueError(f"an item's value must be JSON-serialisable: {exc}") from None
    # A flat value of plain types is its own JSON copy (its scalars are immutable): one pass
    # builds the engine's part. Anything else (a list, an object, a str or int subclass, a
    # key JSON turns into text) is read back from the text, and the pass made on that.
    engine, whole = _scalars(copy)
    if engine is None:
        copy = check_json_depth("value", json.loads(text))  # a ValueError: a server answers 400
        engine, whole = _scalars(copy, plain=False)
    return copy, engine or {}, None if whole else text


def _scalars(value: dict[Any, Any], plain: bool = True) -> tuple[dict[str, Any] | None, bool]:
    """The top-level scalars of ``value`` and whether they are all of it, as the engine
    gives them back (no float, no integer past 64 bits). With ``plain``, ``None`` as soon
    as a key or a value is not of a plain JSON type (``value`` is then no JSON copy)."""
    engine: dict[str, Any] = {}
    whole = True
    for k, v in value.items():
        kind = type(v)
        if kind in _SCALARS and type(k) is str:
            engine[k] = v
            # A float may come back a unit in the last place off, an integer past 64 bits a float.
            if kind is float:
                whole = False
            elif kind is int and not engine_exact(v):
                engine[k], whole = engine_number(v), False
        elif plain:
            return None, False
        else:
            whole = False
    return engine, whole
