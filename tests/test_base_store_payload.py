"""How an item's value is held in its point (``base_store/_payloads.py``), and that every read
keeps its meaning: values come back exactly, filters answer as Python's matcher does, and
points written the old way (the whole value nested, ``extra_vectors: 0``) still read, filter,
list, overwrite and delete as before. Every test runs on Qdrant Edge and qdrant-client.
"""

from __future__ import annotations

import enum
import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from langgraph_memory.base_store._items import item_point_id, matches
from langgraph_memory.store.backends import StoredPoint, Where
from langgraph_memory.store.records import namespace_key
from tests.base_store_support import open_store, shared_engine, store_on

NS = ("users", "alice")
_ALL = Where(status=None)  # every point, whatever its status


@pytest.fixture
def face(backend, tmp_path):
    store = open_store(backend, tmp_path / "face")
    yield store
    store.close()


def _payload(store: Any, namespace: tuple[str, ...], key: str) -> dict[str, Any]:
    return store._backend.retrieve([item_point_id(namespace, key)])[0].payload


class Level(enum.IntEnum):
    HIGH = 3


class Colour(str, enum.Enum):
    RED = "red"


@pytest.mark.parametrize(("value", "engine", "exact_text"), [
    # Only top-level scalars, none the engine changes: the engine's copy is the whole value.
    ({"text": "tea", "n": 3, "done": True, "none": None}, {"text": "tea", "n": 3, "done": True, "none": None}, False),
    # A list or an object at the top: the engine holds the scalars, the whole is JSON text.
    ({"text": "tea", "tags": ["a", "b"], "meta": {"k": 1}}, {"text": "tea"}, True),
    ({"content": {"content": "long text"}}, {}, True),
    # A float may come back a unit in the last place off, an integer past 64 bits a float.
    ({"score": 0.1, "text": "x"}, {"score": 0.1, "text": "x"}, True),
    ({"big": 2**70}, {"big": 2**70}, True),
    # Types JSON writes as their base type are held as JSON gives them back.
    ({"level": Level.HIGH, "colour": Colour.RED}, {"level": 3, "colour": "red"}, False),
    ({1: "one"}, {"1": "one"}, False),
    ({}, {}, False),
])
def test_a_point_holds_the_top_level_scalars_and_the_whole_as_text_only_when_needed(face, value, engine, exact_text):
    face.put(NS, "k", value)
    payload = _payload(face, NS, "k")
    expected = json.loads(json.dumps(value))
    if "big" in engine:  # held for filters, as the engine holds it (a float: why the text is kept)
        assert set(payload["value"]) == {"big"}
    else:
        assert payload.get("value", {}) == engine and ("value" in payload) == bool(engine)  # no empty object
        assert [type(v) for v in payload.get("value", {}).values()] == [type(v) for v in engine.values()]
    assert ("value_json" in payload) == exact_text
    if exact_text:
        assert json.loads(payload["value_json"]) == expected
    assert "extra_vectors" not in payload  # written only for an item that has extra vectors
    got = face.get(NS, "k").value
    assert got == expected and [type(v) for v in got.values()] == [type(v) for v in expected.values()]
    assert [i.value for i in face.search(NS)] == [expected]


def test_checked_value_copies_what_it_returns():
    from langgraph_memory.base_store._payloads import checked_value

    value = {"text": "tea", "n": 1}
    copy, engine, text = checked_value(value)
    assert copy == value and copy is not value and text is None
    value["text"] = "coffee"
    assert copy["text"] == "tea" and engine["text"] == "tea"


def _old_point(namespace: tuple[str, ...], key: str, value: dict[str, Any], *, exact: bool, at: float,
               ttl: float | None = None) -> StoredPoint:
    """An item's point as the face wrote it before: its whole value nested, ``extra_vectors: 0``,
    ``value_json`` beside a value the engine would not give back as it is."""
    ns_key = namespace_key(namespace)
    payload: dict[str, Any] = {
        "namespace": ns_key, "ns_prefixes": [namespace_key(namespace[:i]) for i in range(1, len(namespace) + 1)],
        "status": "item", "item_key": key, "value": value, "created_at": at, "updated_at": at,
        "expires_at": None if ttl is None else at + ttl * 60, "ttl_minutes": ttl, "extra_vectors": 0,
    }
    if exact:
        payload["value_json"] = json.dumps(value)
    return StoredPoint(item_point_id(namespace, key), payload)


