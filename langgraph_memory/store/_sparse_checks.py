"""What a sparse (BM25) vector may hold, checked before the store writes or queries one.

A custom ``sparse_embeddings=`` encoder and an import file are not trusted: the engines
take vectors that break ranking for every user of a shard. Qdrant Edge stores NaN and
infinite weights, panics on indices and values of different lengths, and raises its bare
``OverflowError``/``TypeError`` on an index outside 0..2**32-1 or not an integer.

A valid vector has at most :data:`MAX_SPARSE_TERMS` entries: distinct integer indices in
0..2**32-1 (a bool is not one) and finite weights in 0..:data:`MAX_SPARSE_VALUE`. BM25
term weights and SPLADE-like models' log-saturated activations are finite and
non-negative. Negative weights are refused: one stored anywhere in a Qdrant Edge shard
makes every engine-path BM25 query of that shard read all its matches, because the order
of sums of non-negative products is what bounds how far a score computed here can be from
the engine's (``backends/_bm25_local.py``), and a query with one does the same to itself.
A store that already holds negative weights (written before this check) still opens and
answers, through that slower exact path.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Set
from itertools import islice
from typing import Any, Callable

__all__ = ["MAX_SPARSE_TERMS", "MAX_SPARSE_VALUE", "dense_floats", "sparse_pair"]

MAX_SPARSE_TERMS = 65_536
"""Entries of one vector: BM25 of a 4,000-character memory has a few hundred, a SPLADE
vector at most its vocabulary's ~30k."""
MAX_SPARSE_VALUE = 1e9
"""Largest weight: far above BM25's (below 3) or SPLADE's (below ~20), and small enough
that no float32 score can overflow (65,536 terms × 1e9 × 1e9 × an IDF below 25)."""
_INDEX_END = 2**32

Pair = tuple[list[int], list[float]]


def _listed(values: Any, what: str) -> tuple[list[Any] | None, str | None]:
    """``values`` as a list, read only once its length is known to be in bounds."""
    if isinstance(values, (str, bytes, bytearray, Mapping, Set)) or not hasattr(values, "__len__"):
        return None, f"{what} must be a list, got {type(values).__name__}"
    try:
        size = len(values)
        if size > MAX_SPARSE_TERMS:
            return None, f"{what} has {size} entries; at most {MAX_SPARSE_TERMS} are allowed"
        # Another type's length may lie: read one past it, enough to see so (no further: it may never end).
        listed = list(values) if type(values) in (list, tuple) else list(islice(values, size + 1))
    except Exception as exc:  # a hostile sequence: its own error, reported as ours
        return None, f"{what} cannot be read ({type(exc).__name__})"
    if len(listed) != size:
        return None, f"{what} said it had {size} entries and gave {len(listed)}"
    return listed, None


def _index(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        return None
    try:
        index = int(value)
    except Exception:  # a hostile number's own error (its ``__int__``), reported as ours
        return None
    return index if 0 <= index < _INDEX_END else None


def _weight(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    try:
        weight = float(value)
    except Exception:  # an int too large for a float, or a hostile number's ``__float__``
        return None
    return weight if math.isfinite(weight) and 0.0 <= weight <= MAX_SPARSE_VALUE else None


def sparse_pair(indices: Any, values: Any) -> tuple[Pair | None, str | None]:
    """``(indices, values)`` as plain lists of ``int`` and ``float``, or the reason they are
    not a valid sparse vector (see the module docstring)."""
    found_indices, problem = _listed(indices, "indices")
    if problem:
        return None, problem
    found_values, problem = _listed(values, "values")
    if problem:
        return None, problem
    assert found_indices is not None and found_values is not None
    if len(found_indices) != len(found_values):
        return None, f"{len(found_indices)} indices but {len(found_values)} values"
    # Plain ints and floats in range (every encoder's usual answer) are checked in C loops.
    ints: list[int] | None = found_indices
    if not (all(type(i) is int for i in found_indices) and (
            not found_indices or (min(found_indices) >= 0 and max(found_indices) < _INDEX_END))):
        ints, problem = _each(found_indices, _index, f"is not an integer in 0..{_INDEX_END - 1}")
        if problem:
            return None, f"index {problem}"
    assert ints is not None
    if len(set(ints)) != len(ints):
        return None, "an index appears twice"
    floats: list[float] | None = found_values
    if not (all(type(v) is float for v in found_values) and all(0.0 <= v <= MAX_SPARSE_VALUE for v in found_values)):
        floats, problem = _each(found_values, _weight, f"is not a finite number in 0..{MAX_SPARSE_VALUE:g}")
        if problem:
            return None, f"value {problem}"
    assert floats is not None
    return (ints, floats), None


def dense_floats(values: Any, dim: int) -> list[float] | None:
    """``values`` as ``dim`` finite plain floats, else ``None``: a caller's dense query
    vector (a list, a tuple, a numpy array; numpy's floats as the weights above). Read once,
    so a sequence whose ``__len__`` is not what iterating it gives is refused."""
    if isinstance(values, (str, bytes, bytearray, Mapping, Set)) or not hasattr(values, "__len__"):
        return None
    try:
        if len(values) != dim:
            return None
        floats = [float(x) for x in islice(values, dim + 1)
                  if type(x) is float or (not isinstance(x, bool) and isinstance(x, numbers.Real))]
    except Exception:  # a hostile sequence or number: its own error, reported as ours
        return None
    return floats if len(floats) == dim and all(map(math.isfinite, floats)) else None


def _each(raws: list[Any], convert: Callable[[Any], Any], fault: str) -> tuple[list[Any] | None, str | None]:
    """Every one of ``raws`` converted, or the first that is not valid (``None`` from ``convert``)."""
    out = []
    for raw in raws:
        value = convert(raw)
        if value is None:
            return None, f"{_short(raw)} {fault}"
        out.append(value)
    return out, None


def _short(value: Any) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."
