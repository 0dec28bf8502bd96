"""``MemoryStore.export`` / ``import_``: the Python face of moving a store (embedded to server)."""

from __future__ import annotations

import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.embeddings import DeterministicFakeEmbedding
from qdrant_client import QdrantClient

from langgraph_memory import EmbedderMismatchError, InvalidMemoryError, LangGraphMemoryError, MemoryStore

NS = ("memories", "alice")


class AnotherModel(DeterministicFakeEmbedding):
    """Vectors of the same size under another model's name."""

    model_name: str = "another-model-128"


def test_an_embedded_store_moves_to_a_server_with_its_history(tmp_path, fake_embeddings):
    with MemoryStore.open(tmp_path / "edge", embeddings=fake_embeddings) as edge:
        first = edge.remember("Alice lives in Lyon", namespace=NS)
        second = edge.remember("Bob lives in Paris", namespace=("memories", "bob"))
        seen = []
        summary = edge.export(tmp_path / "all.jsonl", progress=lambda *a: seen.append(a))
        assert summary.records == 2 and seen[-1] == ("export", 2, 2)
        buffer = io.StringIO()
        assert edge.export(buffer, namespace=NS).records == 1
        assert json.loads(buffer.getvalue().splitlines()[0])["count"] == 1
    server = MemoryStore(client=QdrantClient(":memory:"), embeddings=fake_embeddings)
    assert server.import_(tmp_path / "all.jsonl", dry_run=True).records == 2
    assert server.count() == 0
    server.import_(tmp_path / "all.jsonl")
    assert server.get(first.memory.id, namespace=NS).content == "Alice lives in Lyon"
    assert server.get(second.memory.id, namespace=("memories", "bob")) is not None
    assert not list((tmp_path).glob(".all.jsonl.*"))  # no temporary file left


def test_import_refuses_vectors_of_another_embedder_and_writes_nothing(tmp_path, fake_embeddings):
    with MemoryStore.open(tmp_path / "a", embeddings=fake_embeddings) as source:
        source.remember("Alice lives in Lyon", namespace=NS)
        source.export(tmp_path / "a.jsonl")
    other = AnotherModel(size=128)
    target = MemoryStore(client=QdrantClient(":memory:"), embeddings=other)
    with pytest.raises(EmbedderMismatchError) as caught:
        target.import_(tmp_path / "a.jsonl")
    assert "another-model-128" in str(caught.value) and "DeterministicFakeEmbedding" in str(caught.value)
    assert target.count() == 0
    with pytest.raises(InvalidMemoryError):
        target.import_(tmp_path / "missing.jsonl")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=200))
def test_any_file_content_imports_or_raises_a_typed_error_and_a_failure_stores_nothing(tmp_path, fake_embeddings, text):
    path = tmp_path / "any.jsonl"
    path.write_text(text, encoding="utf-8")
    store = MemoryStore(client=QdrantClient(":memory:"), embeddings=fake_embeddings)
    try:
        store.import_(path)
    except LangGraphMemoryError:
        assert store.count(include_superseded=True) == 0
