"""``limit`` and ``offset`` of a store API search or listing are client integers the server
passes on unbounded (``int(payload["limit"])``): any of them either reads a page or is
refused with a typed error, never an ``OverflowError`` from the engine (a 500)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.base_store._reads import MAX_PAGE
from langgraph_memory.errors import InvalidMemoryError
from test_store_api_attacks import faces  # noqa: F401  (fixture)

OWN = ("memories", "bob")
PAGES = st.one_of(st.integers(-3, 30), st.integers(-(2**70), 2**70),
                  st.sampled_from([MAX_PAGE, MAX_PAGE + 1, 2**63, 2**64 - 1, 2**64, 10**20]))


@pytest.fixture(scope="module")
def filled(faces):  # noqa: F811
    for face in faces:
        for i in range(5):
            face.put(OWN + ("pages",), f"k{i}", {"text": f"note {i}"})
    return faces


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limit=PAGES, offset=PAGES, query=st.sampled_from([None, "note"]))
def test_any_page_is_read_or_refused_with_a_typed_error(filled, limit, offset, query) -> None:
    valid = 0 <= limit <= MAX_PAGE and 0 <= offset <= MAX_PAGE
    for face in filled:
        try:
            found = face.search(OWN + ("pages",), query=query, limit=limit, offset=offset)
        except InvalidMemoryError:
            assert not valid
        else:
            assert valid and len(found) == max(0, min(limit, 5 - offset))
        try:
            listed = face.list_namespaces(prefix=OWN, limit=limit, offset=offset)
        except InvalidMemoryError:
            assert not valid
        else:
            assert valid and listed == ([OWN + ("pages",)] if limit and not offset else [])
