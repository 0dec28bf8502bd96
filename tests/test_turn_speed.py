"""The pre-hook turn's faster constructions give what the plain ones give (issue 29).

Each helper below replaced a plainer spelling on the turn's path to save microseconds; each
test holds it to that plainer spelling (kept here as the oracle), bit for bit, for any input.
No timing is asserted: speed is measured in ``benchmarks/``.
"""

from __future__ import annotations

import dataclasses
import math
import struct
from datetime import datetime, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.agent import injection
from langgraph_memory.agent._reasons import similar_reason
from langgraph_memory.agent.injection import Chosen, InjectionConfig
from langgraph_memory.store import _fusion, _hybrid, _reads
from langgraph_memory.store._fusion import Fused, weighted_fusion
from langgraph_memory.store._search import SearchHit, _fused_hit
from langgraph_memory.store.backends import DenseQuery, FetchQuery, Hit, SparseQuery, StoredPoint, Where
from langgraph_memory.store.backends._base import ExactHits
from langgraph_memory.store.records import Memory
from langgraph_memory.store.vitality import VITALITY_PRIOR_WEIGHT, ranking_prior

scores = st.floats(allow_nan=False, allow_infinity=False, width=64)
any_floats = st.floats(allow_nan=True, allow_infinity=True)
maybe = lambda s: st.one_of(st.none(), s)  # noqa: E731
ids = st.sampled_from([f"id-{i}" for i in range(8)])


def _bits(x: float | None) -> object:
    """A float as its bits (0.0 and -0.0, or two nans, are told apart), None as itself."""
    return None if x is None else struct.pack("<d", x)


MEMORY = Memory(id="00000000-0000-4000-8000-000000000001", content="c", namespace=("n",))


@settings(deadline=None)
@given(score=any_floats, dense=maybe(any_floats), sparse=maybe(any_floats),
       vector=maybe(st.lists(scores, max_size=3)), matched=st.lists(st.text(max_size=3), max_size=2).map(tuple))
def test_a_fused_hit_is_the_search_hit_its_init_builds(score, dense, sparse, vector, matched):
    f = Fused(Hit(StoredPoint("x", {}), 0.0), score, dense, sparse)
    point = StoredPoint(MEMORY.id, MEMORY.to_payload(), vector, memory=MEMORY if dense is None else None)
    fast, plain = _fused_hit(point, f, matched), SearchHit(MEMORY, score, dense, sparse, vector, matched)
    assert vars(fast) == vars(plain) and list(vars(fast)) == list(vars(plain))
    assert repr(fast) == repr(plain) and type(fast) is SearchHit
    if not any(isinstance(x, float) and math.isnan(x) for x in (score, dense, sparse)):
        assert fast == plain
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.score = 1.0  # type: ignore[misc]


@settings(deadline=None)
@given(channel=st.sampled_from(["identity", "important", "recent", "similar"]), score=maybe(scores), reason=st.text(max_size=5))
def test_a_chosen_is_the_one_its_init_builds(channel, score, reason):
    fast, plain = injection._chosen(MEMORY, channel, score, reason), Chosen(MEMORY, channel, score, reason)
    assert fast == plain and repr(fast) == repr(plain)
    assert list(vars(fast)) == list(vars(plain))
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.reason = "x"  # type: ignore[misc]


def _plain_fusion(dense, sparse, *, dense_weight, sparse_weight, boost=None, max_boost=1.0):
    """``weighted_fusion`` as it was written before (the oracle)."""
    fused: dict[str, Fused] = {}
    top_dense = max((h.score for h in dense), default=0.0)
    top_sparse = max((h.score for h in sparse), default=0.0)
    for hit in dense:
        entry = fused.setdefault(hit.point.id, Fused(hit, 0.0))
        entry.dense_score = hit.score
        if entry.hit.point.dense is None:
            entry.hit = hit
    for hit in sparse:
        entry = fused.setdefault(hit.point.id, Fused(hit, 0.0))
        entry.sparse_score = hit.score
    total = (dense_weight + sparse_weight) * max(max_boost, 1.0) or 1.0
    for entry in fused.values():
        score = 0.0
        if top_dense > 0 and entry.dense_score is not None:
            score += dense_weight * max(entry.dense_score, 0.0) / top_dense
        if top_sparse > 0 and entry.sparse_score is not None:
            score += sparse_weight * entry.sparse_score / top_sparse
        if boost is not None:
            score *= boost(entry.hit)
        entry.score = score / total
    return sorted(fused.values(), key=lambda f: f.score, reverse=True)


