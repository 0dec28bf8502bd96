"""Soft delete, restore within the retention window, the garden purging forgotten and
expired memories, hard delete and erase. Real engines, real offline embedder."""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory import InvalidMemoryError
from langgraph_memory.store.vitality import DecaySettings

pytestmark = pytest.mark.integration

A = ("memories", "alice")
B = ("memories", "bob")


def test_delete_forgets_keeps_history_with_reason_and_restores(store):
    cello = store.remember("Alice plays the cello", namespace=A).memory
    other = store.remember("Alice joined an orchestra", namespace=A).memory
    forgotten = store.delete(cello.id, namespace=A, reason="she gave it up")
    assert forgotten.status == "forgotten" and forgotten.forgotten_reason == "she gave it up"
    # Never read, searched or listed.
    assert store.get(cello.id, namespace=A) is None
    assert cello.id not in {h.memory.id for h in store.search("cello", namespace=A)}
    assert cello.id not in {m.id for m in store.recent(namespace=A, since=None)}
    assert store.count(namespace=A) == 1
    # Kept in history, with its reason and time.
    [kept] = store.history(cello.id, namespace=A)
    assert (kept.status, kept.forgotten_reason) == ("forgotten", "she gave it up")
    assert abs((kept.forgotten_at - datetime.now(timezone.utc)).total_seconds()) < 120
    # Deleting again, or from another namespace, does nothing.
    assert store.delete(cello.id, namespace=A) is None
    assert store.restore(cello.id, namespace=B) is None
    restored = store.restore(cello.id, namespace=A)
    assert restored.status == "live" and restored.forgotten_at is None and restored.forgotten_reason is None
    assert store.get(cello.id, namespace=A).content == "Alice plays the cello"
    assert cello.id in {h.memory.id for h in store.search("cello", namespace=A)}
    assert store.get(other.id, namespace=A) is not None


def test_restore_window_and_garden_purge(store):
    cello = store.remember("Alice plays the cello", namespace=A).memory
    link_peer = store.remember("Alice joined an orchestra", namespace=A).memory
    store.link(link_peer.id, cello.id, "result_of", namespace=A)
    store.delete(cello.id, namespace=A, reason="wrong")
    later = datetime.now(timezone.utc) + timedelta(days=31)
    settings = DecaySettings(forgotten_days=30)
    store.decay = settings
    # Past the window it cannot be restored...
    assert store.restore(cello.id, namespace=A, now=later) is None
    # ...and a pass before the window leaves it, a pass after purges it.
    early = store.garden(A, now=datetime.now(timezone.utc) + timedelta(days=29), settings=settings)
    assert early["purged"] == 0 and store.history(cello.id, namespace=A) != []
    report = store.garden(A, now=later, settings=settings)
    assert report["purged"] == 1
    assert store.history(cello.id, namespace=A) == []
    # Its links went with it.
    assert store.get(link_peer.id, namespace=A).links == ()


def test_garden_removes_expired_memories_from_storage(store):
    gone = store.remember("Alice is at the Hotel Roma", namespace=A, ttl="1s").memory
    keep = store.remember("Alice plays the cello", namespace=A).memory
    time.sleep(max(0.0, (gone.expires_at - datetime.now(timezone.utc)).total_seconds()) + 0.1)
    assert store.count(namespace=A, include_superseded=True) == 2  # hidden, still stored
    report = store.garden(A)
    assert report["expired"] == 1
    assert store.count(namespace=A, include_superseded=True) == 1
    assert store.get(keep.id, namespace=A) is not None


def test_hard_delete_and_erase_remove_at_once(store):
    cello = store.remember("Alice plays the cello", namespace=A).memory
    peer = store.remember("Alice joined an orchestra", namespace=A).memory
    store.link(peer.id, cello.id, "related_to", namespace=A)
    assert store.delete(cello.id, namespace=A, hard=True).id == cello.id
    assert store.history(cello.id, namespace=A) == [] and store.restore(cello.id, namespace=A) is None
    assert store.links(peer.id, namespace=A) == [] and store.get(peer.id, namespace=A).links == ()
    store.delete(peer.id, namespace=A, reason="soft")
    assert store.erase(A) == 1  # the forgotten one too
    assert store.count(namespace=A, include_superseded=True) == 0


def test_delete_arguments_are_checked(store):
    cello = store.remember("Alice plays the cello", namespace=A).memory
    with pytest.raises(InvalidMemoryError):
        store.delete(cello.id, namespace=A, hard="yes")
    with pytest.raises(InvalidMemoryError):
        store.delete(cello.id, namespace=A, reason="x" * 10_000)
    assert store.get(cello.id, namespace=A) is not None


