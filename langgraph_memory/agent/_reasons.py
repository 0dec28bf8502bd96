"""Why the similar channel chose a memory, in words (the Injection's ``reason``)."""

from __future__ import annotations

from langgraph_memory.store._search import SearchHit

__all__ = ["similar_reason"]


def similar_reason(hit: SearchHit) -> str:
    """``similar (score 0.61, cosine 0.55, bm25 3.20)`` for a memory found by its own
    scores; ``linked (this caused_by <id>, score 0.30)`` or ``linked (<id> caused_by this,
    ...)`` for one reached by a link from the search hit ``<id>``."""
    if hit.via is not None:
        parent = hit.via.other(hit.memory.id)
        mine = hit.via.source_id == hit.memory.id
        said = f"this {hit.via.relation} {parent}" if mine else f"{parent} {hit.via.relation} this"
        return f"linked ({said}, score {hit.score:.2f})"
    if hit.dense_score is not None and hit.sparse_score is not None:  # most hits: both signals
        return f"similar (score {hit.score:.2f}, cosine {hit.dense_score:.2f}, bm25 {hit.sparse_score:.2f})"
    parts = [f"score {hit.score:.2f}"]
    if hit.dense_score is not None:
        parts.append(f"cosine {hit.dense_score:.2f}")
    if hit.sparse_score is not None:
        parts.append(f"bm25 {hit.sparse_score:.2f}")
    return f"similar ({', '.join(parts)})"
