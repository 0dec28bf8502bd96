"""What the model sees and what the thread keeps, for every way of adding memory.

Each test runs through the reference graph, the create_agent middleware and the
create_react_agent hooks, with invoke and with ainvoke, on the embedded store and the real
offline embedder. Only the model's words are scripted.
"""

from __future__ import annotations

import time
import uuid
from datetime import datetime, timedelta, timezone

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage

from agent_harness import KINDS, MODES, CountingEmbeddings, build_agent, config, run, system_text
from langgraph_memory import MemoryStore
from langgraph_memory.testing import ScriptedChatModel, tool_call

pytestmark = pytest.mark.integration


@pytest.fixture(params=KINDS)
def kind(request) -> str:
    return request.param


@pytest.fixture(params=MODES)
def mode(request) -> str:
    return request.param


@pytest.fixture(scope="module")
def counting(embeddings):
    return CountingEmbeddings(embeddings)


@pytest.fixture(scope="module")
def store(tmp_path_factory, counting):
    # One store for the module: every test has its own user, and namespaces isolate them.
    with MemoryStore.open(tmp_path_factory.mktemp("agents") / "memory", embeddings=counting) as s:
        yield s


@pytest.fixture
def user() -> str:
    return f"mickael-{uuid.uuid4().hex[:8]}"


@pytest.fixture
def ns(user) -> tuple[str, str]:
    return ("memories", user)


def days_ago(n: float) -> datetime:
    return datetime.now(timezone.utc) - timedelta(days=n)



def with_text(store, ns, entries):
    """Ledger entries (ids only) with the text of their memory, read from the store."""
    texts = {m.id: m.content for m, _ in store.get_many([e["id"] for e in entries], namespace=ns)}
    return [{**e, "content": texts[e["id"]]} for e in entries]

def test_identity_reaches_the_model_on_hello(store, ns, user, kind, mode):
    store.remember("The user's name is Mickael and he lives in Toulouse", namespace=ns,
                   memory_type="identity", created_at=days_ago(30))
    model = ScriptedChatModel(responses=[]).say("Salut Mickael !")
    run(build_agent(kind, store, model), mode, "hello", config(user))
    text = system_text(model)
    assert "The user's name is Mickael and he lives in Toulouse" in text
    assert "## Who they are" in text and "<memories>" in text


def test_what_did_we_talk_about_brings_recent_memories(store, ns, user, kind, mode):
    recent = ["Mickael is leaving for Greece on holiday", "PSG won 3-0 last night", "Mickael adopted a cat named Pixel"]
    for text in recent:
        store.remember(text, namespace=ns)
    store.remember("Mickael studied chemistry at university", namespace=ns, created_at=days_ago(40))
    model = ScriptedChatModel(responses=[]).say("We talked about Greece, PSG and Pixel.")
    out = run(build_agent(kind, store, model), mode, "what did we talk about?", config(user))
    text = system_text(model)
    for fact in recent:
        assert fact in text
    channels = {e["content"]: e["channel"] for e in with_text(store, ns, out["memory"]["latest"])}
    assert all(channels[f] in ("recent", "similar") for f in recent)
    assert channels.get("Mickael studied chemistry at university") != "recent"


def test_a_similar_memory_reaches_the_model(store, ns, user, kind, mode):
    store.remember("Mickael is going to Greece for his holidays in February", namespace=ns, created_at=days_ago(10))
    store.remember("The office coffee machine is broken", namespace=ns, created_at=days_ago(10))
    model = ScriptedChatModel(responses=[]).say("Greece!")
    out = run(build_agent(kind, store, model), mode, "Where am I going on holiday?", config(user))
    latest = {e["content"]: e for e in with_text(store, ns, out["memory"]["latest"])}
    chosen = latest["Mickael is going to Greece for his holidays in February"]
    assert chosen["channel"] == "similar" and "cosine" in chosen["reason"]
    assert "Mickael is going to Greece" in system_text(model)


def test_second_ask_injects_nothing_new_but_model_still_sees_it_then_it_returns(store, ns, user, kind, mode):
    store.remember("Mickael broke his shoulder", namespace=ns, created_at=days_ago(3))
    model = ScriptedChatModel(responses=[]).say("ouch", "still ouch", "yes", "again")
    agent = build_agent(kind, store, model)
    cfg = config(user, reinject_after_turns=2)
    first = run(agent, mode, "How is my shoulder?", cfg)
    assert [e["content"] for e in with_text(store, ns, first["memory"]["latest"])] == ["Mickael broke his shoulder"]
    second = run(agent, mode, "How is my shoulder?", cfg)
    assert second["memory"]["latest"] == []
    assert "Mickael broke his shoulder" in system_text(model)  # still inside the window
    third = run(agent, mode, "How is my shoulder?", cfg)
    assert [e["content"] for e in with_text(store, ns, third["memory"]["latest"])] == ["Mickael broke his shoulder"]
    assert third["memory"]["turn"] == 3