hits = st.lists(st.builds(lambda i, s, v: Hit(StoredPoint(i, {}, [1.0] if v else None), s), ids, scores, st.booleans()),
                max_size=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dense=hits, sparse=hits, weight=st.floats(0, 1), boosted=st.sets(ids), max_boost=st.floats(0, 20))
def test_weighted_fusion_gives_the_plain_sum_bit_for_bit(dense, sparse, weight, boosted, max_boost):
    def boost(hit: Hit) -> float:
        return 2.5 if hit.point.id in boosted else 1.0

    for b in (boost, None):
        fast = weighted_fusion(dense, sparse, dense_weight=weight, sparse_weight=1 - weight, boost=b, max_boost=max_boost)
        plain = _plain_fusion(dense, sparse, dense_weight=weight, sparse_weight=1 - weight, boost=b, max_boost=max_boost)
        assert [(f.hit, _bits(f.score), _bits(f.dense_score), _bits(f.sparse_score)) for f in fast] == [
            (f.hit, _bits(f.score), _bits(f.dense_score), _bits(f.sparse_score)) for f in plain]
        for limit in (0, 1, 5):  # the best ``limit`` only (a search's winners): the fusion's first ones
            cut = weighted_fusion(dense, sparse, dense_weight=weight, sparse_weight=1 - weight, boost=b,
                                  max_boost=max_boost, limit=limit)
            assert [(f.hit, _bits(f.score), _bits(f.dense_score), _bits(f.sparse_score)) for f in cut] == [
                (f.hit, _bits(f.score), _bits(f.dense_score), _bits(f.sparse_score)) for f in plain[:limit]]
    # Nothing boosted: no boost at all is the same fusion (what hybrid search passes then).
    ones = weighted_fusion(dense, sparse, dense_weight=weight, sparse_weight=1 - weight, boost=lambda h: 1.0)
    none = weighted_fusion(dense, sparse, dense_weight=weight, sparse_weight=1 - weight)
    assert [(f.hit, _bits(f.score)) for f in ones] == [(f.hit, _bits(f.score)) for f in none]


@settings(deadline=None)
@given(vitality=st.one_of(st.none(), any_floats, st.integers(-3, 3)), importance=st.one_of(st.none(), any_floats, st.integers(-3, 3)))
def test_the_ranking_prior_is_its_formula(vitality, importance):
    if vitality is None or not importance:
        expected = 1.0
    else:
        expected = 1.0 - VITALITY_PRIOR_WEIGHT + VITALITY_PRIOR_WEIGHT * min(1.0, max(0.0, vitality / importance))
    assert _bits(ranking_prior(vitality, importance)) == _bits(expected)


TIME_WORDS = [
    "in", "of", "during", "since", "by", "en", "depuis", "May", "march", "JUNE", "Sept", "sep.", "Dec", "août",
    "février", "2023", "1999", "3", "21st", "3rd", "ago", "days", "weeks", "a", "one", "il", "y", "une", "semaine",
    "mois", "ans", "today", "tonight", "this", "morning", "aujourd'hui", "aujourdhui", "ce", "matin", "soir",
    "yesterday", "hier", "week", "cette", "last", "past", "la", "semaine", "dernière", "derniere", "recently",
    "lately", "récemment", "recemment", "dernierement", "month", "le", "dernier", "year", "l'an", "l'année",
    "année", "TODAY", "Last", "caroline", "went", "to", "the", "lake", "_may", "may_", "mayday",
    # Whole phrases, each one of the patterns' (a sequence of random words rarely makes one).
    "la semaine derniere", "la semaine dernière", "last week", "past month", "this year", "3 weeks ago",
    "a year ago", "il y a 2 mois", "il y a une semaine", "in May 2023", "3 June, 2023", "June 3rd, 2023",
    "May, 2023", "21st of march", "march 21", "in march", "during 2022", "l'an dernier", "l'année dernière",
    "le mois dernier", "ce mois", "cette année", "ce matin", "this morning", "recemment", "dernierement",
]
texts = st.one_of(
    st.lists(st.sampled_from(TIME_WORDS), max_size=8).flatmap(
        lambda words: st.lists(st.sampled_from([" ", ", ", ". ", "  ", "'", "-", "\t", "\x1c"]), min_size=len(words),
                               max_size=len(words)).map(lambda seps: "".join(w + s for w, s in zip(words, seps)))),
    st.text(max_size=30),
)
NOW = datetime(2024, 5, 17, 12, 30, tzinfo=timezone.utc)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts)
def test_time_windows_tries_only_patterns_that_can_match_and_finds_the_same(text):
    assert _fusion.time_windows(text, now=NOW) == ([] if _fusion._names_no_time(text) else _fusion._scan(text, NOW, None))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(texts, st.lists(st.from_regex(r"[a-z]{1,5}", fullmatch=True), min_size=18, max_size=26,
                                      unique=True).map(" ".join)))
