"""The face's writes against a model, with an index (extra vectors) and expiry: whatever the
sequence of puts, deletes, batches with several ops on one key, reads and expiry, and
whether the point a write replaces comes from the read cache (Qdrant Edge) or the engine
(qdrant-client), every extra vector in the engine belongs to an item point that counts it,
and reads answer as the model does."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from langgraph.store.base import GetOp, PutOp, SearchOp

from langgraph_memory.base_store._items import item_point_id
from langgraph_memory.base_store._writes import _companion_id
from langgraph_memory.store.backends import Where
from tests.base_store_support import CharacterEmbeddings, shared_engine, store_on

_DIMS = 12
_NS = st.sampled_from([("a",), ("a", "x")])
_KEY = st.sampled_from(["k1", "k2"])
_TEXTS = st.lists(st.sampled_from(["tea", "cello", "miso", "rain"]), max_size=3)
_OP = st.one_of(
    st.tuples(st.just("put"), _NS, _KEY, _TEXTS, st.sampled_from([None, 1])),
    st.tuples(st.just("delete"), _NS, _KEY, st.none(), st.none()),
    st.tuples(st.just("get"), _NS, _KEY, st.none(), st.none()),
    st.tuples(st.just("search"), _NS, st.none(), st.none(), st.none()),
    st.tuples(st.just("expire"), st.none(), st.none(), st.none(), st.none()),
    # several ops on one key in one batch: the last put wins, the get sees the store before
    st.tuples(st.just("batch"), _NS, _KEY, _TEXTS, st.booleans()),
)


def _value(texts: list[str]) -> dict[str, Any]:
    return {f"t{i}": t for i, t in enumerate(texts)}


def _companions_are_counted(engine: Any) -> None:
    items, _ = engine.scroll(Where(status=("item", "live")), limit=1000)
    extras, _ = engine.scroll(Where(status="item_vector"), limit=1000)
    expected = {_companion_id(p.id, i) for p in items for i in range(1, (p.payload.get("extra_vectors") or 0) + 1)}
    assert {p.id for p in extras} == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(_OP, max_size=20))
@example(ops=[("put", ("a",), "k1", ["tea", "cello", "miso"], None), ("get", ("a",), "k1", None, None),
              ("put", ("a",), "k1", ["tea"], None)])  # an overwrite of a cached item with fewer texts
@example(ops=[("put", ("a",), "k1", ["tea", "cello"], 1), ("expire", None, None, None, None),
              ("batch", ("a",), "k1", ["rain"], True)])  # an expired item's extra vectors, by a batch
def test_extra_vectors_follow_every_write_cached_or_not(backend, tmp_path_factory, monkeypatch, ops):
    engine = shared_engine(backend, _DIMS, tmp_path_factory.getbasetemp() / "write-model")
    ahead = [0.0]
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + ahead[0])
    index = {"dims": _DIMS, "embed": CharacterEmbeddings(_DIMS), "fields": ["t0", "t1", "t2"]}
    face = store_on(engine, index=index)
    model: dict[tuple[tuple[str, ...], str], tuple[dict[str, Any], float | None]] = {}  # value, expiry

    def live(k: tuple[tuple[str, ...], str]) -> dict[str, Any] | None:
        held = model.get(k)
        return held[0] if held is not None and (held[1] is None or held[1] > time.time()) else None

    for name, ns, key, texts, extra in ops:
        k = (ns, key)
        if name == "put":
            face.put(ns, key, _value(texts), ttl=extra)
            model[k] = (_value(texts), None if extra is None else time.time() + 60)
        elif name == "delete":
            face.delete(ns, key)
            model.pop(k, None)
        elif name == "get":
            got = face.get(ns, key, refresh_ttl=False)
            assert (got.value if got else None) == live(k)
        elif name == "search":
            found = {(tuple(i.namespace), i.key): i.value for i in face.search(ns, limit=50, refresh_ttl=False)}
            assert found == {m: v for m in model if m[0][: len(ns)] == ns and (v := live(m)) is not None}
        elif name == "expire":
            ahead[0] += 61
        else:
            before = live(k)
            ops_ = [PutOp(ns, key, _value(texts)), GetOp(ns, key, refresh_ttl=False)]
            if extra:  # a delete of the same key after the put: the delete wins
                ops_.append(PutOp(ns, key, None))
            ops_.append(SearchOp(ns, limit=50, refresh_ttl=False))
            got = face.batch(ops_)[1]
            assert (got.value if got else None) == before
            if extra:
                model.pop(k, None)
            else:
                model[k] = (_value(texts), None)
        _companions_are_counted(engine)
    for k in model:
        if live(k) is not None:
            p = engine.retrieve([item_point_id(*k)])[0]
            assert (p.payload.get("extra_vectors") or 0) == max(0, len(set(live(k).values())) - 1)


@pytest.mark.parametrize("failing", ["upsert", "delete"])
def test_a_write_the_engine_fails_leaves_the_item_and_its_extra_vectors_as_they_were(backend, tmp_path_factory,
                                                                                       monkeypatch, failing):
    """An overwrite with fewer texts (the engine's upsert fails) or a delete (its delete
    fails): the old extra vectors were deleted by filter first, so the item stayed, counting
    extra vectors it no longer had, and lost its other texts' search."""
    engine = shared_engine(backend, _DIMS, tmp_path_factory.getbasetemp() / "write-fail")
    face = store_on(engine, index={"dims": _DIMS, "embed": CharacterEmbeddings(_DIMS), "fields": ["t0", "t1", "t2"]})
    face.put(("a",), "k", _value(["tea", "cello", "miso"]))
    assert face.get(("a",), "k") is not None  # held by the cache (Edge): the replaced point comes from it

    def fail(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(engine, failing, fail)
    with pytest.raises(RuntimeError):
        if failing == "upsert":
            face.put(("a",), "k", _value(["rain"]))
        else:
            face.delete(("a",), "k")
    monkeypatch.undo()
    _companions_are_counted(engine)
    assert engine.count(Where(status="item_vector")) == 2
    assert face.get(("a",), "k").value == _value(["tea", "cello", "miso"])
    assert [i.key for i in face.search(("a",), query="miso", limit=1)] == ["k"]


async def test_two_overwrites_planned_together_leave_only_the_last_ones_extra_vectors(backend, tmp_path_factory):
    """Two ``aput`` of one key plan before either writes (the embedding is awaited between):
    a 3-text put writes its 2 extra vectors, then a 1-text put, planned when there were none
    to drop, writes last. Its item counted none while 2 still pointed at it, so a search for
    the other put's texts found it."""
    import asyncio

    b_planned, a_written = asyncio.Event(), asyncio.Event()

    class Ordered(CharacterEmbeddings):
        async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
            if len(texts) > 1:  # put A: waits until B has planned
                await b_planned.wait()
            else:  # put B: planned (its embedding comes after its plan); writes after A
                b_planned.set()
                await a_written.wait()
            return self.embed_documents(texts)

    engine = shared_engine(backend, _DIMS, tmp_path_factory.getbasetemp() / "write-race")
    face = store_on(engine, index={"dims": _DIMS, "embed": Ordered(_DIMS), "fields": ["t0", "t1", "t2"]})
    face.put(("a",), "k", _value(["tea"]))
    real_upsert = engine.upsert

    def upsert(points: Any, **kwargs: Any) -> None:
        real_upsert(points, **kwargs)
        if len(points) == 3:  # put A's item and its 2 extra vectors
            loop.call_soon_threadsafe(a_written.set)

    loop = asyncio.get_running_loop()
    engine.upsert = upsert  # type: ignore[method-assign]
    try:
        await asyncio.gather(face.aput(("a",), "k", _value(["tea", "cello", "miso"])), face.aput(("a",), "k", _value(["rain"])))
    finally:
        del engine.upsert
    assert face.get(("a",), "k").value == _value(["rain"])
    _companions_are_counted(engine)
    assert engine.count(Where(status="item_vector")) == 0


def test_a_sweep_never_deletes_an_item_rewritten_since_it_found_it_expired(backend, tmp_path_factory, monkeypatch):
    """The sweep reads the expired items, then deletes them by id: an item rewritten in
    between (live again) was deleted with them."""
    import threading

    engine = shared_engine(backend, _DIMS, tmp_path_factory.getbasetemp() / "write-sweep")
    face = store_on(engine, index={"dims": _DIMS, "embed": CharacterEmbeddings(_DIMS), "fields": ["t0", "t1", "t2"]})
    ahead = [0.0]
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + ahead[0])
    face.put(("a",), "k", _value(["tea", "cello"]), ttl=1)
    ahead[0] = 61.0  # expired
    real_scroll = engine.scroll
    writer = threading.Thread(target=lambda: face.put(("a",), "k", _value(["rain"])))

    def scroll(*args: Any, **kwargs: Any) -> Any:
        found = real_scroll(*args, **kwargs)
        if found[0] and not writer.is_alive() and writer.ident is None:
            writer.start()  # a put of the same key while the sweep holds what it read
            writer.join(timeout=1.0)
        return found

    monkeypatch.setattr(engine, "scroll", scroll)
    assert face.sweep_ttl() == 1
    writer.join()
    monkeypatch.undo()
    assert face.get(("a",), "k").value == _value(["rain"])
    _companions_are_counted(engine)
