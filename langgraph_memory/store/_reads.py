"""Reads as plans, so that several reads share the engine's round trips.

A plan is a generator: it yields a list of engine queries, receives their results, and
yields again or returns its answer. :func:`run_plans` steps many plans together and sends
each round's queries as one :meth:`Backend.query_batch`: the pre-hook's four channels and
the first round of a hybrid search cost a single call into the engine.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, Generator, Sequence, TypeVar

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.backends import Backend, DenseQuery, FetchQuery, Hit, Query, SparseQuery, StoredPoint, Where
from langgraph_memory.store.backends._base import ExactHits
from langgraph_memory.store.records import Memory, Namespace, namespace_key, utcnow, validate_namespace

T = TypeVar("T")

Plan = Generator[list[Query], list[list[Hit]], T]


@dataclass(frozen=True)
class QueryVectors:
    """A query embedded once (dense + sparse), reusable by every search of a turn."""

    text: str
    dense: list[float]
    sparse: tuple[list[int], list[float]]

    def checked(self, dim: int) -> "QueryVectors":
        """These vectors once checked as :meth:`MemoryStore.embed_query`'s own are (a caller
        may build them by hand): ``dim`` finite floats and a valid sparse vector
        (``store/_sparse_checks.py``), else :class:`InvalidMemoryError` on ``query``. Vectors
        made by ``embed_query`` or checked before are not checked again (a turn passes its
        vectors to each of its scopes' selections)."""
        if self.__dict__.get("_for_dim") == dim:
            return self
        from langgraph_memory.store._checks import MAX_QUERY_CHARS, check_text
        from langgraph_memory.store._sparse_checks import dense_floats, sparse_pair

        # The text is searched for subjects and dates, and embedded again for an alias expansion.
        check_text("query", self.text, MAX_QUERY_CHARS, required=False)
        floats = dense_floats(self.dense, dim)
        if floats is None:
            raise InvalidMemoryError("query", f"QueryVectors needs its text and {dim} finite floats (embed_query's)")
        sparse = self.sparse  # read as a tuple: a subclass's ``__iter__``/``__len__`` may lie
        pair, problem = sparse_pair(tuple.__getitem__(sparse, 0), tuple.__getitem__(sparse, 1)) if isinstance(
            sparse, tuple) and tuple.__len__(sparse) == 2 else (None, "expected (indices, values)")
        if pair is None:
            raise InvalidMemoryError("query", f"QueryVectors' sparse vector is invalid: {problem}")
        return QueryVectors(self.text, floats, pair)._marked_for(dim)

    def _marked_for(self, dim: int) -> "QueryVectors":
        """Marked as the store's own, for a store of ``dim`` dimensions (see :meth:`checked`).
        Private: a public mark would let a caller skip the check."""
        object.__setattr__(self, "_for_dim", dim)  # not a field: equality and repr stay the vectors'
        return self


_KEYS: dict[tuple[str, ...], str] = {}
"""Keys of namespaces already validated: a pre-hook turn builds four filters on one."""


def checked_key(namespace: Namespace) -> str:
    """``namespace``'s key, once it is valid (``validate_namespace``); a tuple of plain
    strings checked once is not checked again."""
    if type(namespace) is tuple and all(type(p) is str for p in namespace):
        key = _KEYS.get(namespace)
        if key is None:
            key = namespace_key(validate_namespace(namespace))
            if len(_KEYS) >= 4096:
                _KEYS.clear()
            _KEYS[namespace] = key
        return key
    return namespace_key(validate_namespace(namespace))


def evolve(obj: T, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)`` for the read path's frozen dataclasses
    (queries and filters: no ``__post_init__``, no ``init=False`` field, no slots,
    ``tests/test_read_plans_memo.py`` checks it): the fields copied and ``changes`` set
    without running ``__init__`` again. ``replace`` costs ~8 µs on a query or a filter
    and a pre-hook turn made a dozen; this ~1 µs."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__, **changes)
    return new


def live_where(namespace: Namespace, **conditions: Any) -> Where:
    """A filter on the live (not superseded, not expired) memories of ``namespace``."""
    return Where(namespace=checked_key(namespace), alive_at=utcnow().timestamp(), **conditions)


def run_plans(backend: Backend, plans: Sequence[Plan[Any]], *, cached: bool = False) -> list[Any]:
    """Each plan's answer, in order; one ``query_batch`` per round across all plans
    (``cached``: see :meth:`Backend.query_batch`)."""
    answers: list[Any] = [None] * len(plans)
    active: dict[int, list[Query]] = {}
    for i, plan in enumerate(plans):
        try:
            active[i] = next(plan)
        except StopIteration as done:
            answers[i] = done.value
    while active:
        batch = [q for queries in active.values() for q in queries]
        results = backend.query_batch(batch, cached=cached) if batch else []
        following: dict[int, list[Query]] = {}
        offset = 0
        for i, queries in active.items():
            mine, offset = results[offset : offset + len(queries)], offset + len(queries)
            try:
                following[i] = plans[i].send(mine)
            except StopIteration as done:
                answers[i] = done.value
        active = following
    return answers


# A BM25 list asks the engine for as many hits again as its limit (at least this many
# more): equal BM25 scores are common, and on LoCoMo the tie group at the cut of a list of
# 20 ran past 40 in 7 of 4,929 lists (past 30 in 204). A dense list asks for one more hit
# only, enough to see a tie at its cut: equal cosines need bitwise-equal vectors (the same
# text stored twice), and every extra hit costs its conversion (~5 us).
TIE_SLACK = 8


def ranked(queries: Sequence[Query]) -> Plan[list[list[Hit]]]:
    """The hits of ``queries``, each nearest-neighbour list best first and, among equal
    scores, by ascending id; one engine round in the common case.

    The engine returns equal scores in an order that changes from run to run, so which
    of a tie group made the cut at ``limit``, and in what order, changed between two runs
    of the same search (BM25 scores are often equal: memories of the same length sharing
    one word with the query). Each such query asks for more than its limit; when the last
    hit fetched still scores as the hit at the cut, the group may go on past it, and that
    query alone is asked again, twice as deep, in a further round (rare).

    A query built by :func:`dense_query` or :func:`sparse_query` comes with its slack
    already (its ``exact_limit`` is the limit asked for): it is sent as it is.
    """
    nearest: list[bool] = []
    asked: list[Query] = []
    wanted: list[int] = []
    for q in queries:  # one pass: a turn asks ~10 queries in two rounds
        near = isinstance(q, _NEAREST)
        if near and q.exact_limit is None:
            q = evolve(q, limit=q.limit + _slack(isinstance(q, SparseQuery), q.limit), exact_limit=q.limit)
        nearest.append(near)
        asked.append(q)
        wanted.append(q.exact_limit if near else q.limit)
    results = list((yield asked))
    # A snapshot's answer (ExactHits) is already cut and ordered so: nothing to settle.
    if all(type(hits) is ExactHits or not near for near, hits in zip(nearest, results)):
        return results  # every list settled (a snapshot's turn): as they came
    open_ = [near and type(hits) is not ExactHits for near, hits in zip(nearest, results)]
    while deeper := [
        i for i in range(len(queries)) if open_[i] and _tie_goes_on(results[i], wanted[i], asked[i].limit)
    ]:
        for i in deeper:
            asked[i] = evolve(asked[i], limit=2 * asked[i].limit)
        for i, hits in zip(deeper, (yield [asked[i] for i in deeper])):
            results[i] = hits
            open_[i] = type(hits) is not ExactHits
    return [
        sorted(hits, key=lambda h: (-h.score, h.point.id))[: wanted[i]] if open_[i] else hits
        for i, hits in enumerate(results)
    ]


_NEAREST = (DenseQuery, SparseQuery)
"""The nearest-neighbour queries: ordered by score, so a tie may straddle their cut."""


def _slack(sparse: bool, limit: int) -> int:
    """How many hits more than ``limit`` a nearest-neighbour query (BM25 if ``sparse``) asks for."""
    return max(limit, TIE_SLACK) if sparse else 1


def dense_query(vector: list[float], where: Where, limit: int, payload: bool | tuple[str, ...]) -> DenseQuery:
    """``DenseQuery(vector, where, limit, payload=payload)`` as :func:`ranked` sends it (with
    its slack), built once: a turn's search sends ~10 nearest-neighbour queries, and copying
    each (:func:`evolve`) cost ~0.8 µs. Its fields are set without the frozen ``__init__``
    (one ``object.__setattr__`` a field: ~1.0 µs a query against ~0.3; ``DenseQuery`` has no
    ``__post_init__`` nor slots: ``tests/test_turn_speed.py`` holds it to the plain one)."""
    query = _new(DenseQuery)
    fields = query.__dict__
    fields["vector"], fields["where"], fields["limit"] = vector, where, limit + _slack(False, limit)
    fields["with_vectors"], fields["payload"], fields["min_score"], fields["exact_limit"] = False, payload, None, limit
    return query


def sparse_query(indices: list[int], values: list[float], where: Where, limit: int,
                 payload: bool | tuple[str, ...]) -> SparseQuery:
    """As :func:`dense_query`, for ``SparseQuery(indices, values, where, limit, payload=payload)``."""
    query = _new(SparseQuery)
    fields = query.__dict__
    fields["indices"], fields["values"], fields["where"] = indices, values, where
    fields["limit"], fields["with_vectors"], fields["payload"] = limit + _slack(True, limit), False, payload
    fields["rescore"], fields["exact_limit"] = None, limit
    return query


def fetch_query(where: Where, limit: int, order_by: str | None = None, *, with_vectors: bool = False,
                payload: bool | tuple[str, ...] = True) -> FetchQuery:
    """``FetchQuery(where, limit, order_by, with_vectors=with_vectors, payload=payload)``, its
    fields set as :func:`dense_query` sets a query's (~0.7 µs against ~0.25; a turn builds ~5)."""
    query = _new(FetchQuery)
    fields = query.__dict__
    fields["where"], fields["limit"], fields["order_by"], fields["descending"] = where, limit, order_by, True
    fields["with_vectors"], fields["payload"] = with_vectors, payload
    return query


_new = object.__new__


def _tie_goes_on(hits: list[Hit], limit: int, fetched: int) -> bool:
    """Whether the engine may hold more hits scoring as the one at the cut than it gave."""
    return len(hits) >= fetched > limit and hits[-1].score == min(h.score for h in hits[:limit])


def memories_plan(where: Where, limit: int, order_by: str | None = None) -> Plan[list[Memory]]:
    """Memories matching ``where``, first by ``order_by`` (descending)."""
    [hits] = yield [fetch_query(where, limit, order_by)]
    return memories_of(hits)


def memories_of(hits: list[Hit]) -> list[Memory]:
    """The memories of a fetch's hits (a snapshot's, already built)."""
    return [h.point.memory or Memory.from_payload(h.point.id, h.point.payload) for h in hits]


def points_by_id(
    backend: Backend, ids: Sequence[str], namespace: Namespace, *, live_only: bool, with_vectors: bool = False
) -> list[StoredPoint]:
    """The points among ``ids`` that belong to ``namespace`` (live ones only if asked); another
    namespace's ids are dropped as if unknown."""
    key = namespace_key(validate_namespace(namespace))
    valid = [check_memory_id(i) for i in ids]
    now = utcnow().timestamp()
    out = []
    for p in backend.retrieve(valid, with_vectors=with_vectors):
        if p.payload.get("namespace") != key:
            continue  # another user's memory: as if it did not exist
        if live_only:
            expires = p.payload.get("expires_at")
            if p.payload.get("status") != "live" or (expires is not None and expires <= now):
                continue
        out.append(p)
    return out


def history_chain(backend: Backend, memory_id: str, namespace: Namespace) -> list[Memory]:
    """Every version of the fact ``memory_id`` belongs to, oldest first."""
    seen: dict[str, Memory] = {}
    frontier = [memory_id]
    while frontier:
        points = points_by_id(backend, [i for i in frontier if i not in seen], namespace, live_only=False)
        frontier = []
        for p in points:
            m = Memory.from_payload(p.id, p.payload)
            seen[m.id] = m
            frontier.extend(i for i in (*m.supersedes, m.superseded_by) if i and i not in seen)
    return sorted(seen.values(), key=lambda m: (m.updated_at, m.created_at))


def check_ids(memory_ids: Any) -> list[str]:
    """A list of memory ids (a single string is refused: it is not a list of ids)."""
    if isinstance(memory_ids, str) or not isinstance(memory_ids, Sequence):
        raise InvalidMemoryError("memory_ids", "expected a list of memory ids")
    return [check_memory_id(i) for i in memory_ids]


def check_memory_id(memory_id: Any) -> str:
    if not isinstance(memory_id, (str, uuid.UUID)):
        raise InvalidMemoryError("memory_id", f"expected an id string, got {type(memory_id).__name__}")
    try:
        return str(uuid.UUID(str(memory_id)))
    except (ValueError, TypeError, AttributeError):
        raise InvalidMemoryError("memory_id", f"{memory_id!r} is not a memory id"[:200]) from None
