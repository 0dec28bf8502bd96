"""``remember(..., updates=<id>)``: the caller (the model) says which memory a new one replaces."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import InvalidMemoryError, LangGraphMemoryError

NS = ("memories", "u-updates")
OTHER = ("memories", "someone-else")


def live(store, namespace=NS) -> set[str]:
    return {p.payload["content"] for p in store.iter_points(namespace=namespace, include_superseded=False)}


def total(store) -> int:
    return store.count(include_superseded=True)


@pytest.mark.integration
def test_updates_supersedes_the_named_memory_even_when_the_policy_would_keep_both(store):
    old = store.remember("Decision: use PostgreSQL for the database layer", namespace=NS, memory_type="decision")
    # Far from the old text and without any cue: the policy alone keeps both.
    verdict = store.dedup.decide("The team settled on MySQL", old.memory.content, 0.5)
    assert verdict.decision == "different"
    new = store.remember("The team settled on MySQL", namespace=NS, memory_type="decision", updates=old.memory.id)
    assert (new.action, new.replaced.id, new.verdict.decision) == ("updated", old.memory.id, "correction")
    assert live(store) == {"The team settled on MySQL"}
    history = store.history(new.memory.id, namespace=NS)
    assert [(m.content, m.status) for m in history] == [
        ("Decision: use PostgreSQL for the database layer", "superseded"), ("The team settled on MySQL", "live")]
    assert history[0].superseded_by == new.memory.id and new.memory.supersedes == (old.memory.id,)
    # A correction is a new value: it is known from now, not from when the old one was.
    assert new.memory.created_at > old.memory.created_at


@pytest.mark.integration
def test_a_named_refinement_keeps_when_the_fact_was_first_learned(store):
    old = store.remember("Mickael s'est cassé l'épaule", namespace=NS)
    new = store.remember("Mickael s'est cassé l'épaule le 10 janvier 2026", namespace=NS, updates=old.memory.id)
    assert (new.action, new.verdict.decision) == ("updated", "refinement")
    assert new.memory.created_at == old.memory.created_at


@pytest.mark.parametrize("where", ["unknown", "other namespace", "superseded", "other kind", "malformed"])
def test_a_bad_target_is_a_typed_error_and_stores_nothing(fake_stores, backend, where):
    store = fake_stores[backend]
    ns = ("memories", f"u-bad-{where}-{uuid.uuid4().hex[:6]}")
    mine = store.remember("Alice works at Acme", namespace=ns)
    theirs = store.remember("Bob works at Acme", namespace=OTHER)
    goal = store.remember("I would like to learn chess", namespace=ns, kind="goal", category="understanding")
    target = {
        "unknown": str(uuid.uuid4()),
        "other namespace": theirs.memory.id,
        "superseded": mine.memory.id,
        "other kind": goal.memory.id,
        "malformed": "not-an-id",
    }[where]
    if where == "superseded":
        store.remember("Alice works at Initech", namespace=ns, updates=mine.memory.id)
    before = total(store)
    with pytest.raises(InvalidMemoryError) as caught:
        store.remember("Alice works at Globex", namespace=ns, updates=target)
    assert caught.value.field == "updates"
    assert total(store) == before
    assert live(store, OTHER) >= {"Bob works at Acme"}  # another user's memory is untouched


def test_async_twin_and_remember_many_take_updates(fake_stores, backend):
    store = fake_stores[backend]
    ns = ("memories", f"u-many-{uuid.uuid4().hex[:6]}")
    a = store.remember("Hosting: Heroku", namespace=ns)
    b = store.remember("Editor: vim", namespace=ns)
    new = asyncio.run(store.aremember("Hosting: Fly.io", namespace=ns, updates=a.memory.id))
    assert new.action == "updated" and new.replaced.id == a.memory.id
    results = store.remember_many(
        [{"content": "Editor: helix", "updates": b.memory.id}, "Language: Rust"], namespace=ns, dedup=False)
    assert [r.action for r in results] == ["updated", "inserted"]
    assert live(store, ns) == {"Hosting: Fly.io", "Editor: helix", "Language: Rust"}


def test_remember_many_checks_every_target_before_writing(fake_stores, backend):
    store = fake_stores[backend]
    ns = ("memories", f"u-many-bad-{uuid.uuid4().hex[:6]}")
    a = store.remember("Hosting: Heroku", namespace=ns)
    before = total(store)
    for items, field in [
        (["Editor: helix", {"content": "Hosting: Fly.io", "updates": str(uuid.uuid4())}], "items[1].updates"),
        ([{"content": "Hosting: Fly.io", "updates": a.memory.id},
          {"content": "Hosting: Render", "updates": a.memory.id}], "items[1].updates"),
    ]:
        with pytest.raises(InvalidMemoryError) as caught:
            store.remember_many(items, namespace=ns)
        assert caught.value.field == field
    assert total(store) == before


EXAMPLES = int(os.environ.get("LANGGRAPH_MEMORY_PROPERTY_EXAMPLES", "40"))
PROPERTY = settings(
    max_examples=EXAMPLES, deadline=None, derandomize="LANGGRAPH_MEMORY_PROPERTY_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ANY_CHAR = st.characters(codec=None, exclude_categories=())
ID_LIKE = st.one_of(
    st.uuids().map(str), st.uuids().map(lambda u: str(u).upper()), st.uuids().map(lambda u: u.hex),
    st.text(ANY_CHAR, max_size=40), st.integers(), st.none(), st.just(""), st.just(" " * 3),
    st.sampled_from(["live", "other-namespace", "superseded", "goal"]),
)


@PROPERTY
@given(target=ID_LIKE, many=st.booleans())
def test_any_updates_value_works_or_raises_the_typed_error_and_then_stores_nothing(fake_stores, backend, target, many):
    store = fake_stores[backend]
    ns = ("memories", f"prop-{uuid.uuid4().hex[:8]}")
    fact = store.remember("Carol lives in Oslo", namespace=ns)
    retired = store.remember("Carol's car is red", namespace=ns)
    store.remember("Carol's car is blue", namespace=ns, updates=retired.memory.id)
    goal = store.remember("I would like to paint", namespace=ns, kind="goal", category="capability_request")
    elsewhere = store.remember("Carol lives in Oslo", namespace=OTHER)
    named = {"live": fact.memory.id, "other-namespace": elsewhere.memory.id,
             "superseded": retired.memory.id, "goal": goal.memory.id}
    target = named.get(target, target) if isinstance(target, str) else target
    before_all, before_live = total(store), live(store, ns)
    try:
        if many:
            [result] = store.remember_many([{"content": "Carol lives in Bergen", "updates": target}], namespace=ns)
        else:
            result = store.remember("Carol lives in Bergen", namespace=ns, updates=target)
    except LangGraphMemoryError as exc:
        assert isinstance(exc, InvalidMemoryError) and exc.field.endswith("updates"), exc
        assert total(store) == before_all and live(store, ns) == before_live
        return
    if target is None:
        assert result.action in ("inserted", "updated", "duplicate")
    else:
        # Only the live fact of this namespace can be updated.
        assert str(uuid.UUID(str(target))) == fact.memory.id
        assert result.action == "updated" and result.replaced.id == fact.memory.id
        assert live(store, ns) == {"Carol's car is blue", "Carol lives in Bergen", "I would like to paint"}
    assert live(store, OTHER) >= {"Carol lives in Oslo"}
