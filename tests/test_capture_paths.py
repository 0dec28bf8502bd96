"""Capture on every path (create_agent middleware, reference graph, create_react_agent
hooks), on by default, keyed per object; events that name the memory; hints that count
the user's own mentions, persist in the store and ignore junk subjects."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from langchain_core.messages import HumanMessage

from langgraph_memory import CaptureConfig, MemoryEvents, MemoryStore
from langgraph_memory.agent.events import is_concept
from langgraph_memory.background._objects import objects_of
from langgraph_memory.background._timeframe import resolve_timeframe, valid_timeframe
from langgraph_memory.background.preferences import PreferenceCapture
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.testing import ScriptedChatModel
from tests.agent_harness import KINDS, build_agent, config

USER = "mickael"
NS = ("memories", USER)


@pytest.fixture
def edge_store(tmp_path, embeddings):
    store = MemoryStore.open(tmp_path / "store", embeddings=embeddings)
    yield store
    store.close()


def _captured(store: MemoryStore) -> list:
    return [m for m in store.recent(namespace=NS, since=None) if m.source == "preference-capture"]


def _say(agent, store, *texts: str, thread: str = "t1") -> None:
    for text in texts:
        agent.invoke({"messages": [HumanMessage(text)]}, config(USER, thread))
        store.flush()


def test_create_agent_with_defaults_keeps_two_allergies_and_replaces_a_changed_taste(edge_store) -> None:
    """The issue's acceptance: MemoryMiddleware(store) with defaults, background worker on."""
    from langchain.agents import create_agent

    from langgraph_memory import MemoryMiddleware

    model = ScriptedChatModel(responses=[]).say(*["Noted."] * 4)
    agent = create_agent(model, tools=[], middleware=[MemoryMiddleware(edge_store)])
    _say(agent, edge_store, "I'm allergic to peanuts", "I can't eat gluten")
    constraints = [m for m in _captured(edge_store) if m.metadata["capture"]["type"] == "constraint"]
    assert sorted(m.metadata["capture"]["objects"][0] for m in constraints) == ["gluten", "peanut"]

    _say(agent, edge_store, "I prefer tea over coffee", "actually I now prefer coffee over tea")
    [preference] = [m for m in _captured(edge_store) if m.metadata["capture"]["type"] == "preference"]
    assert preference.content.endswith("actually I now prefer coffee over tea")
    old, new = edge_store.history(preference.id, namespace=NS)
    assert (old.status, new.status) == ("superseded", "live") and "I prefer tea over coffee" in old.content
    assert len([m for m in _captured(edge_store) if m.metadata["capture"]["type"] == "constraint"]) == 2


@pytest.mark.parametrize("kind", KINDS)
def test_every_path_captures_by_default_and_can_opt_out(kind, tmp_path, embeddings) -> None:
    store = MemoryStore.open(tmp_path / kind, embeddings=embeddings)
    try:
        model = ScriptedChatModel(responses=[]).say(*["Ok."] * 4)
        agent = build_agent(kind, store, model)  # background_stats=False: capture runs at once
        agent.invoke({"messages": [HumanMessage("I love red wine")]}, config(USER, "a"))
        agent.invoke({"messages": [HumanMessage("I prefer tea in the morning")]}, config(USER, "a"))
        store.flush()
        tastes = sorted(m.metadata["capture"]["objects"][0] for m in _captured(store))
        assert tastes == ["red wine", "tea"]  # two tastes about two things: both stay
        assert {m.metadata["capture"]["type"] for m in _captured(store)} == {"preference"}

        quiet = build_agent(kind, store, model, capture=False)
        quiet.invoke({"messages": [HumanMessage("I love jazz")]}, config("someone-else", "b"))
        store.flush()
        assert store.count(namespace=("memories", "someone-else")) == 0
    finally:
        store.close()


