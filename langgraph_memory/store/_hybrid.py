"""Hybrid search: how one query becomes a few rounds of engine queries, and how their lists fuse.

Fusion and boosts run here rather than in the engine because callers need each signal's
own score: the pre-hook applies a floor per signal and explains why a memory was chosen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Union

from langgraph_memory.store.backends import DenseQuery, FetchQuery, Hit, Query, SparseQuery, StoredPoint, Where
from langgraph_memory.store._fusion import (
    SUBJECT_BOOST,
    TIME_BOOST,
    Fused,
    query_terms,
    time_windows,
    weighted_fusion,
)
from langgraph_memory.store._reads import Plan, QueryVectors, evolve, ranked
from langgraph_memory.store.records import utcnow
from langgraph_memory.store.vitality import ranking_prior

if TYPE_CHECKING:
    from langchain_qdrant.sparse_embeddings import SparseEmbeddings

# Candidates fetched per list for a hybrid search: at least this many. Deeper pools did
# not find more on LoCoMo (the subject and time lists reach deep candidates) and cost
# payload parsing.
HYBRID_MIN_POOL = 20
# Identity memories consulted for aliases of the subjects a query names.
ALIAS_SOURCES = 10


VectorsWanted = Union[bool, Callable[[Fused, bool], bool]]
"""Which winners come with their dense vector: all, none, or those a predicate accepts,
given the winner (its scores) and whether it matched a named subject or time."""


def hybrid_plan(
    sparse_embeddings: SparseEmbeddings, vectors: QueryVectors, where: Where, limit: int,
    with_vectors: VectorsWanted,
) -> Plan[list[tuple[Fused, tuple[str, ...]]]]:
    """Dense and BM25 fused by weight, favouring memories tagged with a subject the
    query names (or an alias of one) and memories from a time it names.

    Besides the two plain lists, the same queries run restricted to memories tagged
    with a named subject and to the named times: the best of those may rank too low
    to be candidates otherwise. Identity memories tagged with a named subject give
    that subject's aliases (their other subjects); aliases found, a second round
    searches them too, with the names added to the BM25 query. Then every candidate
    gets both scores, and which candidates match a named subject or time
    (:func:`_complete`), in a round that also reads the candidates' payloads. Candidate
    lists carry no payload (reading payloads is most of the engine's cost). No LLM; two
    rounds without aliases, three with, one more when winners the caller wants vectors
    for lack them (and rarely one more, to settle a BM25 tie at a cut:
    :func:`~langgraph_memory.store._reads.ranked`).
    """
    pool = max(limit, HYBRID_MIN_POOL)
    # The filtered lists only add what the plain ones missed: a shallower pool does.
    extra = max(limit, HYBRID_MIN_POOL // 2)
    queries: list[Query] = [
        DenseQuery(vectors.dense, where, pool, payload=False),
        SparseQuery(*vectors.sparse, where, pool, payload=False),
    ]
    # A subjects filter from the caller already restricts the candidates.
    terms = set(query_terms(vectors.text)) if where.subjects is None else set()
    windows = time_windows(vectors.text, now=utcnow()) if not where.any_of else []
    if terms:
        tagged = evolve(where, subjects=tuple(terms))
        # Aliases hold whatever else the search filters on (kind, time, importance).
        identities = Where(
            namespace=where.namespace, alive_at=where.alive_at, memory_types=("identity",),
            subjects=tuple(terms),
        )
        queries += [
            DenseQuery(vectors.dense, tagged, extra, payload=False),
            SparseQuery(*vectors.sparse, tagged, extra, payload=False),
            DenseQuery(vectors.dense, identities, ALIAS_SOURCES, payload=("subjects",)),
        ]
    spans = [(a.timestamp(), b.timestamp()) for a, b in windows]
    if spans:
        timed = evolve(where, any_of=tuple(Where(status=None, created_since=a, created_until=b) for a, b in spans))
        queries += [
            DenseQuery(vectors.dense, timed, extra, payload=False),
            SparseQuery(*vectors.sparse, timed, extra, payload=False),
        ]
    results = yield from ranked(queries)
    dense, sparse = list(results[0]), list(results[1])
    sparse_query = vectors.sparse
    if spans:
        dense += results[-2]
        sparse += results[-1]
    if terms:
        dense += results[2]
        sparse += results[3]
        aliases = {
            s for h in results[4] for s in h.point.payload.get("subjects") or () if s not in terms
        }
        if aliases:
            terms |= aliases
            names = " ".join(sorted(aliases))
            expanded = sparse_embeddings.embed_query(f"{vectors.text} {names}")
            indices, values = list(expanded.indices), list(expanded.values)
            sparse_query = (indices, values)
            alias_where = evolve(where, subjects=tuple(sorted(terms)))
            more = yield from ranked([
                SparseQuery(indices, values, where, pool, payload=False),
                DenseQuery(vectors.dense, alias_where, extra, payload=False),
                SparseQuery(indices, values, alias_where, extra, payload=False),
            ])
            # The expanded BM25 lists replace the plain ones: their scores include the names.
            sparse = [*more[0], *more[2], *(results[-1] if spans else [])]
            dense += more[1]

    dense, sparse, points = yield from _complete(
        vectors.dense, sparse_query, where, dense, sparse, with_vectors is True)
    # Which candidates are tagged with a named subject, and which were created within a
    # named time (their boosts), read in their payloads as the engine's filter reads them.
    tagged_ids = {i for i, p in points.items() if _tagged(p.payload.get("subjects"), terms)} if terms else set()
    timely_ids = {i for i, p in points.items() if _dated(p.payload.get("created_at"), spans)} if spans else set()

    def boost(hit: Hit) -> float:
        factor = 1.0 + SUBJECT_BOOST if hit.point.id in tagged_ids else 1.0
        return factor * (1.0 + TIME_BOOST) if hit.point.id in timely_ids else factor

    most = (1.0 + SUBJECT_BOOST if terms else 1.0) * (1.0 + TIME_BOOST if spans else 1.0)
    fused = weighted_fusion(dense, sparse, boost=boost, max_boost=most)[:limit]
    if not fused:
        return []
    if callable(with_vectors):
        # Reading and converting vectors costs more than the rest of a winner's fetch: only
        # the winners the caller wants them for bring theirs, in one more round (none when
        # the caller has them all already, as the pre-hook's cache mostly does).
        need = [i for f in fused if (i := f.hit.point.id) in points and with_vectors(f, i in tagged_ids or i in timely_ids)]
        if need:
            [fetched] = yield [FetchQuery(evolve(where, ids=tuple(need)), len(need), with_vectors=True)]
            again = {h.point.id: h.point for h in fetched}
            for i in need:
                points[i] = again.get(i)  # type: ignore[assignment]  # gone since: dropped below
    out: list[tuple[Fused, tuple[str, ...]]] = []
    for f in fused:
        point = points.get(f.hit.point.id)
        if point is None:
            continue  # deleted, superseded or expired since the first round
        f.hit = Hit(point, f.hit.score)
        payload = point.payload
        if point.id in tagged_ids:
            named = sorted(terms.intersection(payload.get("subjects") or ()))
            out.append((f, (*(f"subject:{n}" for n in named), *(("time",) if point.id in timely_ids else ()))))
        else:
            out.append((f, ("time",) if point.id in timely_ids else ()))
        # Vitality, a mild prior among the winners: the one place ranking reads it.
        f.score *= ranking_prior(payload.get("vitality"), payload.get("importance"))
    out.sort(key=lambda pair: pair[0].score, reverse=True)
    return out


def _tagged(subjects: object, terms: set[str]) -> bool:
    """Whether a payload's ``subjects`` holds one of ``terms`` (the engine's keyword match:
    a list holding one, or the string itself)."""
    if isinstance(subjects, str):
        return subjects in terms
    if not isinstance(subjects, list):
        return False
    try:
        return not terms.isdisjoint(subjects)
    except TypeError:  # an unhashable item: never a keyword
        return any(isinstance(s, str) and s in terms for s in subjects)


def _dated(created_at: object, spans: list[tuple[float, float]]) -> bool:
    """Whether a payload's ``created_at`` (epoch seconds) is within one of ``spans``,
    bounds included (the engine's range)."""
    if isinstance(created_at, bool) or not isinstance(created_at, (int, float)):
        return False
    return any(a <= created_at <= b for a, b in spans)


def _complete(
    dense_vector: list[float], sparse_query: tuple[list[int], list[float]], where: Where,
    dense: list[Hit], sparse: list[Hit], with_vectors: bool,
) -> Plan[tuple[list[Hit], list[Hit], dict[str, StoredPoint]]]:
    """Score every candidate on both signals: a memory found by one list only would
    count 0 for the other, sinking it in the fusion and failing the pre-hook's floor
    on that signal. In the same round, the payloads of the candidates still matching
    ``where`` (the caller's filter again: a memory superseded or expired since the first
    round stays out), with their vectors if ``with_vectors``: the winners' payloads,
    and what the boosts read. Read here, not after the fusion, they spare a turn a
    round: a few more payloads cost less than one more engine call. One round,
    restricted to the candidates' ids."""
    dense_ids = {h.point.id for h in dense}
    sparse_ids = {h.point.id for h in sparse}
    need_dense = tuple(sparse_ids - dense_ids)
    need_sparse = tuple(dense_ids - sparse_ids)
    everyone = tuple(dense_ids | sparse_ids)
    if not everyone:
        return dense, sparse, {}
    queries: list[Query] = [FetchQuery(evolve(where, ids=everyone), len(everyone), with_vectors=with_vectors)]
    if need_dense:
        queries.append(DenseQuery(dense_vector, evolve(where, ids=need_dense), len(need_dense), payload=False))
    if need_sparse:
        queries.append(SparseQuery(*sparse_query, evolve(where, ids=need_sparse), len(need_sparse), payload=False))
    found = yield from ranked(queries)
    points = {h.point.id: h.point for h in found[0]}
    if need_dense:
        dense = dense + found[1]
    if need_sparse:
        sparse = sparse + found[-1]
    return dense, sparse, points
