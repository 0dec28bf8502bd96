"""Hybrid search: how one query becomes a few rounds of engine queries, and how their lists fuse.

Fusion and boosts run here rather than in the engine because callers need each signal's
own score: the pre-hook applies a floor per signal and explains why a memory was chosen.
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Callable, TypeVar, Union

from langgraph_memory.store.backends import Hit, Query, StoredPoint, Where
from langgraph_memory.store._fusion import (
    SUBJECT_BOOST,
    TIME_BOOST,
    Fused,
    query_term_set,
    time_windows,
    weighted_fusion,
)
from langgraph_memory.store._reads import Plan, QueryVectors, dense_query, evolve, fetch_query, ranked, sparse_query
from langgraph_memory.store.records import Memory, utcnow
from langgraph_memory.store.vitality import ranking_prior

if TYPE_CHECKING:
    from langchain_qdrant.sparse_embeddings import SparseEmbeddings

# Candidates fetched per list for a hybrid search: at least this many. Deeper pools did
# not find more on LoCoMo (the subject and time lists reach deep candidates) and cost
# payload parsing.
HYBRID_MIN_POOL = 20
# Identity memories consulted for aliases of the subjects a query names.
ALIAS_SOURCES = 10
# Candidates beyond the limit up to which their payloads are read with their missing
# scores (:func:`_complete`): a round saved against ~3-6 us a point read and not kept.
READ_AHEAD = 10
SNAPSHOT_READ_AHEAD = 1_000
"""Candidates up to which their payloads are read with their scores when a snapshot answers
(its points in memory: ~0.1 µs a point, against a round of ~25 µs)."""


T = TypeVar("T")

VectorsWanted = Union[bool, Callable[[Fused, bool], bool]]
"""Which winners come with their dense vector: all, none, or those a predicate accepts,
given the winner (its scores) and whether it matched a named subject or time."""


def hybrid_plan(
    sparse_embeddings: SparseEmbeddings, vectors: QueryVectors, where: Where, limit: int,
    with_vectors: VectorsWanted, make: Callable[[StoredPoint, Fused, tuple[str, ...]], T],
    keep: Keep | None = None,
) -> Plan[list[T | Left]]:
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
    rounds without aliases, three with (one fewer when a namespace snapshot answered every
    list: it scores the candidates itself), one more when winners the caller wants vectors
    for lack them (and rarely one more, to settle a BM25 tie at a cut:
    :func:`~langgraph_memory.store._reads.ranked`).

    The winners come best first, each as ``make(point, fused, matched)`` (its point read
    whole, its fusion with the vitality prior applied to its score, and what the query
    named that it matches: ``subject:<tag>``, ``time``); what ``make`` builds has that
    ``score``. With ``keep``, a winner it refuses (given its dense and BM25 scores and
    whether it matched anything) comes as a :class:`Left` in its place, unbuilt: the
    pre-hook drops such a winner (most of a turn's) unless a link brings it back.
    """
    pool = max(limit, HYBRID_MIN_POOL)
    # The filtered lists only add what the plain ones missed: a shallower pool does.
    extra = max(limit, HYBRID_MIN_POOL // 2)
    queries: list[Query] = [
        dense_query(vectors.dense, where, pool, payload=False),
        sparse_query(*vectors.sparse, where, pool, payload=False),
    ]
    # A subjects filter from the caller already restricts the candidates.
    terms = query_term_set(vectors.text) if where.subjects is None else set()
    windows = time_windows(vectors.text, now=utcnow()) if not where.any_of else []
    if terms:
        term_list = tuple(terms)
        tagged = evolve(where, subjects=term_list)
        # Aliases hold whatever else the search filters on (kind, time, importance).
        identities = evolve(_IDENTITIES, namespace=where.namespace, alive_at=where.alive_at, subjects=term_list)
        queries += [
            dense_query(vectors.dense, tagged, extra, payload=False),
            sparse_query(*vectors.sparse, tagged, extra, payload=False),
            dense_query(vectors.dense, identities, ALIAS_SOURCES, payload=("subjects",)),
        ]
    spans = [(a.timestamp(), b.timestamp()) for a, b in windows]
    if spans:
        timed = evolve(where, any_of=_timed(spans))
        queries += [
            dense_query(vectors.dense, timed, extra, payload=False),
            sparse_query(*vectors.sparse, timed, extra, payload=False),
        ]
    results = yield from ranked(queries)
    lists = results
    dense, sparse = list(results[0]), list(results[1])
    bm25_query = vectors.sparse
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
            bm25_query = (indices, values)
            alias_where = evolve(where, subjects=tuple(sorted(terms)))
            more = yield from ranked([
                sparse_query(indices, values, where, pool, payload=False),
                dense_query(vectors.dense, alias_where, extra, payload=False),
                sparse_query(indices, values, alias_where, extra, payload=False),
            ])
            # The expanded BM25 lists replace the plain ones: their scores include the names.
            sparse = [*more[0], *more[2], *(results[-1] if spans else [])]
            dense += more[1]
            lists = [*results, *more]

    # Lists a namespace snapshot answered: its candidates' payloads are in memory, read with
    # their scores whatever their number (a round saved in ~1 turn of 4 at 100 memories).
    in_memory = getattr(results[0], "in_memory", False) and getattr(results[1], "in_memory", False)
    # Every list from one snapshot: it scores the candidates itself, with no round.
    source = getattr(results[0], "snapshot", None)
    if source is not None and not all(getattr(hits, "snapshot", None) is source for hits in lists):
        source = None
    dense, sparse, points, tagged_ids, timely_ids = yield from _complete(
        vectors.dense, bm25_query, where, dense, sparse, terms, spans,
        SNAPSHOT_READ_AHEAD if in_memory else limit + READ_AHEAD, with_vectors is True, source)

    def boost(hit: Hit) -> float:
        factor = 1.0 + SUBJECT_BOOST if hit.point.id in tagged_ids else 1.0
        return factor * (1.0 + TIME_BOOST) if hit.point.id in timely_ids else factor

    most = (1.0 + SUBJECT_BOOST if terms else 1.0) * (1.0 + TIME_BOOST if spans else 1.0)
    # Nothing tagged or dated: every factor would be 1.0, and x * 1.0 is x.
    fused = weighted_fusion(
        dense, sparse, boost=boost if tagged_ids or timely_ids else None, max_boost=most, limit=limit)
    if not fused:
        return []
    # Reading and converting vectors costs more than the rest of a winner's fetch: only the
    # winners the caller wants them for bring theirs (none when it has them all already, as
    # the pre-hook's cache mostly does). Winners not read yet come whole.
    wants = with_vectors if callable(with_vectors) else lambda f, matched: with_vectors
    need: list[str] = []
    rest: list[str] = []
    if points is None:
        for f in fused:
            i = f.hit.point.id
            (need if wants(f, i in tagged_ids or i in timely_ids) else rest).append(i)
    elif with_vectors is not True:
        need = [i for f in fused if (i := f.hit.point.id) in points and wants(f, i in tagged_ids or i in timely_ids)]
    if need or rest:
        # The caller's filter again: a memory superseded or expired since the first round stays out.
        fetched = yield [fetch_query(evolve(where, ids=tuple(ids)), len(ids), with_vectors=vectors_too)
                         for ids, vectors_too in ((need, True), (rest, False)) if ids]
        again = {h.point.id: h.point for hits in fetched for h in hits}
        if points is None:
            points = again
        else:
            for i in need:
                points[i] = again.get(i)  # type: ignore[assignment]  # gone since: dropped below
    out: list[T] = []
    append, prior, read = out.append, ranking_prior, points.get
    for f in fused:
        point = read(f.hit.point.id)
        if point is None:
            continue  # deleted, superseded or expired since the first round
        payload, i = point.payload, point.id
        if i in tagged_ids:
            why = tuple([f"subject:{n}" for n in sorted(terms.intersection(payload.get("subjects") or ()))])
            if i in timely_ids:
                why += ("time",)
        else:
            why = ("time",) if i in timely_ids else ()
        # Vitality, a mild prior among the winners: the one place ranking reads it.
        f.score *= prior(payload.get("vitality"), payload.get("importance"))
        if keep is None or keep(f.dense_score, f.sparse_score, bool(why)):
            append(make(point, f, why))
        else:
            append(Left(point, f, why))
    out.sort(key=_SCORE, reverse=True)  # stable: equal scores keep the fusion's order
    return out


_SCORE = attrgetter("score")

Keep = Callable[[Union[float, None], Union[float, None], bool], bool]
"""Whether a winner (its dense and BM25 scores, whether it matched a named subject or
time) is of use to the caller (the pre-hook's floors)."""


class Left:
    """A winner ``keep`` refused, in its place among the winners: its point, fusion (its
    final ``score``) and matches, built by the caller's ``make`` only if still wanted (a
    link from one of the best hits may bring it back)."""

    __slots__ = ("score", "point", "fused", "matched")

    def __init__(self, point: StoredPoint, fused: Fused, matched: tuple[str, ...]) -> None:
        self.score, self.point, self.fused, self.matched = fused.score, point, fused, matched

    @property
    def memory(self) -> Any:
        """The winner's memory (whether it has links to follow)."""
        return self.point.memory or Memory.from_payload(self.point.id, self.point.payload)

    def built(self, make: Callable[[StoredPoint, Fused, tuple[str, ...]], T]) -> T:
        """What ``make`` would have built in the winners' loop."""
        return make(self.point, self.fused, self.matched)


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


def _tagged_ids(points: dict[str, StoredPoint], terms: set[str]) -> set[str]:
    """The ids of ``points`` whose payload is :func:`_tagged` with one of ``terms``."""
    out = set()
    disjoint = terms.isdisjoint
    for i, p in points.items():
        subjects = p.payload.get("subjects")
        if type(subjects) is list:  # most payloads: a list of strings, one C call
            try:
                if not disjoint(subjects):
                    out.add(i)
                continue
            except TypeError:
                pass
        if _tagged(subjects, terms):
            out.add(i)
    return out


def _dated(created_at: object, spans: list[tuple[float, float]]) -> bool:
    """Whether a payload's ``created_at`` (epoch seconds) is within one of ``spans``,
    bounds included (the engine's range)."""
    if isinstance(created_at, bool) or not isinstance(created_at, (int, float)):
        return False
    return any(a <= created_at <= b for a, b in spans)


def _complete(
    dense_vector: list[float], bm25_query: tuple[list[int], list[float]], where: Where,
    dense: list[Hit], sparse: list[Hit], terms: set[str], spans: list[tuple[float, float]], whole_up_to: int,
    with_vectors: bool, source: Any = None,
) -> Plan[tuple[list[Hit], list[Hit], dict[str, StoredPoint] | None, set[str], set[str]]]:
    """Score every candidate on both signals: a memory found by one list only would
    count 0 for the other, sinking it in the fusion and failing the pre-hook's floor
    on that signal. In the same round, which candidates are tagged with a named subject
    and which were created within a named time (their boosts). One round, restricted
    to the candidates' ids.

    With at most ``whole_up_to`` candidates, that round also reads their payloads (with
    the caller's filter again: a memory superseded or expired since the first round stays
    out; with their vectors if ``with_vectors``), and the boosts are read in them: they are
    the winners' payloads, and the round that would read those is spared. With more, a
    payload read for every candidate costs more than that round (a ``Memory`` built per
    point on a namespace snapshot): the engine's filters say which are tagged or dated,
    and the winners are read after the fusion (the points are then ``None``).

    ``source``: the snapshot that answered every candidate list, which answers that round
    itself when it can (:func:`~.backends._snapshot_batch.candidates_scored`): no round."""
    dense_ids = {h.point.id for h in dense}
    sparse_ids = {h.point.id for h in sparse}
    need_dense = tuple(sparse_ids - dense_ids)
    need_sparse = tuple(dense_ids - sparse_ids)
    everyone = tuple(dense_ids | sparse_ids)
    if not everyone:
        return dense, sparse, {}, set(), set()
    whole = len(everyone) <= whole_up_to
    found = None
    if whole and source is not None:
        # Imported here: numpy stays unloaded for commands that never search (the CLI's).
        from langgraph_memory.store.backends._snapshot_batch import candidates_scored

        found = candidates_scored(source, dense_vector, bm25_query, everyone, need_dense, need_sparse, with_vectors)
        if found is not None:
            found = [found[0], *([found[1]] if need_dense else []), *([found[2]] if need_sparse else [])]
    if found is None:
        found = yield from ranked(_scoring_round(dense_vector, bm25_query, where, terms, spans, everyone,
                                                 need_dense, need_sparse, whole, with_vectors))
    points = {h.point.id: h.point for h in found.pop(0)} if whole else None
    if need_dense:
        dense = dense + found.pop(0)
    if need_sparse:
        sparse = sparse + found.pop(0)
    if points is not None:
        # Read in the payloads as the engine's filter reads them.
        tagged = _tagged_ids(points, terms) if terms else set()
        timely = {i for i, p in points.items() if _dated(p.payload.get("created_at"), spans)} if spans else set()
    else:
        tagged = {h.point.id for h in found.pop(0)} if terms else set()
        timely = {h.point.id for h in found.pop(0)} if spans else set()
    return dense, sparse, points, tagged, timely


def _scoring_round(
    dense_vector: list[float], bm25_query: tuple[list[int], list[float]], where: Where, terms: set[str],
    spans: list[tuple[float, float]], everyone: tuple[str, ...], need_dense: tuple[str, ...],
    need_sparse: tuple[str, ...], whole: bool, with_vectors: bool,
) -> list[Query]:
    """The queries of :func:`_complete`'s round, in the order it reads their answers."""
    queries: list[Query] = []
    if whole:
        queries.append(fetch_query(evolve(where, ids=everyone), len(everyone), with_vectors=with_vectors))
    if need_dense:
        queries.append(dense_query(dense_vector, evolve(where, ids=need_dense), len(need_dense), payload=False))
    if need_sparse:
        queries.append(sparse_query(*bm25_query, evolve(where, ids=need_sparse), len(need_sparse), payload=False))
    if not whole and terms:
        queries.append(fetch_query(evolve(
            _NO_STATUS, namespace=where.namespace, ids=everyone, subjects=tuple(sorted(terms))), len(everyone), payload=False))
    if not whole and spans:
        queries.append(fetch_query(evolve(
            _NO_STATUS, namespace=where.namespace, ids=everyone, any_of=_timed(spans)), len(everyone), payload=False))
    return queries


_IDENTITIES = Where(memory_types=("identity",))
"""The filter the aliases' sources start from (live identity memories)."""
_NO_STATUS = Where(status=None)
"""The filter the boosts' fetches start from: whether a candidate is tagged or dated,
whatever its status."""


def _timed(spans: list[tuple[float, float]]) -> tuple[Where, ...]:
    """Memories created within one of ``spans`` (epoch seconds), whatever their status."""
    return tuple(Where(status=None, created_since=a, created_until=b) for a, b in spans)
