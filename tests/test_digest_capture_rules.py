"""The digest loses nothing it read: TTLs in words are understood (or the fact is kept
without one), a rejected fact keeps its messages in the room, and under ``max_messages``
the oldest messages go first."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langgraph_memory import digest
from langgraph_memory.background._durations import understood_ttl
from langgraph_memory.testing import ScriptedChatModel, digest_reply

ROOMS = ("rooms", "agent")


def _seed(store, *texts, start=datetime(2026, 1, 1, tzinfo=timezone.utc)):
    return store.observe_many([{"text": t, "author": "david", "at": start + timedelta(minutes=i)}
                               for i, t in enumerate(texts)], namespace=ROOMS, room="lobby")


@pytest.mark.parametrize("ttl, days", [
    ("7 days", 7), ("1 week", 7), ("2 weeks", 14), ("P7D", 7), ("P1W", 7), ("3 mois", 90),
    ("une semaine", 7), ("quinze jours", 14), ("7d", 7), ("a month", 30),
])
def test_ttl_phrasings_are_understood(ttl, days) -> None:
    assert understood_ttl(ttl) == timedelta(days=days)


@pytest.mark.parametrize("ttl", ["", "soon", "forever", "0d", "-3 days", "500 years", "P", None, 7, "x" * 100])
def test_unreadable_or_unbounded_ttls_are_none(ttl) -> None:
    assert understood_ttl(ttl) is None


@given(st.one_of(st.text(max_size=80), st.none(), st.integers()))
@settings(max_examples=200, deadline=None)
def test_any_ttl_is_a_bounded_duration_or_none(value) -> None:
    ttl = understood_ttl(value)
    assert ttl is None or timedelta(0) < ttl <= timedelta(days=36500)


@pytest.mark.parametrize("backend", ["edge"])
def test_a_fact_with_a_worded_ttl_is_stored_and_one_with_an_unreadable_ttl_kept_without(store) -> None:
    _seed(store, "je pars en Grèce demain pour une semaine", "et Sarah a un nouveau job")
    trip = {"content": "David part en Grèce le 02/01/2026 pour une semaine", "subjects": ["david"],
            "memory_type": "event", "ttl": "1 week"}
    job = {"content": "Sarah a un nouveau travail", "subjects": ["sarah"], "ttl": "until further notice"}
    before = datetime.now(timezone.utc)
    report = digest(store, namespace=ROOMS, room="lobby", model=ScriptedChatModel(responses=[]).say(digest_reply(trip, job)))
    assert (report.read, report.stored, report.rejected, report.kept) == (2, 2, 0, 0)
    assert store.count_live(namespace=ROOMS, room="lobby") == 0
    stored = {m.content: m for m in store.recent(namespace=ROOMS, since=None)}
    expires = stored[trip["content"]].expires_at
    assert timedelta(days=7) - timedelta(minutes=5) < expires - before <= timedelta(days=7, minutes=5)
    assert stored[job["content"]].expires_at is None


@pytest.mark.parametrize("backend", ["edge"])
def test_a_rejected_fact_keeps_the_messages_it_came_from(store) -> None:
    _seed(store, "David part en Grèce", "et puis voilà")
    empty = {"content": "   ", "subjects": ["david"]}
    good = {"content": "David part en Grèce", "subjects": ["david"]}
    report = digest(store, namespace=ROOMS, room="lobby", model=ScriptedChatModel(responses=[]).say(digest_reply(good, empty)))
    assert (report.stored, report.rejected, report.kept) == (1, 1, report.read)
    assert store.count_live(namespace=ROOMS, room="lobby") == report.read > 0


@pytest.mark.parametrize("backend", ["edge"])
def test_the_oldest_messages_are_digested_first(store, monkeypatch) -> None:
    # Several scroll pages: pages come in id order, not time order.
    from langgraph_memory.store import _rooms

    monkeypatch.setattr(_rooms, "_SCROLL_BATCH", 2)
    ids = _seed(store, *[f"message number {i}" for i in range(40)])
    model = ScriptedChatModel(responses=[]).say(digest_reply())
    report = digest(store, namespace=ROOMS, room="lobby", model=model, max_messages=5)
    assert report.read == 5
    transcript = model.received[0][-1].content
    assert all(f'"message number {i}"' in transcript for i in range(5))  # each text quoted as data
    assert '"message number 5"' not in transcript
    left = store.live_messages(namespace=ROOMS, room="lobby")
    assert len(left) == 35 and {m.id for m in left} == set(ids[5:])


@pytest.mark.parametrize("backend", ["edge"])
def test_a_digested_fact_records_every_room_it_was_heard_in(store) -> None:
    fact = {"content": "Sarah a un chien qui s'appelle Biscuit", "subjects": ["sarah"]}
    ids = []
    for room in ("lobby", "kitchen"):
        store.observe_many([{"text": "Sarah a un chien, Biscuit", "author": "david",
                             "at": datetime(2026, 1, 1, tzinfo=timezone.utc)}], namespace=ROOMS, room=room)
        report = digest(store, namespace=ROOMS, room=room, model=ScriptedChatModel(responses=[]).say(digest_reply(fact)))
        ids += report.memory_ids
    assert len(set(ids)) == 1  # the kitchen's is a duplicate of the lobby's
    [memory] = store.recent(namespace=ROOMS, since=None)
    assert memory.source == "digest" and memory.metadata["rooms"] == ["lobby", "kitchen"]
    assert memory.metadata["room"] == "kitchen"