def test_the_query_term_set_is_the_set_of_the_query_terms(text):
    assert _fusion.query_term_set(text) == set(_fusion.query_terms(text))


subjects = st.one_of(
    st.lists(st.one_of(st.sampled_from(["ann", "bob", "lyon"]), st.integers(), st.lists(st.text(max_size=2), max_size=1)), max_size=3),
    st.sampled_from(["ann", "zoe"]), st.integers(), st.none(), st.tuples(st.just("ann")),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payloads=st.dictionaries(ids, subjects, max_size=6), terms=st.sets(st.sampled_from(["ann", "lyon", "kim"])))
def test_tagged_ids_reads_subjects_as_the_engine_s_keyword_match(payloads, terms):
    points = {i: StoredPoint(i, {} if s is None else {"subjects": s}) for i, s in payloads.items()}
    assert _hybrid._tagged_ids(points, terms) == {
        i for i, p in points.items() if _hybrid._tagged(p.payload.get("subjects"), terms)}


def _plain_above_floor(config, dense, sparse, matched) -> bool:
    dense_ok = dense is not None and dense >= config.similar_min_cosine
    bm25_ok = (config.similar_min_bm25 is not None and sparse is not None and sparse >= config.similar_min_bm25
               and (dense or 0.0) >= config.similar_bm25_min_cosine)
    return bool(dense_ok or bm25_ok or matched)


@settings(deadline=None)
@given(dense=maybe(any_floats), sparse=maybe(any_floats), matched=st.booleans(),
       floors=st.tuples(st.floats(-1, 1), maybe(st.floats(0, 5)), st.floats(-1, 1)))
def test_the_floor_built_once_a_turn_is_the_config_s_floor(dense, sparse, matched, floors):
    config = InjectionConfig(similar_min_cosine=floors[0], similar_min_bm25=floors[1], similar_bm25_min_cosine=floors[2])
    assert bool(injection._above_floor(config)(dense, sparse, matched)) == _plain_above_floor(config, dense, sparse, matched)


@settings(deadline=None)
@given(score=scores, dense=maybe(scores), sparse=maybe(scores))
def test_a_similar_reason_says_each_score_it_has(score, dense, sparse):
    parts = [f"score {score:.2f}"] + ([f"cosine {dense:.2f}"] if dense is not None else []) + (
        [f"bm25 {sparse:.2f}"] if sparse is not None else [])
    assert similar_reason(SearchHit(MEMORY, score, dense, sparse)) == f"similar ({', '.join(parts)})"


WHERE = Where(namespace="n")


@settings(deadline=None)
@given(limit=st.integers(0, 40), payload=st.one_of(st.booleans(), st.just(("subjects",))))
def test_queries_built_with_their_slack_are_what_ranked_would_ask(limit, payload):
    dense, sparse = DenseQuery([0.5], WHERE, limit, payload=payload), SparseQuery([1], [0.5], WHERE, limit, payload=payload)
    assert _asked(_reads.dense_query([0.5], WHERE, limit, payload)) == _asked(dense)
    assert _asked(_reads.sparse_query([1], [0.5], WHERE, limit, payload)) == _asked(sparse)


def _asked(query):
    return next(_reads.ranked([query]))


answers = st.lists(st.tuples(ids, st.sampled_from([0.1, 0.5, 0.5, 0.9])), max_size=30)


