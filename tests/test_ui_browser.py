"""The memory browser in a real browser: Debian's headless Chromium, driven by Selenium
through Debian's chromedriver (no browser download), against the app served by uvicorn
on 127.0.0.1 over an embedded store with the real offline embedder. Each test saves a
screenshot under test-artefacts/ui/ (git-ignored)."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]
ARTEFACTS = ROOT / "test-artefacts" / "ui"
ALICE = ("memories", "alice")
BOB = ("memories", "bob")
MALLORY = ("memories", "mallory")
HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> <b>bold?</b>'
CHROME_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--window-size=1280,1000")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def chromium(tmp: Path, headers: dict[str, str] | None = None) -> Any:
    """Headless Chromium from the system packages, with a fresh profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not binary or not driver:
        pytest.fail("needs Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver; .ci/run does)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in CHROME_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp}")
    browser = webdriver.Chrome(service=Service(executable_path=driver), options=options)
    browser.set_page_load_timeout(60)
    if headers:  # what a proxy or SSO in front of the server would add
        browser.execute_cdp_cmd("Network.enable", {})
        browser.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": headers})
    return browser


def screenshot(browser: Any, name: str) -> None:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTEFACTS / f"{name}.png"))


class Served:
    """An ASGI app served by uvicorn in a thread, on a free port of 127.0.0.1."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        self.port = _free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.05)
        return f"http://127.0.0.1:{self.port}"

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture(scope="module")
def site(tmp_path_factory, embeddings) -> Iterator[dict[str, Any]]:
    from langgraph_memory import MemoryStore
    from langgraph_memory.ui import memory_browser

    tmp = tmp_path_factory.mktemp("ui")
    store = MemoryStore.open(tmp / "store", embeddings=embeddings)
    ids = {
        "lina": store.remember("my sister Lina lives in Lyon", namespace=ALICE, subjects=["lina"]).memory.id,
        "pottery": store.remember("I tried pottery once", namespace=ALICE, memory_type="observation").memory.id,
        "stamps": store.remember("I collect stamps from Japan", namespace=ALICE).memory.id,
        "hostile": store.remember(HOSTILE, namespace=MALLORY).memory.id,
        "cello": store.remember("I play the cello every Sunday", namespace=BOB).memory.id,
    }
    store.observe("I'm leaving for Greece tomorrow", namespace=("rooms", "agent"), room="lobby", author="david")
    browser = chromium(tmp / "profile")
    try:
        with Served(memory_browser(store)) as url:
            yield {"url": url, "store": store, "ids": ids, "browser": browser}
    finally:
        browser.quit()
        store.close()


def shown(browser: Any, css: str, timeout: float = 30) -> Any:
    """The element ``css`` once the page that has it is loaded (after a click or an alert)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout).until(ec.presence_of_element_located((By.CSS_SELECTOR, css)))


