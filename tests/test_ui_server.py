"""The memory browser mounted in a real ``langgraph dev`` server with token auth: it reads
the server's own store (no second opener), and bob's session cannot reach alice's pages.
The server helpers and the token handler are test_studio's."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from test_studio import GRAPH_ID, ROOT, _serve, _stored_id, _turn, studio  # noqa: F401 (fixture)
from test_ui_browser import chromium, screenshot

pytestmark = pytest.mark.integration

PREFIX = "/memory-browser"

# A token auth without protect_store: the packaged app's own rule (each user their memories).
AUTH_HANDLER = """
from langgraph_sdk import Auth

auth = Auth()
TOKENS = {"token-alice": "alice", "token-bob": "bob"}


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    user = TOKENS.get((authorization or "").removeprefix("Bearer ").strip())
    if user is None:
        raise Auth.exceptions.HTTPException(status_code=401, detail="unknown token")
    return {"identity": user}
"""


def _config(tmp_path: Path, *, route_auth: bool) -> Path:
    (tmp_path / "auth.py").write_text(AUTH_HANDLER)
    agent = str(ROOT / "examples" / "studio_agent.py")
    config = tmp_path / "langgraph.json"
    config.write_text(json.dumps({
        "dependencies": [str(ROOT)],
        "graphs": {GRAPH_ID: agent + ":graph"},
        "store": {"path": agent + ":base_store"},
        "auth": {"path": str(tmp_path / "auth.py") + ":auth"},
        "http": {"app": "langgraph_memory.ui.server:app", "enable_custom_route_auth": route_auth},
    }))
    return config


@pytest.fixture
def mounted(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """``langgraph dev`` with the example agent, its store, a token auth, and the browser
    mounted through "http" with auth applied to custom routes."""
    yield from _serve(tmp_path, _config(tmp_path, route_auth=True))


def test_without_auth_on_custom_routes_the_browser_refuses_to_show_anything(tmp_path):
    """A server with auth that does not run it for the browser's routes: no anonymous view."""
    for server in _serve(tmp_path, _config(tmp_path, route_auth=False)):
        for headers in ({}, {"Authorization": "Bearer token-alice"}):
            page = httpx.get(server["url"] + PREFIX + "/namespace", params={"ns": "memories/alice"},
                             headers=headers, timeout=60)
            assert page.status_code == 401 and "enable_custom_route_auth" in page.text


def test_mounted_browser_shows_each_user_only_their_memories(mounted, tmp_path):
    from langgraph_sdk import get_sync_client

    url = mounted["url"]
    alice_sdk = get_sync_client(url=url, headers={"Authorization": "Bearer token-alice"})
    bob_sdk = get_sync_client(url=url, headers={"Authorization": "Bearer token-bob"})
    lina = _stored_id(_turn(alice_sdk, "alice", "remember that my sister Lina lives in Lyon", via="context"))
    cello = _stored_id(_turn(bob_sdk, "bob", "remember that I play the cello", via="context"))

    alice = httpx.Client(base_url=url + PREFIX, headers={"Authorization": "Bearer token-alice"}, timeout=60)
    bob = httpx.Client(base_url=url + PREFIX, headers={"Authorization": "Bearer token-bob"}, timeout=60)
    assert httpx.get(url + PREFIX + "/", timeout=60).status_code == 401  # no token, no page
    start = alice.get("/")
    assert start.status_code == 200 and "memories/alice" in start.text and "memories/bob" not in start.text
    own = alice.get("/namespace", params={"ns": "memories/alice"}).text
    assert "my sister Lina lives in Lyon" in own and f'data-id="{lina}"' in own  # the server's store

    assert "memories/alice" not in bob.get("/").text
    assert "I play the cello" in bob.get("/namespace", params={"ns": "memories/bob"}).text
    assert bob.get("/namespace", params={"ns": "memories/alice"}).status_code == 403
    assert bob.get("/memory", params={"ns": "memories/alice", "id": lina}).status_code == 403
    assert bob.get("/memory", params={"ns": "memories/bob", "id": lina}).status_code == 404
    assert bob.get("/conversations", params={"ns": "memories/alice", "q": "sister"}).status_code == 403
    assert bob.get("/gardener").status_code == 403
    page = bob.get("/namespace", params={"ns": "memories/bob"}).text
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page).group(1)
    erase = bob.post("/actions/erase", data={"ns": "memories/alice", "confirm": "memories/alice", "csrf": csrf})
    assert erase.status_code == 403
    assert lina in alice.get("/namespace", params={"ns": "memories/alice"}).text
    assert alice.get("/memory", params={"ns": "memories/bob", "id": cello}).status_code == 403

    # The same in Chromium, bob's token added by the browser to every request.
    browser = chromium(tmp_path / "profile", headers={"Authorization": "Bearer token-bob"})
    try:
        browser.get(f"{url}{PREFIX}/namespace?ns=memories%2Falice")
        assert "you may not read memories/alice" in browser.page_source
        assert "Lina" not in browser.page_source
        screenshot(browser, "server-bob-refused")
        browser.get(f"{url}{PREFIX}/")
        assert "memories/bob" in browser.page_source and "memories/alice" not in browser.page_source
    finally:
        browser.quit()


def test_the_repositorys_langgraph_json_mounts_the_browser(studio):
    """Without auth (the repository's langgraph.json), the server's store is browsable by
    whoever reaches the server, like its store API."""
    from langgraph_sdk import get_sync_client

    assert json.loads((ROOT / "langgraph.json").read_text())["http"]["app"] == "langgraph_memory.ui.server:app"
    lina = _stored_id(_turn(get_sync_client(url=studio["url"]), "alice", "remember that my sister Lina lives in Lyon",
                            via="context"))
    browser = httpx.Client(base_url=studio["url"] + PREFIX, timeout=60)
    assert "memories/alice" in browser.get("/").text
    page = browser.get("/memory", params={"ns": "memories/alice", "id": lina})
    assert page.status_code == 200 and "my sister Lina lives in Lyon" in page.text
    assert browser.get("/gardener").status_code == 200
