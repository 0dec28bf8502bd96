"""The pre-hook's semantic dedup: unit vectors with their owners and days, compared at once,
and the cache of vectors it reads them from."""

from __future__ import annotations

from collections import OrderedDict
from typing import Sequence

import numpy as np

_F32 = np.dtype(np.float32)

PARAPHRASE_COSINE = 0.95
"""Two memories this close say the same thing in other words: one is dropped whatever
their days (three paraphrases at 0.98 inject one, seed 001 §2.6), where
``semantic_same_day_only`` would keep memories of other days apart below it."""


class VectorRows:
    """Vectors (unit length) with their memory ids and creation days, for the semantic dedup."""

    def __init__(self, rows: list[tuple[np.ndarray, str, int | None]]) -> None:
        self.owners = [r[1] for r in rows]
        self.days = [r[2] for r in rows]
        # One matrix with room to grow: a turn adds a row per memory it chooses, and
        # stacking every row again before each comparison cost more than the product.
        self._matrix: np.ndarray | None = np.stack([r[0] for r in rows]) if rows else None
        self._rows = self._matrix
        """The matrix's rows in use (a view kept: sliced once a row, not once a comparison)."""

    def add(self, vector: np.ndarray, owner: str, day: int | None) -> None:
        n = len(self.owners)
        if self._matrix is None:
            # The cache's vectors are float32: their type as it is (``np.result_type`` ~0.7 µs).
            dtype = _F32 if getattr(vector, "dtype", None) == _F32 else np.result_type(vector, np.float32)
            self._matrix = np.empty((8, len(vector)), dtype=dtype)
        elif n == len(self._matrix):
            self._matrix = np.concatenate([self._matrix, np.empty_like(self._matrix)])
        self._matrix[n] = vector
        self._rows = self._matrix[: n + 1]
        self.owners.append(owner)
        self.days.append(day)

    def too_close(self, vector: np.ndarray, own_id: str, day: int | None, threshold: float, same_day_only: bool) -> bool:
        """Whether ``vector`` is within ``threshold`` (cosine) of one of these rows."""
        if not self.owners:
            return False
        # ``.dot`` is the BLAS call ``@`` makes here (the same floats: a contiguous float32
        # matrix and vector), without the ufunc's ~0.5 µs around it.
        sims = self._rows.dot(vector).tolist()  # type: ignore[union-attr]
        if max(sims) < threshold:
            return False  # most candidates: nothing near, no row to look at
        for sim, owner, other_day in zip(sims, self.owners, self.days):
            # A memory that left the window may come back: it must not be blocked by itself.
            if sim < threshold or owner == own_id:
                continue
            if same_day_only and day is not None and other_day is not None and day != other_day \
                    and sim < max(threshold, PARAPHRASE_COSINE):
                continue
            return True
        return False


class VectorCache:
    """Dense vectors and creation days by memory id. A memory's vector never changes, so
    the semantic buffer costs no storage round trip once its memories have been seen."""

    def __init__(self, size: int = 10_000) -> None:
        self._data: OrderedDict[str, tuple[np.ndarray, int | None]] = OrderedDict()
        self.size = size

    def get(self, key: str) -> np.ndarray | None:
        entry = self._data.get(key)
        if entry is None:
            return None
        self._data.move_to_end(key)
        return entry[0]

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def day(self, key: str) -> int | None:
        """The memory's creation day (a date ordinal), when it was given."""
        entry = self._data.get(key)
        return None if entry is None else entry[1]

    def put(self, key: str, vector: Sequence[float] | None, day: int | None = None) -> None:
        if vector is None:
            return
        self._data[key] = (np.asarray(vector, dtype=np.float32), day)
        self._data.move_to_end(key)
        while len(self._data) > self.size:
            self._data.popitem(last=False)
