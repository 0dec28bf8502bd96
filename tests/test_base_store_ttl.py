"""LangGraph's TTL tests (``libs/checkpoint-sqlite/tests/test_ttl.py`` and
``test_store_ttl`` of the Postgres store), run against QdrantStore on both backends.

Where LangGraph's tests sleep past an expiry, these move the item's expiry into the past
the way theirs do with SQL (``_expire_now``): through the engine, here its payload. One
test waits for a real one-second TTL, and one for the sweeper thread.

Left out: ``test_omit_expired_disabled_preserves_expired_rows``. QdrantStore always
omits expired items (``omit_expired`` is always on): an expired memory or item is never
returned, swept or not.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tests.base_store_support import shared_engine, store_on


@pytest.fixture
def make(backend, tmp_path_factory):
    engine = shared_engine(backend, 500, tmp_path_factory.getbasetemp())
    opened = []

    def build(**options: Any):
        store = store_on(engine, **options)
        opened.append(store)
        return store

    yield build
    for store in opened:
        store.stop_ttl_sweeper()


def _point(store, namespace, key):
    from langgraph_memory.base_store._items import item_point_id

    [point] = store._backend.retrieve([item_point_id(namespace, key)])
    return point.payload


def _expire_now(store, namespace, key, seconds_ago: float = 60.0):
    from langgraph_memory.base_store._items import item_point_id

    store._backend.set_payload([item_point_id(namespace, key)], {"expires_at": time.time() - seconds_ago})


def test_ttl_basic(make):
    store = make(ttl={"default_ttl": 1 / 60})
    store.put(("test",), "item1", {"value": "test"})
    assert store.get(("test",), "item1").value["value"] == "test"
    _expire_now(store, ("test",), "item1")
    assert store.sweep_ttl() == 1
    assert store.get(("test",), "item1") is None


def test_ttl_expires_with_the_clock(make):
    store = make(ttl={"default_ttl": 1 / 60, "refresh_on_read": False})
    store.put(("test",), "item1", {"value": "test"})
    assert store.get(("test",), "item1") is not None
    time.sleep(1.2)
    assert store.get(("test",), "item1") is None  # hidden before any sweep
    assert store.sweep_ttl() == 1


async def test_async_ttl_basic(make):
    store = make(ttl={"default_ttl": 1 / 60})
    await store.aput(("test",), "item1", {"value": "test"})
    assert (await store.aget(("test",), "item1")).value["value"] == "test"
    _expire_now(store, ("test",), "item1")
    assert await store.asweep_ttl() == 1
    assert await store.aget(("test",), "item1") is None


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_ttl_refresh(make, mode):
    store = make(ttl={"default_ttl": 1 / 60, "refresh_on_read": True})
    store.put(("test",), "item1", {"value": "test"})
    assert store.sweep_ttl() == 0
    _expire_now(store, ("test",), "item1", seconds_ago=-0.5)  # half a second left
    before = _point(store, ("test",), "item1")["expires_at"]
    item = store.get(("test",), "item1", refresh_ttl=True) if mode == "sync" else await store.aget(("test",), "item1", refresh_ttl=True)
    assert item is not None
    assert _point(store, ("test",), "item1")["expires_at"] > before + 0.4
    assert store.sweep_ttl() == 0
    _expire_now(store, ("test",), "item1")
    assert store.sweep_ttl() == 1
    assert store.get(("test",), "item1") is None


def test_store_ttl(make):
    """Postgres's test_store_ttl: reads with refresh_ttl=True extend, False does not."""
    store = make(ttl={"default_ttl": 6 / 60, "refresh_on_read": True})
    ns = ("foo",)
    store.put(ns, "item1", {"foo": "bar"}, ttl=6 / 60)
    _expire_now(store, ns, "item1", seconds_ago=-1)
    assert store.get(ns, "item1", refresh_ttl=True) is not None
    assert _point(store, ns, "item1")["expires_at"] > time.time() + 5
    _expire_now(store, ns, "item1", seconds_ago=-1)
    assert len(store.search(ns, query="foo", refresh_ttl=True)) == 1
    assert _point(store, ns, "item1")["expires_at"] > time.time() + 5
    _expire_now(store, ns, "item1", seconds_ago=-1)
    assert store.get(ns, "item1", refresh_ttl=False) is not None
    assert _point(store, ns, "item1")["expires_at"] < time.time() + 2
    _expire_now(store, ns, "item1")
    assert store.search(ns, query="bar", refresh_ttl=False) == []


