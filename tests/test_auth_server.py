"""Multi-user security on a real ``langgraph dev`` with token auth and ``protect_store``.

The server runs ``langgraph_auth.json`` (``examples/auth.py``: demo tokens for
alice, bob and the admin ops, ``protect_store(auth, admins={"ops"}, store=...)`` and the
README's ``agent_writes=lambda ctx: ctx["user_id"] in ADMINS``); the test talks to it with
``langgraph_sdk`` as alice, bob, ops and an anonymous client.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Iterator

import httpx
import pytest

from tests.server_support import ROOT, serve, stop

pytestmark = pytest.mark.integration

GRAPH_ID = "memory_agent"
STORED = re.compile(r"Stored \(id: (?P<id>[0-9a-f-]+)\)")
ROOMS = ("rooms", "agent")


@pytest.fixture
def server(tmp_path: Path, embeddings) -> Iterator[dict[str, Any]]:
    """The auth example served on a free port, its store seeded with a room only alice is
    a member of (written before the server starts: membership lives in the store)."""
    from langgraph_memory import MemoryStore

    with MemoryStore.open(tmp_path / "memory", embeddings=embeddings) as store:
        store.set_room_members("team", ["alice"], namespace=ROOMS)
    yield from serve(tmp_path, ROOT / "langgraph_auth.json")


def _client(url: str, token: str | None) -> Any:
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=url, headers={"Authorization": f"Bearer {token}"} if token else {})


def _status(call: Callable[[], Any]) -> int:
    """The HTTP status a call fails with (the test fails if it succeeds)."""
    with pytest.raises(httpx.HTTPStatusError) as failed:
        call()
    return failed.value.response.status_code


def _turn(client: Any, text: str, **context: Any) -> dict[str, Any]:
    thread = client.threads.create()
    client.runs.wait(thread["thread_id"], GRAPH_ID, input={"messages": [{"role": "human", "content": text}]},
                     context=context)
    return client.threads.get_state(thread["thread_id"])["values"]


def _stored(values: dict[str, Any], tool: str = "store_memory") -> str:
    [message] = [m for m in values["messages"] if m["type"] == "tool" and m["name"] == tool]
    found = STORED.search(message["content"])
    assert found, message["content"]
    return found.group("id")


def _namespaces(client: Any, **kwargs: Any) -> set[tuple[str, ...]]:
    return {tuple(ns) for ns in client.store.list_namespaces(**kwargs)["namespaces"]}


def test_each_user_reaches_only_their_own_memories_through_the_store_api(server, embeddings) -> None:
    url = server["url"]
    alice, bob, ops, anonymous = (_client(url, t) for t in ("token-alice", "token-bob", "token-ops", None))

    # Anonymous requests get nothing.
    assert _status(lambda: anonymous.store.search_items(["memories", "alice"])) == 401
    assert _status(lambda: anonymous.store.list_namespaces()) == 401
    assert _status(lambda: anonymous.threads.create()) == 401
    assert _status(lambda: _client(url, "token-forged").store.get_item(["memories", "alice"], "x")) == 401
    # langgraph dev lets Studio's requests in without a token (a StudioUser, not authenticated).
    from langgraph_sdk import get_sync_client

    studio = get_sync_client(url=url, headers={"x-auth-scheme": "langsmith"})
    assert _status(lambda: studio.store.search_items(["memories", "alice"])) == 401
    assert _status(lambda: studio.store.list_namespaces()) == 401

    # Each stores through the agent; a client-set user_id names nobody else.
    lina = _stored(_turn(alice, "remember that my sister Lina lives in Lyon", user_id="alice"))
    cello = _stored(_turn(bob, "remember that I play the cello", user_id="alice"))

    # bob cannot search, get, put, delete or list alice's memories.
    assert _status(lambda: bob.store.search_items(["memories", "alice"])) == 403
    assert _status(lambda: bob.store.search_items(["memories", "alice", "deeper"])) == 403
    assert _status(lambda: bob.store.get_item(["memories", "alice"], lina)) == 403
    assert _status(lambda: bob.store.put_item(["memories", "alice"], lina, {"content": "Lina moved to Oslo"})) == 403
    assert _status(lambda: bob.store.delete_item(["memories", "alice"], lina)) == 403
    assert _status(lambda: bob.store.list_namespaces(prefix=["memories", "alice"])) == 403
    # Prefix searches and listings above his own namespace are narrowed to it.
    for prefix in ([], ["memories"]):
        found = bob.store.search_items(prefix, query="where does my sister live?", limit=50)["items"]
        assert [i["key"] for i in found] == [cello], prefix
    assert _namespaces(bob) == {("memories", "bob")}
    assert _namespaces(bob, prefix=["memories"]) == {("memories", "bob")}
    assert _namespaces(bob, suffix=["alice"]) == set()
    assert _namespaces(bob, max_depth=1) == {("memories",)}
    assert _status(lambda: bob.store.list_namespaces(prefix=["rooms"])) == 403

    # alice reaches her own, unchanged by bob's attempts.
    assert alice.store.get_item(["memories", "alice"], lina)["value"]["content"] == "my sister Lina lives in Lyon"
    assert [i["key"] for i in alice.store.search_items(["memories", "alice"])["items"]] == [lina]
    alice.store.put_item(["memories", "alice"], "note", {"content": "a note of alice's"})
    assert alice.store.get_item(["memories", "alice"], "note")["value"] == {"content": "a note of alice's"}
    alice.store.delete_item(["memories", "alice"], "note")
    assert _namespaces(alice) == {("memories", "alice")}
    # The admin reaches everything.
    assert {("memories", "alice"), ("memories", "bob")} <= _namespaces(ops)
    assert ops.store.get_item(["memories", "bob"], cello)["value"]["content"] == "I play the cello"

    # The agent's namespace: readable by both, writable only as agent_writes allows (ops).
    assert _status(lambda: bob.store.put_item(["agent", "agent"], "x", {"content": "I am a pirate"})) == 403
    ops.store.put_item(["agent", "agent"], "motto", {"content": "I keep my users' secrets"})
    for user in (alice, bob):
        assert user.store.get_item(["agent", "agent"], "motto")["value"]["content"] == "I keep my users' secrets"
    # In a run, a client-set user_id "ops" does not pass agent_writes; the real ops does.
    refused = _turn(bob, "remember about yourself that you are a pirate", user_id="ops")
    [tool] = [m for m in refused["messages"] if m["type"] == "tool"]
    assert "may not change" in tool["content"]
    kept = _stored(_turn(ops, "remember about yourself that you speak French", user_id="bob"), "store_self")
    assert kept in {i["key"] for i in bob.store.search_items(["agent", "agent"])["items"]}

    # A room with members: invisible to a non-member's run, closed to a non-member's posts.
    alice.runs.wait(None, "room", context={"room": "team"}, input={"messages": [
        {"role": "human", "content": "David is leaving for Greece tomorrow", "name": "carol"}]})
    with pytest.raises(Exception):
        bob.runs.wait(None, "room", context={"room": "team"}, input={"messages": [
            {"role": "human", "content": "David quit and is moving to Greece", "name": "alice"}]})
    asked = _turn(alice, "Where is David going?", rooms=["team"])["messages"][-1]["content"]
    assert "Greece" in asked and "alice (as carol)" in asked and "quit" not in asked
    for context in ({"rooms": ["team"]}, {"rooms": ["team"], "user_id": "alice"}):
        assert "Greece" not in _turn(bob, "Where is David going?", **context)["messages"][-1]["content"]
    report = bob.runs.wait(None, "digest", input={"rooms": ["team"]})["reports"][0]
    assert "not a member" in report["error"]
    # A wildcard listing names no room closed to the lister; a value nested past the
    # engine's decoder (which would break every scroll of the store) is a bad request.
    ops.store.put_item(["rooms", "agent", "team"], "plan", {"content": "the team's plan"})
    assert _status(lambda: bob.store.list_namespaces(prefix=["rooms", "agent", "*"])) == 403
    assert ("rooms", "agent", "team") in _namespaces(alice, prefix=["rooms", "agent", "*"])
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(130):
        node = node.setdefault("n", {})
    assert _status(lambda: bob.store.put_item(["memories", "bob"], "deep", deep)) == 400

    # Threads (messages and memory ledgers) are their owner's too (the example's thread rule).
    mine = alice.threads.search(limit=100)
    assert mine and all(t["metadata"].get("owner") == "alice" for t in mine)
    assert not any("Lina" in str(t.get("values")) for t in bob.threads.search(limit=100))
    assert _status(lambda: bob.threads.get_state(mine[0]["thread_id"])) == 404

    stop(server["proc"])
    from langgraph_memory import MemoryStore

    with MemoryStore.open(server["memory_path"], embeddings=embeddings) as store:
        assert [m.content for m in store.recent(namespace=("memories", "alice"), since=None)] == [
            "my sister Lina lives in Lyon"]
        assert [m.content for m in store.recent(namespace=("memories", "bob"), since=None)] == ["I play the cello"]
        assert [(m.shown_author, m.content) for m in store.live_messages(namespace=ROOMS, room="team")] == [
            ("alice (as carol)", "David is leaving for Greece tomorrow")]
        assert "pirate" not in str([m.content for m in store.recent(namespace=("agent", "agent"), since=None,
                                                                   kinds=("self",))])


def test_the_auth_examples_memory_browser_asks_the_store_apis_rule(server) -> None:
    """examples/auth.py mounts the memory browser with the policy protect_store returned:
    bob is refused alice's pages, the room closed to him is not listed, the admin sees all."""
    url = server["url"]
    lina = _stored(_turn(_client(url, "token-alice"), "remember that my sister Lina lives in Lyon"))
    pages = {who: httpx.Client(base_url=url + "/memory-browser", timeout=60,
                               headers={"Authorization": f"Bearer token-{who}"}) for who in ("alice", "bob", "ops")}
    assert httpx.get(url + "/memory-browser/", timeout=60).status_code == 401
    assert "my sister Lina lives in Lyon" in pages["alice"].get("/memory", params={"ns": "memories/alice", "id": lina}).text
    assert pages["bob"].get("/namespace", params={"ns": "memories/alice"}).status_code == 403
    assert pages["bob"].get("/memory", params={"ns": "memories/alice", "id": lina}).status_code == 403
    assert "memories/alice" not in pages["bob"].get("/").text
    assert pages["ops"].get("/memory", params={"ns": "memories/alice", "id": lina}).status_code == 200


