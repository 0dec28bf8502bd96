"""The pre-hook's filters, kept per (namespace, settings) and stamped with each turn's time
(``agent/_plans.py``), and the copy the read path makes of its frozen queries (``evolve``).

What is kept must be what the store's own plans would build at that time, for any
settings; settings that the plans refuse are refused every time, and never kept.
"""

from __future__ import annotations

import dataclasses
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import InvalidMemoryError
from langgraph_memory.agent import _plans
from langgraph_memory.agent.injection import InjectionConfig, VectorCache, select_memories
from langgraph_memory.store import _durations, _reads, records
from langgraph_memory.store._reads import evolve
from langgraph_memory.store._search import identity_plan, important_plan, recent_plan, search_filters
from langgraph_memory.store.backends import DenseQuery, FetchQuery, SparseQuery, StoredPoint, Where

NOW = datetime(2024, 5, 17, 12, 30, 15, 123456, tzinfo=timezone.utc)

names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=0, max_size=12)
namespaces = st.one_of(
    st.tuples(names, names),
    st.tuples(names),
    st.lists(names, min_size=1, max_size=2),  # not a tuple: refused
    st.tuples(names, st.integers()),  # a part that is not a string: refused
)
limits = st.one_of(st.integers(-2, 12), st.booleans(), st.floats(0, 5), st.none())
configs = st.builds(
    InjectionConfig,
    channels=st.lists(st.sampled_from(["identity", "important", "similar", "recent"]), unique=True).map(tuple),
    identity_limit=limits,
    important_limit=limits,
    recent_limit=limits,
    important_min=st.one_of(st.floats(-1, 2), st.just(float("nan")), st.integers(-1, 2), st.booleans()),
    recent_window=st.one_of(st.timedeltas(timedelta(minutes=1), timedelta(days=30)), st.just("6h"),
                            st.just(timedelta(0)), st.just(NOW - timedelta(days=3))),
    channel_scope=st.booleans(),
    channel=st.one_of(st.none(), names, st.just("x" * 500)),
)


@pytest.fixture
def frozen_time(monkeypatch):
    """Every clock the plans read stops at ``NOW``."""
    monkeypatch.setattr(_reads, "utcnow", lambda: NOW)
    monkeypatch.setattr(records, "utcnow", lambda: NOW)
    monkeypatch.setattr(_durations, "utcnow", lambda: NOW)  # parse_since's clock


def _fresh(namespace, config) -> dict[str, FetchQuery]:
    """The metadata channels' reads as the store's plans build them (what the pre-hook
    did each turn before)."""
    room = config.channel if config.channel_scope else None
    plans = {}
    for channel in config.channels:
        if channel == "identity" and config.identity_limit:
            plans[channel] = identity_plan(namespace, config.identity_limit, room)
        elif channel == "important" and config.important_limit:
            plans[channel] = important_plan(namespace, config.important_min, config.important_limit, room)
        elif channel == "recent" and config.recent_limit:
            plans[channel] = recent_plan(namespace, config.recent_window, config.recent_limit, channel=room)
    return {channel: next(plan)[0] for channel, plan in plans.items()}


def _outcome(build):
    try:
        return build()
    except InvalidMemoryError as exc:
        return ("error", exc.field)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(namespace=namespaces, config=configs, other=configs)
def test_kept_filters_are_the_plans_own_at_that_time(frozen_time, namespace, config, other):
    _plans._KEPT.clear()
    for settings_ in (config, other, config):  # a pair seen again comes from the memo
        def kept():
            return _plans.turn_filters(namespace, settings_).metadata_queries(NOW)

        before = len(_plans._KEPT)
        expected = _outcome(lambda: _fresh(namespace, settings_))
        assert _outcome(kept) == expected
        if isinstance(expected, tuple):
            assert len(_plans._KEPT) == before  # refused: nothing kept
            continue
        room = settings_.channel if settings_.channel_scope else None
        similar = _outcome(lambda: _plans.turn_filters(namespace, settings_).similar_where(NOW))
        assert similar == _outcome(lambda: search_filters(namespace, channel=room))