def test_events_name_the_memory_and_what_it_replaced(edge_store) -> None:
    seen: list[dict] = []
    capture = CaptureConfig(events=MemoryEvents(seen.append))
    model = ScriptedChatModel(responses=[]).say(*["Ok."] * 3)
    agent = build_agent("graph", edge_store, model, capture=capture)
    agent.invoke({"messages": [HumanMessage("I prefer tea to coffee")]}, config(USER))
    agent.invoke({"messages": [HumanMessage("Actually I now prefer coffee")]}, config(USER))
    first, second = [e for e in seen if e["event"] == "preference_captured"]
    assert first["supersedes"] is None and second["supersedes"] == first["memory_id"]
    history = edge_store.history(second["memory_id"], namespace=NS)
    assert [(m.id, m.status) for m in history] == [(first["memory_id"], "superseded"), (second["memory_id"], "live")]
    # The stream hears them at the user's next turn (the worker made them after the node).
    streamed = [c for mode, c in agent.stream({"messages": [HumanMessage("thanks")]}, config(USER),
                                               stream_mode=["custom", "values"]) if mode == "custom"]
    assert [e["memory_id"] for e in streamed if e["event"] == "preference_captured"] == [second["memory_id"]]


def test_hints_count_the_users_own_mentions_and_survive_a_restart(edge_store) -> None:
    clock = [1_000_000.0]
    lina = edge_store.remember("Lina is my sister, she lives in Porto", namespace=NS, subjects=["lina", "i'll"]).memory
    events = MemoryEvents(hint_threshold=3, hint_spacing=0, clock=lambda: clock[0])
    # Injection alone teaches the concept and counts nothing.
    for _ in range(5):
        assert events.count_turn(edge_store, NS, "what's the weather", [lina]) == []
    assert events.count_turn(edge_store, NS, "Lina called me", []) == []
    clock[0] += 60
    assert events.count_turn(edge_store, NS, "I'll see Lina on Sunday", []) == []
    restarted = MemoryEvents(hint_threshold=3, hint_spacing=0, clock=lambda: clock[0])  # counters come from the store
    clock[0] += 60
    [hint] = restarted.count_turn(edge_store, NS, "lina again, i'll call her", [])
    assert hint["subject"] == "lina" and hint["memory_id"] == lina.id and hint["mentions"] == 3
    clock[0] += 60
    assert restarted.count_turn(edge_store, NS, "Lina Lina Lina", []) == []  # resting


def test_hints_are_spaced_per_user(edge_store) -> None:
    memories = [edge_store.remember(f"Memory about {w}", namespace=NS, subjects=[w]).memory
                for w in ("porto", "guitar", "marathon")]
    events = MemoryEvents(hint_threshold=1, hint_spacing=5)
    due = [events.count_turn(edge_store, NS, text, memories) for text in
           ["porto", "guitar", "marathon", "guitar", "marathon", "guitar", "marathon"]]
    assert [len(d) for d in due] == [1, 0, 0, 0, 0, 1, 0]


def test_junk_subjects_are_not_concepts() -> None:
    assert not any(is_concept(s) for s in ("i'll", "qu'on se", "a", "the", "le la", "", "x" * 80, "42", "thanks", "what",
                                       "all", "everything", "tous", "autre chose"))
    assert all(is_concept(s) for s in ("lina", "red wine", "thé vert", "peanut"))


def test_capture_config_rejects_bad_values(edge_store) -> None:
    for bad in ({"preferences": "yes"}, {"hints": 1}, {"events": print}, {"classifier": 3},
                {"event_confidence": 2.0}, {"event_confidence": True}):
        with pytest.raises(InvalidMemoryError):
            CaptureConfig(**bad)
    for bad in ({"hint_threshold": 0}, {"hint_spacing": -1}, {"hint_window": timedelta(0)},
                {"hint_cooldown": timedelta(seconds=-1)}, {"callback": "print"}):
        with pytest.raises(InvalidMemoryError):
            MemoryEvents(**bad)
    with pytest.raises(InvalidMemoryError):
        build_agent("graph", edge_store, ScriptedChatModel(responses=[]), capture="yes")
    assert edge_store.count(namespace=NS) == 0


