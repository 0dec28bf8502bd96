"""The face's read cache (``base_store/_cache.py``) never shows what the engine no longer holds.

On Qdrant Edge, gets, search pages and namespace listings are kept while the backend's
write log says nothing changed them; on qdrant-client the face reads the engine every
time. Every test runs on both, so each behaviour is the engine's, cached or not: writes
through the memory store, from another thread, deletes, batches, expiry without a write,
``refresh_ttl``, copies handed out, and a model-based property test against a dictionary.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.store.base import GetOp, ListNamespacesOp, PutOp, SearchOp

from tests.base_store_support import shared_engine, store_on

ALICE, BOB = ("memories", "alice"), ("memories", "bob")


@pytest.fixture
def memories(make_store):
    return make_store()


@pytest.fixture
def face(memories):
    return memories.as_base_store()


class Clock:
    """``time.time`` moved forward by ``ahead`` seconds: expiry without any write."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.ahead = 0.0
        real = time.time
        monkeypatch.setattr(time, "time", lambda: real() + self.ahead)


def _keys(items: list[Any]) -> list[str]:
    return sorted(i.key for i in items)


def test_the_cache_is_on_for_edge_only(face, backend):
    assert (face._cache is not None) == (backend == "edge")


def test_reads_follow_writes_of_the_memory_store(memories, face):
    first = memories.remember("I play the cello", namespace=ALICE).memory
    assert face.get(ALICE, first.id).value["content"] == "I play the cello"
    assert _keys(face.search(ALICE)) == [first.id]
    assert face.list_namespaces() == [ALICE]

    second = memories.remember("my cat is called Miso", namespace=BOB).memory
    assert face.list_namespaces() == [ALICE, BOB]
    assert _keys(face.search(("memories",))) == sorted([first.id, second.id])

    memories.record_access([first.id], namespace=ALICE)  # a set_payload of the memory store
    memories.delete(first.id, namespace=ALICE)
    assert face.get(ALICE, first.id) is None
    assert face.search(ALICE) == []
    assert face.list_namespaces() == [BOB]


def test_reads_follow_another_face_over_the_same_engine(memories, face):
    other = memories.as_base_store()
    face.put(ALICE, "k", {"n": 1})
    assert face.get(ALICE, "k").value == {"n": 1}
    other.put(ALICE, "k", {"n": 2})
    assert face.get(ALICE, "k").value == {"n": 2}
    assert [i.value for i in face.search(ALICE)] == [{"n": 2}]
    other.delete(ALICE, "k")
    assert face.get(ALICE, "k") is None and face.search(ALICE) == [] and face.list_namespaces() == []


def test_a_reader_never_goes_back_while_another_thread_writes(face):
    face.put(ALICE, "k", {"n": 0})
    done = threading.Event()
    seen: list[int] = []
    errors: list[BaseException] = []

    def read() -> None:
        try:
            while not done.is_set():
                seen.append(face.get(ALICE, "k").value["n"])
                seen.append(face.search(ALICE, limit=1)[0].value["n"])
        except BaseException as exc:  # surfaced in the main thread
            errors.append(exc)

    reader = threading.Thread(target=read)
    reader.start()
    for n in range(1, 120):
        face.put(ALICE, "k", {"n": n})
    done.set()
    reader.join()
    assert not errors
    assert len(seen) > 2 and seen == sorted(seen)  # never an older value after a newer one
    assert face.get(ALICE, "k").value == {"n": 119}
    assert face.search(ALICE)[0].value == {"n": 119}


def test_batches_read_before_they_write_and_deletes_show(face):
    face.put(ALICE, "a", {"v": 1})
    assert face.get(ALICE, "a").value == {"v": 1}
    got, _, listed = face.batch([GetOp(ALICE, "a"), PutOp(ALICE, "a", {"v": 2}), ListNamespacesOp()])
    assert got.value == {"v": 1} and listed == [ALICE]
    assert face.get(ALICE, "a").value == {"v": 2}
    before, _, _ = face.batch([SearchOp(ALICE), PutOp(ALICE, "a", None), PutOp(BOB, "b", {"v": 3})])
    assert [i.value for i in before] == [{"v": 2}]
    assert face.get(ALICE, "a") is None and face.search(ALICE) == []
    assert face.list_namespaces() == [BOB]
    face.put(ALICE, "a", {"v": 4})  # absent was kept: a later put must show
    assert face.get(ALICE, "a").value == {"v": 4}