def test_points_written_the_old_way_still_read(face):
    at = round(time.time() - 60, 6)
    old = {"text": "old tea", "topic": 2, "tags": ["a"], "meta": {"k": "v"}}
    floats = {"text": "old float", "topic": 2, "score": 0.1}
    face._backend.upsert([_old_point(NS, "old", old, exact=False, at=at),
                          _old_point(NS, "old-float", floats, exact=True, at=at - 1),
                          _old_point(("users", "bob"), "bob", {"text": "hi"}, exact=False, at=at)])
    face.put(NS, "new", {"text": "new tea", "topic": 2, "tags": ["a"]})

    assert face.get(NS, "old").value == old
    assert face.get(NS, "old-float").value == floats
    assert [i.key for i in face.search(NS)] == ["new", "old", "old-float"]
    # The engine filters old and new points alike; Python checks the rest of the filter.
    assert sorted(i.key for i in face.search(NS, filter={"topic": 2})) == ["new", "old", "old-float"]
    assert sorted(i.key for i in face.search(NS, filter={"text": "old tea"})) == ["old"]
    assert sorted(i.key for i in face.search(NS, filter={"topic": {"$gte": 2}, "tags": ["a"]})) == ["new", "old"]
    assert sorted(i.key for i in face.search(NS, filter={"meta.k": "v"})) == ["old"]
    assert face.list_namespaces(prefix=("users",)) == [("users", "alice"), ("users", "bob")]
    # An overwrite keeps the old point's creation time and writes the new shape.
    face.put(NS, "old", {"text": "tea again"})
    item = face.get(NS, "old")
    assert item.value == {"text": "tea again"} and item.created_at.timestamp() == pytest.approx(at, abs=1e-6)
    assert "extra_vectors" not in _payload(face, NS, "old")
    face.delete(NS, "old-float")
    assert face.get(NS, "old-float") is None
    assert sorted(i.key for i in face.search(NS)) == ["new", "old"]


def test_an_old_point_past_its_ttl_is_hidden_and_its_ttl_refreshes(backend, tmp_path):
    store = open_store(backend, tmp_path / "ttl", ttl={"default_ttl": 1, "refresh_on_read": True})
    try:
        now = time.time()
        store._backend.upsert([_old_point(NS, "gone", {"text": "x"}, exact=False, at=now - 120, ttl=1),
                               _old_point(NS, "kept", {"text": "y"}, exact=False, at=now - 30, ttl=1)])
        assert store.get(NS, "gone") is None
        assert store.get(NS, "kept").value == {"text": "y"}
        assert _payload(store, NS, "kept")["expires_at"] > now + 30  # the read restarted its TTL
    finally:
        store.close()


# -- filters answer as Python's matcher does, on new and old points alike ---------------------

_scalars = st.one_of(st.sampled_from(["a", "b", "c"]), st.integers(-2, 2), st.sampled_from([0.5, -1.5]),
                     st.booleans(), st.none())
_values = st.dictionaries(st.sampled_from(["s", "n", "t"]), st.one_of(
    _scalars, st.lists(_scalars, max_size=2), st.dictionaries(st.sampled_from(["s", "n"]), _scalars, max_size=2)),
    max_size=3)
