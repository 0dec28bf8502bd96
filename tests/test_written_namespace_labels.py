"""A client names its own sub-namespaces through the store API (``put_item(["memories",
"bob", <anything>], ...)``): none may hold a character a reader cannot see or tell from
another, as identities may not, or an admin reading the memory browser or the CLI sees two
namespaces alike (``notes`` and ``notes`` + U+200B). Legitimate Unicode still works."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langgraph.store.base import InvalidNamespaceError, PutOp

from langgraph_memory.errors import LangGraphMemoryError
from langgraph_memory.store._labels import identity_fault
from test_store_api_attacks import faces, memory_store, put, served  # noqa: F401  (fixtures)

OWN = ("memories", "bob")
LOOK_ALIKES = ["notes\u200b", "no\u200dtes", "\ufeffnotes", "notes\u202e", "no\u2066tes", "notes\u2028x", "\u3164",
               "no\u115ftes", "no\u034ftes", "note\u00a0s", "notes\u3000", "caf" + "e\u0301", "\u0301notes", " notes",
               "notes ", "no\ttes", "no\u00adtes"]
LEGITIMATE = ["café", "Ångström", "日本語のメモ", "메모", "заметки", "☕\ufe0f", "1\ufe0f\u20e3", "🇫🇷", "👍🏽", "a b", "نكتة"]


@pytest.mark.parametrize("label", LOOK_ALIKES, ids=ascii)
def test_a_look_alike_sub_namespace_is_refused_and_nothing_is_stored(served, label) -> None:
    auth, face, _ = served
    namespace = OWN + (label,)
    with pytest.raises(InvalidNamespaceError) as refused:
        put(auth, face, "bob", namespace, "k", {"content": "x"})
    assert isinstance(refused.value, LangGraphMemoryError)
    with pytest.raises(InvalidNamespaceError):  # a batch with one such put writes none of it
        face.batch([PutOp(OWN + ("fine",), "k", {"content": "ok"}), PutOp(namespace, "k", {"content": "x"})])
    assert face.get(namespace, "k") is None and face.get(OWN + ("fine",), "k") is None
    assert face.list_namespaces(prefix=OWN) == []


@pytest.mark.parametrize("label", LEGITIMATE, ids=ascii)
def test_legitimate_unicode_sub_namespaces_still_work(served, label) -> None:
    auth, face, _ = served
    put(auth, face, "bob", OWN + (label,), "k", {"content": "x"})
    assert face.get(OWN + (label,), "k").value == {"content": "x"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(label=st.one_of(st.text(max_size=8), st.sampled_from(LOOK_ALIKES + LEGITIMATE)))
def test_any_sub_namespace_label_is_stored_or_refused_with_a_typed_error(faces, label) -> None:  # noqa: F811
    namespace = OWN + (label,)
    for face in faces:
        key = f"k{time.monotonic_ns()}"
        try:
            face.put(namespace, key, {"content": "x"})
        except LangGraphMemoryError:
            langgraphs_rule = not label or "." in label or "\x00" in label  # reads refuse these too
            assert langgraphs_rule or identity_fault(label)
            assert langgraphs_rule or face.get(namespace, key) is None
            continue
        assert identity_fault(label) is None
        assert face.get(namespace, key).value == {"content": "x"}
