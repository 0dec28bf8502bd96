"""An embedder built on first use that imports nothing heavy until then.

Apart from :mod:`langgraph_memory.store.embeddings` so that both it and the public
:class:`~langgraph_memory.LazyEmbeddings` (which adds LangChain's base class) build on it
without importing each other."""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING, Callable

from langgraph_memory.errors import EmbeddingsUnavailableError

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings


class DeferredEmbedder:
    """An embedder built on its first use, without importing LangChain until then.

    The machinery behind :class:`LazyEmbeddings`; the command line uses it bare, so that
    listing or exporting a store imports neither LangChain nor the model. Its methods are
    those of a LangChain ``Embeddings``; ``LazyEmbeddings`` also *is* one.

    Args:
        factory: builds the real embedder, once, on the first embedding.
        model_name: the name the store records for it (see :func:`embedder_name`).
        dim: its vector size, when known: then a *new* store needs no probe either, so a
            server importing a graph (``langgraph dev``) starts without loading the model.
            Vectors of another size raise :class:`EmbeddingsUnavailableError`.
    """

    def __init__(self, factory: Callable[[], Embeddings], model_name: str, *, dim: int | None = None) -> None:
        if not callable(factory):
            raise TypeError("factory must be a callable returning an Embeddings")
        if not isinstance(model_name, str) or not model_name:
            raise TypeError("model_name must be a non-empty string")
        if dim is not None and (isinstance(dim, bool) or not isinstance(dim, int) or dim <= 0):
            raise TypeError("dim must be a positive int or None")
        self.factory = factory
        self.model_name = model_name
        self.dim = dim
        self.follows_store = False
        """``True`` for the default embedder: a store that recorded another opens with its own."""
        self._inner: Embeddings | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """Whether the real embedder has been built."""
        return self._inner is not None

    @property
    def inner(self) -> Embeddings:
        """The real embedder, built now if it was not yet."""
        if self._inner is None:
            with self._lock:
                if self._inner is None:
                    self._inner = self.factory()
        return self._inner

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._checked(v) for v in self.inner.embed_documents(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self._checked(self.inner.embed_query(text))

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._checked(v) for v in await (await self._ainner()).aembed_documents(texts)]

    async def aembed_query(self, text: str) -> list[float]:
        return self._checked(await (await self._ainner()).aembed_query(text))

    async def _ainner(self) -> Embeddings:
        # Building the model takes seconds: not on the event loop.
        return self.inner if self.loaded else await asyncio.to_thread(lambda: self.inner)

    def _checked(self, vector: list[float]) -> list[float]:
        if self.dim is not None and len(vector) != self.dim:
            raise EmbeddingsUnavailableError(
                f"{self.model_name} made a {len(vector)}-dimensional vector, not the {self.dim} declared"
            )
        return vector
