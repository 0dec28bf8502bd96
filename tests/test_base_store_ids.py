"""The BaseStore face's point ids stay what stored data already holds; the fast paths of
reading stored times and namespace keys read as the general ones.

An item's point id is derived from its namespace and key on every put and get: computed
another way (for speed), it must still be ``uuid5`` of the same name, or items written
before would no longer be found.
"""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from langgraph_memory.base_store._items import _POINT_IDS, as_uuid, item_point_id
from langgraph_memory.store.records import namespace_key

labels = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20)


@given(st.lists(labels, min_size=1, max_size=4).map(tuple), st.text(st.characters(blacklist_categories=("Cs",))))
def test_item_point_id_is_uuid5_of_namespace_and_key(namespace: tuple[str, ...], key: str) -> None:
    expected = str(uuid.uuid5(_POINT_IDS, namespace_key(namespace) + "\x00" + key))
    assert item_point_id(namespace, key) == expected


def _parsed(key: str) -> str | None:
    try:
        return str(uuid.UUID(key))
    except ValueError:
        return None


@given(st.one_of(
    st.text(max_size=50),
    st.uuids().map(str),
    st.uuids().map(lambda u: u.hex.upper()),
    st.uuids().map(lambda u: "{" + str(u) + "}"),
    st.uuids().map(lambda u: u.urn),
))
def test_as_uuid_agrees_with_the_uuid_module(key: str) -> None:
    assert as_uuid(key) == _parsed(key)


class _Float(float):
    """A float subclass: takes stored_time's general path, not its fast one."""


@given(st.floats(allow_nan=True, allow_infinity=True), st.booleans())
def test_stored_time_fast_path_reads_like_the_general_one(value: float, expiry: bool) -> None:
    from langgraph_memory.store._checks import stored_time

    assert stored_time(value, expiry=expiry) == stored_time(_Float(value), expiry=expiry)


@given(st.lists(labels, min_size=1, max_size=4).map(tuple))
def test_namespace_keys_read_back_whatever_the_labels(namespace: tuple[str, ...]) -> None:
    from langgraph_memory.store.records import namespace_from_key

    assert namespace_from_key(namespace_key(namespace)) == namespace