NOW = datetime(2026, 11, 23, tzinfo=timezone.utc)


@pytest.mark.parametrize("text, expected", [
    ("I want to visit Japan in June", "2027-06-01/2027-06-30"),
    ("On part en Grèce en août", "2027-08-01/2027-08-31"),
    ("Je compte repeindre la cuisine avant mars", "2026-11-23/2027-02-28"),
    ("We're moving to Lyon next spring", "2027-03-01/2027-05-31"),
    ("J'aimerais courir au printemps prochain", "2027-03-01/2027-05-31"),
    ("I need to renew my passport by June", "2026-11-23/2027-06-30"),
    ("Let's start after the summer", "2027-09-01/.."),
    ("à partir de janvier je cours", "2027-01-01/.."),
    ("in November", "2026-11-01/2026-11-30"),
    ("next November", "2027-11-01/2027-11-30"),
    ("en juin 2028", "2028-06-01/2028-06-30"),
    ("I may go to the gym", "ongoing"),
])
def test_months_seasons_and_bounds(text, expected) -> None:
    assert resolve_timeframe(text, NOW) == expected


def test_winter_spans_the_new_year() -> None:
    assert resolve_timeframe("this winter", NOW) == "2026-12-01/2027-02-28"
    assert resolve_timeframe("cet hiver", datetime(2027, 1, 10)) == "2026-12-01/2027-02-28"


@pytest.mark.parametrize("first, second, same", [
    ("I'm allergic to peanuts", "I can't eat gluten", False),
    ("I love red wine", "I prefer tea in the morning", False),
    ("I prefer tea over coffee", "actually I now prefer coffee over tea", True),
    ("Je préfère le thé au café", "En fait je préfère le café", True),
    ("Le jazz, c'est pas mon truc", "Finalement j'adore le jazz", True),
    ("I don't drive", "I don't drink alcohol", False),
    ("Keep the workouts to no more than 30 minutes", "My commute has to stay under 45 minutes", False),
])
def test_a_capture_replaces_only_one_about_the_same_thing(edge_store, first, second, same) -> None:
    capture = PreferenceCapture(edge_store)
    a, b = capture.classify([first, second], NOW).captures
    stored = {"type": a.type, "objects": list(a.objects), "key": a.key}
    assert b.replaces(stored) is same


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=300))
def test_any_text_is_classified_or_skipped_never_raises(edge_store, text) -> None:
    result = PreferenceCapture(edge_store).classify([text], NOW)
    for capture in result.captures:
        assert valid_timeframe(capture.timeframe) == capture.timeframe
        assert capture.type == "intent" or capture.objects
    assert objects_of(text, text[:5]) and valid_timeframe(resolve_timeframe(text, NOW)) is not None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=200))
def test_any_text_counts_as_a_turn(edge_store, text) -> None:
    events = MemoryEvents(hint_threshold=1, hint_spacing=0)
    for hint in events.count_turn(edge_store, NS, text, []):
        assert is_concept(hint["subject"])


def test_the_async_middleware_path_captures_too(edge_store) -> None:
    from tests.agent_harness import run

    model = ScriptedChatModel(responses=[]).say("Ok.", "Ok.")
    agent = build_agent("middleware", edge_store, model)
    run(agent, "async", "Je suis allergique aux arachides", config(USER))
    run(agent, "async", "Je ne peux pas manger de gluten", config(USER))
    edge_store.flush()
    objects = sorted(m.metadata["capture"]["objects"][0] for m in _captured(edge_store))
    assert objects == ["arachide", "gluten"]


@settings(max_examples=80, deadline=None)
@given(confidence=st.one_of(st.floats(allow_nan=True), st.integers(), st.booleans(), st.text(max_size=3), st.none()))
def test_capture_config_takes_a_confidence_or_raises_our_error(confidence) -> None:
    try:
        config_ = CaptureConfig(event_confidence=confidence)
    except InvalidMemoryError:
        return
    assert 0.0 <= config_.event_confidence <= 1.0


