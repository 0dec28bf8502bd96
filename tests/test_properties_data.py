"""Properties of the data-side entry points (Hypothesis): the BaseStore face, room
observation, the one-line rule and stored times.

Any text (lone surrogates, controls, bidi, zero-width), number (NaN, infinities, huge,
negative, booleans), namespace, key or time either works or raises a typed error, and a
failure stores nothing; whatever is stored is shown as one line per item.
"""

from __future__ import annotations

from datetime import datetime, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import event, given
from hypothesis import strategies as st
from langgraph.store.base import InvalidNamespaceError

from langgraph_memory import LangGraphMemoryError
from langgraph_memory.agent.rooms import render_live
from langgraph_memory.background.digest import _transcript
from langgraph_memory.base_store._payloads import checked_value
from langgraph_memory.store._checks import TIME_MAX, TIME_MIN, stored_time
from langgraph_memory.store._lines import check_name, one_line, quoted_line, unsafe_characters
from langgraph_memory.store.backends import Where
from tests.test_properties import ANY_CHAR, NUMBERS, PROPERTY, SCALARS, TEXTS, VALUES

FORGING = st.text(st.sampled_from(["\n", "\r", "\u2028", "\u2029", "\x85", "\x00", "\x1b", "\u202e", "\u2066",
                                   "\u200b", "\ufeff", "\ud800", "a", " ", "<", ">", '"', "\\"]), max_size=12)
ANY_TEXT = st.one_of(TEXTS, FORGING, st.text(ANY_CHAR, max_size=12).map(lambda t: f"bob{t}alice"))
LABELS = st.one_of(st.just("props"), ANY_TEXT)
ITEM_NAMESPACES = st.one_of(st.tuples(st.just("props"), LABELS), st.tuples(LABELS), st.lists(LABELS, max_size=2),
                            TEXTS, st.none(), st.just(()))
KEYS = st.one_of(ANY_TEXT, NUMBERS, st.uuids().map(str))
TTLS = st.one_of(NUMBERS, st.sampled_from([1e300, 5 / 60, 60, 52_560_000, 52_560_001, float("inf")]))
ITEM_VALUES = st.one_of(st.dictionaries(st.one_of(ANY_TEXT, st.text(max_size=4)), VALUES, max_size=3), VALUES)
AT = st.one_of(st.none(), st.datetimes(datetime(1960, 1, 1), datetime(2300, 1, 1),
                                       timezones=st.sampled_from([timezone.utc, ZoneInfo("Pacific/Kiritimati")])),
               st.datetimes(), TEXTS, NUMBERS)


def mostly(valid, anything):
    """``valid`` about two times in three, else ``anything``: enough successes to check what
    a success stores, enough of the rest to check the failures."""
    # Not st.one_of: it flattens nested one_of strategies, so ``valid`` would be one branch of many.
    return st.sampled_from([True, True, False]).flatmap(lambda ok: st.just(valid) if ok else anything)


TYPED = (LangGraphMemoryError, InvalidNamespaceError)
"""Ours, and LangGraph's own namespace error, which ``BaseStore`` raises before a batch."""


@pytest.fixture(scope="module")
def bases(fake_stores):
    return {name: store.as_base_store(ttl={"refresh_on_read": True}) for name, store in fake_stores.items()}


def _points(store) -> int:
    return store._backend.count(Where(status=None))


# -- the one-line rule and names --------------------------------------------------------------


@PROPERTY
@given(text=ANY_TEXT)
def test_any_text_renders_as_one_safe_line(text):
    flat = one_line(text)
    assert len(flat.splitlines()) <= 1 and unsafe_characters(flat) == [] and one_line(flat) == flat
    quoted = quoted_line(text)
    assert len(quoted.splitlines()) == 1 and unsafe_characters(quoted) == [] and "<" not in quoted