def test_near_identical_memories_are_never_both_injected(store, ns, user, kind, mode):
    store.remember("Mickael loves skiing in the Alps", namespace=ns, dedup=False, created_at=days_ago(5))
    store.remember("Mickael loves skiing in the Alps.", namespace=ns, dedup=False, created_at=days_ago(5))
    model = ScriptedChatModel(responses=[]).say("skiing!")
    out = run(build_agent(kind, store, model), mode, "Do I like skiing in the Alps?", config(user))
    skiing = [e for e in with_text(store, ns, out["memory"]["latest"]) if "skiing" in e["content"]]
    assert len(skiing) == 1
    assert system_text(model).count("loves skiing in the Alps") == 1


def test_expired_memory_is_never_injected(store, ns, user, kind, mode):
    store.remember("Mickael has the flu", namespace=ns, ttl="1s")
    store.remember("Mickael is allergic to cats", namespace=ns)
    time.sleep(1.2)
    model = ScriptedChatModel(responses=[]).say("get well")
    run(build_agent(kind, store, model), mode, "Am I sick? Do I have the flu?", config(user))
    text = system_text(model)
    assert "Mickael is allergic to cats" in text  # recent channel still works
    assert "flu" not in text.split("<memories>")[1]


def test_user_b_never_sees_user_a(store, ns, user, kind, mode):
    alice = store.remember("Alice's bank PIN hint is her cat's name", namespace=("memories", user + "-alice"),
                           memory_type="identity").memory
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[tool_call("search_memories", {"query": "bank PIN cat"}),
                                  tool_call("delete_memory", {"id": alice.id, "reason": "test"}),
                                  tool_call("get_recent_memories", {})]),
        "Nothing about that.",
    )
    out = run(build_agent(kind, store, model), mode, "What is the bank PIN hint?", config(user + "-bob"))
    assert "PIN" not in system_text(model, 0)
    results = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    assert [r.content for r in results][0] == "No memories found."
    assert "no fact memory with id" in results[1].content and results[1].status == "error"
    assert results[2].content == "No memories stored yet."
    assert store.get(alice.id, namespace=("memories", user + "-alice")) is not None


def test_injected_text_is_absent_from_the_thread(store, ns, user, kind, mode):
    store.remember("Mickael's daughter is called Lina", namespace=ns, memory_type="identity")
    model = ScriptedChatModel(responses=[]).say("Hi!")
    agent = build_agent(kind, store, model)
    cfg = config(user)
    run(agent, mode, "hello", cfg)
    assert "Lina" in system_text(model)
    persisted = agent.get_state(cfg).values["messages"]
    assert [type(m) for m in persisted] == [HumanMessage, AIMessage]
    assert not any("Lina" in str(m.content) or "<memories>" in str(m.content) for m in persisted)


def test_tool_results_and_system_messages_start_no_injection(store, counting, ns, user, kind, mode):
    model = ScriptedChatModel(responses=[]).say(
        AIMessage("", tool_calls=[tool_call("store_memory", {"content": "Mickael runs a marathon in April",
                                                              "subjects": ["mickael", "running"]})]),
        "Good luck!", "Noted.",
    )
    agent = build_agent(kind, store, model)
    cfg = config(user)
    before = counting.queries
    out = run(agent, mode, "I'm running a marathon in April", cfg)
    assert counting.queries - before == 1  # the human turn; the tool result started nothing
    assert len(model.received) == 2
    stored = out["memory"]["injected"]
    assert any(store.get(i, namespace=ns).content == "Mickael runs a marathon in April" for i in stored)

    before = counting.queries
    turn = out["memory"]["turn"]
    out = run(agent, mode, [HumanMessage("Worker #42 completed", additional_kwargs={"source": "system"})], cfg)
    assert counting.queries == before and out["memory"]["turn"] == turn


def test_three_human_messages_in_a_row_are_one_query(store, counting, ns, user, kind, mode):
    store.remember("Decision: the project uses PostgreSQL", namespace=ns, memory_type="decision", created_at=days_ago(1))
    model = ScriptedChatModel(responses=[]).say("MySQL then.")
    before = counting.queries
    out = run(build_agent(kind, store, model), mode,
              [HumanMessage("En fait"), HumanMessage("j'ai changé d'avis"), HumanMessage("on va utiliser MySQL à la place")],
              config(user))
    assert counting.queries - before == 1
    assert out["memory"]["query"] == "En fait\nj'ai changé d'avis\non va utiliser MySQL à la place"
    assert "PostgreSQL" in system_text(model)


def test_a_system_message_last_starts_no_injection(store, counting, ns, user, kind, mode):
    store.remember("The user's name is Mickael", namespace=ns, memory_type="identity")
    model = ScriptedChatModel(responses=[]).say("ok")
    before = counting.queries
    out = run(build_agent(kind, store, model), mode,
              [HumanMessage("hi"), SystemMessage("Worker #42 completed")], config(user))
    assert counting.queries == before
    assert not out.get("memory", {}).get("latest")
