"""Conversation recall (seed 004): exchanges and summaries indexed off the hot path, and one
search across facts, exchanges and summaries."""

from __future__ import annotations

import logging
import threading

import pytest
from langchain_core.embeddings import Embeddings
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from langgraph_memory import (
    BackgroundWorker,
    InvalidMemoryError,
    MemoryPosthook,
    index_exchange,
    index_summary,
    search_conversations,
    worker_for,
)
from langgraph_memory.store.conversations import conversations
from langgraph_memory.store.backends import Where
from langgraph_memory.testing import ScriptedChatModel, tool_call

from agent_harness import build_agent, config, run

T1 = [
    ("Hi, I'm planning my week.", "Happy to help you plan it."),
    ("I have a dentist appointment on Monday.", "Noted, Monday at the dentist."),
    ("My sister Lina gave me a bonsai tree named Kenji for my birthday.", "What a lovely gift, Kenji the bonsai!"),
    ("On Wednesday I play tennis with David.", "Have a good match with David."),
    ("I need to buy groceries on Thursday.", "Thursday: groceries."),
    ("That's all for now, thanks.", "You're welcome, see you soon."),
]


def _ns(user: str = "mickael") -> tuple[str, ...]:
    return ("memories", user)


@pytest.mark.integration
def test_a_detail_said_in_one_thread_is_found_first_from_another(make_store, backend):
    kind = {"edge": "graph", "qdrant": "middleware"}[backend]  # each agent face on one backend
    store = make_store()
    model = ScriptedChatModel(responses=[])
    agent = build_agent(kind, store, model)
    for user, answer in T1:
        model.say(answer)
        run(agent, "sync", user, config(thread="t1"))
    assert store.flush(timeout=30)
    model.say(
        AIMessage("", tool_calls=[tool_call("search_conversations", {"query": "the bonsai my sister gave me"})]),
        "It was Kenji, the bonsai from Lina.",
    )
    out = run(agent, "sync", "What was the name of that plant Lina gave me?", config(thread="t2"))
    [result] = [m for m in out["messages"] if isinstance(m, ToolMessage)]
    first = result.text.splitlines()[1]
    assert first.startswith("- [exchange]") and "thread t1" in first and "Kenji" in first
    assert out["messages"][-1].text == "It was Kenji, the bonsai from Lina."
    # the same through the public call: what it is, when, and which thread
    [hit, *_] = search_conversations(store, "the bonsai my sister gave me", namespace=_ns())
    assert (hit.source, hit.thread_id, hit.user_message) == ("exchange", "t1", T1[2][0])
    assert hit.assistant_message == T1[2][1] and hit.when.tzinfo is not None
    # the t2 exchange is indexed too; tool chatter is not
    assert store.flush(timeout=30)
    side = conversations(store)
    assert side.count(Where(namespace="memories/mickael", fields=(("thread_id", ("t2",)),))) == 1
    assert side.count(Where(namespace="memories/mickael", fields=(("thread_id", ("t1",)),))) == 6
    assert search_conversations(store, "Kenji", namespace=_ns("someone-else")) == []
    assert search_conversations(store, "how do I cook pasta", namespace=_ns()) == []  # the 0.3 floor


@pytest.mark.integration
def test_a_summarised_thread_stays_searchable_as_summary_and_exchanges(make_store):
    from langchain.agents import create_agent
    from langchain.agents.middleware import SummarizationMiddleware
    from langgraph.checkpoint.memory import InMemorySaver

    from langgraph_memory import MemoryMiddleware

    store = make_store()
    summary_text = "Mickael is planning a trip to Kyoto in April with his friend Hugo; they booked a ryokan."
    summariser = ScriptedChatModel(responses=[AIMessage(summary_text)])
    model = ScriptedChatModel(responses=[])
    agent = create_agent(
        model, tools=[], checkpointer=InMemorySaver(),
        middleware=[SummarizationMiddleware(summariser, trigger=("messages", 6), keep=("messages", 2)),
                    MemoryMiddleware(store, background_stats=False)],
    )
    turns = [("I'm going to Kyoto in April.", "Kyoto in April, wonderful."),
             ("My friend Hugo comes with me.", "Travelling with Hugo, nice."),
             ("We booked a ryokan near Gion.", "A ryokan near Gion sounds great."),
             ("What should I pack?", "Light layers and comfortable shoes.")]
    for user, answer in turns:
        model.say(answer)
        out = run(agent, "sync", user, config(thread="t1"))
    assert summariser.i == 1  # LangChain compacted the thread once
    assert out["messages"][0].additional_kwargs.get("lc_source") == "summarization"
    assert store.flush(timeout=30)
    [summary] = search_conversations(store, "trip to Japan with Hugo", namespace=_ns(), sources=["summary"])
    assert summary.text == summary_text and summary.thread_id == "t1"
    assert summary.span_start is not None and summary.span_start <= summary.when
    # the turns it replaced are still there, word for word
    [exchange, *_] = search_conversations(store, "ryokan near Gion", namespace=_ns(), sources=("exchange",))
    assert exchange.user_message == "We booked a ryokan near Gion." and exchange.thread_id == "t1"
    # the summary message is indexed once, however many turns it stays in the thread
    model.say("Have a good trip.")
    run(agent, "sync", "Thanks!", config(thread="t1"))
    assert store.flush(timeout=30)
    side = conversations(store)
    assert side.count(Where(namespace="memories/mickael", fields=(("source", ("summary",)),))) == 1