@PROPERTY
@given(name=st.one_of(ANY_TEXT, NUMBERS))
def test_a_name_is_safe_or_refused(name):
    try:
        checked = check_name("author", name, 128)
    except LangGraphMemoryError as exc:
        assert isinstance(exc, ValueError)
    else:
        assert checked and unsafe_characters(checked) == [] and one_line(checked) == checked


@PROPERTY
@given(value=st.one_of(NUMBERS, TEXTS, st.integers(-(10**400), 10**400)), expiry=st.booleans())
def test_a_stored_time_is_always_read(value, expiry):
    when = stored_time(value, expiry=expiry)
    assert when is None or TIME_MIN <= when <= TIME_MAX
    if not expiry and value is not None:
        assert when is not None


# -- room observation ---------------------------------------------------------------------


@PROPERTY
@given(text=mostly("I resign", ANY_TEXT), author=mostly("ann", st.one_of(ANY_TEXT, NUMBERS)),
       room=mostly("lobby", st.one_of(ANY_TEXT, NUMBERS)), at=mostly(None, AT))
def test_observe_works_or_raises_typed_and_what_is_stored_is_one_line(fake_stores, backend, text, author, room, at):
    store = fake_stores[backend]
    namespace = ("rooms", "props")
    before = store.count_live(namespace=namespace)
    try:
        found = store.observe(text, namespace=namespace, room=room, author=author, at=at, agent_names=())
    except LangGraphMemoryError as exc:
        assert isinstance(exc, ValueError)
        assert store.count_live(namespace=namespace) == before
        return
    event("stored" if found else "addresses the agent")
    [message] = store.room_messages([found], namespace=namespace)
    assert len(render_live([message]).splitlines()) == 4  # open, header, the message, close
    assert len(_transcript([message], ZoneInfo("Europe/Paris")).splitlines()) == 1
    assert TIME_MIN <= message.timestamp <= TIME_MAX
    store.forget_messages([found], namespace=namespace)


# -- the BaseStore face -----------------------------------------------------------------------


@PROPERTY
@given(data=st.data())
def test_base_store_calls_work_or_raise_typed_and_failures_store_nothing(bases, fake_stores, backend, data):
    base, store = bases[backend], fake_stores[backend]
    draw = data.draw
    name = draw(st.sampled_from(["put", "put", "get", "search", "delete", "list_namespaces", "over"]))
    namespace, key = draw(mostly(("props", "a"), ITEM_NAMESPACES)), draw(mostly("k", KEYS))
    before = _points(store)
    try:
        if name == "put":
            value, ttl = draw(mostly({"text": "hello"}, ITEM_VALUES)), draw(mostly("default", TTLS))
            if ttl == "default":
                base.put(namespace, key, value)
            else:
                base.put(namespace, key, value, ttl=ttl)
            item = base.get(namespace, key)
            assert (item is None) if value is None else item.value == checked_value(value)[0]  # None: a delete
            base.delete(namespace, key)
        elif name == "get":
            base.get(namespace, key, refresh_ttl=draw(st.booleans()))
        elif name == "search":
            flt = draw(st.one_of(st.none(), st.dictionaries(ANY_TEXT, SCALARS, max_size=2)))
            base.search(namespace, query=draw(st.one_of(st.none(), ANY_TEXT)), filter=flt,
                        limit=draw(st.integers(0, 20)))
        elif name == "delete":
            base.delete(namespace, key)
        elif name == "list_namespaces":
            base.list_namespaces(prefix=namespace, max_depth=draw(st.one_of(st.none(), st.integers(-1, 3))))
        else:
            config = draw(st.dictionaries(st.sampled_from(["default_ttl", "sweep_interval_minutes",
                                                           "refresh_on_read", "omit_expired"]),
                                          st.one_of(TTLS, st.booleans()), max_size=3))
            type(base).over(store, ttl=config)
        event(f"{name} worked")
    except TYPED as exc:
        assert isinstance(exc, ValueError) or isinstance(exc, LangGraphMemoryError)
        assert _points(store) == before, f"{name} failed but changed the store"
