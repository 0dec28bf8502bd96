"""One user's input never switches memory off for the others: the MemoryGate counts as an
outage only what comes from the store, its engine or its embedder; any other error fails
the run that raised it, and the next run (another user's) has memory as before."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.embeddings import Embeddings
from langchain_core.messages import HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from langgraph_memory import (
    AccessDeniedError,
    InvalidMemoryError,
    MemoryMiddleware,
    MemoryStore,
    StorageError,
    StoreLockedError,
    StoreUnavailableError,
    build_memory_graph,
)
from langgraph_memory.agent.availability import reset_unavailable_warnings, unavailability_cause
from agent_harness import ToolRecordingModel

POISON = "\u2620"


class ChokingEmbeddings(Embeddings):
    """The real embedder, raising an exception of a type nobody expects on one input: as a
    tokenizer or a parser bug a client could reach with crafted text."""

    def __init__(self, inner: Embeddings) -> None:
        self.inner = inner
        self.model_name = getattr(inner, "model_name", "choking")

    def _check(self, texts: list[str]) -> None:
        if any(POISON in t for t in texts):
            raise RuntimeError("the tokenizer choked")

    def embed_query(self, text: str) -> list[float]:
        self._check([text])
        return self.inner.embed_query(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self._check(texts)
        return self.inner.embed_documents(texts)


@pytest.fixture(autouse=True)
def fresh_warnings():
    reset_unavailable_warnings()
    yield
    reset_unavailable_warnings()


def _cfg(user: str, thread: str, **extra: Any) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread, "user_id": user, **extra}}


def _invoke(agent: Any, mode: str, text: str, cfg: dict[str, Any]) -> dict[str, Any]:
    state = {"messages": [HumanMessage(text)]}
    return agent.invoke(state, cfg) if mode == "sync" else asyncio.run(agent.ainvoke(state, cfg))


HOSTILE = [
    ("a message the embedder chokes on", f"hello {POISON}", {}),
]


def _gated_agent(kind: str, store: Any, model: ToolRecordingModel) -> tuple[Any, Any]:
    # An outage would keep memory off for an hour: any switch-off shows in the next run.
    options = {"retry_interval": 3600, "background_stats": False}
    if kind == "graph":
        agent = build_memory_graph(model, store, checkpointer=InMemorySaver(), **options)
        return agent, agent.memory_gate
    from langchain.agents import create_agent

    middleware = MemoryMiddleware(store, **options)
    return create_agent(model, tools=[], middleware=[middleware], checkpointer=InMemorySaver()), middleware.gate


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["graph", "middleware"])
@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("label,text,extra", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_run_does_not_turn_memory_off_for_another_user(tmp_path, embeddings, kind, mode, label, text, extra):
    store = MemoryStore.open(tmp_path / "store", embeddings=ChokingEmbeddings(embeddings))
    try:
        store.remember("Bob's bonsai is called Kenji", namespace=("memories", "bob"))
        model = ToolRecordingModel(responses=[])
        agent, gate = _gated_agent(kind, store, model)

        with pytest.raises(Exception) as caught:
            _invoke(agent, mode, text, _cfg("mallory", "m1", **extra))
        assert unavailability_cause(caught.value) is None  # the run failed, as the caller's error
        assert model.received == []  # before reaching the model
        assert gate.up and gate.cause is None

        model.say("Kenji is doing fine.")
        out = _invoke(agent, mode, "How is my bonsai?", _cfg("bob", "b1"))
        assert out["messages"][-1].text == "Kenji is doing fine."
        assert model.offered[-1]  # the memory tools were offered (the graph has no other)
        assert "Kenji" in str(model.received[-1])  # bob's memory was injected
        assert store.count(namespace=("memories", "mallory")) == 0  # the failed run stored nothing
    finally:
        store.close()


def test_only_store_engine_and_embedder_failures_are_outages():
    class UnexpectedResponse(Exception):  # qdrant-client's, by name, without a server
        def __init__(self, status_code: int) -> None:
            super().__init__(status_code)
            self.status_code = status_code

    def wrapped(cause: BaseException) -> StoreUnavailableError:
        try:
            raise StoreUnavailableError("the memory store is unavailable") from cause
        except StoreUnavailableError as exc:
            return exc

    assert unavailability_cause(StorageError("Qdrant Edge failed")) == "storage-error"
    assert unavailability_cause(StoreLockedError("held")) == "store-locked"
    assert unavailability_cause(ConnectionRefusedError("down")) == "store-unreachable"
    assert unavailability_cause(UnexpectedResponse(503)) == "store-error"
    assert unavailability_cause(wrapped(ConnectionRefusedError("down"))) == "store-unreachable"
    assert unavailability_cause(wrapped(RuntimeError("the factory failed"))) == "error:RuntimeError"
    # The caller's: a refused request, a typed input error, a permission, anything unknown.
    assert unavailability_cause(UnexpectedResponse(400)) is None
    assert unavailability_cause(AccessDeniedError("not a member")) is None  # a PermissionError, so an OSError
    assert unavailability_cause(InvalidMemoryError("rooms", "bad")) is None
    assert unavailability_cause(wrapped(InvalidMemoryError("path", "bad"))) is None
    for exc in (TypeError("x"), KeyError("x"), AttributeError("x"), RecursionError(), UnicodeError(), OverflowError()):
        assert unavailability_cause(exc) is None, exc


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([TypeError, ValueError, KeyError, AttributeError, IndexError, RuntimeError, AssertionError,
                        UnicodeError, OverflowError, ZeroDivisionError, LookupError, NotImplementedError]),
       st.text(max_size=40))
def test_no_error_a_client_can_raise_is_an_outage(kind, message):
    assert unavailability_cause(kind(message)) is None


@pytest.mark.integration
@pytest.mark.parametrize("mode", ["sync", "async"])
@pytest.mark.parametrize("where", ["context", "configurable"])
def test_rooms_that_are_not_names_fail_the_run_with_a_typed_error(tmp_path, embeddings, mode, where):
    store = MemoryStore.open(tmp_path / "store", embeddings=embeddings)
    try:
        model = ToolRecordingModel(responses=[])
        agent = build_memory_graph(model, store, checkpointer=InMemorySaver(), retry_interval=3600,
                                   background_stats=False)
        cfg = _cfg("mallory", "m1", **({"rooms": 5} if where == "configurable" else {}))
        state = {"messages": [HumanMessage("hello")]}
        context = {"rooms": 5} if where == "context" else None
        with pytest.raises(InvalidMemoryError, match="rooms"):
            if mode == "sync":
                agent.invoke(state, cfg, context=context)
            else:
                asyncio.run(agent.ainvoke(state, cfg, context=context))
        assert agent.memory_gate.up and model.received == []
    finally:
        store.close()


_RUNTIME_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20) | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    | st.frozensets(st.text(max_size=5), max_size=3),
    max_leaves=6,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(_RUNTIME_VALUES, st.sampled_from(["context", "configurable"]))
def test_rooms_from_the_runtime_are_names_or_a_typed_error(value, where):
    from langgraph_memory.agent.rooms import rooms_from_runtime

    config = {"configurable": {"rooms": value}} if where == "configurable" else None
    context = {"rooms": value} if where == "context" else None
    try:
        rooms = rooms_from_runtime(config, context)
    except InvalidMemoryError:
        return
    assert isinstance(rooms, tuple) and all(isinstance(r, str) and r.strip() for r in rooms)
    assert value is None or isinstance(value, (str, list, tuple))


# -- OSError is not an outage unless it is the network's ------------------------------------


def test_only_network_oserrors_are_outages():
    import errno
    import socket
    import ssl

    def wrapped(cause: BaseException) -> StoreUnavailableError:
        try:
            raise StoreUnavailableError("the memory store is unavailable") from cause
        except StoreUnavailableError as exc:
            return exc

    # What a bad path or a refused permission raises: the caller's, whatever sent it.
    for exc in (FileNotFoundError(2, "no such file", "/tmp/../etc/x"), PermissionError(13, "denied"),
                IsADirectoryError(21, "is a directory"), NotADirectoryError(20, "not a directory"),
                FileExistsError(17, "exists"), OSError(errno.ENOSPC, "no space"), OSError("bare"),
                OSError(errno.EINVAL, "invalid argument"), BlockingIOError(errno.EAGAIN, "busy")):
        assert unavailability_cause(exc) is None, exc
    # The network's: the store cannot be reached.
    for exc in (ConnectionRefusedError(111, "refused"), ConnectionResetError(104, "reset"), BrokenPipeError(32, "pipe"),
                TimeoutError("timed out"), socket.timeout("timed out"), socket.gaierror(-2, "Name or service not known"),
                OSError(errno.EHOSTUNREACH, "no route to host"), OSError(errno.ENETUNREACH, "network is unreachable"),
                ssl.SSLError("handshake failed")):
        assert unavailability_cause(exc) == "store-unreachable", exc
    # A store that cannot be opened at all stays an outage, whatever its OSError.
    assert unavailability_cause(wrapped(PermissionError(13, "denied"))) == "error:PermissionError"
    assert unavailability_cause(wrapped(ConnectionRefusedError(111, "refused"))) == "store-unreachable"


class PathChokingEmbeddings(ChokingEmbeddings):
    """The real embedder, raising FileNotFoundError on one input: as an embedder that opens
    a file (a vocabulary, a cache) named after what it was given would."""

    def _check(self, texts: list[str]) -> None:
        if any(POISON in t for t in texts):
            raise FileNotFoundError(2, "No such file or directory", "../../" + POISON)


@pytest.mark.integration
@pytest.mark.parametrize("kind", ["graph", "middleware"])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_run_meeting_a_file_error_does_not_turn_memory_off_for_another_user(tmp_path, embeddings, kind, mode):
    store = MemoryStore.open(tmp_path / "store", embeddings=PathChokingEmbeddings(embeddings))
    try:
        store.remember("Bob's bonsai is called Kenji", namespace=("memories", "bob"))
        model = ToolRecordingModel(responses=[])
        agent, gate = _gated_agent(kind, store, model)
        with pytest.raises(FileNotFoundError):
            _invoke(agent, mode, f"open {POISON}", _cfg("mallory", "m1"))
        assert gate.up and gate.cause is None and model.received == []

        model.say("Kenji is doing fine.")
        out = _invoke(agent, mode, "How is my bonsai?", _cfg("bob", "b1"))
        assert out["messages"][-1].text == "Kenji is doing fine."
        assert "Kenji" in str(model.received[-1])  # bob's memory was injected: memory stayed on
    finally:
        store.close()
