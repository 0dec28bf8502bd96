"""Properties of link, links, delete and restore under generated input (Hypothesis): any
id, relation, namespace, reason or flag either works or raises a typed error, and a failure
changes nothing. Bounded like tests/test_properties.py; the fake embedder keeps it cheap."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import LangGraphMemoryError, MemoryStore

EXAMPLES = int(os.environ.get("LANGGRAPH_MEMORY_PROPERTY_EXAMPLES", "40"))
PROPERTY = settings(
    max_examples=EXAMPLES, deadline=None, derandomize="LANGGRAPH_MEMORY_PROPERTY_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
NS = ("memories", "link-prop")
OTHER = ("memories", "link-prop-other")
ANY_CHAR = st.characters(codec=None, exclude_categories=())
TEXTS = st.one_of(st.text(ANY_CHAR, max_size=30), st.sampled_from(["", " ", "\x00", "tea \ud83d", "x" * 5000]))
JUNK = st.one_of(TEXTS, st.integers(), st.floats(allow_nan=True), st.none(), st.booleans(), st.just([1]))
NAMESPACES = st.one_of(st.just(NS), st.just(OTHER), st.tuples(TEXTS), TEXTS, st.none(), st.just(()))
RELATIONS = st.one_of(st.sampled_from(["related_to", "updates", "contradicts", "caused_by", "result_of", "part_of"]), JUNK)


@pytest.fixture(scope="module")
def seeded(fake_stores):
    ids = {}
    for name, store in fake_stores.items():
        mine = [store.remember(t, namespace=NS, dedup=False).memory.id for t in ("tea", "coffee", "cake")]
        theirs = store.remember("bees", namespace=OTHER, dedup=False).memory.id
        ids[name] = [*mine, theirs]
    return fake_stores, ids


@pytest.fixture(params=["edge", "qdrant"])
def case(seeded, request):
    stores, ids = seeded
    return stores[request.param], ids[request.param]


def _state(store: MemoryStore) -> list[tuple]:
    """Every record's id, status and links, for "a failure changed nothing"."""
    points = [*store.iter_points(namespace=NS), *store.iter_points(namespace=OTHER)]
    return sorted((p.id, p.payload.get("status"), repr(p.payload.get("links"))) for p in points)


def _ids(known: list[str]):
    return st.one_of(st.sampled_from(known), st.uuids().map(str), JUNK)


@PROPERTY
@given(data=st.data())
def test_link_and_links_succeed_or_raise_typed_errors_and_then_change_nothing(case, data):
    store, known = case
    ids = _ids(known)
    source, target, relation, ns = data.draw(ids), data.draw(ids), data.draw(RELATIONS), data.draw(NAMESPACES)
    before = _state(store)
    try:
        link = store.link(source, target, relation, namespace=ns)
    except LangGraphMemoryError:
        assert _state(store) == before
    else:
        assert link in store.links(source, namespace=ns) and link in store.links(target, namespace=ns)
    try:
        store.links(data.draw(ids), namespace=data.draw(NAMESPACES))
    except LangGraphMemoryError:
        pass


@PROPERTY
@given(data=st.data())
def test_delete_and_restore_succeed_or_raise_typed_errors_and_then_change_nothing(case, data):
    store, known = case
    ids = _ids(known)
    memory_id, ns = data.draw(ids), data.draw(NAMESPACES)
    reason = data.draw(st.one_of(st.none(), TEXTS, JUNK))
    hard = data.draw(st.one_of(st.just(False), JUNK))  # hard=True would empty the fixture
    before = _state(store)
    try:
        deleted = store.delete(memory_id, namespace=ns, reason=reason, hard=hard)
    except LangGraphMemoryError:
        assert _state(store) == before
        return
    if deleted is not None:
        assert store.get(memory_id, namespace=ns) is None
        assert store.restore(memory_id, namespace=ns).status == "live"
    assert _state(store) == before
    try:
        store.restore(data.draw(ids), namespace=data.draw(NAMESPACES), now=data.draw(st.one_of(st.none(), JUNK)))
    except LangGraphMemoryError:
        pass
