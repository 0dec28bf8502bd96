"""Where a person reads a namespace (the memory browser, the CLI), its labels are shown
decoded (``memories/alice@example.com``, not ``alice@example%252Ecom``); where it is an
identifier (URLs, command arguments, JSON) it keeps its key. A label of no value (stored
before labels were checked) still reads, marked ``‹ ›`` with codes for what a reader
cannot see, two namespaces never read the same, and no label renders as markup."""

from __future__ import annotations

import io
import json
import unicodedata
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from langgraph_memory import MemoryStore, namespace_label
from langgraph_memory.cli import main
from langgraph_memory.store._labels import shown_label, shown_namespace
from langgraph_memory.store.records import namespace_key
from langgraph_memory.ui import memory_browser

EMAIL = ("memories", namespace_label("alice@example.com"))  # ("memories", "alice@example%2Ecom")
PERCENT = ("memories", namespace_label("50% off"))  # "50%25 off"
LEGACY = ("memories", "alice\u200b")  # stored before identities were checked: no value's label
MARKUP = ("memories", namespace_label('<img src=x onerror="window.__pwned=1">'))
REVERSED = ("memories", "admin\u202etoor")  # a bidi override: reads "adminroot" reversed


def _seed(store: MemoryStore) -> dict[tuple[str, ...], str]:
    return {ns: store.remember(f"note of {i}", namespace=ns).memory.id
            for i, ns in enumerate((EMAIL, PERCENT, LEGACY, MARKUP, REVERSED))}


def test_a_label_is_shown_as_its_value_and_a_stray_label_marked() -> None:
    assert shown_namespace(EMAIL) == "memories/alice@example.com"
    assert shown_namespace(PERCENT) == "memories/50% off"
    assert shown_namespace(LEGACY) == "memories/\u2039alice[U+200B]\u203a"
    assert shown_namespace(REVERSED) == "memories/\u2039admin[U+202E]toor\u203a"
    assert shown_namespace(("rooms", "agent", "team.alpha")) == "rooms/agent/\u2039team.alpha\u203a"
    assert shown_namespace(("memories", "a/b")) == "memories/a[U+002F]b"
    assert shown_namespace(("memories", "alice")) == namespace_key(("memories", "alice"))  # ordinary: unchanged


LABELS = st.text(alphabet=st.sampled_from(["a", ".", "%", "2", "E", "5", "/", "[", "]", "U", "+", "\u2039", "\u203a",
                                           "\u200b", "\u202e", "\x1b", " ", "e\u0301"[1]]), max_size=7)


@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
@given(a=st.lists(st.one_of(LABELS, st.text(max_size=6)), min_size=1, max_size=3),
       b=st.lists(st.one_of(LABELS, st.text(max_size=6)), min_size=1, max_size=3))
def test_two_namespaces_never_read_the_same(a: list[str], b: list[str]) -> None:
    shown_a, shown_b = shown_namespace(a), shown_namespace(b)
    assert (shown_a == shown_b) == (a == b)
    # Nothing a reader cannot see reaches the screen: it is written as its code.
    assert not any(c in shown_a for c in "\u200b\u202e\x1b")
    assert not any(part[:1] == "\u0301" for part in shown_a.split("/"))  # nor a mark joining the "/" before it


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(value=st.text(alphabet=st.characters(blacklist_characters="[\u2039\u203a/"), max_size=12))
def test_the_label_of_an_identity_reads_as_the_identity(value: str) -> None:
    try:
        label = namespace_label(value)
    except Exception:
        return
    assert shown_label(label) == value


@pytest.mark.integration
def test_stored_labels_no_identity_may_take_now_still_read(store) -> None:
    ids = _seed(store)
    items = store.as_base_store()
    for ns in (LEGACY, REVERSED):
        assert [m.id for m in store.recent(namespace=ns, since=None)] == [ids[ns]]
        assert items.get(ns, ids[ns]).value["content"].startswith("note of")
        assert [i.key for i in items.search(ns)] == [ids[ns]]
    assert {LEGACY, REVERSED} <= set(items.list_namespaces(prefix=("memories",)))


# -- the memory browser --------------------------------------------------------------------


@pytest.mark.integration
def test_the_browser_shows_labels_decoded_and_keeps_keys_in_urls(store) -> None:
    ids = _seed(store)
    with TestClient(memory_browser(store)) as client:
        start = client.get("/")
        assert start.status_code == 200
        text = start.text
        assert ">memories/alice@example.com</a>" in text and ">memories/50% off</a>" in text
        assert ">memories/\u2039alice[U+200B]\u203a</a>" in text  # the stray label reads, marked
        assert "memories/alice@example%252Ecom</a>" not in text
        # The link is the key, the identifier: it opens the namespace.
        assert f'href="/namespace?ns={quote(namespace_key(EMAIL), safe="")}"' in text
        assert "<img" not in text and "&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;" in text
        assert ">memories/\u2039admin[U+202E]toor\u203a</a>" in text  # no override reaches a screen
        for ns, memory_id in ids.items():
            key = quote(namespace_key(ns), safe="")
            page = client.get(f"/namespace?ns={key}")
            assert page.status_code == 200, ns
            assert f"<h1>{_esc(shown_namespace(ns))}</h1>" in page.text
            assert f'data-id="{memory_id}"' in page.text  # its memories list, whatever the label
            one = client.get(f"/memory?ns={key}&id={memory_id}")
            assert one.status_code == 200 and f"« {_esc(shown_namespace(ns))}</a>" in one.text
            assert "<img" not in page.text + one.text


