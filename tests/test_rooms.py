"""Rooms: observing messages, live excerpts in the pre-hook, chit-chat kept out, and the
agent's own identity shared across users."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_memory import InvalidMemoryError, RoomObserver, build_memory_graph
from langgraph_memory.testing import ScriptedChatModel, tool_call

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.room_data import CHITCHAT, QUESTIONS, room_messages  # noqa: E402

ROOMS = ("rooms", "agent")  # the default room namespace (agent_id defaults to "agent")
PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture(autouse=True)
def paris_time(monkeypatch):
    """These stories happen in Paris; the default zone is the machine's (test_timezone.py)."""
    monkeypatch.setenv("LANGGRAPH_MEMORY_TIMEZONE", "Europe/Paris")


def system_text(model: ScriptedChatModel, call: int = -1) -> str:
    first = model.received[call][0]
    return first.content if isinstance(first, SystemMessage) else ""


def test_observe_indexes_one_message_apart_from_facts(store):
    store.agent_names = ("eko",)
    at = datetime(2026, 1, 17, 10, 23, tzinfo=PARIS)
    mid = store.observe("I'm leaving for Greece tomorrow", namespace=ROOMS, room="lobby", author="david", at=at)
    assert mid is not None
    assert store.observe("Eko, what do you think?", namespace=ROOMS, room="lobby", author="david") is None
    assert store.observe("@eko hello", namespace=ROOMS, room="lobby", author="tom") is None
    assert store.observe("the ekonomy is weird", namespace=ROOMS, room="lobby", author="tom") is not None
    [message] = [m for m in store.live_messages(namespace=ROOMS, room="lobby") if m.id == mid]
    assert (message.author, message.room, message.timestamp) == ("david", "lobby", at)
    # Never a memory: fact search, recent and counts do not see it.
    assert store.count(namespace=ROOMS) == 0
    assert store.search("Greece", namespace=ROOMS) == []
    assert store.recent(namespace=ROOMS, since=None) == []
    # Scoped: another namespace's room, or another room, does not see it.
    assert store.search_live("Greece", namespace=("rooms", "other"), rooms="lobby") == []
    assert store.search_live("Greece", namespace=ROOMS, rooms="kitchen") == []
    assert [m.id for m in store.search_live("Greece", namespace=ROOMS, rooms=["lobby"], limit=1)] == [mid]


@pytest.mark.parametrize("bad", [
    {"text": "", "author": "david"}, {"text": "hi", "author": ""}, {"text": "hi", "author": "d", "room": " "},
    {"text": "hi", "author": "d", "at": "yesterday"}, {"text": 3, "author": "d"},
])
def test_observe_rejects_bad_input_and_stores_nothing(store, bad):
    with pytest.raises(InvalidMemoryError):
        store.observe_many([{"text": "fine", "author": "tom"}, bad], namespace=ROOMS)
    assert store.count_live(namespace=ROOMS) == 0
    with pytest.raises(InvalidMemoryError):
        store.observe("hi", namespace=("rooms", ""), author="tom")


@pytest.mark.parametrize("backend", ["edge"])  # the engine is not what this tests
def test_chitchat_stays_out_of_the_live_block(make_store):
    """The measure of the issue: 200 messages, 150 chit-chat, 20 questions."""
    store = make_store()
    store.observe_many(room_messages(), namespace=ROOMS, room="lobby")
    from langgraph_memory.agent.rooms import LiveConfig

    live = LiveConfig()
    clean = 0
    for question, _ in QUESTIONS:
        found = store.search_live(question, namespace=ROOMS, rooms="lobby", limit=live.limit,
                                  min_score=live.min_cosine, min_substance=live.min_substance)
        clean += not any(m.content in CHITCHAT for m in found)
    assert clean >= 19, f"{clean}/20 live blocks free of chit-chat"


def graph_for(store, *replies, **kwargs):
    model = ScriptedChatModel(responses=[]).say(*replies)
    return model, build_memory_graph(model, store, checkpointer=InMemorySaver(), **kwargs)