def test_a_write_to_a_point_outside_a_page_can_change_it(face):
    from langgraph_memory.base_store._items import item_point_id

    face.put(ALICE, "old", {"v": 1})
    face.put(ALICE, "new", {"v": 2})
    assert [i.key for i in face.search(ALICE, limit=1)] == ["new"]
    # A write the log cannot place (no namespace): "old" becomes the most recent.
    face._backend.set_payload([item_point_id(ALICE, "old")], {"updated_at": time.time() + 60})
    assert [i.key for i in face.search(ALICE, limit=1)] == ["old"]


def test_a_point_moved_out_of_a_page_leaves_it(face):
    from langgraph_memory.base_store._items import item_point_id

    face.put(ALICE, "k", {"v": 1})
    assert [i.key for i in face.search(ALICE)] == ["k"]
    [point] = face._backend.retrieve([item_point_id(ALICE, "k")])
    point.payload.update(namespace="memories/bob", ns_prefixes=["memories", "memories/bob"])
    face._backend.upsert([point])  # not through the face: the engine's own move
    assert face.search(ALICE) == []
    assert [i.key for i in face.search(BOB)] == ["k"]


def test_what_was_read_while_a_write_landed_is_not_kept(memories, face, monkeypatch):
    face.put(ALICE, "k", {"n": 1})
    other = memories.as_base_store()
    engine = face._backend
    read = engine.retrieve
    racing = [True]

    def retrieve_then_write(ids, **kwargs):
        points = read(ids, **kwargs)
        if racing and racing.pop():  # the first read returns, then another writer lands,
            other.put(ALICE, "k", {"n": 2})
            face.get(BOB, "x")  # and another reader of this face catches up with the log
        return points

    monkeypatch.setattr(engine, "retrieve", retrieve_then_write)
    if face._cache is not None:
        face._cache._clear()  # the put above was kept: make the next get read the engine
    assert face.get(ALICE, "k").value == {"n": 1}  # read before the write: fine to return
    assert face.get(ALICE, "k").value == {"n": 2}


def test_items_expire_without_any_write(face, monkeypatch):
    clock = Clock(monkeypatch)
    face.put(ALICE, "short", {"v": 1}, ttl=1)
    face.put(ALICE, "long", {"v": 2})
    face.put(BOB, "short", {"v": 3}, ttl=1)
    assert face.get(ALICE, "short").value == {"v": 1}
    assert _keys(face.search(ALICE)) == ["long", "short"]
    assert face.list_namespaces() == [ALICE, BOB]
    clock.ahead = 61
    assert face.get(ALICE, "short") is None
    assert _keys(face.search(ALICE)) == ["long"]
    assert face.list_namespaces() == [ALICE]  # BOB's only item expired


@pytest.mark.parametrize("refresh", [True, False])
def test_refresh_ttl_restarts_expiry_on_cached_reads(memories, monkeypatch, refresh):
    face = memories.as_base_store(ttl={"default_ttl": 1, "refresh_on_read": True})
    clock = Clock(monkeypatch)
    face.put(ALICE, "k", {"v": 1})
    assert face.get(ALICE, "k", refresh_ttl=False) is not None  # held by the cache now
    clock.ahead = 40
    assert face.get(ALICE, "k", refresh_ttl=refresh) is not None
    assert len(face.search(ALICE, refresh_ttl=refresh)) == 1
    clock.ahead = 80  # past the first expiry, within a restarted one
    assert (face.get(ALICE, "k", refresh_ttl=False) is not None) == refresh
    assert len(face.search(ALICE, refresh_ttl=False)) == (1 if refresh else 0)


