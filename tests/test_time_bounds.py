"""Bounds on every time value: one poison value cannot disable a user's memory or a room.

Each poison value of the issue is refused with a typed error on both faces (MemoryStore
and the BaseStore face), storing nothing; and the same value already stored (written
straight through the backend, as data from before the bounds would hold it) is read as
"no expiry" or clamped. After each, search, recent, a turn naming the room and the
digest all still work, on both backends.
"""

from __future__ import annotations

import math
import time
from datetime import datetime, timedelta, timezone

import pytest
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_memory import InvalidMemoryError, LangGraphMemoryError, QdrantStore, build_memory_graph, digest
from langgraph_memory.agent import hooks
from langgraph_memory.agent.rooms import LiveConfig
from langgraph_memory.base_store._items import item_point_id
from langgraph_memory.store._checks import TIME_MAX, TIME_MIN, stored_time
from langgraph_memory.testing import ScriptedChatModel, digest_reply

ALICE = ("memories", "alice")
ROOMS = ("rooms", "agent")
FACT = "Alice works as a nurse at the hospital in Lyon"
POISONS = ["ttl=1e300", "ttl=inf", "ttl=nan", "ttl=-5", "at=year 9999", "at=year 1", "default_ttl=inf"]


def _ttl(poison: str) -> float:
    return float(poison.split("=")[1])


@pytest.fixture
def every_excerpt(monkeypatch):
    monkeypatch.setattr(hooks, "LiveConfig", lambda: LiveConfig(min_cosine=-1.0, min_substance=-1.0))


def _refused(call) -> None:
    with pytest.raises(InvalidMemoryError) as caught:
        call()
    assert isinstance(caught.value, (ValueError, LangGraphMemoryError))


def _poison_through_the_api(store, base, poison: str, memory_id: str) -> None:
    """Every entry point refuses the value with a typed error."""
    if poison.startswith("ttl="):
        ttl = _ttl(poison)
        _refused(lambda: base.put(ALICE, memory_id, {"content": "Alice works for bob now"}, ttl=ttl))
        _refused(lambda: base.put(ALICE, "note", {"text": "x"}, ttl=ttl))
        _refused(lambda: store.remember("Alice likes tea", namespace=ALICE, ttl=poison.split("=")[1]))
        if not math.isnan(ttl) and ttl > -1e6:
            _refused(lambda: store.remember("Alice likes tea", namespace=ALICE,
                                            ttl=timedelta(minutes=ttl) if abs(ttl) < 1e9 else timedelta.max))
    elif poison.startswith("at="):
        year = 9999 if "9999" in poison else 1
        for at in (datetime(year, 6, 1, tzinfo=timezone.utc), datetime(year, 6, 1)):
            _refused(lambda: store.observe("I resign", namespace=ROOMS, room="lobby", author="carol", at=at))
    else:
        for ttl in (math.inf, math.nan, -1.0, 0, 1e300, "5"):
            _refused(lambda: QdrantStore.over(store, ttl={"default_ttl": ttl}))


def _poison_as_old_data(store, poison: str, memory_id: str, message_id: str) -> None:
    """What the value would have stored before the bounds, written through the backend."""
    now = time.time()
    if poison.startswith("ttl=") or poison.startswith("default_ttl"):
        ttl = _ttl(poison)
        ttl = 1e300 if not math.isfinite(ttl) else ttl  # JSON holds no inf/nan: the largest stored
        store._backend.set_payload([memory_id], {"expires_at": now + ttl * 60})
        point = item_point_id(ALICE, "old-note")
        store._backend.set_payload([point], {"expires_at": now + ttl * 60, "ttl_minutes": ttl})
    else:
        year = 9999 if "9999" in poison else 1
        at = datetime(year, 6, 1, tzinfo=timezone.utc).timestamp()
        store._rooms_backend().set_payload([message_id], {"created_at": at})


