"""A memory's metadata reads back as it was given, on both engines: Qdrant Edge turns an
integer past 64 bits into a float and may move a float by one unit in the last place, so
metadata holding either is also stored as JSON text (``metadata_json``), which every write
of the metadata keeps in step and an import checks."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from qdrant_client import QdrantClient

from langgraph_memory import InvalidMemoryError, LangGraphMemoryError, MemoryStore

NS = ("memories", "alice")
FLOATS = [i / 7 for i in range(1, 120)] + [1e-7 * i for i in range(1, 60)]

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**80), 2**80) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(blacklist_categories=("Cs",)), max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=8)


def test_metadata_with_floats_and_big_integers_reads_back_exactly(store):
    metadata = {"big": 2**70, "neg": -(2**90), "floats": FLOATS, "ok": 2**63}
    memory = store.remember("Alice plays the cello", namespace=NS, metadata=metadata).memory
    got = store.get(memory.id, namespace=NS)
    assert got.metadata == metadata and type(got.metadata["big"]) is int
    assert [h.memory.metadata for h in store.search("cello", namespace=NS)] == [metadata]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(metadata=st.dictionaries(st.text(max_size=5), _JSON, max_size=4))
def test_any_json_metadata_reads_back_as_given_or_is_refused(store, metadata):
    try:
        memory = store.remember("Bob has a sailing boat", namespace=("memories", "bob"), metadata=metadata).memory
    except InvalidMemoryError:
        return  # too large, say: refused, nothing stored
    try:
        assert store.get(memory.id, namespace=("memories", "bob")).metadata == metadata
    finally:
        store.erase(("memories", "bob"))


def test_a_duplicate_merging_metadata_keeps_the_exact_copy_in_step(store):
    first = store.remember("Alice lives in Lyon", namespace=NS, metadata={"score": 0.1 / 3}).memory
    again = store.remember("Alice lives in Lyon", namespace=NS, metadata={"weight": 2**70})
    kept = store.get(first.id, namespace=NS)
    assert again.memory.id == first.id and kept.metadata == {"score": 0.1 / 3, "weight": 2**70}


def test_an_import_takes_the_exact_copy_and_refuses_a_broken_one(tmp_path, fake_embeddings):
    metadata = {"big": 2**70, "floats": FLOATS}
    with MemoryStore.open(tmp_path / "edge", embeddings=fake_embeddings) as edge:
        memory = edge.remember("Alice lives in Lyon", namespace=NS, metadata=metadata).memory
        edge.export(tmp_path / "all.jsonl")
    server = MemoryStore(client=QdrantClient(":memory:"), embeddings=fake_embeddings)
    server.import_(tmp_path / "all.jsonl")
    assert server.get(memory.id, namespace=NS).metadata == metadata

    lines = (tmp_path / "all.jsonl").read_text().splitlines()
    record = json.loads(lines[1])
    record["payload"]["metadata_json"] = "{not json"
    broken = MemoryStore(client=QdrantClient(":memory:"), embeddings=fake_embeddings)
    with pytest.raises(LangGraphMemoryError, match="metadata_json"):
        (tmp_path / "broken.jsonl").write_text("\n".join([lines[0], json.dumps(record)]) + "\n")
        broken.import_(tmp_path / "broken.jsonl")
    assert broken.count() == 0


def test_metadata_with_an_integer_past_any_float_is_stored_and_reads_back(store):
    """JSON takes any integer; Qdrant Edge's binding takes none past a float's range: such
    metadata failed the write with the binding's bare ``TypeError`` (a server's 500), through
    ``remember`` and through the BaseStore face updating a memory."""
    metadata = {"huge": 10**400, "nested": {"neg": [-(10**400), 1]}}
    memory = store.remember("Alice plays the cello", namespace=NS, metadata=metadata).memory
    assert store.get(memory.id, namespace=NS).metadata == metadata
    face = store.as_base_store()
    face.put(NS, memory.id, {"content": "Alice plays the viola", "metadata": {"huge": -(10**401)}})
    assert store.get(memory.id, namespace=NS).metadata == {"huge": -(10**401)}