def test_callers_get_copies(face):
    face.put(ALICE, "k", {"tags": ["a"], "nested": {"x": 1}})
    for item in (face.get(ALICE, "k"), face.search(ALICE)[0]):
        item.value["tags"].append("mutated")
        item.value["nested"]["x"] = 2
        item.value["new"] = True
    assert face.get(ALICE, "k").value == {"tags": ["a"], "nested": {"x": 1}}
    assert face.search(ALICE)[0].value == {"tags": ["a"], "nested": {"x": 1}}


def test_values_the_engine_would_change_are_read_back_exactly(memories, face, monkeypatch):
    """Qdrant Edge turns an integer past 64 bits into a float and may move a float by one
    unit in the last place: the face reads back what was put, cached or not, on both engines."""
    value = {"n": 2**70, "ok": 2**63, "floats": [i / 7 for i in range(200)], "neg": -(2**80)}
    face.put(ALICE, "big", value)
    assert face.get(ALICE, "big").value == value
    monkeypatch.setenv("LANGGRAPH_MEMORY_FACE_CACHE_ITEMS", "0")
    uncached = memories.as_base_store()
    assert uncached.get(ALICE, "big").value == value
    assert type(uncached.get(ALICE, "big").value["n"]) is int
    assert uncached.search(ALICE)[0].value == value
    assert [i.key for i in uncached.search(ALICE, filter={"ok": 2**63})] == ["big"]


def test_the_cache_is_bounded(memories, monkeypatch, backend):
    monkeypatch.setenv("LANGGRAPH_MEMORY_FACE_CACHE_ITEMS", "4")
    face = memories.as_base_store()
    for i in range(12):
        face.put(ALICE, f"k{i}", {"i": i})
    assert [face.get(ALICE, f"k{i}").value["i"] for i in range(12)] == list(range(12))
    if backend == "edge":
        assert len(face._cache._items) <= 4 and len(face._cache._by_id) <= 4


def test_the_cache_can_be_turned_off(memories, monkeypatch):
    monkeypatch.setenv("LANGGRAPH_MEMORY_FACE_CACHE_ITEMS", "0")
    assert memories.as_base_store()._cache is None


def test_a_closed_store_refuses_cached_reads(tmp_path):
    from langgraph_memory import QdrantStore

    store = QdrantStore.open(tmp_path / "edge")
    store.put(ALICE, "k", {"v": 1})
    assert store.get(ALICE, "k") is not None
    store.close()
    with pytest.raises(RuntimeError):
        store.get(ALICE, "k")


# -- a model: the face against a dictionary, whatever the sequence of operations --------------

_NS = st.sampled_from([("a",), ("a", "x"), ("b",)])
_KEY = st.sampled_from(["k1", "k2", "k3"])
# JSON values, with what an engine may not give back as it is: floats, integers past 64 bits.
_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**80), 2**80) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(blacklist_categories=("Cs",)), max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=6)
_OPS = st.lists(st.one_of(
    st.tuples(st.just("put"), _NS, _KEY, _VALUE),
    st.tuples(st.just("delete"), _NS, _KEY, st.none()),
    st.tuples(st.just("get"), _NS, _KEY, st.none()),
    st.tuples(st.just("search"), st.sampled_from([(), ("a",), ("b",)]), st.none(), st.none()),
    st.tuples(st.just("list"), st.none(), st.none(), st.none()),
    st.tuples(st.just("batch"), _NS, _KEY, _VALUE),
), max_size=25)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=_OPS)
def test_the_face_agrees_with_a_dictionary(backend, tmp_path_factory, ops):
    face = store_on(shared_engine(backend, 8, tmp_path_factory.getbasetemp()))
    model: dict[tuple[tuple[str, ...], str], dict[str, Any]] = {}
    for name, ns, key, n in ops:
        if name == "put":
            face.put(ns, key, {"n": n})
            model[(ns, key)] = {"n": n}
        elif name == "delete":
            face.delete(ns, key)
            model.pop((ns, key), None)
        elif name == "get":
            got = face.get(ns, key)
            assert (got.value if got else None) == model.get((ns, key))
        elif name == "search":
            found = {(i.namespace, i.key): i.value for i in face.search(ns, limit=50)}
            assert found == {k: v for k, v in model.items() if k[0][: len(ns)] == ns}
        elif name == "list":
            assert face.list_namespaces() == sorted({k[0] for k in model})
        else:  # a batch: its get sees the store before its put
            got, _ = face.batch([GetOp(ns, key), PutOp(ns, key, {"n": n})])
            assert (got.value if got else None) == model.get((ns, key))
            model[(ns, key)] = {"n": n}


