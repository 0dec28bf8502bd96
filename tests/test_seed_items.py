"""The smaller seed items of issue 26: importance in the injected block, paraphrases of
other days injected once, the default instructions, the live room context."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from langgraph_memory.agent.injection import select_memories

pytestmark = pytest.mark.integration

NS = ("memories", "seed-items")
PARAPHRASES = ["Nina loves hiking in the Alps", "Nina really loves hiking in the Alps", "Nina loves to hike in the Alps"]


def test_three_paraphrases_of_different_days_inject_one(store):
    now = datetime.now(timezone.utc)
    for i, text in enumerate(PARAPHRASES):  # dedup off: as three stores over time could leave them
        store.remember(text, namespace=NS, dedup=False, created_at=now - timedelta(days=40 + 7 * i))
    injection = select_memories(store, namespace=NS, query="Does Nina like hiking?")
    assert sum("Alps" in c.memory.content for c in injection.chosen) == 1
    assert injection.dropped["similar"] == 2


def test_similar_but_not_paraphrased_memories_of_other_days_both_inject(store):
    now = datetime.now(timezone.utc)
    # Cosine 0.93: two events close in words, on different days; both are shown with their dates.
    store.remember("Nina went to a pottery class", namespace=NS, dedup=False, created_at=now - timedelta(days=60))
    store.remember("Nina took a pottery class with her kids", namespace=NS, dedup=False, created_at=now - timedelta(days=30))
    injection = select_memories(store, namespace=NS, query="pottery class")
    assert sum("pottery" in c.memory.content for c in injection.chosen) == 2


def test_the_block_shows_importance(store):
    from langgraph_memory.agent.injection import render_memories

    store.remember("Nina's name is Nina Roy", namespace=NS, memory_type="identity")
    block = render_memories(select_memories(store, namespace=NS, query="Who is Nina?").chosen)
    assert "importance 1.0)" in block and "importance (0 to 1)" in block


def _graph_and_model(store, answer: str):
    from langgraph.checkpoint.memory import InMemorySaver

    from langgraph_memory import build_memory_graph
    from langgraph_memory.testing import ScriptedChatModel

    model = ScriptedChatModel(responses=[]).say(answer)
    return model, build_memory_graph(model, store, checkpointer=InMemorySaver(), background_stats=False,
                                     garden_daily=False)


def _system(model) -> str:
    from langchain_core.messages import SystemMessage

    first = model.received[-1][0]
    return first.content if isinstance(first, SystemMessage) else ""


def test_live_context_catches_the_authors_follow_up_line(store):
    from zoneinfo import ZoneInfo

    from langchain_core.messages import HumanMessage

    paris = ZoneInfo("Europe/Paris")
    rooms = ("rooms", "agent")
    store.observe("je pars en Grèce demain", namespace=rooms, room="lobby", author="david",
                  at=datetime(2026, 1, 17, 10, 0, tzinfo=paris))
    store.observe("une semaine", namespace=rooms, room="lobby", author="david", at=datetime(2026, 1, 17, 10, 1, tzinfo=paris))
    store.observe("trop bien", namespace=rooms, room="lobby", author="sarah", at=datetime(2026, 1, 17, 10, 2, tzinfo=paris))
    store.observe("haha ok", namespace=rooms, room="lobby", author="david", at=datetime(2026, 1, 17, 10, 3, tzinfo=paris))
    model, graph = _graph_and_model(store, "Une semaine.")
    out = graph.invoke({"messages": [HumanMessage("Que fait David demain ?")]}, {"configurable": {"thread_id": "t"}},
                       context={"user_id": "mickael", "rooms": ["lobby"]})
    text = _system(model)
    assert '"je pars en Grèce demain"' in text and '"une semaine"' in text
    assert "haha ok" not in text  # after Sarah spoke: no longer the same thought
    assert any(e["reason"].startswith("live #lobby (follow-up of") for e in out["memory"]["latest"])


def test_whats_new_in_the_room_shows_its_latest_messages(store):
    from langchain_core.messages import HumanMessage

    rooms = ("rooms", "agent")
    store.observe("the bakery on Rue Cler closes at 7pm now", namespace=rooms, room="lobby", author="lea")
    store.observe("Sarah got the hospital job in Lyon", namespace=rooms, room="lobby", author="tom")
    model, graph = _graph_and_model(store, "Sarah got a job.")
    out = graph.invoke({"messages": [HumanMessage("What's new in the lobby?")]}, {"configurable": {"thread_id": "t"}},
                       context={"user_id": "mickael", "rooms": ["lobby"]})
    text = _system(model)
    assert "Sarah got the hospital job in Lyon" in text and "bakery" in text
    assert all("names the room" in e["reason"] or "cosine" in e["reason"] for e in out["memory"]["latest"])
    # A room the run does not see is never listed, named or not.
    model2, graph2 = _graph_and_model(store, "I don't know.")
    graph2.invoke({"messages": [HumanMessage("What's new in the lobby?")]}, {"configurable": {"thread_id": "t2"}},
                  context={"user_id": "mickael"})
    assert "Sarah got the hospital job" not in _system(model2)


def test_default_instructions_hold_density_and_contradictions():
    from langgraph_memory.agent.prompts import MEMORY_INSTRUCTIONS

    assert "Memory density" in MEMORY_INSTRUCTIONS and "adds something new" in MEMORY_INSTRUCTIONS
    assert "search for the old one, delete it by id" in MEMORY_INSTRUCTIONS
