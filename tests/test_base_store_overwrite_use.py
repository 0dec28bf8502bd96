"""Overwriting a memory through the BaseStore face (``put``) changes what it says, not how
used it was: access and injection counts, last access, vitality and the gardener's
``vitality_at`` stay, so the gardener does not take an often-used memory for a fresh one.
The same holds for an item the app opted in to the memory reads (``memory_field``)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory import LangGraphMemoryError

ALICE = ("memories", "alice")
USE = ("access_count", "injection_count", "last_accessed_at", "vitality", "vitality_at")


def _use(store: Any, point_id: str) -> dict[str, Any]:
    [point] = store._backend.retrieve([point_id])
    return {k: point.payload.get(k) for k in USE}


def _used(store: Any, memory_id: str, namespace: tuple[str, ...], times: int) -> dict[str, Any]:
    """Use a memory ``times`` times, days ago: its counters, boosted vitality and
    ``vitality_at`` all differ from a fresh memory's."""
    at = datetime.now(timezone.utc) - timedelta(days=3)
    for i in range(times):
        store.record_access([memory_id], namespace=namespace, injected=i % 2 == 0, now=at + timedelta(minutes=i))
    use = _use(store, memory_id)
    assert use["access_count"] == times and use["vitality_at"] is not None
    return use


def test_overwriting_a_memory_through_put_keeps_its_use(make_store) -> None:
    store = make_store()
    items = store.as_base_store()
    home = store.remember("I live in Nantes", namespace=ALICE, memory_type="observation").memory
    before = _used(store, home.id, ALICE, times=5)
    assert before["vitality"] > home.importance  # boosted: not what a fresh memory has

    items.put(ALICE, home.id, {"content": "I live in Rennes"})
    after = store.get(home.id, namespace=ALICE)
    assert after.content == "I live in Rennes"
    assert _use(store, home.id) == before
    assert (after.access_count, after.injection_count, after.vitality) == (5, 3, before["vitality"])
    assert after.last_accessed_at.timestamp() == pytest.approx(before["last_accessed_at"], abs=1e-6)


def test_overwriting_an_opted_in_item_keeps_its_use(make_store) -> None:
    store = make_store()
    opted = store.as_base_store(memory_field="content")
    opted.put(ALICE, "boat", {"content": "Alice owns a red boat", "size": 7})
    [hit] = store.search("red boat", namespace=ALICE)
    before = _used(store, hit.memory.id, ALICE, times=4)

    opted.put(ALICE, "boat", {"content": "Alice owns a blue boat", "size": 8})
    assert opted.get(ALICE, "boat").value == {"content": "Alice owns a blue boat", "size": 8}
    [hit] = store.search("blue boat", namespace=ALICE)
    assert hit.memory.content == "Alice owns a blue boat"
    assert _use(store, hit.memory.id) == before
    # A plain item becoming a memory has no use to keep: it starts fresh.
    opted.put(ALICE, "note", {"title": "no text field"})
    opted.put(ALICE, "note", {"content": "Alice sails on Sundays"})
    fresh = [h.memory for h in store.search("sails on Sundays", namespace=ALICE) if "Sundays" in h.memory.content]
    assert [(m.access_count, m.injection_count, m.last_accessed_at) for m in fresh] == [(0, 0, None)]
    assert fresh[0].vitality == fresh[0].importance


def test_the_gardener_sees_an_overwritten_memory_as_used(make_store) -> None:
    store = make_store()
    items = store.as_base_store()
    kept = store.remember("The boiler code is 4521", namespace=ALICE, memory_type="observation").memory
    _used(store, kept.id, ALICE, times=6)
    items.put(ALICE, kept.id, {"content": "The boiler code is 4522"})
    assert store.get(kept.id, namespace=ALICE).vitality > kept.importance  # not reset to a fresh value


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=60))
def test_any_text_overwrites_with_use_kept_or_fails_typed_leaving_the_memory(fake_stores, text: str) -> None:
    store = fake_stores["edge"]
    ns = ("memories", "overwrite-prop")
    items = store.as_base_store()
    memory = store.remember("The spare key is under the mat", namespace=ns).memory
    try:
        before = _used(store, memory.id, ns, times=2)
        stored = store.get(memory.id, namespace=ns)
        try:
            items.put(ns, memory.id, {"content": text})
        except LangGraphMemoryError:
            assert store.get(memory.id, namespace=ns) == stored  # nothing half-written
            return
        assert store.get(memory.id, namespace=ns).content == text.strip()
        assert _use(store, memory.id) == before
    finally:
        store.erase(ns)