@pytest.mark.parametrize("poison", POISONS)
def test_a_poison_value_is_refused_and_stored_ones_break_nothing(store, poison, every_excerpt):
    memory = store.remember(FACT, namespace=ALICE, subjects=["alice"]).memory
    message_id = store.observe("I am leaving the hospital team next week", namespace=ROOMS, room="lobby",
                               author="carol")
    base = store.as_base_store(ttl={"default_ttl": 60, "refresh_on_read": True})
    base.put(ALICE, "old-note", {"content": "Alice parks on level 2"}, ttl=60)
    before = (store.count(namespace=ALICE, include_superseded=True), store.count_live(namespace=ROOMS))

    _poison_through_the_api(store, base, poison, memory.id)
    assert (store.count(namespace=ALICE, include_superseded=True), store.count_live(namespace=ROOMS)) == before
    assert base.get(ALICE, memory.id).value["content"] == FACT  # not overwritten

    _poison_as_old_data(store, poison, memory.id, message_id)
    # Reads: the memory face, the BaseStore face (a read with refresh), the pre-hook's channels.
    alive = poison != "ttl=-5"  # a negative TTL stored: an expiry in the past, never returned
    found = store.search("Where does Alice work?", namespace=ALICE, limit=5)
    assert ([h.memory.id for h in found][:1] == [memory.id]) is alive
    assert ([m.id for m in store.recent(namespace=ALICE, since="1d")] == [memory.id]) is alive
    assert (memory.id in {i.key for i in base.search(ALICE)}) is alive
    assert base.get(ALICE, "old-note", refresh_ttl=True) is not None or not alive
    for m in store.recent(namespace=ALICE, since="1d"):
        assert m.expires_at is None or TIME_MIN <= m.expires_at <= TIME_MAX
    # A turn naming the room sees the fact and the room's excerpt.
    model = ScriptedChatModel(responses=[]).say("ok")
    graph = build_memory_graph(model, store, checkpointer=InMemorySaver())
    graph.invoke({"messages": [HumanMessage("Where does Alice work?")]}, {"configurable": {"thread_id": "t"}},
                 context={"user_id": "alice", "rooms": ["lobby"]})
    system = model.received[-1][0].content
    assert (FACT in system) is alive and "leaving the hospital team" in system
    # The digest of the room reads the message, stores its fact and empties the room.
    report = digest(store, namespace=ROOMS, room="lobby",
                    model=ScriptedChatModel(responses=[]).say(digest_reply("Carol leaves the hospital team")))
    assert (report.read, report.stored) == (1, 1)
    assert store.count_live(namespace=ROOMS) == 0


def test_stored_times_are_read_clamped_or_as_no_expiry():
    assert stored_time(None) is None and stored_time(None, expiry=True) is None
    assert stored_time(6e301, expiry=True) is None and stored_time(10**400, expiry=True) is None
    assert stored_time(6e301) == TIME_MAX and stored_time(-6e301) == TIME_MIN
    assert stored_time(-6e301, expiry=True) == TIME_MIN  # long past: expired
    assert stored_time(math.nan) == TIME_MIN and stored_time(math.nan, expiry=True) is None
    assert stored_time("garbage") == TIME_MIN and stored_time(True, expiry=True) is None
    assert stored_time(1_700_000_000.5) == datetime.fromtimestamp(1_700_000_000.5, tz=timezone.utc)


@pytest.mark.parametrize("backend", ["edge"])
def test_every_ttl_and_time_entry_point_is_bounded(store):
    base = store.as_base_store()
    for ttl in (0, -1, math.inf, -math.inf, math.nan, 1e300, 100 * 366 * 24 * 60, True, "5"):
        _refused(lambda: base.put(("notes",), "k", {"v": 1}, ttl=ttl))
    base.put(("notes",), "k", {"v": 1}, ttl=99 * 365 * 24 * 60)  # just under a century
    assert stored_time(store._backend.retrieve([item_point_id(("notes",), "k")])[0].payload["expires_at"],
                       expiry=True) is not None
    for ttl in ("1e300", "inf", "nan", "-5d", "0d", "99999999999999d", "36501d"):
        _refused(lambda: store.remember("Alice likes tea", namespace=ALICE, ttl=ttl))
    for key in ("sweep_interval_minutes", "default_ttl"):
        _refused(lambda: QdrantStore.over(store, ttl={key: math.inf}))
    _refused(lambda: QdrantStore.over(store, ttl={"refresh_on_read": "yes"}))
    for at in (datetime(1969, 12, 31, tzinfo=timezone.utc), datetime(2200, 1, 2, tzinfo=timezone.utc)):
        _refused(lambda: store.observe("hi", namespace=ROOMS, author="ann", at=at))
        _refused(lambda: store.remember("Alice likes tea", namespace=ALICE, created_at=at))
        _refused(lambda: store.live_messages(namespace=ROOMS, room="lobby", until=at))
    assert store.count(namespace=ALICE) == 0 and store.count_live(namespace=ROOMS) == 0