class GatedEmbeddings(Embeddings):
    """The real embedder, whose document embedding waits for ``release`` (or fails)."""

    def __init__(self, inner: Embeddings, *, fail: bool = False) -> None:
        self.inner = inner
        self.model_name = getattr(inner, "model_name", "gated")
        self.release = threading.Event()
        self.release.set()
        self.entered = threading.Event()
        self.fail = fail

    def embed_query(self, text: str) -> list[float]:
        return self.inner.embed_query(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.entered.set()
        self.release.wait(30)
        if self.fail:
            raise RuntimeError("embedding service down")
        return self.inner.embed_documents(texts)


@pytest.fixture
def store_with(backend, tmp_path):
    """A store on the parametrized backend with the embedder given."""
    from qdrant_client import QdrantClient

    from langgraph_memory import MemoryStore

    opened = []

    def make(embedder: Embeddings):
        if backend == "edge":
            store = MemoryStore.open(tmp_path / "store", embeddings=embedder)
        else:
            store = MemoryStore(client=QdrantClient(":memory:"), embeddings=embedder)
        opened.append(store)
        return store

    yield make
    for store in opened:
        store.close()


def _turn(user: str, answer: str) -> dict:
    return {
        "messages": [HumanMessage(user, id="h-" + user), AIMessage(answer)],
        "memory": {"pending": True, "latest": []},
    }


@pytest.mark.integration
def test_the_post_hook_returns_before_the_exchange_is_embedded(store_with, embeddings):
    slow = GatedEmbeddings(embeddings)
    store = store_with(slow)
    posthook = MemoryPosthook(store)
    slow.release.clear()
    update = posthook(_turn("I adopted a cat called Miso.", "Congratulations on Miso!"), config(thread="t1"))
    assert update["memory"]["pending"] is False  # the turn is closed...
    assert slow.entered.wait(30)  # ...while the worker is still inside the embedder
    assert worker_for(store).stats().running == 1
    assert search_conversations(store, "cat Miso", namespace=_ns()) == []
    slow.release.set()
    assert store.flush(timeout=30)
    assert [h.user_message for h in search_conversations(store, "cat Miso", namespace=_ns())] == ["I adopted a cat called Miso."]


@pytest.mark.integration
def test_a_full_queue_drops_and_counts_and_flush_finishes_every_accepted_job(store_with, embeddings):
    slow = GatedEmbeddings(embeddings)
    store = store_with(slow)
    store._background = BackgroundWorker(max_queue=2)  # what worker_for(store) then returns
    posthook = MemoryPosthook(store)
    slow.release.clear()
    for i in range(6):  # never blocks: one job runs, two wait, three are dropped
        assert posthook(_turn(f"Fact number {i} about my garden.", f"Noted {i}."), config(thread="t1")) is not None
        if i == 0:
            assert slow.entered.wait(30)  # the first job is running: the others queue
    stats = worker_for(store).stats()
    assert stats.dropped == 3 and stats.queued == 2
    slow.release.set()
    assert store.flush(timeout=30)
    stats = worker_for(store).stats()
    assert stats.done == stats.accepted - stats.dropped == 3 and stats.queued == stats.running == 0
    kept = sorted(h.user_message for h in search_conversations(store, "my garden", namespace=_ns(), limit=10))
    assert kept == ["Fact number 0 about my garden.", "Fact number 4 about my garden.", "Fact number 5 about my garden."]


@pytest.mark.integration
def test_a_failing_embedder_leaves_the_turn_whole_and_is_counted(store_with, embeddings, caplog):
    caplog.set_level(logging.DEBUG, logger="langgraph_memory")
    broken = GatedEmbeddings(embeddings, fail=True)
    store = store_with(broken)
    model = ScriptedChatModel(responses=[])
    agent = build_agent("graph", store, model)
    for i in range(3):
        model.say(f"Sure, noted {i}.")
        out = run(agent, "sync", f"I moved to Lyon {i} months ago.", config(thread="t1"))
        assert out["messages"][-1].text == f"Sure, noted {i}."
    assert store.flush(timeout=30)
    assert worker_for(store).stats().failed == 3
    failures = [r for r in caplog.records if "job exchange failed" in r.getMessage()]
    assert [r.levelname for r in failures] == ["WARNING", "DEBUG", "DEBUG"]  # warned once, all counted


def test_turns_without_a_final_answer_or_with_tools_index_only_what_was_said():
    from langgraph_memory.agent.recall import last_exchange

    call = AIMessage("", tool_calls=[tool_call("search_memories", {"query": "x"}, "c1")])
    messages = [HumanMessage("first"), AIMessage("a1"), HumanMessage("burst one"), HumanMessage("burst two"),
                call, ToolMessage("memory text", tool_call_id="c1"), AIMessage("the answer")]
    humans, answer = last_exchange(messages, lambda m: True)
    assert [m.text for m in humans] == ["burst one", "burst two"] and answer.text == "the answer"
    assert last_exchange(messages[:-1], lambda m: True) is None  # still calling tools
    summary = HumanMessage("Here is a summary", additional_kwargs={"lc_source": "summarization"})
    assert last_exchange([summary, HumanMessage("hi"), AIMessage("hello")], lambda m: True)[0][0].text == "hi"


BAD_INPUT = [
    (lambda s: index_exchange(s, "", "answer", namespace=_ns()), "user_message"),
    (lambda s: index_exchange(s, "hi", 3, namespace=_ns()), "assistant_message"),
    (lambda s: index_exchange(s, "hi", "hello", namespace="alice"), "namespace"),
    (lambda s: index_exchange(s, "hi", "hello", namespace=_ns(), timestamp="yesterday"), "timestamp"),
    (lambda s: index_exchange(s, "hi", "hello", namespace=_ns(), exchange_id="x"), "exchange_id"),
    (lambda s: index_summary(s, "  ", namespace=_ns()), "summary"),
    (lambda s: index_summary(s, "sum", namespace=_ns(), thread_id=5), "thread_id"),
    (lambda s: search_conversations(s, "x", namespace=_ns(), sources=("emails",)), "sources"),
    (lambda s: search_conversations(s, "x", namespace=_ns(), sources=()), "sources"),
    (lambda s: search_conversations(s, "x", namespace=_ns(), limit=0), "limit"),
    (lambda s: search_conversations(s, "x", namespace=_ns(), min_score="high"), "min_score"),
    (lambda s: search_conversations(s, "", namespace=_ns()), "query"),
]


def test_bad_input_on_the_new_entry_points_is_a_typed_error_and_stores_nothing(make_store):
    store = make_store()
    for call, field in BAD_INPUT:
        with pytest.raises(InvalidMemoryError) as caught:
            call(store)
        assert caught.value.field == field
    assert conversations(store).count(Where(status=None)) == 0


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["graph", "middleware"])
def test_the_pre_hook_injects_past_exchanges_only_when_asked(make_store, kind):
    from agent_harness import system_text

    store = make_store()
    index_exchange(store, "My bonsai Kenji lost its leaves.", "Try less water.", namespace=_ns(), thread_id="old")
    for inject, thread in ((0, "a"), (3, "b")):
        model = ScriptedChatModel(responses=[AIMessage("ok")])
        agent = build_agent(kind, store, model, inject_exchanges=inject)
        run(agent, "sync", "How is my bonsai doing?", config(thread=thread))
        shown = "<past_conversations>" in system_text(model) and "Kenji lost its leaves" in system_text(model)
        assert shown is bool(inject)


def test_erasing_a_user_forgets_what_was_said_too(make_store, backend, tmp_path):
    store = make_store()
    index_exchange(store, "hi", "hello", namespace=_ns(), thread_id="t1")
    index_exchange(store, "hi", "hello", namespace=_ns("alice"), thread_id="t1")
    if backend == "edge":  # a later process, which never opened the side collection
        store.close()
        store = make_store(tmp_path / "store")
    assert store.erase(_ns()) == 1
    assert conversations(store).count(Where(status=None)) == 1  # alice's stays