def test_an_email_identity_reaches_its_memories_through_the_store_api(server, embeddings) -> None:
    """eve@example.com (a period in the identity, which the store API refuses in labels)
    stores through a run and reads, lists and writes her namespace under its label."""
    url = server["url"]
    eve, bob = _client(url, "token-eve"), _client(url, "token-bob")
    mine = ["memories", "eve@example%2Ecom"]
    kept = _stored(_turn(eve, "remember that my cat is called Miso", user_id="bob"))
    assert eve.store.get_item(mine, kept)["value"]["content"] == "my cat is called Miso"
    assert [i["key"] for i in eve.store.search_items(mine)["items"]] == [kept]
    assert [i["key"] for i in eve.store.search_items(["memories"])["items"]] == [kept]  # narrowed to hers
    assert _namespaces(eve) == {tuple(mine)}
    eve.store.put_item(mine, "note", {"content": "a note of eve's"})
    assert eve.store.get_item(mine, "note")["value"] == {"content": "a note of eve's"}
    # A look-alike label is someone else's (the identity "eve@example%2Ecom" would own
    # "eve@example%252Ecom"), and eve reaches nobody else's namespace.
    assert _status(lambda: bob.store.get_item(mine, kept)) == 403
    assert _status(lambda: eve.store.search_items(["memories", "eve@example%252Ecom"])) == 403
    assert _status(lambda: eve.store.search_items(["memories", "bob"])) == 403
    asked = _turn(eve, "What is my cat called?")["messages"][-1]["content"]
    assert "Miso" in asked  # the pre-hook reads the same labelled namespace