def test_equal_settings_of_another_type_are_checked_again():
    _plans._KEPT.clear()
    _plans.turn_filters(("u", "1"), InjectionConfig(identity_limit=1, important_min=1))
    # True == 1 and 1.0 == 1, but a limit must be an int and a floor a number, not a flag.
    with pytest.raises(InvalidMemoryError):
        _plans.turn_filters(("u", "1"), InjectionConfig(identity_limit=True, important_min=1))
    with pytest.raises(InvalidMemoryError):
        _plans.turn_filters(("u", "1"), InjectionConfig(identity_limit=1.0, important_min=1))
    with pytest.raises(InvalidMemoryError):
        _plans.turn_filters(("u", "1"), InjectionConfig(identity_limit=1, important_min=True))


def test_each_turn_stamps_its_own_time_and_other_settings_or_namespaces_other_filters():
    _plans._KEPT.clear()
    config = InjectionConfig()
    filters = _plans.turn_filters(("u", "1"), config)
    assert _plans.turn_filters(("u", "1"), InjectionConfig()) is filters  # equal settings
    later = NOW + timedelta(hours=1)
    first, second = filters.metadata_queries(NOW), filters.metadata_queries(later)
    recent_now, recent_later = first["recent"].where, second["recent"].where
    assert recent_now.alive_at == NOW.timestamp() and recent_later.alive_at == later.timestamp()
    assert recent_now.updated_since == (NOW - config.recent_window).timestamp()
    assert recent_later.updated_since == (later - config.recent_window).timestamp()
    assert filters.similar_where(later).alive_at == later.timestamp()

    stricter = _plans.turn_filters(("u", "1"), config.replace(important_min=0.9))
    assert stricter.metadata_queries(NOW)["important"].where.min_importance == 0.9
    assert filters.metadata_queries(NOW)["important"].where.min_importance == 0.8
    scoped = _plans.turn_filters(("u", "1"), config.replace(channel_scope=True, channel="room-a"))
    assert scoped.similar_where(NOW).channel_scope == "room-a"
    assert filters.similar_where(NOW).channel_scope is None
    elsewhere = _plans.turn_filters(("u", "2"), config)
    assert elsewhere.similar_where(NOW).namespace != filters.similar_where(NOW).namespace


def test_the_memo_is_bounded(monkeypatch):
    _plans._KEPT.clear()
    monkeypatch.setattr(_plans, "MAX_KEPT", 4)
    for i in range(10):
        _plans.turn_filters(("u", str(i)), InjectionConfig())
        assert len(_plans._KEPT) <= 4


def test_threads_selecting_at_once_choose_what_one_thread_chooses(store):
    ns = [("memories", f"user-{i}") for i in range(3)]
    for i, namespace in enumerate(ns):
        store.remember(f"User {i} is a nurse in Lyon", namespace=namespace, memory_type="identity")
        store.remember(f"User {i} plays the cello on weekends", namespace=namespace)
        store.remember(f"User {i} is allergic to penicillin", namespace=namespace, importance=0.95)
    query = store.embed_query("does the user play an instrument?")
    configs = [InjectionConfig(), InjectionConfig(important_min=0.99), InjectionConfig(channels=("similar",))]
    cases = [(n, c) for n in ns for c in configs]

    def chosen(namespace, config):
        injection = select_memories(store, namespace=namespace, query=query, config=config, cache=VectorCache())
        return [(c.memory.id, c.channel) for c in injection.chosen]

    _plans._KEPT.clear()
    expected = {i: chosen(*case) for i, case in enumerate(cases)}
    _plans._KEPT.clear()
    start = threading.Barrier(4)

    def work(offset: int) -> list[tuple[int, list]]:
        order = [(k + offset) % len(cases) for k in range(len(cases) * 2)]  # each thread its own order
        start.wait()  # the four threads begin together, on an empty memo
        return [(i, chosen(*cases[i])) for i in order]

    with ThreadPoolExecutor(4) as pool:
        results = [pair for done in pool.map(work, range(4)) for pair in done]  # raises what a thread raised
    assert len(results) == 4 * 2 * len(cases)
    assert all(result == expected[i] for i, result in results)
    assert all(expected.values())  # every case chose something