def test_capture_work_is_queued_on_the_worker_and_never_dropped(edge_store) -> None:
    from langgraph_memory.agent.capture import capturing

    queued: list[tuple] = []
    capturing(True, edge_store).after_turn(edge_store, NS, ["I'm allergic to peanuts"], [],
                                           lambda fn, *a, **kw: queued.append((fn, a, kw)), {})
    [(fn, args, kwargs)] = queued
    assert kwargs == {"label": "preferences", "droppable": False}
    assert edge_store.count(namespace=NS) == 0  # nothing ran in the node
    fn(*args)
    [memory] = _captured(edge_store)
    assert memory.metadata["capture"]["objects"] == ["peanut"]


@pytest.mark.parametrize("kind", KINDS)
def test_what_the_model_stored_this_turn_is_not_captured_twice(kind, tmp_path, embeddings) -> None:
    from langchain_core.messages import AIMessage

    from langgraph_memory.testing import tool_call

    store = MemoryStore.open(tmp_path / kind, embeddings=embeddings)
    try:
        model = ScriptedChatModel(responses=[]).say(
            AIMessage("", tool_calls=[tool_call("store_memory", {"content": "Mickael likes jazz", "subjects": ["music"]})]),
            "Noted.", "Noted.")
        agent = build_agent(kind, store, model)
        agent.invoke({"messages": [HumanMessage("hello, I like jazz")]}, config(USER, "j"))
        agent.invoke({"messages": [HumanMessage("and I can't eat gluten")]}, config(USER, "j"))
        store.flush()
        contents = sorted(m.content for m in store.recent(namespace=NS, since=None))
        assert contents == ["Constraint (gluten): and I can't eat gluten", "Mickael likes jazz"]
    finally:
        store.close()


def test_a_now_out_of_range_is_our_error_and_stores_nothing(edge_store) -> None:
    capture = PreferenceCapture(edge_store)
    for bad in (datetime(9999, 12, 31, 23), datetime(1, 1, 1, tzinfo=timezone.utc),
                datetime(2200, 1, 2, tzinfo=timezone.utc), "2026-11-23", 0):
        with pytest.raises(InvalidMemoryError) as info:
            capture.capture(["I'm allergic to peanuts"], namespace=NS, now=bad)
        assert info.value.field == "now"
    assert _captured(edge_store) == []
    # A naive time is read as UTC, as everywhere in the package; an aware one keeps its date.
    friday = ["Rappelle-moi d'appeler Lina vendredi."]
    assert capture.classify(friday, datetime(2026, 11, 23, 9)).captures[0].timeframe == "2026-11-27"
    late = datetime(2026, 11, 22, 23, 30, tzinfo=timezone(timedelta(hours=-5)))  # already Monday in UTC
    assert capture.classify(friday, late).captures[0].timeframe == "2026-11-27"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(now=st.datetimes(timezones=st.one_of(st.none(), st.timezones())))
@example(now=datetime(9999, 12, 31, 23))
@example(now=datetime(2199, 12, 31, 23, tzinfo=timezone.utc))
def test_any_now_classifies_or_raises_our_error(edge_store, now) -> None:
    texts = ["I prefer tea", "Rappelle-moi d'appeler Lina vendredi."]
    try:
        result = PreferenceCapture(edge_store).classify(texts, now)
    except InvalidMemoryError as exc:
        assert exc.field == "now"
        aware = now if now.tzinfo else now.replace(tzinfo=timezone.utc)
        assert not datetime(1970, 1, 1, tzinfo=timezone.utc) <= aware <= datetime(2200, 1, 1, tzinfo=timezone.utc)
        return
    assert not result.skipped and len(result.captures) == 2
    assert all(valid_timeframe(c.timeframe) == c.timeframe for c in result.captures)