_conditions = st.one_of(
    _scalars, st.lists(_scalars, max_size=2),
    st.dictionaries(st.sampled_from(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte"]), _scalars, min_size=1, max_size=2))
_filters = st.dictionaries(st.sampled_from(["s", "n", "t", "t.s", "t.n"]), _conditions, min_size=1, max_size=2)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(st.tuples(_values, st.booleans()), min_size=1, max_size=8), flt=_filters)
def test_filters_answer_as_the_python_matcher_on_new_and_old_points(backend, tmp_path_factory, values, flt):
    engine = shared_engine(backend, 8, tmp_path_factory.getbasetemp() / "payload-engines")
    store = store_on(engine)
    at = time.time()
    for i, (value, old) in enumerate(values):
        if old:  # written as the face wrote items before
            engine.upsert([_old_point(NS, f"k{i}", value, exact=True, at=at - i)])
        else:
            store.put(NS, f"k{i}", value)
    found = sorted(item.key for item in store.search(NS, filter=flt, limit=100))
    assert found == sorted(f"k{i}" for i, (value, _) in enumerate(values) if matches(value, flt))


# -- review10: integers past a float's range, booleans against numbers -------------------------

_HUGE = [10**400, -(10**400), 2**1024, 2**64, -(2**63) - 1]


@pytest.mark.parametrize("huge", _HUGE, ids=["1e400", "-1e400", "2^1024", "2^64", "-2^63-1"])
def test_an_integer_past_any_float_is_stored_read_and_filtered(backend, tmp_path, huge):
    """JSON (and every LangGraph store) takes any integer. Qdrant Edge's binding cannot turn
    one past a float's range into a payload value: a put of it at the value's top level
    raised its bare ``TypeError``, after the overwrite had already deleted the item's extra
    vectors. A range filter over such an item raised ``OverflowError`` in the matcher."""
    from tests.base_store_support import CharacterEmbeddings

    store = open_store(backend, tmp_path / "huge", index={"dims": 16, "embed": CharacterEmbeddings(16),
                                                          "fields": ["a", "b"]})
    try:
        store.put(NS, "k", {"a": "tea", "b": "coffee"})
        store.put(NS, "k", {"a": "milk", "b": "juice", "n": huge})
        store.put(NS, "small", {"a": "x", "n": 7})
        assert store.get(NS, "k").value == {"a": "milk", "b": "juice", "n": huge}
        # Both texts are searchable: the second one's extra vector was written, not lost.
        assert store.search(NS, query="juice", limit=1)[0].key == "k"
        expected_gt = sorted(k for k, v in (("k", huge), ("small", 7)) if v > 5)
        assert sorted(i.key for i in store.search(NS, filter={"n": {"$gt": 5}})) == expected_gt
        assert sorted(i.key for i in store.search(NS, filter={"n": {"$lt": 0}})) == (["k"] if huge < 0 else [])
        assert [i.key for i in store.search(NS, filter={"n": huge})] == ["k"]
        assert [i.key for i in store.search(NS, filter={"n": {"$ne": huge}})] == ["small"]
    finally:
        store.close()


@pytest.mark.parametrize("flt", [{"x": 1}, {"x": 0}, {"x": {"$eq": 1}}, {"x": 1.0}, {"x": True}, {"x": False}])
def test_a_number_filter_answers_the_same_on_booleans_pushed_or_not(face, flt):
    """The matcher (as InMemoryStore and SqliteStore) takes ``True == 1``. A numeric equality
    pushed to the engine as a range found no boolean: the same search answered differently
    with and without the field's payload index."""
    for key, x in (("t", True), ("f", False), ("one", 1), ("zero", 0), ("half", 0.5)):
        face.put(NS, key, {"x": x})
    expected = sorted(k for k, x in (("t", True), ("f", False), ("one", 1), ("zero", 0), ("half", 0.5))
                      if matches({"x": x}, flt))
    assert sorted(i.key for i in face.search(NS, filter=flt)) == expected


# -- any Python value: stored and read back as JSON gives it, or refused with a typed error ------

class _Str(str):
    pass


class _Int(int):
    pass


class _Float(float):
    pass


class _Dict(dict):
    pass


_LEAVES = st.one_of(
    st.text(), st.integers(), st.floats(), st.booleans(), st.none(), st.builds(_Str, st.text(max_size=3)),
    st.builds(_Int, st.integers()), st.builds(_Float, st.floats(allow_nan=False)), st.just(Level.HIGH),
    st.just(Colour.RED), st.just(b"x"), st.just(1.5j), st.integers(2**60, 2**1100), st.integers(-(2**1100), -(2**60)),
    st.sampled_from([10**400, -(10**400), 2**64, -(2**63) - 1]))
_KEYS = st.one_of(st.text(max_size=4), st.integers(-3, 3), st.booleans(), st.none(), st.floats(allow_nan=False),
                  st.just(("t",)), st.builds(_Str, st.text(max_size=2)), st.sampled_from(["value_json", "namespace", "status", "item_key"]))
_ANY = st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3) | st.tuples(inner) | st.dictionaries(_KEYS, inner, max_size=3)
                    | st.builds(_Dict, st.dictionaries(st.text(max_size=2), inner, max_size=2)), max_leaves=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.one_of(st.dictionaries(_KEYS, _ANY, max_size=4), st.builds(_Dict, st.dictionaries(st.text(max_size=3), _ANY, max_size=3))))
@example(value={"n": 10**400, "m": {"k": [-(10**400)]}})
@example(value={1: _Int(2), "1": _Str("b"), None: _Float(0.5)})
def test_any_value_reads_back_as_json_gives_it_or_is_a_typed_error(backend, tmp_path_factory, value):
    from langgraph_memory import LangGraphMemoryError

    engine = shared_engine(backend, 8, tmp_path_factory.getbasetemp() / "payload-any")
    store = store_on(engine)
    try:
        expected = json.loads(json.dumps(value, allow_nan=False, ensure_ascii=False))
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError, UnicodeEncodeError):
        expected = None
    if expected is None:
        with pytest.raises(LangGraphMemoryError):
            store.put(NS, "k", value)
        assert store.get(NS, "k") is None and engine.count(_ALL) == 0
        return
    store.put(NS, "k", value)
    cached, fresh = store.get(NS, "k").value, store_on(engine).get(NS, "k").value
    assert repr(cached) == repr(expected) and repr(fresh) == repr(expected)  # same values, same types
    assert [i.value for i in store.search(NS)] == [expected]
