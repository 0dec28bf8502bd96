"""LangGraph Studio end to end: ``langgraph dev`` serves langgraph.json's memory agent.

The server is the real one (``langgraph dev``, in-memory runtime) with the offline agent of
``examples/studio_agent.py``; the test talks to it with ``langgraph_sdk`` over 127.0.0.1
only, as Studio would, then stops it by its process group and checks nothing is left.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
GRAPH_ID = "memory_agent"
READY_TIMEOUT = 150.0
STORED = re.compile(r"Stored \(id: (?P<id>[0-9a-f-]+)\)")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process exists but is not ours to signal
        return True
    return True


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server's process group (a clean shutdown releases the store), then
    SIGKILL whatever did not exit."""
    pgid = proc.pid  # start_new_session=True: the server leads its own group
    if _group_alive(pgid):
        os.killpg(pgid, signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(pgid, signal.SIGKILL)
        proc.wait(timeout=10)
    deadline = time.monotonic() + 15
    while _group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.2)
    if _group_alive(pgid):
        os.killpg(pgid, signal.SIGKILL)


def _wait_ready(proc: subprocess.Popen[bytes], url: str, log: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"langgraph dev exited with {proc.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with urllib.request.urlopen(f"{url}/ok", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
    pytest.fail(f"langgraph dev not ready after {READY_TIMEOUT:.0f} s:\n{log.read_text(errors='replace')}")


@pytest.fixture
def studio(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A ``langgraph dev`` server on a free local port, with its own memory store."""
    port = _free_port()
    memory_path = tmp_path / "memory"
    log = tmp_path / "langgraph_dev.log"
    env = {
        **os.environ,
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "LANGGRAPH_NO_VERSION_CHECK": "true",
        "LANGGRAPH_MEMORY_PATH": str(memory_path),
        "LANGSMITH_TRACING": "false",
        "LANGCHAIN_TRACING_V2": "false",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }
    env.pop("OPENAI_API_KEY", None)  # the offline model and embedder
    # --no-reload: the embedded store is opened by one process at a time.
    command = [sys.executable, "-m", "langgraph_cli", "dev", "--host", "127.0.0.1", "--port", str(port),
               "--no-browser", "--no-reload"]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    server = {"url": f"http://127.0.0.1:{port}", "memory_path": memory_path, "log": log, "proc": proc}
    try:
        _wait_ready(proc, server["url"], log)
        yield server
    finally:
        _stop(proc)
    assert proc.returncode is not None
    assert not _group_alive(proc.pid), "langgraph dev left a process behind"


def _turn(client: Any, user: str, text: str, *, via: str) -> dict[str, Any]:
    """One user turn in a new thread; returns the thread's state values after the run."""
    thread = client.threads.create()
    payload = {"messages": [{"role": "human", "content": text}]}
    if via == "context":  # how Studio's context form passes it
        client.runs.wait(thread["thread_id"], GRAPH_ID, input=payload, context={"user_id": user})
    else:
        client.runs.wait(thread["thread_id"], GRAPH_ID, input=payload, config={"configurable": {"user_id": user}})
    return client.threads.get_state(thread["thread_id"])["values"]


def _stored_id(values: dict[str, Any]) -> str:
    tools = [m for m in values["messages"] if m["type"] == "tool" and m["name"] == "store_memory"]
    assert len(tools) == 1, values["messages"]
    found = STORED.search(tools[0]["content"])
    assert found, tools[0]["content"]
    return found.group("id")


def test_studio_serves_the_memory_agent_per_user(studio: dict[str, Any], embeddings) -> None:
    from langgraph_sdk import get_sync_client

    config = json.loads((ROOT / "langgraph.json").read_text())
    assert GRAPH_ID in config["graphs"]
    client = get_sync_client(url=studio["url"])
    assistant = client.assistants.search(graph_id=GRAPH_ID)[0]
    schemas = client.assistants.get_schemas(assistant["assistant_id"])
    assert "user_id" in schemas["context_schema"]["properties"]  # Studio's context form
    assert "memory" in schemas["state_schema"]["properties"]  # the ledger is in the thread state

    # Both users store first, so that each question could see the other's memory if scoping failed.
    a1 = _turn(client, "alice", "remember that my sister Lina lives in Lyon", via="configurable")
    b1 = _turn(client, "bob", "remember that I play the cello", via="context")
    lina, cello = _stored_id(a1), _stored_id(b1)
    assert a1["memory"]["injected"].get(lina) is not None  # stored this turn: known to the ledger
    assert b1["memory"]["injected"].get(cello) is not None

    a2 = _turn(client, "alice", "where does my sister live?", via="configurable")
    b2 = _turn(client, "bob", "what do you know about me?", via="context")

    latest = {e["id"]: e for e in a2["memory"]["latest"]}
    assert lina in latest, a2["memory"]
    # A plain fact (importance 0.6) close to the question: the similar channel, which runs before recent.
    assert latest[lina]["channel"] == "similar" and latest[lina]["reason"].startswith("similar (score")
    assert a2["memory"]["query"] == "where does my sister live?"
    assert cello not in {e["id"] for e in a2["memory"]["context"]}
    assert all("cello" not in e["content"] for e in a2["memory"]["context"])
    assert "Lina" in a2["messages"][-1]["content"] and "cello" not in a2["messages"][-1]["content"]

    bob_seen = {e["id"]: e for e in b2["memory"]["context"]}
    assert cello in bob_seen and bob_seen[cello]["content"] == "I play the cello"
    assert lina not in bob_seen and all("Lina" not in e["content"] for e in bob_seen.values())
    assert "cello" in b2["messages"][-1]["content"] and "Lina" not in b2["messages"][-1]["content"]

    # Silent injection: the memory block reached the model, never the thread's messages.
    for values in (a1, a2, b1, b2):
        assert all("<memories>" not in str(m["content"]) for m in values["messages"])

    # Rooms: the room graph observes #lobby, a run naming the room sees the live excerpt,
    # the digest graph turns it into a fact and empties the room, the next run sees the fact.
    assert {"room", "digest"} <= set(config["graphs"])
    room_thread = client.threads.create()
    client.runs.wait(room_thread["thread_id"], "room", context={"room": "lobby"}, input={"messages": [
        {"role": "human", "content": "I'm leaving for Greece tomorrow", "name": "david"},
        {"role": "human", "content": "lol", "name": "sarah"}]})
    asked = client.threads.create()
    client.runs.wait(asked["thread_id"], GRAPH_ID, input={"messages": [{"role": "human", "content": "Where is David going?"}]},
                     context={"user_id": "carol", "rooms": ["lobby"]})
    values = client.threads.get_state(asked["thread_id"])["values"]
    live = [e for e in values["memory"]["latest"] if e["channel"] == "live"]
    assert [(e["author"], e["content"]) for e in live] == [("david", "I'm leaving for Greece tomorrow")]
    assert "Greece" in values["messages"][-1]["content"]
    report = client.runs.wait(None, "digest", input={"rooms": ["lobby"]})["reports"][0]
    assert (report["read"], report["stored"]) == (2, 1), report
    client.runs.wait(asked["thread_id"], GRAPH_ID, input={"messages": [{"role": "human", "content": "And David?"}]},
                     context={"user_id": "carol", "rooms": ["lobby"]})
    values = client.threads.get_state(asked["thread_id"])["values"]
    assert not [e for e in values["memory"]["context"] if e["channel"] == "live"]

    # Stop the server, which must release the embedded store, then read what it stored.
    _stop(studio["proc"])
    assert studio["proc"].returncode is not None
    from langgraph_memory import MemoryStore

    with MemoryStore.open(studio["memory_path"], embeddings=embeddings) as store:
        alice = store.recent(namespace=("memories", "alice"), since=None)
        bob = store.recent(namespace=("memories", "bob"), since=None)
    assert [(m.id, m.content) for m in alice] == [(lina, "my sister Lina lives in Lyon")]
    assert [(m.id, m.content) for m in bob] == [(cello, "I play the cello")]
