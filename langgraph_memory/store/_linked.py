"""The fourth source of a search (seed 001 §1.5's graph traversal): the memories linked to
its best hits.

After dense, BM25 and the metadata boosts have ranked a search, the links of its best
:data:`LINK_SOURCES` hits are followed one hop, at most :data:`LINK_FANOUT` per hit, to
memories the search did not find; those that match the search's own filter (namespace,
live, kinds, time...) join the list, and a memory the search found with a lower score is
lifted to what the link gives. A linked memory scores :data:`LINK_WEIGHT` times the
hit it was reached from, as a fourth weighted list would (its own dense and BM25 scores
are unknown, and by design may be nil: "Tom moved to Lyon" says nothing of the bakery job
that caused it), and its :attr:`SearchHit.via` says which link brought it and from which
memory. The links ride in the hits' payloads, so a search whose best hits have none costs
no engine round more; otherwise one fetch by id.
"""

from __future__ import annotations

import dataclasses

from langgraph_memory.store._links import Link, as_links
from langgraph_memory.store._reads import Plan
from langgraph_memory.store.backends import FetchQuery, Where
from langgraph_memory.store.records import Memory

__all__ = ["LINK_FANOUT", "LINK_SOURCES", "LINK_WEIGHT", "follow_links", "has_links"]

LINK_SOURCES = 3
"""How many of a search's best hits have their links followed."""
LINK_FANOUT = 3
"""At most this many links followed per hit (newest first): a hub cannot flood a search."""
LINK_WEIGHT = 0.5
"""A linked memory's score, relative to the hit it was reached from: it ranks below that
hit, among the hits half as relevant."""
RELATION_ORDER = ("updates", "contradicts", "caused_by", "result_of", "part_of", "related_to")
"""Which links a hit's fan-out follows first: the ones that change what a fact means."""


def has_links(hits: list) -> bool:
    """Whether one of the best ``hits`` has links to follow (most searches: none, and then
    :func:`follow_links` returns ``hits`` as they are)."""
    return any(parent.memory.links for parent in hits[:LINK_SOURCES])


def follow_links(hits: list, where: Where, limit: int, with_vectors: bool) -> Plan[list]:
    """``hits`` (``SearchHit``, best first) with the memories linked to the best of them,
    re-ranked and cut at ``limit``; no engine round when those have no links."""
    if not has_links(hits):
        return hits  # nothing to follow: as ranked, best first (most searches)
    found = {h.memory.id: i for i, h in enumerate(hits)}
    hits = list(hits)
    wanted: dict[str, tuple[object, Link]] = {}
    for parent in hits[:LINK_SOURCES]:
        links = as_links(parent.memory.id, parent.memory.links)
        links.sort(key=lambda l: (RELATION_ORDER.index(l.relation), -l.created_at.timestamp()))
        for link in links[:LINK_FANOUT]:
            other = link.other(parent.memory.id)
            score = parent.score * LINK_WEIGHT
            if other in found:
                # Found by its own scores too: the link lifts it if it ranked lower.
                i = found[other]
                if hits[i].score < score and hits[i].via is None:
                    hits[i] = dataclasses.replace(hits[i], score=score, via=link)
            elif other not in wanted:
                wanted[other] = (parent, link)
    if not wanted:
        return sorted(hits, key=lambda h: -h.score)
    # The search's own filter: a linked memory another search would not return stays out.
    [fetched] = yield [FetchQuery(dataclasses.replace(where, ids=tuple(wanted)), len(wanted), with_vectors=with_vectors)]
    for h in fetched:
        parent, link = wanted[h.point.id]
        # The hits' own type (SearchHit, which imports this module): built like its others.
        make = type(parent)
        hits.append(make(Memory.from_payload(h.point.id, h.point.payload), parent.score * LINK_WEIGHT,  # type: ignore[attr-defined]
                         vector=h.point.dense, via=link))
    return sorted(hits, key=lambda h: -h.score)[:limit]
