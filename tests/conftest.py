"""Shared fixtures: the real offline embedder and a store on each backend."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.pop("OPENAI_API_KEY", None)  # tests never reach a paid API


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "integration: uses the real offline embedding model")


@pytest.fixture(scope="session")
def embeddings():
    from langgraph_memory import offline_embeddings

    return offline_embeddings()


@pytest.fixture(params=["edge", "qdrant"])
def backend(request) -> str:
    return request.param


@pytest.fixture
def make_store(backend, embeddings, tmp_path):
    """Build stores on the parametrized backend; all are closed after the test."""
    from qdrant_client import QdrantClient

    from langgraph_memory import MemoryStore

    opened = []

    def make(path=None, **kwargs):
        if backend == "edge":
            store = MemoryStore.open(path or tmp_path / "store", embeddings=embeddings, **kwargs)
        else:
            store = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings, **kwargs)
        opened.append(store)
        return store

    yield make
    for store in opened:
        try:
            store.close()
        except Exception:
            pass


@pytest.fixture
def store(make_store):
    return make_store()


@pytest.fixture(scope="session")
def fake_embeddings():
    """A deterministic fake embedder (same text, same vector; no model load) for tests of
    validation, write paths and properties, where meaning does not matter."""
    from langchain_core.embeddings import DeterministicFakeEmbedding

    return DeterministicFakeEmbedding(size=128)


@pytest.fixture(scope="module")
def fake_stores(tmp_path_factory, fake_embeddings):
    """One store per backend for a module, on the fake embedder (opening an Edge store
    costs seconds on a loaded machine): tests share it, each in a namespace of its own."""
    from qdrant_client import QdrantClient

    from langgraph_memory import MemoryStore

    stores = {
        "edge": MemoryStore.open(tmp_path_factory.mktemp("fake_stores") / "s", embeddings=fake_embeddings),
        "qdrant": MemoryStore(client=QdrantClient(":memory:"), embeddings=fake_embeddings),
    }
    yield stores
    for store in stores.values():
        store.close()