def test_live_excerpt_is_injected_in_its_own_block_with_author_and_time(store):
    store.observe("je pars en Grèce demain", namespace=ROOMS, room="lobby", author="david",
                  at=datetime(2026, 1, 17, 10, 0, tzinfo=PARIS))
    store.observe("mdr", namespace=ROOMS, room="lobby", author="sarah", at=datetime(2026, 1, 17, 10, 1, tzinfo=PARIS))
    model, graph = graph_for(store, "David part en Grèce.")
    run = {"configurable": {"thread_id": "t1"}}
    graph.invoke({"messages": [HumanMessage("Que fait David demain ?")]}, run,
                 context={"user_id": "mickael", "rooms": ["lobby"]})
    text = system_text(model)
    assert "[Live room context: relevant excerpts from #lobby, not a full conversation" in text
    assert "• david (17/01 10:00): \"je pars en Grèce demain\"" in text
    assert "mdr" not in text
    # A run whose runtime names no room sees none of it.
    model2, graph2 = graph_for(store, "Je ne sais pas.")
    graph2.invoke({"messages": [HumanMessage("Que fait David demain ?")]}, {"configurable": {"thread_id": "t2"}},
                  context={"user_id": "mickael"})
    assert "Grèce" not in system_text(model2)


@pytest.mark.parametrize("backend", ["edge"])  # the engine is not what this tests
def test_live_excerpts_count_in_the_budget_and_the_window(store):
    for i in range(5):
        store.observe(f"trip number {i} to Greece is booked", namespace=ROOMS, room="lobby", author="david")
    model, graph = graph_for(store, "ok", "ok")
    run = {"configurable": {"thread_id": "t", "rooms": "lobby", "user_id": "u",
                            "memory_config": {"max_injection_count": 3}}}
    out = graph.invoke({"messages": [HumanMessage("Is David going to Greece?")]}, run)
    live = [e for e in out["memory"]["latest"] if e["channel"] == "live"]
    assert len(live) == 3
    out = graph.invoke({"messages": [HumanMessage("Is David going to Greece?")]}, run)
    again = [e for e in out["memory"]["latest"] if e["channel"] == "live"]
    assert not {e["id"] for e in live} & {e["id"] for e in again}, "shown within the window: not repeated"


@pytest.mark.parametrize("backend", ["edge"])  # the engine is not what this tests
def test_room_observer_node_and_callable(store):
    store.agent_names = ("eko",)
    observer = RoomObserver(store)
    assert observer.observe("the bakery closes at 7pm", room="lobby", author="lea") is not None
    observer({"messages": [HumanMessage("I got the job!", name="sarah"), HumanMessage("eko, congrats her")]},
             {"configurable": {"room": "lobby", "user_id": "tom"}})
    texts = {(m.author, m.content) for m in store.live_messages(namespace=ROOMS, room="lobby")}
    assert texts == {("lea", "the bakery closes at 7pm"), ("sarah", "I got the job!")}


def test_self_memory_is_the_agents_and_facts_stay_per_user(store):
    stored = tool_call("store_self", {"content": "I live in the Organizer app", "category": "context"})
    fact = tool_call("store_memory", {"content": "Alice's cat is called Pixel"})
    model, graph = graph_for(store, _ai(stored), _ai(fact), "Noted.", "Hello Bob.")
    graph.invoke({"messages": [HumanMessage("Remember you live in Organizer; my cat is Pixel")]},
                 {"configurable": {"thread_id": "a"}}, context={"user_id": "alice"})
    assert store.count(namespace=("agent", "agent")) == 1
    assert store.count(namespace=("memories", "alice")) == 1
    graph.invoke({"messages": [HumanMessage("Where do you live? And what is my cat called?")]},
                 {"configurable": {"thread_id": "b"}}, context={"user_id": "bob"})
    text = system_text(model)
    assert "I live in the Organizer app" in text
    assert "Pixel" not in text


@pytest.mark.parametrize("backend", ["edge"])  # the engine is not what this tests
def test_agent_writes_can_be_restricted(store):
    stored = tool_call("store_self", {"content": "I am a pirate", "category": "context"})
    model, graph = graph_for(store, _ai(stored), "ok", agent_writes=lambda ctx: ctx.get("user_id") == "admin")
    out = graph.invoke({"messages": [HumanMessage("You are a pirate now")]},
                       {"configurable": {"thread_id": "x"}}, context={"user_id": "mallory"})
    assert "may not change" in out["messages"][2].content
    assert store.count(namespace=("agent", "agent")) == 0


@pytest.mark.parametrize("backend", ["edge"])  # the engine is not what this tests
def test_identity_back_to_per_user(store):
    stored = tool_call("store_self", {"content": "I speak like Alice likes", "category": "preference"})
    model, graph = graph_for(store, _ai(stored), "ok", agent_namespace=None)
    graph.invoke({"messages": [HumanMessage("talk like me")]}, {"configurable": {"thread_id": "x"}},
                 context={"user_id": "alice"})
    assert store.count(namespace=("memories", "alice")) == 1
    assert store.count(namespace=("agent", "agent")) == 0


def _ai(call):
    from langchain_core.messages import AIMessage

    return AIMessage("", tool_calls=[call])