queries = [
    DenseQuery([0.1, 0.2], Where(namespace="a"), 5, payload=False),
    SparseQuery([1, 2], [0.5, 0.25], Where(namespace="a", any_of=(Where(status=None),)), 7, exact_limit=3),
    FetchQuery(Where(namespace="a", ids=("x",)), 1, "importance"),
    Where(namespace="a", subjects=("tom",), alive_at=1.5),
    StoredPoint("x", {"content": "c"}, [0.1]),
]


@pytest.mark.parametrize("obj", queries, ids=lambda o: type(o).__name__)
@given(limit=st.integers(0, 50), ns=st.one_of(st.none(), names))
def test_evolve_is_dataclasses_replace(obj, limit, ns):
    fields = {f.name for f in dataclasses.fields(obj)}
    # What evolve relies on: plain instance dicts, no __post_init__ to run again.
    assert not hasattr(type(obj), "__post_init__") and not hasattr(type(obj), "__slots__")
    before = dataclasses.replace(obj)
    changes = {"limit": limit} if "limit" in fields else {"namespace": ns} if "namespace" in fields else {"id": str(limit)}
    copy = evolve(obj, **changes)
    assert copy == dataclasses.replace(obj, **changes) and type(copy) is type(obj)
    assert obj == before  # the original is left as it was
    if isinstance(obj, Where):
        assert hash(copy) == hash(dataclasses.replace(obj, **changes))


# -- the boosts read in the payloads, as the engine's filter reads them ------------------------

subject_values = st.one_of(
    st.lists(st.sampled_from(["ann", "bob", "cat", "ann bob"]), max_size=3),
    st.sampled_from(["ann", "dan"]),  # a plain string
    st.none(),
)
created = st.one_of(st.sampled_from([0.0, 10.0, 10, 20.0, 30.5]), st.none(), st.just("10"))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    points=st.lists(st.tuples(subject_values, created), min_size=1, max_size=12),
    terms=st.sets(st.sampled_from(["ann", "bob", "dan", "ann bob"]), min_size=1),
    spans=st.lists(st.tuples(st.sampled_from([0.0, 5.0, 10.0, 20.0]), st.sampled_from([10.0, 20.0, 30.5])), max_size=2),
)
def test_tagged_and_dated_read_payloads_as_the_engine_filters_them(store, points, terms, spans):
    import uuid

    from langgraph_memory.store._hybrid import _dated, _tagged

    backend = store._backend
    namespace = f"boosts-{uuid.uuid4()}"
    dim = len(store.embed_query("x").dense)
    stored = []
    for subjects, created_at in points:
        payload = {"namespace": namespace, "status": "live", "content": "x"}
        if subjects is not None:
            payload["subjects"] = subjects
        if created_at is not None:
            payload["created_at"] = created_at
        stored.append(StoredPoint(str(uuid.uuid4()), payload, [1.0 / dim ** 0.5] * dim))
    backend.upsert(stored)
    ids = tuple(p.id for p in stored)
    base = Where(namespace=namespace, status=None, ids=ids)
    [tagged] = backend.query_batch([FetchQuery(evolve(base, subjects=tuple(sorted(terms))), len(ids), payload=False)])
    assert {h.point.id for h in tagged} == {p.id for p in stored if _tagged(p.payload.get("subjects"), terms)}
    if spans:
        timed = tuple(Where(status=None, created_since=a, created_until=b) for a, b in spans)
        [dated] = backend.query_batch([FetchQuery(evolve(base, any_of=timed), len(ids), payload=False)])
        assert {h.point.id for h in dated} == {p.id for p in stored if _dated(p.payload.get("created_at"), spans)}


def test_query_terms_come_words_first_then_pairs_then_triples_each_once():
    from langgraph_memory.store._fusion import query_terms

    assert query_terms("A b, a B c") == ("a", "b", "c", "a b", "b a", "b c", "a b a", "b a b", "a b c")
    assert query_terms("A b, a B c", max_terms=4) == ("a", "b", "c", "a b")
    assert query_terms("") == () and query_terms("one") == ("one",)
