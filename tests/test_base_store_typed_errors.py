"""The BaseStore face's typed errors, and its TTL and filter rules checked against
LangGraph's SqliteStore (the reference: same message, same refresh-on-read behaviour).

Every refusal is a ``ValueError`` subclass (ours are also ``LangGraphMemoryError``), never
a ``UnicodeEncodeError`` or an engine ``TypeError``, and stores nothing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping

import pytest
from langgraph.store.base import InvalidNamespaceError
from langgraph.store.sqlite import SqliteStore

from langgraph_memory import InvalidMemoryError, LangGraphMemoryError, QdrantStore
from langgraph_memory.base_store._items import item_point_id
from langgraph_memory.store.backends import Where
from tests.base_store_support import CharacterEmbeddings, open_store

LONE = "\ud800"


@pytest.fixture
def base(backend, tmp_path):
    store = open_store(backend, tmp_path / "s", index={"dims": 500, "embed": CharacterEmbeddings(500)})
    yield store
    store.close()


def _points(store) -> int:
    return store._backend.count(Where(status=None))


def _typed(call) -> BaseException:
    with pytest.raises(ValueError) as caught:
        call()
    assert isinstance(caught.value, (LangGraphMemoryError, InvalidNamespaceError))
    assert not isinstance(caught.value, UnicodeError)
    return caught.value


def test_a_lone_surrogate_anywhere_is_a_typed_error_and_stores_nothing(base):
    base.put(("docs",), "ok", {"text": "fine"})
    before = _points(base)
    _typed(lambda: base.put(("docs", f"a{LONE}"), "k", {"text": "x"}))
    _typed(lambda: base.put(("docs",), f"k{LONE}", {"text": "x"}))
    _typed(lambda: base.put(("docs",), "k", {"text": f"x{LONE}"}))
    _typed(lambda: base.put(("docs",), "k", {f"field{LONE}": "x"}))
    _typed(lambda: base.get(("docs",), f"k{LONE}"))
    _typed(lambda: base.get((f"docs{LONE}",), "k"))
    _typed(lambda: base.delete(("docs",), f"ok{LONE}"))
    _typed(lambda: base.search(("docs",), query=f"fine{LONE}"))
    _typed(lambda: base.search((f"d{LONE}",)))
    _typed(lambda: base.search(("docs",), filter={"text": f"fine{LONE}"}))
    _typed(lambda: base.list_namespaces(prefix=(f"d{LONE}",)))
    assert _points(base) == before and base.get(("docs",), "ok").value == {"text": "fine"}


async def test_async_twins_refuse_the_same(base):
    for call in (lambda: base.aput(("docs",), f"k{LONE}", {"v": 1}), lambda: base.aget(("docs",), 1),
                 lambda: base.asearch(("docs",), query=LONE), lambda: base.adelete(None, "k")):
        with pytest.raises(ValueError) as caught:
            await call()
        assert isinstance(caught.value, (LangGraphMemoryError, InvalidNamespaceError))
    assert _points(base) == 0


def test_an_int_key_or_no_namespace_is_refused(base):
    for call in (lambda: base.put(("docs",), 1, {"v": 1}), lambda: base.get(("docs",), 1),
                 lambda: base.delete(("docs",), 1)):
        assert _typed(call).field == "key"
    for namespace in (None, "docs", ("docs", 1)):
        _typed(lambda: base.put(namespace, "k", {"v": 1}))
        _typed(lambda: base.search(namespace))
        _typed(lambda: base.delete(namespace, "k"))
    assert _points(base) == 0


def test_an_unbounded_ttl_config_is_refused_at_construction(backend, tmp_path):
    for config in ({"default_ttl": math.inf}, {"default_ttl": math.nan}, {"default_ttl": -1}, {"default_ttl": 0},
                   {"default_ttl": 1e300}, {"default_ttl": "5"}, {"sweep_interval_minutes": math.inf},
                   {"refresh_on_read": 1}, [("default_ttl", 5)]):
        with pytest.raises(InvalidMemoryError):
            open_store(backend, tmp_path / "refused", ttl=config)
    store = open_store(backend, tmp_path / "ok", ttl={"default_ttl": 5, "refresh_on_read": True})
    assert store.ttl_config == {"default_ttl": 5.0, "refresh_on_read": True}
    store.close()


def test_index_fields_stay_as_given(base):
    assert base.index_config["fields"] is None and base._fields == ["$"]
    base.put(("docs",), "a", {"text": "apples and pears"})
    assert base.search(("docs",), query="apples")[0].key == "a"  # the whole value is embedded


# -- against SqliteStore ----------------------------------------------------------------------


def test_the_filter_key_error_is_sqlite_stores_word_for_word(base):
    key = "access') OR 1=1 --"
    with SqliteStore.from_conn_string(":memory:") as sqlite:
        sqlite.setup()
        with pytest.raises(ValueError) as theirs:
            sqlite.search(("docs",), filter={key: "public"})
    ours = _typed(lambda: base.search(("docs",), filter={key: "public"}))
    assert str(ours) == str(theirs.value)
    for fine in ("access", "meta.title", "a-b_c.1"):
        base.search(("docs",), filter={fine: "x"})


@pytest.mark.parametrize("refresh_on_read", [None, False, True])
def test_a_read_restarts_a_ttl_exactly_when_sqlite_store_does(base, tmp_path, refresh_on_read):
    config = {"default_ttl": 1.0}
    if refresh_on_read is not None:
        config["refresh_on_read"] = refresh_on_read
    ours = QdrantStore(_backend=base._backend, ttl=config)
    ours._owns_backend = False
    with SqliteStore.from_conn_string(str(tmp_path / "ref.sqlite"), ttl=config) as sqlite:
        sqlite.setup()
        for store in (ours, sqlite):
            store.put(("t",), "k", {"v": 1})
        before = (_our_expiry(ours), _sqlite_expiry(sqlite))
        time.sleep(2.1)  # SqliteStore's refresh has whole-second precision
        for store in (ours, sqlite):
            assert store.get(("t",), "k") is not None and store.search(("t",))[0].key == "k"
        refreshed = (_our_expiry(ours) > before[0] + 1, _sqlite_expiry(sqlite) > before[1] + 1 / 86400)
    assert refreshed[0] == refreshed[1] == bool(refresh_on_read)


def _our_expiry(store) -> float:
    [point] = store._backend.retrieve([item_point_id(("t",), "k")])
    return point.payload["expires_at"]


def _sqlite_expiry(store) -> float:
    with store._cursor() as cur:
        cur.execute("SELECT julianday(expires_at) FROM store WHERE prefix = 't' AND key = 'k'")
        return cur.fetchone()[0]


class _BrokenMapping(Mapping):
    """A mapping that fails when read (an app's lazy or proxy object)."""

    def __init__(self, error: type[Exception], keys: list) -> None:
        self._error, self._keys = error, keys

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __getitem__(self, key):
        raise self._error("backing store gone")


@pytest.mark.parametrize("value", [_BrokenMapping(ValueError, ["a"]), _BrokenMapping(TypeError, ["a"]),
                                   _BrokenMapping(KeyError, [["unhashable"]])])
def test_a_value_that_fails_to_copy_is_a_typed_error_and_stores_nothing(base, value):
    """Before i29-face the copy (``dict(value)``) ran inside the check's ``try``: its
    ``ValueError`` or ``TypeError`` became :class:`InvalidItemValueError`; after, it escaped bare."""
    from langgraph_memory.base_store._items import InvalidItemValueError

    with pytest.raises(InvalidItemValueError):
        base.put(("docs",), "k", value)
    assert _points(base) == 0