async def test_async_twins_read_through_the_same_cache(face):
    await face.aput(ALICE, "k", {"v": 1})
    assert (await face.aget(ALICE, "k")).value == {"v": 1}
    assert [i.value for i in await face.asearch(ALICE)] == [{"v": 1}]
    face.put(ALICE, "k", {"v": 2})  # a sync write between async reads
    assert (await face.aget(ALICE, "k")).value == {"v": 2}
    await face.adelete(ALICE, "k")
    assert face.get(ALICE, "k") is None and await face.alist_namespaces() == []


def test_floats_and_dates_read_the_same_cached_or_not(memories, face, monkeypatch):
    """Qdrant Edge may read a float back one unit in the last place off: a cached read must
    show what an uncached one shows, and an overwrite must keep the item's creation date."""
    values = {f"k{i}": {"x": [i / 7, 0.1 * i, 1e-7 * i, 2.0 ** (i % 60)]} for i in range(150)}
    first = {}
    for key, value in values.items():
        face.put(ALICE, key, value)
        first[key] = face.get(ALICE, key)
        face.put(ALICE, key, {**value, "v": 2})
    cached = {key: face.get(ALICE, key) for key in values}
    monkeypatch.setenv("LANGGRAPH_MEMORY_FACE_CACHE_ITEMS", "0")
    uncached_face = memories.as_base_store()
    for key in values:
        uncached = uncached_face.get(ALICE, key)
        assert cached[key].value == uncached.value
        assert cached[key].created_at == uncached.created_at == first[key].created_at
        assert cached[key].updated_at == uncached.updated_at >= first[key].updated_at


# -- a write finds the point it replaces in the cache -----------------------------------------


def _retrieves(face: Any, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Each engine read of points by id the face makes from now on."""
    calls: list[list[str]] = []
    real = face._backend.retrieve

    def counted(ids: Any, **kwargs: Any) -> Any:
        calls.append(list(ids))
        return real(ids, **kwargs)

    monkeypatch.setattr(face._backend, "retrieve", counted)
    return calls


def test_an_overwrite_or_delete_of_a_cached_item_reads_no_point(face, backend, monkeypatch):
    face.put(ALICE, "k", {"v": 1})
    created = face.get(ALICE, "k").created_at
    calls = _retrieves(face, monkeypatch)
    face.put(ALICE, "k", {"v": 2})
    item = face.get(ALICE, "k")
    assert item.value == {"v": 2} and item.created_at == created  # the replaced point's creation kept
    face.delete(ALICE, "k")
    assert face.get(ALICE, "k") is None
    if backend == "edge":
        assert calls == []
    else:  # no cache on qdrant-client: each write reads the point it replaces
        assert len(calls) >= 2


def test_an_expired_cached_item_is_replaced_as_a_new_one(face, monkeypatch):
    clock = Clock(monkeypatch)
    face.put(ALICE, "k", {"v": 1}, ttl=1)
    first = face.get(ALICE, "k").created_at
    clock.ahead = 61
    face.put(ALICE, "k", {"v": 2})
    item = face.get(ALICE, "k")
    assert item.value == {"v": 2} and item.created_at > first  # not the expired item's date


def test_an_overwrite_from_the_cache_drops_the_old_extra_vectors(face):
    from langgraph_memory.store.backends import Where

    face.put(ALICE, "k", {"a": "I play the cello", "b": "my cat is called Miso", "c": "tea"}, index=["a", "b", "c"])
    assert face.get(ALICE, "k") is not None  # held by the cache
    face.put(ALICE, "k", {"a": "I play the cello"}, index=["a"])
    assert face._backend.count(Where(status="item_vector")) == 0
    assert [i.key for i in face.search(ALICE, query="my cat is called Miso")] == ["k"]
    assert face.search(ALICE, query="my cat is called Miso")[0].value == {"a": "I play the cello"}
