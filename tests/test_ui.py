"""The memory browser as an ASGI app (Starlette's TestClient, no browser): escaping, form
tokens, pagination, access, and each action's effect on the store, on both backends with
the real offline embedder. tests/test_ui_browser.py drives the same pages in Chromium."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.records import utcnow
from langgraph_memory.testing import ScriptedChatModel, digest_reply
from langgraph_memory.ui import memory_browser
from langgraph_memory.ui._queries import Capabilities

pytestmark = pytest.mark.integration

ALICE = ("memories", "alice")
BOB = ("memories", "bob")
HOSTILE = 'Lina <script>alert("x")</script> "><img src=x onerror=alert(1)> & co'
TOKEN = re.compile(r'name="csrf" value="([0-9a-f]+)"')


def token(client: TestClient, path: str = "/namespace?ns=memories/alice") -> str:
    found = TOKEN.search(client.get(path).text)
    assert found, "no form token on the page"
    return found.group(1)


def post(client: TestClient, path: str, **form: str):
    return client.post(path, data=form, follow_redirects=False)


class Identified:
    """What a LangGraph server's auth middleware leaves in the scope: an authenticated user."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            user = dict(scope["headers"]).get(b"x-test-user")
            if user:
                scope["user"] = type("User", (), {"is_authenticated": True, "identity": user.decode()})()
        await self.app(scope, receive, send)


class AdminPolicy:
    """The interface of langgraph_memory.auth.AccessPolicy: users own memories/<them>, admins everything."""

    def allows(self, identity, action, namespace):
        return identity == "root" or tuple(namespace[:2]) == ("memories", identity)

    def is_admin(self, identity):
        return identity == "root"


@pytest.fixture
def client(store):
    with TestClient(memory_browser(store)) as c:
        yield c


def test_memory_text_is_escaped_on_every_page(store, client):
    m = store.remember(HOSTILE, namespace=ALICE, subjects=["<b>tag</b>"], source="<i>src</i>").memory
    store.observe("hi <script>alert(2)</script>", namespace=("rooms", "agent"), room="lobby", author="<u>dave</u>")
    store.remember("weird namespace", namespace=("memories", "<em>x"))
    pages = [
        "/", "/namespace?ns=memories/alice", f"/memory?ns=memories/alice&id={m.id}",
        "/namespace?ns=memories/alice&q=Lina script", "/rooms",
    ]
    for path in pages:
        page = client.get(path)
        assert page.status_code == 200, path
        for raw in ("<script>alert", "<img src=x", "<b>tag</b>", "<i>src</i>", "<u>dave</u>", "<em>"):
            assert raw not in page.text, (path, raw)
        assert page.headers["content-security-policy"].startswith("default-src 'none'")
    shown = client.get(f"/memory?ns=memories/alice&id={m.id}").text
    assert "Lina &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &quot;&gt;&lt;img src=x onerror=alert(1)&gt; &amp; co" in shown
    assert "&lt;u&gt;dave&lt;/u&gt;" in client.get("/rooms").text
    assert "memories/&lt;em&gt;x" in client.get("/").text


def test_actions_without_a_valid_form_token_are_refused_and_change_nothing(store, client):
    m = store.remember("my sister Lina lives in Lyon", namespace=ALICE).memory
    form = {"ns": "memories/alice", "confirm": "memories/alice"}
    stranger = TestClient(memory_browser(store))  # no session cookie
    assert post(stranger, "/actions/erase", **form, csrf="0" * 64).status_code == 403
    assert post(client, "/actions/erase", **form).status_code == 403  # no token
    assert post(client, "/actions/erase", **form, csrf="0" * 64).status_code == 403  # wrong token
    other = TestClient(memory_browser(store))
    stolen = token(other)  # a valid token of another session
    assert post(client, "/actions/erase", **form, csrf=stolen).status_code == 403
    good = token(client)
    away = client.post("/actions/erase", data={**form, "csrf": good}, follow_redirects=False,
                       headers={"origin": "http://evil.example"})
    assert away.status_code == 403
    assert client.get("/actions/erase").status_code == 405  # actions are POST only
    assert store.get(m.id, namespace=ALICE) is not None
    done = post(client, "/actions/erase", **form, csrf=good)
    assert done.status_code == 303 and store.count(namespace=ALICE) == 0
    cookie = done.headers.get("set-cookie") or client.get("/").headers.get("set-cookie") or ""
    assert "lgm_browser" not in cookie or "samesite=strict" in cookie.lower()