@settings(deadline=None)
@given(first=answers, second=answers, limit=st.integers(1, 6), exact=st.booleans())
def test_ranked_settles_a_prebuilt_query_as_a_plain_one(first, second, limit, exact):
    """The same answers (ties at the cut, a deeper second round) give the same rounds and hits."""
    def drive(query):
        plan, asked, rounds = _reads.ranked([query, FetchQuery(WHERE, 3)]), [], iter([first, second, second, second])
        try:
            queries = next(plan)
            while True:
                asked.append(queries)
                made = [(ExactHits if exact else list)(Hit(StoredPoint(i, {}), s) for i, s in next(rounds)[: q.limit])
                        for q in queries]
                queries = plan.send(made)
        except StopIteration as done:
            return asked, done.value

    for plain, built in ((DenseQuery([0.5], WHERE, limit, payload=False), _reads.dense_query([0.5], WHERE, limit, False)),
                         (SparseQuery([1], [0.5], WHERE, limit, payload=False), _reads.sparse_query([1], [0.5], WHERE, limit, False))):
        assert drive(built) == drive(plain)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 40), spare=st.integers(0, 9), seed=st.integers(0, 2**32 - 1))
def test_dot_is_the_product_the_dedup_compared_with(rows, spare, seed):
    """``VectorRows.too_close`` reads its cosines with ``.dot``: the same BLAS call, so the
    same float32 bits, as the ``@`` it was written with, on a growing matrix's live rows."""
    import numpy as np

    rng = np.random.default_rng(seed)
    matrix = np.empty((rows + spare, 384), dtype=np.float32)
    matrix[:rows] = rng.normal(size=(rows, 384)).astype(np.float32)
    vector = rng.normal(size=384).astype(np.float32)
    assert (matrix[:rows].dot(vector)).tobytes() == (matrix[:rows] @ vector).tobytes()


@settings(deadline=None)
@given(limit=st.integers(0, 40), payload=st.one_of(st.booleans(), st.just(("subjects",))),
       order_by=st.sampled_from([None, "importance"]), with_vectors=st.booleans())
def test_queries_built_without_their_init_are_the_plain_ones(limit, payload, order_by, with_vectors):
    """``dense_query``, ``sparse_query`` and ``fetch_query`` set their fields directly: the
    same fields in the same order, equal and printed alike, still frozen."""
    pairs = [
        (_reads.dense_query([0.5], WHERE, limit, payload),
         DenseQuery([0.5], WHERE, limit + 1, payload=payload, exact_limit=limit)),
        (_reads.sparse_query([1], [0.5], WHERE, limit, payload),
         SparseQuery([1], [0.5], WHERE, limit + max(limit, _reads.TIE_SLACK), payload=payload, exact_limit=limit)),
        (_reads.fetch_query(WHERE, limit, order_by, with_vectors=with_vectors, payload=payload),
         FetchQuery(WHERE, limit, order_by, with_vectors=with_vectors, payload=payload)),
    ]
    for fast, plain in pairs:
        assert type(fast) is type(plain) and fast == plain and repr(fast) == repr(plain)
        assert list(vars(fast).items()) == list(vars(plain).items())
        with pytest.raises(dataclasses.FrozenInstanceError):
            fast.limit = 1  # type: ignore[misc]
    fetch = pairs[2][0]
    assert hash(fetch) == hash(pairs[2][1])


@settings(deadline=None)
@given(channels=st.lists(st.sampled_from(["identity", "important", "recent", "similar"]), unique=True),
       found=st.lists(st.integers(0, 3), min_size=3, max_size=3))
def test_one_metadata_plan_reads_what_each_channel_s_plan_read(channels, found):
    """The metadata channels' reads as one plan ask the fetches their own plans asked, in one
    round, and give each channel the memories its own plan gave."""
    from langgraph_memory.agent._plans import turn_filters

    now = datetime(2024, 5, 1, tzinfo=timezone.utc)
    filters = turn_filters(("u", "speed"), InjectionConfig(channels=tuple(channels)))
    plan = filters.metadata_plan(now)
    queries = filters.metadata_queries(now)
    if plan is None:
        assert not queries and not set(channels) - {"similar"}
        return
    asked = next(plan)
    assert asked == list(queries.values())
    memories = [dataclasses.replace(MEMORY, id=f"00000000-0000-4000-8000-00000000000{i}") for i in range(4)]
    answers = [[Hit(StoredPoint(m.id, m.to_payload(), memory=m if k % 2 else None), 0.0) for m in memories[:n]]
               for k, n in zip(range(len(asked)), found)]
    with pytest.raises(StopIteration) as done:
        plan.send(answers)
    alone = {}
    for (channel, query), hits in zip(queries.items(), answers):
        own = _reads.memories_plan(query.where, query.limit, query.order_by)
        assert next(own) == [query]
        with pytest.raises(StopIteration) as own_done:
            own.send([hits])
        alone[channel] = own_done.value.value
    assert done.value.value == alone and list(done.value.value) == [c for c in channels if c != "similar"]
