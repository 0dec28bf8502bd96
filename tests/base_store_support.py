"""What the BaseStore tests share: a character-frequency embedder and store builders."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from langchain_core.embeddings import Embeddings


class CharacterEmbeddings(Embeddings):
    """Texts as the frequency-weighted sum of one fixed random direction per character:
    texts sharing characters are close, as the embedder of LangGraph's store tests makes
    them. Deterministic across processes."""

    def __init__(self, dims: int = 500) -> None:
        self.dims = dims
        self._directions: dict[str, list[float]] = {}

    def _direction(self, char: str) -> list[float]:
        if char not in self._directions:
            rng = random.Random(ord(char) * 7919 + self.dims)
            self._directions[char] = [rng.gauss(0, 1) for _ in range(self.dims)]
        return self._directions[char]

    def _embed(self, text: str) -> list[float]:
        counts = Counter(text)
        total = sum(counts.values())
        vector = [0.0] * self.dims
        for char, n in counts.items():
            for i, x in enumerate(self._direction(char)):
                vector[i] += x * n / max(total, 1)
        norm = math.sqrt(sum(x * x for x in vector))
        return [x / norm for x in vector] if norm else vector

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._embed(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, CharacterEmbeddings) and other.dims == self.dims

    __hash__ = None  # type: ignore[assignment]


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b))
    na, nb = math.sqrt(sum(x * x for x in a)), math.sqrt(sum(x * x for x in b))
    return dot / (na * nb) if na and nb else 0.0


_ENGINES: dict[tuple[str, int], Any] = {}


def shared_engine(backend: str, dims: int, root: Any, *, empty: bool = True) -> Any:
    """One engine per backend and vector size for the whole session, emptied on each call:
    opening a Qdrant Edge shard (with its payload indexes) costs far more than a test."""
    from qdrant_client import QdrantClient

    from langgraph_memory.store.backends import Where
    from langgraph_memory.store.backends.edge import EdgeBackend
    from langgraph_memory.store.backends.qdrant import QdrantClientBackend

    engine = _ENGINES.get((backend, dims))
    if engine is None:
        engine = EdgeBackend(root / f"edge-{dims}") if backend == "edge" else QdrantClientBackend(QdrantClient(":memory:"))
        engine.setup(dim=dims, meta={"schema_version": 1, "embedder": "tests"})
        _ENGINES[(backend, dims)] = engine
    if empty:
        engine.delete_where(Where(status=None))
    return engine


def store_on(engine: Any, **options: Any):
    """A QdrantStore over a shared engine (closing it is the session's business)."""
    from langgraph_memory import QdrantStore

    store = QdrantStore(_backend=engine, **options)
    store._owns_backend = False
    return store


def open_store(backend: str, path: Any, **options: Any):
    """A QdrantStore on ``backend``: Qdrant Edge in ``path``, or qdrant-client's local mode."""
    from qdrant_client import QdrantClient

    from langgraph_memory import QdrantStore

    if backend == "edge":
        return QdrantStore.open(path, **options)
    return QdrantStore(client=QdrantClient(":memory:"), **options)