def test_the_session_cookie_is_http_only_and_same_site_strict(store):
    fresh = TestClient(memory_browser(store))
    cookie = fresh.get("/").headers["set-cookie"].lower()
    assert "lgm_browser=" in cookie and "httponly" in cookie and "samesite=strict" in cookie


def test_pages_walk_a_namespace_newest_first_without_loss_even_on_equal_times(store, client):
    t0 = utcnow() - timedelta(days=10)
    # 130 memories, in runs of 7 sharing one creation time: ties straddle page ends.
    items = [{"content": f"fact number {i} about item {i * 7919 % 1000}", "created_at": t0 + timedelta(minutes=i // 7)}
             for i in range(130)]
    stored = store.remember_many(items, namespace=ALICE, dedup=False)
    seen: list[str] = []
    path = "/namespace?ns=memories/alice"
    pages = 0
    while path:
        html = client.get(path).text
        seen += re.findall(r'<tr class="memory" data-id="([^"]+)"', html)
        nxt = re.search(r'id="next-page" href="([^"]+)"', html)
        path = nxt.group(1).replace("&amp;", "&") if nxt else None
        pages += 1
    assert pages == 3  # 50 + 50 + 30
    assert sorted(seen) == sorted(r.memory.id for r in stored) and len(seen) == len(set(seen))
    created = {r.memory.id: r.memory.created_at for r in stored}
    # Newest first across pages (within a page, rows are grouped by kind and type: all facts here).
    assert [created[i] for i in seen] == sorted(created[i] for i in seen)[::-1]


def test_filters_and_status_counts(store, client):
    store.remember("I am Alice", namespace=ALICE, memory_type="identity")
    store.remember("buy milk", namespace=ALICE, memory_type="todo")
    store.remember("I can summarise papers", namespace=("agent", "agent"), kind="self", category="capability")
    page = client.get("/namespace?ns=memories/alice&type=todo").text
    assert "buy milk" in page and "I am Alice" not in page
    assert "live: 2" in client.get("/namespace?ns=memories/alice").text
    agent = client.get("/namespace?ns=agent/agent&kind=self").text
    assert "self · capability" in agent and "I can summarise papers" in agent
    assert client.get("/namespace?ns=memories/alice&status=bogus").status_code == 400


def test_search_shows_why_each_hit_matched(store, client):
    store.remember("my sister Lina lives in Lyon", namespace=ALICE, subjects=["lina"])
    store.remember("I play the cello", namespace=ALICE)
    page = client.get("/namespace?ns=memories/alice&q=where does Lina live").text
    rows = re.findall(r'<tr class="memory".*?</tr>', page, re.S)
    assert "Lina lives in Lyon" in rows[0]
    why = re.search(r'class="why">([^<]*)<', rows[0]).group(1)
    assert "meaning" in why and "keywords" in why and "subject lina" in why


def test_edit_goes_through_remember_and_makes_a_version(store, client):
    m = store.remember("my sister Lina lives in Lyon", namespace=ALICE).memory
    page = f"/memory?ns=memories/alice&id={m.id}"
    moved = post(client, "/actions/edit", ns="memories/alice", id=m.id, csrf=token(client, page),
                 content="my sister Lina lives in Lyon, in the 3rd arrondissement since 2024")
    assert moved.status_code == 303 and "done=edited" in moved.headers["location"]
    [live] = store.recent(namespace=ALICE, since=None)
    assert live.content.endswith("since 2024") and live.id != m.id
    history = store.history(live.id, namespace=ALICE)
    assert [v.id for v in history] == [m.id, live.id] and history[0].status == "superseded"
    shown = client.get(moved.headers["location"]).text
    assert "Saved as a new version" in shown and "my sister Lina lives in Lyon</td>" in shown
    # An old version cannot be edited.
    stale = post(client, "/actions/edit", ns="memories/alice", id=m.id, csrf=token(client), content="x")
    assert stale.status_code == 409 and store.count(namespace=ALICE) == 1


def test_delete_and_restore(store, client):
    m = store.remember("I collect stamps", namespace=ALICE).memory
    csrf = token(client)
    if Capabilities.of(store).soft_delete:  # soft delete (forgotten, restorable)
        assert post(client, "/actions/delete", ns="memories/alice", id=m.id, csrf=csrf, reason="wrong").status_code == 303
        assert store.get(m.id, namespace=ALICE) is None
        assert "restore" in client.get(f"/memory?ns=memories/alice&id={m.id}").text
        assert post(client, "/actions/restore", ns="memories/alice", id=m.id, csrf=csrf).status_code == 303
        assert store.get(m.id, namespace=ALICE) is not None
    else:  # today: permanent, and only when acknowledged
        page = client.get(f"/memory?ns=memories/alice&id={m.id}").text
        assert "no soft delete yet" in page and "delete permanently" in page
        assert post(client, "/actions/delete", ns="memories/alice", id=m.id, csrf=csrf).status_code == 400
        assert store.get(m.id, namespace=ALICE) is not None
        done = post(client, "/actions/delete", ns="memories/alice", id=m.id, csrf=csrf, permanent="yes", reason="wrong")
        assert done.status_code == 303 and store.get(m.id, namespace=ALICE) is None


def test_an_archived_memory_is_restored_from_its_page(store, client):
    m = store.remember("I tried pottery once", namespace=ALICE).memory
    store.garden(now=utcnow() + timedelta(days=45))
    assert store.get(m.id, namespace=ALICE) is None
    page = client.get(f"/memory?ns=memories/alice&id={m.id}").text
    assert "status-archived" in page and 'id="restore"' in page
    assert f'data-id="{m.id}"' in client.get("/namespace?ns=memories/alice&status=archived").text
    assert post(client, "/actions/restore", ns="memories/alice", id=m.id, csrf=token(client)).status_code == 303
    assert store.get(m.id, namespace=ALICE) is not None


def test_erase_needs_the_namespace_typed(store, client):
    store.remember("I play the cello", namespace=BOB)
    csrf = token(client)
    assert post(client, "/actions/erase", ns="memories/bob", confirm="memories/bo", csrf=csrf).status_code == 400
    assert store.count(namespace=BOB) == 1
    assert post(client, "/actions/erase", ns="memories/bob", confirm="memories/bob", csrf=csrf).status_code == 303
    assert store.count(namespace=BOB) == 0


def test_an_authenticated_user_reaches_only_their_namespaces(store):
    a = store.remember("my sister Lina lives in Lyon", namespace=ALICE).memory
    b = store.remember("I play the cello", namespace=BOB).memory
    for policy in (None, AdminPolicy()):  # the built-in narrow rule, and an AccessPolicy
        client = TestClient(Identified(memory_browser(store, policy=policy)), headers={"x-test-user": "bob"})
        start = client.get("/").text
        assert "memories/bob" in start and "memories/alice" not in start and "signed in as bob" in start
        assert ">gardener</a>" not in start
        assert "I play the cello" in client.get("/namespace?ns=memories/bob").text
        assert client.get("/namespace?ns=memories/alice").status_code == 403
        assert client.get(f"/memory?ns=memories/alice&id={a.id}").status_code == 403
        assert client.get(f"/memory?ns=memories/bob&id={a.id}").status_code == 404  # another's id: unknown
        assert client.get("/gardener").status_code == 403
        assert client.get("/conversations?ns=memories/alice&q=Lina").status_code == 403
        csrf = token(client, "/namespace?ns=memories/bob")
        refused = post(client, "/actions/erase", ns="memories/alice", confirm="memories/alice", csrf=csrf)
        assert refused.status_code == 403 and store.count(namespace=ALICE) == 1
        assert "cello" not in client.get("/rooms").text
    root = TestClient(Identified(memory_browser(store, policy=AdminPolicy())), headers={"x-test-user": "root"})
    assert "memories/alice" in root.get("/").text and "Lina" in root.get("/namespace?ns=memories/alice").text
    assert root.get("/gardener").status_code == 200
    assert store.get(b.id, namespace=BOB) is not None


def test_rooms_digest_now_with_and_without_a_model(store):
    store.observe("I'm leaving for Greece tomorrow", namespace=("rooms", "agent"), room="lobby", author="david")
    off = TestClient(memory_browser(store))
    page = off.get("/rooms").text
    assert "#lobby" in page and "Greece" in page and 'id="digest-note"' in page and "disabled" in page
    assert post(off, "/actions/digest", ns="rooms/agent", room="lobby", csrf=token(off, "/rooms")).status_code == 409
    model = ScriptedChatModel(responses=[digest_reply("David leaves for Greece")])
    on = TestClient(memory_browser(store, digest_model=model))
    assert post(on, "/actions/digest", ns="rooms/agent", room="lobby", csrf=token(on, "/rooms")).status_code == 303
    page = on.get("/rooms").text
    assert "#lobby" in page and "0 live messages" in page and "read 1, stored 1" in page
    assert [m.content for m in store.recent(namespace=("rooms", "agent"), since=None)] == ["David leaves for Greece"]


def test_gardener_plots_vitality_and_runs_a_pass(store, client, monkeypatch):
    for i in range(3):
        store.remember(f"hobby number {i}", namespace=ALICE, memory_type="observation")
    page = client.get("/gardener").text
    assert '<svg class="plot"' in page and "<rect" in page and "would archive" in page
    assert post(client, "/actions/garden", csrf=token(client, "/gardener")).status_code == 303
    assert "Last pass run from here" in client.get("/gardener").text
    monkeypatch.setattr("langgraph_memory.ui._more_pages.DRY_RUN_AT_ONCE", 2)  # a "large" store
    deferred = client.get("/gardener").text
    assert 'id="dry-run"' in deferred and "<svg" not in deferred and 'id="garden-run"' in deferred
    assert '<svg class="plot"' in client.get("/gardener?dry=1").text
    start = client.get("/").text
    assert '<svg class="plot"' in start  # the start page's vitality buckets


def test_conversations_search_exchanges_of_a_user(store, client):
    from langgraph_memory import index_exchange

    assert "Nothing indexed for this user yet" in client.get("/conversations?ns=memories/alice").text

    index_exchange(store, "I adopted a cat named <Miso>", "Lovely! How old is Miso?", namespace=ALICE, thread_id="t1")
    index_exchange(store, "my cello lesson was great", "Glad to hear!", namespace=BOB, thread_id="t2")
    page = client.get("/conversations?ns=memories/alice&q=my new pet cat").text
    assert "&lt;Miso&gt;" in page and "t1" in page and "cello" not in page
    latest = client.get("/conversations?ns=memories/alice").text
    assert "<h2>Latest</h2>" in latest and "&lt;Miso&gt;" in latest and "cello" not in latest


def test_app_arguments_are_checked():
    with pytest.raises(InvalidMemoryError):
        memory_browser(None, prefix="no-slash")
    with pytest.raises(InvalidMemoryError):
        memory_browser(None, secret=b"short")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ns=st.text(max_size=40), memory_id=st.text(max_size=40), before=st.text(max_size=20))
def test_any_parameter_is_a_page_or_a_clear_refusal(store, ns, memory_id, before):
    client = TestClient(memory_browser(store), raise_server_exceptions=True)
    for path, params in (("/namespace", {"ns": ns, "before": before, "skip": memory_id}),
                         ("/memory", {"ns": ns, "id": memory_id}),
                         ("/conversations", {"ns": ns})):
        answer = client.get(path, params=params)
        assert answer.status_code in (200, 400, 403, 404), (path, params, answer.status_code)
    assert store.count() == 0


def test_the_cli_serves_the_browser_on_loopback(tmp_path, embeddings):
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.request
    from pathlib import Path

    from langgraph_memory import MemoryStore

    with MemoryStore.open(tmp_path / "store", embeddings=embeddings) as store:
        store.remember("my sister Lina lives in Lyon", namespace=ALICE)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.Popen(
        [sys.executable, "-c", "from langgraph_memory.cli import main; raise SystemExit(main())",
         "ui", "--path", str(tmp_path / "store"), "--port", str(port)],
        cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "memory browser on http://127.0.0.1:" in proc.stdout.readline()
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/namespace?ns=memories/alice", timeout=5) as page:
                    assert "my sister Lina lives in Lyon" in page.read().decode()
                    break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, proc.stderr.read()
                time.sleep(0.2)
        from langgraph_memory.cli import build_parser

        assert build_parser().parse_args(["ui"]).host == "127.0.0.1"  # loopback unless told otherwise
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_base_store_item_is_not_shown_as_a_memory(store, client):
    from langgraph_memory.store.backends import Where

    face = store.as_base_store()
    assert face.memory_store is store  # how the browser mounted in a server finds the memories
    face.put(ALICE, "note", {"content": "an item of LangGraph's store API"})
    store.remember("my sister Lina lives in Lyon", namespace=ALICE)
    listing = client.get("/namespace?ns=memories/alice").text
    assert "Lina" in listing and "an item of LangGraph" not in listing
    [item] = store._backend.scroll(Where(namespace="memories/alice", status="item"), limit=10)[0]
    assert client.get(f"/memory?ns=memories/alice&id={item.id}").status_code == 404
    assert "an item of LangGraph" not in client.get("/").text


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.text(max_size=80) | st.sampled_from(["", "   ", "x" * 4001]))
def test_an_edit_stores_a_valid_text_or_refuses_and_stores_nothing(store, content):
    store.erase(ALICE)
    m = store.remember("I live in Paris", namespace=ALICE).memory
    client = TestClient(memory_browser(store))
    answer = post(client, "/actions/edit", ns="memories/alice", id=m.id, csrf=token(client), content=content)
    if answer.status_code == 303:
        assert content.strip()
        assert store.count(namespace=ALICE) in (1, 2)
    else:
        assert answer.status_code == 400 and "content" in answer.text
        assert [x.id for x in store.recent(namespace=ALICE, since=None)] == [m.id]
        assert len(store.history(m.id, namespace=ALICE)) == 1


def test_links_are_drawn_and_escaped(store):
    """Typed links arrive with another part of the package (store.links); until then the
    page says so. The drawing is checked against the agreed interface: Link objects with
    source_id, target_id and relation."""
    a = store.remember("I moved to Lyon", namespace=ALICE).memory
    b = store.remember("I work at <Acme> in Lyon", namespace=ALICE).memory
    plain = TestClient(memory_browser(store)).get(f"/memory?ns=memories/alice&id={a.id}").text
    if not Capabilities.of(store).links:
        assert 'id="links-note"' in plain

    class Link:
        def __init__(self, source_id, target_id, relation):
            self.source_id, self.target_id, self.relation = source_id, target_id, relation

    class Linked(type(store)):
        def links(self, memory_id, *, namespace):
            return [Link(memory_id, b.id, "caused_by"), Link("00000000-0000-0000-0000-000000000000", memory_id, "related_to")]

    store.__class__ = Linked
    page = TestClient(memory_browser(store)).get(f"/memory?ns=memories/alice&id={a.id}").text
    assert '<svg class="links"' in page and "caused_by" in page and "related_to" in page
    assert "&lt;Acme&gt;" in page and "<Acme>" not in page and "(gone)" in page
    assert f'id={b.id}' in page
