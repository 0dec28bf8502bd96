"""LangGraph Studio end to end: ``langgraph dev`` serves langgraph.json's memory agent.

The server is the real one (``langgraph dev``, in-memory runtime) with the offline agent of
``examples/studio_agent.py``; the test talks to it with ``langgraph_sdk`` over 127.0.0.1
only, as Studio would, then stops it by its process group and checks nothing is left.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

pytestmark = pytest.mark.integration

from tests.server_support import ROOT, group_alive as _group_alive, serve as _serve, stop as _stop

GRAPH_ID = "memory_agent"
STORED = re.compile(r"Stored \(id: (?P<id>[0-9a-f-]+)\)")


@pytest.fixture
def studio(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A ``langgraph dev`` server on a free local port, with its own memory store."""
    yield from _serve(tmp_path)


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


def _check_store_api(client: Any, *, lina: str, cello: str) -> None:
    """langgraph.json's store is our BaseStore over the same memories: the SDK's
    client.store.* (what Studio's memory view calls) lists them per user."""
    alice = client.store.search_items(["memories", "alice"])["items"]
    assert [(i["key"], i["value"]["content"]) for i in alice] == [(lina, "my sister Lina lives in Lyon")]
    assert client.store.get_item(["memories", "alice"], lina)["value"]["content"] == "my sister Lina lives in Lyon"
    found = client.store.search_items(["memories"], query="where does my sister live?")["items"]
    assert found[0]["key"] == lina and found[0]["score"] > 0
    assert {tuple(ns) for ns in client.store.list_namespaces(prefix=["memories"])["namespaces"]} == {
        ("memories", "alice"), ("memories", "bob")}
    bob = client.store.search_items(["memories", "bob"])["items"]
    assert [i["key"] for i in bob] == [cello] and all("Lina" not in str(i["value"]) for i in bob)
    client.store.put_item(["memories", "alice"], "note", {"content": "a note from the SDK"})
    assert client.store.get_item(["memories", "alice"], "note")["value"] == {"content": "a note from the SDK"}
    assert "note" not in {i["key"] for i in client.store.search_items(["memories", "bob"])["items"]}
    client.store.delete_item(["memories", "alice"], "note")
    assert [i["key"] for i in client.store.search_items(["memories", "alice"])["items"]] == [lina]


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
    # The ledger holds ids and turns, never memory text: checkpoints could not erase it.
    assert all(set(e) <= {"id", "channel", "reason", "turn", "score", "scope"} for e in a2["memory"]["context"])
    assert "Lina" in a2["messages"][-1]["content"] and "cello" not in a2["messages"][-1]["content"]

    bob_seen = {e["id"]: e for e in b2["memory"]["context"]}
    assert cello in bob_seen and "I play the cello" not in str(b2["memory"])
    assert lina not in bob_seen
    assert "cello" in b2["messages"][-1]["content"] and "Lina" not in b2["messages"][-1]["content"]

    # A run without a user fails, and the client reads why and what to pass.
    thread = client.threads.create()
    with pytest.raises(Exception, match=r"^MemoryScopeError: no 'user_id' .*context=.*configurable"):
        client.runs.wait(thread["thread_id"], GRAPH_ID,
                         input={"messages": [{"role": "human", "content": "remember that I am nobody"}]})

    # Silent injection: the memory block reached the model, never the thread's messages.
    for values in (a1, a2, b1, b2):
        assert all("<memories>" not in str(m["content"]) for m in values["messages"])

    _check_store_api(client, lina=lina, cello=cello)
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
    assert len(live) == 1 and "#lobby" in live[0]["reason"]  # ids only: the text is read at each call
    assert "content" not in live[0]
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


@pytest.fixture
def studio_with_auth(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """``langgraph dev`` serving the auth example (langgraph_auth.json: examples/auth.py's
    demo tokens, protect_store); tests/test_auth_server.py tries it as an attacker."""
    yield from _serve(tmp_path, ROOT / "langgraph_auth.json")


def test_on_a_server_with_auth_the_namespace_is_the_authenticated_user(studio_with_auth, embeddings) -> None:
    """A client that sets another user_id (context or configurable) still reads and writes
    only its authenticated user's memories."""
    from langgraph_sdk import get_sync_client

    alice = get_sync_client(url=studio_with_auth["url"], headers={"Authorization": "Bearer token-alice"})
    bob = get_sync_client(url=studio_with_auth["url"], headers={"Authorization": "Bearer token-bob"})
    stored = _turn(alice, "bob", "remember that I play the cello", via="context")
    cello = _stored_id(stored)
    spoofed = _turn(bob, "alice", "what do you know about me?", via="configurable")
    assert cello not in {e["id"] for e in spoofed["memory"]["context"]}
    assert "cello" not in spoofed["messages"][-1]["content"]
    own = _turn(alice, "mallory", "what do you know about me?", via="context")
    assert cello in {e["id"] for e in own["memory"]["context"]} and "cello" in own["messages"][-1]["content"]

    _stop(studio_with_auth["proc"])
    from langgraph_memory import MemoryStore

    with MemoryStore.open(studio_with_auth["memory_path"], embeddings=embeddings) as store:
        assert [m.id for m in store.recent(namespace=("memories", "alice"), since=None)] == [cello]
        assert store.count(namespace=("memories", "bob")) == 0
        assert store.count(namespace=("memories", "mallory")) == 0
