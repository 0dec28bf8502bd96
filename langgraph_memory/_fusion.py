"""Fusing dense and sparse rankings into one.

Fusion runs here rather than in the engine because callers need each signal's own score:
the pre-hook applies a floor per signal and explains why a memory was chosen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from langgraph_memory._backends import Hit

RRF_K = 60


@dataclass
class Fused:
    hit: Hit
    score: float
    dense_score: float | None = None
    sparse_score: float | None = None


def weighted_rrf(
    dense: Sequence[Hit],
    sparse: Sequence[Hit],
    *,
    dense_weight: float = 1.0,
    sparse_weight: float = 1.0,
    k: int = RRF_K,
) -> list[Fused]:
    """Weighted reciprocal rank fusion, scaled so a memory ranked first by both scores 1.0."""
    fused: dict[str, Fused] = {}
    for rank, hit in enumerate(dense):
        entry = fused.setdefault(hit.point.id, Fused(hit, 0.0))
        entry.score += dense_weight / (k + rank + 1)
        entry.dense_score = hit.score
        if entry.hit.point.dense is None:
            entry.hit = hit
    for rank, hit in enumerate(sparse):
        entry = fused.setdefault(hit.point.id, Fused(hit, 0.0))
        entry.score += sparse_weight / (k + rank + 1)
        entry.sparse_score = hit.score
    top = (dense_weight + sparse_weight) / (k + 1)
    for entry in fused.values():
        entry.score /= top
    return sorted(fused.values(), key=lambda f: f.score, reverse=True)