def _esc(text: str) -> str:
    import html

    return html.escape(text, quote=True)


@pytest.mark.integration
def test_a_refusal_names_the_namespace_decoded(store) -> None:
    _seed(store)

    class Identified:
        def __init__(self, app: Any) -> None:
            self.app = app

        async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                scope["user"] = type("User", (), {"is_authenticated": True, "identity": "bob"})()
            await self.app(scope, receive, send)

    with TestClient(Identified(memory_browser(store))) as client:
        page = client.get(f"/namespace?ns={quote(namespace_key(EMAIL), safe='')}")
        assert page.status_code == 403 and "you may not read memories/alice@example.com" in page.text


@pytest.mark.integration
def test_a_label_never_renders_as_markup_in_chromium(tmp_path, embeddings) -> None:
    from selenium.webdriver.common.by import By

    from test_ui_browser import Served, chromium, screenshot

    store = MemoryStore.open(tmp_path / "store", embeddings=embeddings)
    _seed(store)
    browser = chromium(tmp_path / "profile")
    try:
        with Served(memory_browser(store)) as url:
            browser.get(url + "/")
            links = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "main td a")]
            assert "memories/alice@example.com" in links and "memories/\u2039alice[U+200B]\u203a" in links
            assert shown_namespace(MARKUP) in links  # the label's text, shown as text
            assert not browser.find_elements(By.CSS_SELECTOR, "main img")
            assert browser.execute_script("return window.__pwned === undefined")
            browser.get(f"{url}/namespace?ns={quote(namespace_key(MARKUP), safe='')}")
            assert browser.find_element(By.CSS_SELECTOR, "h1").text == shown_namespace(MARKUP)
            assert not browser.find_elements(By.CSS_SELECTOR, "main img")
            assert browser.execute_script("return window.__pwned === undefined")
            screenshot(browser, "labels-decoded")
    finally:
        browser.quit()
        store.close()


# -- the CLI -------------------------------------------------------------------------------


def run(argv: list[str], store: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdout=out, stderr=err, store=store)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.integration
def test_the_cli_shows_labels_decoded_and_takes_keys_as_arguments(store) -> None:
    ids = _seed(store)
    code, out, _ = run(["list"], store)
    assert code == 0
    assert "memories/alice@example.com" in out and "memories/50% off" in out
    assert "memories/\u2039alice[U+200B]\u203a" in out and "memories/\u2039admin[U+202E]toor\u203a" in out
    assert "%252E" not in out and "\u202e" not in out and "\u200b" not in out
    # JSON is data: the key, which commands take back.
    code, out, _ = run(["list", "--json"], store)
    keys = {m["namespace"] for m in json.loads(out)}
    assert namespace_key(EMAIL) in keys and namespace_key(LEGACY) in keys
    code, out, _ = run(["show", ids[EMAIL]], store)
    assert code == 0 and f"memories/alice@example.com ({namespace_key(EMAIL)})" in out
    code, out, _ = run(["stats"], store)
    assert "memories/alice@example.com" in out and "%252E" not in out
    # The key an operator copies from `show` erases that namespace, and the report reads decoded.
    code, out, err = run(["erase", namespace_key(EMAIL), "--yes"], store)
    assert code == 0, err
    assert "of memories/alice@example.com (memories/alice@example%252Ecom):" in out
    assert store.count(namespace=EMAIL) == 0 and store.count(namespace=LEGACY) == 1
    # A stray label is still an argument the CLI takes: its data can be read and erased.
    code, out, err = run(["erase", namespace_key(LEGACY), "--yes"], store)
    assert code == 0 and store.count(namespace=LEGACY) == 0, err


ACCENTS = st.text(alphabet=st.sampled_from(["e", "\u0301", "\u00e9", ".", "a", "\u0308", "\u00e4", "%"]), max_size=5)


@settings(max_examples=500)
@given(a=ACCENTS, b=ACCENTS)
@example(a="e\u0301.", b="\u00e9.")
def test_two_labels_a_screen_draws_alike_never_read_the_same(a: str, b: str) -> None:
    # "é" as one code point and as "e" + U+0301 are drawn alike: as stray labels (a raw
    # period) they must still read apart, their normal forms included.
    shown_a, shown_b = (unicodedata.normalize("NFC", shown_label(x)) for x in (a, b))
    assert (shown_a == shown_b) == (a == b)


def test_a_stray_label_with_a_separate_accent_shows_the_accent_as_its_code() -> None:
    assert shown_label("e\u0301.x") == "\u2039e[U+0301].x\u203a"
    assert shown_label("\u00e9.x") == "\u2039\u00e9.x\u203a"