def test_ttl_sweeper(make):
    store = make(ttl={"default_ttl": 2 / 60, "sweep_interval_minutes": 0.2 / 60})
    done = store.start_ttl_sweeper()
    store.put(("test",), "item1", {"value": "test"})
    assert store.get(("test",), "item1") is not None
    _expire_now(store, ("test",), "item1")
    from langgraph_memory.base_store._items import item_point_id

    deadline = time.monotonic() + 20
    while store._backend.retrieve([item_point_id(("test",), "item1")]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert store._backend.retrieve([item_point_id(("test",), "item1")]) == []  # swept, not only hidden
    assert store.stop_ttl_sweeper(timeout=10) is True
    assert done.done()


def test_ttl_custom_value(make):
    store = make()
    now = time.time()
    store.put(("test",), "item1", {"value": "short"}, ttl=1 / 60)
    store.put(("test",), "item2", {"value": "long"}, ttl=3 / 60)
    assert _point(store, ("test",), "item1")["expires_at"] == pytest.approx(now + 1, abs=1)
    assert _point(store, ("test",), "item2")["expires_at"] == pytest.approx(now + 3, abs=1)
    _expire_now(store, ("test",), "item1")
    store.sweep_ttl()
    assert store.get(("test",), "item1") is None and store.get(("test",), "item2") is not None
    _expire_now(store, ("test",), "item2")
    store.sweep_ttl()
    assert store.get(("test",), "item2") is None


def test_ttl_override_default(make):
    store = make(ttl={"default_ttl": 5 / 60})
    now = time.time()
    store.put(("test",), "item1", {"value": "override"}, ttl=1 / 60)
    store.put(("test",), "item2", {"value": "default"})
    store.put(("test",), "item3", {"value": "permanent"}, ttl=None)
    assert _point(store, ("test",), "item1")["expires_at"] == pytest.approx(now + 1, abs=1)
    assert _point(store, ("test",), "item2")["expires_at"] == pytest.approx(now + 5, abs=1)
    assert _point(store, ("test",), "item3")["expires_at"] is None
    _expire_now(store, ("test",), "item1")
    store.sweep_ttl()
    assert store.get(("test",), "item1") is None and store.get(("test",), "item2") is not None
    _expire_now(store, ("test",), "item2")
    store.sweep_ttl()
    assert store.get(("test",), "item2") is None and store.get(("test",), "item3") is not None


def test_ttl_override_default_with_the_clock(make):
    """SqliteStore's test_ttl_override_default as written, on the real clock: a read does not
    restart an item's TTL unless the config says ``refresh_on_read``, so the item with the
    default TTL, read once at 2 s, is gone after the sweep at 6 s."""
    store = make(ttl={"default_ttl": 5 / 60})
    store.put(("test",), "item1", {"value": "override"}, ttl=1 / 60)
    store.put(("test",), "item2", {"value": "default"})
    store.put(("test",), "item3", {"value": "permanent"}, ttl=None)
    time.sleep(2)
    store.sweep_ttl()
    assert store.get(("test",), "item1") is None
    assert store.get(("test",), "item2") is not None and store.get(("test",), "item3") is not None
    time.sleep(4)
    store.sweep_ttl()
    assert store.get(("test",), "item2") is None and store.get(("test",), "item3") is not None


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_search_with_ttl(make, mode):
    store = make(ttl={"default_ttl": 1 / 60})
    store.put(("test",), "item1", {"value": "apple"})
    store.put(("test",), "item2", {"value": "banana"})
    search = store.search if mode == "sync" else (lambda *a, **k: asyncio.run_coroutine_threadsafe(store.asearch(*a, **k), loop).result())
    loop = asyncio.get_running_loop()
    found = await asyncio.to_thread(search, ("test",), filter={"value": "apple"})
    assert [i.key for i in found] == ["item1"]
    _expire_now(store, ("test",), "item1")
    assert await asyncio.to_thread(search, ("test",), filter={"value": "apple"}) == []
    store.sweep_ttl()
    assert await asyncio.to_thread(search, ("test",), filter={"value": "apple"}) == []


@pytest.mark.parametrize("mode", ["sync", "async"])
async def test_omit_expired_filters_read_paths(make, mode):
    store = make(ttl={"default_ttl": 5, "omit_expired": True})
    expired_ns, control_ns = ("omit", "expired"), ("omit", "control")
    store.put(expired_ns, "e", {"data": "gone"}, ttl=5)
    store.put(control_ns, "c", {"data": "keep"}, ttl=None)
    _expire_now(store, expired_ns, "e")
    assert _point(store, expired_ns, "e")  # still stored, not swept
    if mode == "sync":
        assert store.get(expired_ns, "e") is None and store.get(control_ns, "c") is not None
        assert store.search(expired_ns) == [] and [i.key for i in store.search(control_ns)] == ["c"]
        namespaces = store.list_namespaces(prefix=("omit",))
    else:
        assert await store.aget(expired_ns, "e") is None and await store.aget(control_ns, "c") is not None
        assert await store.asearch(expired_ns) == [] and [i.key for i in await store.asearch(control_ns)] == ["c"]
        namespaces = await store.alist_namespaces(prefix=("omit",))
    assert expired_ns not in namespaces and control_ns in namespaces


def test_omit_expired_refresh_ttl_only_refreshes_live_rows(make):
    store = make(ttl={"default_ttl": 5, "omit_expired": True, "refresh_on_read": True})
    ns = ("refresh",)
    for key, n in [("expired", 0), ("live_get", 1), ("live_search", 2)]:
        store.put(ns, key, {"n": n}, ttl=5)
    _expire_now(store, ns, "expired")
    for key in ("live_get", "live_search"):
        _expire_now(store, ns, key, seconds_ago=-10)
    before = {key: _point(store, ns, key)["expires_at"] for key in ("expired", "live_get", "live_search")}
    assert store.get(ns, "expired", refresh_ttl=True) is None
    assert "expired" not in [i.key for i in store.search(ns, refresh_ttl=True)]
    assert _point(store, ns, "expired")["expires_at"] == before["expired"]
    assert store.get(ns, "live_get", refresh_ttl=True) is not None
    assert _point(store, ns, "live_get")["expires_at"] > before["live_get"]
    assert _point(store, ns, "live_search")["expires_at"] > before["live_search"]


def test_omit_expired_search_pagination(make):
    from langgraph_memory.base_store._items import item_point_id

    store = make(ttl={"default_ttl": 5, "omit_expired": True})
    ns = ("page",)
    for key in ("a", "b", "c"):
        store.put(ns, key, {"k": key}, ttl=5)
    store.put(ns, "expired", {"k": "x"}, ttl=5)
    _expire_now(store, ns, "expired")
    now = time.time()
    for key, seconds_ago in {"a": 1, "expired": 2, "b": 3, "c": 4}.items():
        store._backend.set_payload([item_point_id(ns, key)], {"updated_at": now - seconds_ago})
    assert [i.key for i in store.search(ns, limit=2, offset=0)] == ["a", "b"]
    assert [i.key for i in store.search(ns, limit=2, offset=2)] == ["c"]


def test_an_expired_item_put_again_keeps_none_of_its_old_vectors(backend, tmp_path_factory):
    """Ours: an item's extra vectors (one per indexed text after the first) go with it,
    also when it expired before being put again or deleted."""
    from tests.base_store_support import CharacterEmbeddings

    emb = CharacterEmbeddings(dims=500)
    store = store_on(shared_engine(backend, 500, tmp_path_factory.getbasetemp()),
                     index={"dims": 500, "embed": emb, "fields": ["a", "b", "c"]})
    store.put(("t",), "x", {"a": "aaa", "b": "qqq", "c": "zzz"}, ttl=5)
    store.put(("t",), "y", {"a": "mmm"})
    assert store.search(("t",), query="zzz")[0].key == "x"
    _expire_now(store, ("t",), "x")
    store.put(("t",), "x", {"a": "kkk"})
    [x] = [r for r in store.search(("t",), query="zzz") if r.key == "x"]
    assert x.score == pytest.approx(emb_cosine(emb, "zzz", "kkk"), abs=1e-3)
    _expire_now(store, ("t",), "x")
    store.delete(("t",), "x")
    assert [p.payload.get("item_key") for p in store._backend.scroll(_all(), limit=10)[0]] == ["y"]


def emb_cosine(emb, a, b):
    from tests.base_store_support import cosine

    return cosine(emb.embed_query(a), emb.embed_query(b))


def _all():
    from langgraph_memory.store.backends import Where

    return Where(status=None)