def says(browser: Any, css: str, text: str, timeout: float = 30) -> bool:
    """Whether the element ``css`` comes to hold ``text``: waits past the page a click
    leaves (its own ``css`` element goes stale when the next page loads), else times out."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(browser, timeout).until(ec.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))


def rows(browser: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    return [r.find_element(By.CSS_SELECTOR, "td.content").text for r in browser.find_elements(By.CSS_SELECTOR, "tr.memory")]


def test_start_page_lists_namespaces_and_plots_vitality(site):
    from selenium.webdriver.common.by import By

    browser = site["browser"]
    browser.get(site["url"] + "/")
    links = {a.text for a in browser.find_elements(By.CSS_SELECTOR, "main table a")}
    assert {"memories/alice", "memories/bob"} <= links
    assert browser.find_elements(By.CSS_SELECTOR, "svg.plot rect")
    screenshot(browser, "start")


def test_alices_page_shows_her_memories_and_not_bobs(site):
    from selenium.webdriver.common.by import By

    browser = site["browser"]
    browser.get(site["url"] + "/")
    browser.find_element(By.LINK_TEXT, "memories/alice").click()
    shown = rows(browser)
    assert "my sister Lina lives in Lyon" in shown and "I tried pottery once" in shown
    assert not any("cello" in text for text in shown)
    assert "cello" not in browser.find_element(By.TAG_NAME, "main").text
    screenshot(browser, "namespace")


def test_search_ranks_and_says_why(site):
    from selenium.webdriver.common.by import By

    browser = site["browser"]
    browser.get(site["url"] + "/namespace?ns=memories%2Falice")
    box = browser.find_element(By.ID, "f-q")
    box.send_keys("where does Lina live?")
    box.submit()
    shown(browser, "td.why")
    assert rows(browser)[0] == "my sister Lina lives in Lyon"
    why = browser.find_element(By.CSS_SELECTOR, "tr.memory td.why").text
    assert "meaning" in why and "subject lina" in why
    screenshot(browser, "search")


def test_edit_creates_a_version_in_history(site):
    from selenium.webdriver.common.by import By

    browser, store = site["browser"], site["store"]
    old = site["ids"]["stamps"]
    browser.get(f"{site['url']}/memory?ns=memories%2Falice&id={old}")
    area = browser.find_element(By.ID, "edit-content")
    area.clear()
    area.send_keys("I collect stamps from Japan and Korea")
    browser.find_element(By.ID, "save").click()
    assert says(browser, "p.ok", "Saved as a new version")
    assert browser.find_element(By.ID, "memory-content").text == "I collect stamps from Japan and Korea"
    history = browser.find_elements(By.CSS_SELECTOR, "#history tr")[1:]
    assert len(history) == 2
    assert "superseded" in history[0].text and "I collect stamps from Japan" in history[0].text
    assert "live" in history[1].text and "this one" in history[1].text
    assert store.get(old, namespace=ALICE) is None and store.history(old, namespace=ALICE)[-1].status == "live"
    screenshot(browser, "edited")


def test_delete_then_restore(site):
    from datetime import timedelta

    from selenium.webdriver.common.by import By

    from langgraph_memory.store.records import utcnow
    from langgraph_memory.ui._queries import Capabilities

    browser, store = site["browser"], site["store"]
    pottery = site["ids"]["pottery"]
    if Capabilities.of(store).soft_delete:
        browser.get(f"{site['url']}/memory?ns=memories%2Falice&id={pottery}")
        browser.find_element(By.ID, "delete-reason").send_keys("never true")
        browser.find_element(By.ID, "delete").click()
        assert says(browser, "p.ok", "Forgotten")
        assert store.get(pottery, namespace=ALICE) is None
        browser.find_element(By.ID, "restore").click()
        assert says(browser, "p.ok", "Restored")
        assert store.get(pottery, namespace=ALICE) is not None
        screenshot(browser, "restored")
        return
    # This store has no soft delete: the page says so and deletes only when told it is for good.
    lina = site["ids"]["lina"]
    browser.get(f"{site['url']}/memory?ns=memories%2Falice&id={lina}")
    assert "no soft delete yet" in browser.find_element(By.ID, "soft-delete-note").text
    browser.find_element(By.ID, "delete-permanent").click()
    browser.find_element(By.ID, "delete").click()
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 30).until(ec.alert_is_present()).accept()  # it asks before deleting for good
    assert says(browser, "p.ok", "Deleted")
    assert store.get(lina, namespace=ALICE) is None
    # Restore: a memory the gardener archived comes back from its page.
    store.garden(ALICE, now=utcnow() + timedelta(days=45))
    assert store.get(pottery, namespace=ALICE) is None
    browser.get(f"{site['url']}/memory?ns=memories%2Falice&id={pottery}")
    browser.find_element(By.ID, "restore").click()
    assert says(browser, "p.ok", "Restored")
    assert store.get(pottery, namespace=ALICE) is not None
    screenshot(browser, "restored")


def test_a_memory_with_html_renders_as_text(site):
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    browser = site["browser"]
    browser.get(f"{site['url']}/memory?ns=memories%2Fmallory&id={site['ids']['hostile']}")
    assert browser.find_element(By.ID, "memory-content").text == HOSTILE
    assert browser.execute_script("return window.__pwned === undefined")
    assert not browser.find_elements(By.CSS_SELECTOR, "main img, main b")
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text
    browser.get(site["url"] + "/namespace?ns=memories%2Fmallory")
    assert rows(browser) == [HOSTILE]
    assert browser.execute_script("return window.__pwned === undefined")
    screenshot(browser, "html-as-text")


def test_rooms_page_shows_live_messages_and_why_digest_is_off(site):
    from selenium.webdriver.common.by import By

    browser = site["browser"]
    browser.get(site["url"] + "/rooms")
    assert "I'm leaving for Greece tomorrow" in browser.find_element(By.TAG_NAME, "main").text
    assert "no chat model is configured" in browser.find_element(By.ID, "digest-note").text
    assert not browser.find_element(By.CSS_SELECTOR, "button.digest").is_enabled()
    screenshot(browser, "rooms")
