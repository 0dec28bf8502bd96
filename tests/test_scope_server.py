"""Team memories on a real ``langgraph dev`` with token auth (``tests/server_apps/teams.py``):
the namespace template ``("teams", "{team_id}", "memories")`` takes ``team_id`` from the user
the auth handler returned (``configurable["langgraph_auth_user"]``), so a client naming
another team in its context reaches nothing of that team's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.server_support import ROOT, serve

pytestmark = pytest.mark.integration

APP = ROOT / "tests" / "server_apps" / "teams.py"
RED, BLUE = ("teams", "red", "memories"), ("teams", "blue", "memories")
STORED = re.compile(r"Stored \(id: (?P<id>[0-9a-f-]+)\)")


@pytest.fixture
def server(tmp_path: Path, embeddings) -> Iterator[dict[str, Any]]:
    """The team agent served on a free port, its store seeded with the red team's secret
    (written before the server starts: one process opens the store at a time)."""
    from langgraph_memory import MemoryStore

    with MemoryStore.open(tmp_path / "memory", embeddings=embeddings) as store:
        store.remember("The red team's launch code is 4242", namespace=RED)
    config = tmp_path / "langgraph_teams.json"
    config.write_text(json.dumps({"dependencies": [str(ROOT)], "graphs": {"team_agent": f"{APP}:graph"},
                                  "auth": {"path": f"{APP}:auth"}}))
    yield from serve(tmp_path, config)


def _client(url: str, token: str) -> Any:
    from langgraph_sdk import get_sync_client

    return get_sync_client(url=url, headers={"Authorization": f"Bearer {token}"})


def _turn(client: Any, text: str, **context: Any) -> tuple[str, str]:
    """The run's status and its last message's text."""
    thread = client.threads.create()
    result = client.runs.wait(thread["thread_id"], "team_agent", raise_error=False, context=context,
                              input={"messages": [{"role": "human", "content": text}]})
    [run] = client.runs.list(thread["thread_id"])
    messages = (result or {}).get("messages") or [] if isinstance(result, dict) else []
    return run["status"], (messages[-1]["content"] if messages else str(result))


def test_a_client_team_id_reaches_only_the_authenticated_users_team(server, embeddings) -> None:
    from langgraph_memory import MemoryStore

    url = server["url"]
    alice, bob, dana, carol = (_client(url, f"token-{u}") for u in ("alice", "bob", "dana", "carol"))

    # bob (team blue) names the red team: his run reads and writes the blue team's memories.
    status, said = _turn(bob, "what is the launch code?", team_id="red")
    assert status == "success" and "4242" not in said
    status, said = _turn(bob, "remember that bob was in the red room", team_id="red")
    assert status == "success" and STORED.search(said), said
    # alice (team red) reads her team's memories, whatever she names.
    status, said = _turn(alice, "what is the launch code?", team_id="blue")
    assert status == "success" and "4242" in said and "bob was" not in said
    # dana is in both: her run names one of hers, and no other.
    assert "4242" in _turn(dana, "what is the launch code?", team_id="red")[1]
    assert "4242" not in _turn(dana, "what is the launch code?", team_id="blue")[1]
    assert _turn(dana, "what is the launch code?", team_id="green")[0] == "error"
    # carol is in no team: her client's team_id is not taken, the run fails, nothing stored.
    status, said = _turn(carol, "remember that carol owns the red team", team_id="red")
    assert status == "error" and "team_id" in said

    from tests.server_support import stop

    stop(server["proc"])
    with MemoryStore.open(server["memory_path"], embeddings=embeddings) as store:
        assert [m.content for m in store.recent(namespace=RED, since=None)] == ["The red team's launch code is 4242"]
        assert [m.content for m in store.recent(namespace=BLUE, since=None)] == ["bob was in the red room"]