def test_the_delete_tool_says_it_forgot(make_store):
    from langchain_core.messages import AIMessage, ToolMessage

    from agent_harness import build_agent, config, run
    from langgraph_memory.testing import ScriptedChatModel, tool_call

    store = make_store()
    ns = ("memories", "tool-user")
    cello = store.remember("Alice plays the cello", namespace=ns).memory
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[tool_call("delete_memory", {"id": cello.id, "reason": "outdated"})]), "Done.")
    out = run(build_agent("graph", store, model), "sync", "Forget the cello.", config("tool-user"))
    [result] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert result.content.startswith(f"Forgot {cello.id}") and "restore" in result.content
    assert store.history(cello.id, namespace=ns)[0].forgotten_reason == "outdated"


def _scheduler_threads() -> int:
    import threading

    return sum(t.name == "langgraph-memory-scheduler" and t.is_alive() for t in threading.enumerate())


def test_graphs_start_one_daily_gardening_per_store_and_close_stops_it(make_store, tmp_path):
    from langgraph_memory import MemoryMiddleware, build_memory_graph
    from langgraph_memory.background.daily import GARDEN_KEY
    from langgraph_memory.testing import ScriptedChatModel

    before = _scheduler_threads()
    store = make_store(tmp_path / "daily")
    build_memory_graph(ScriptedChatModel(responses=[]), store)
    daily = store.__dict__["_daily_gardening"]
    assert daily.ready.wait(60) and daily.running
    scheduler = daily.scheduler
    assert GARDEN_KEY in scheduler.jobs
    MemoryMiddleware(store)  # a second face over the same store shares it
    assert store.__dict__["_daily_gardening"] is daily and _scheduler_threads() == before + 1
    # The first pass is at the next 03:00, not at start.
    assert scheduler.last_run(GARDEN_KEY) is not None and not scheduler.is_due(GARDEN_KEY)
    assert scheduler.next_run(GARDEN_KEY).astimezone(scheduler.jobs[GARDEN_KEY].schedule._local(
        datetime.now(timezone.utc)).tzinfo).hour == 3
    # Told not to, nothing starts.
    other = make_store(tmp_path / "off")
    build_memory_graph(ScriptedChatModel(responses=[]), other, garden_daily=False)
    MemoryMiddleware(other, garden_daily=False)
    assert "_daily_gardening" not in other.__dict__
    store.close()
    assert not daily.running and _scheduler_threads() == before


def test_react_agent_hooks_start_the_daily_gardening_with_the_same_opt_out(make_store, tmp_path):
    from langgraph_memory import react_agent_hooks

    before = _scheduler_threads()
    store = make_store(tmp_path / "react")
    react_agent_hooks(store)
    daily = store.__dict__["_daily_gardening"]
    assert daily.ready.wait(60) and daily.running
    react_agent_hooks(store)  # a second face over the same store shares it
    assert store.__dict__["_daily_gardening"] is daily and _scheduler_threads() == before + 1
    other = make_store(tmp_path / "react-off")
    react_agent_hooks(other, garden_daily=False)
    assert "_daily_gardening" not in other.__dict__
    store.close()
    assert not daily.running and _scheduler_threads() == before


def test_a_deferred_store_starts_its_gardening_once_built(make_store, tmp_path):
    from langgraph_memory import build_memory_graph
    from langgraph_memory.store.deferred import DeferredStore
    from langgraph_memory.testing import ScriptedChatModel

    before = _scheduler_threads()
    deferred = DeferredStore(lambda: make_store(tmp_path / "deferred"))
    build_memory_graph(ScriptedChatModel(responses=[]), deferred)
    assert _scheduler_threads() == before  # not built yet
    store = deferred.get()
    assert store.__dict__["_daily_gardening"].ready.wait(60) and store.__dict__["_daily_gardening"].running
    deferred.close()
    assert _scheduler_threads() == before


def test_scheduled_pass_purges_what_is_due(store):
    """The job the daily schedule runs is a full pass: expired memories leave storage."""
    from langgraph_memory.background.daily import GARDEN_KEY, start_daily_gardening

    gone = store.remember("Alice is at the Hotel Roma", namespace=A, ttl="1s").memory
    time.sleep(max(0.0, (gone.expires_at - datetime.now(timezone.utc)).total_seconds()) + 0.1)
    daily = start_daily_gardening(store)
    assert daily.ready.wait(60)
    daily.scheduler.jobs[GARDEN_KEY].fn(datetime.now(timezone.utc))
    assert store.count(namespace=A, include_superseded=True) == 0
