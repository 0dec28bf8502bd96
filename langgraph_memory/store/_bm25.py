"""Qdrant Edge's BM25 encoder as a langchain-qdrant ``SparseEmbeddings``, and the check
put around a custom one.

Its own module because ``langchain_qdrant`` imports ``qdrant_client`` on import (seconds):
:class:`~langgraph_memory.store.MemoryStore` builds its default encoder on the first write or
search, so reading a store never loads either.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

from langchain_qdrant.sparse_embeddings import SparseEmbeddings, SparseVector

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._sparse_checks import sparse_pair

__all__ = ["Bm25SparseEmbeddings", "CheckedSparseEmbeddings", "checked_encoder"]


class Bm25SparseEmbeddings(SparseEmbeddings):
    """Qdrant Edge's BM25 encoder as a langchain-qdrant ``SparseEmbeddings``.

    Documents get term-frequency weights; the store applies IDF at query time (Qdrant Edge:
    from its live points' counts, ``store/backends/_bm25_idf.py``; a Qdrant server: the
    engine's IDF modifier), so the same encoder serves the embedded and the server backends.

    Args:
        language: Snowball language for stemming and stopwords (``"english"``, ``"french"``...).
        avg_len: expected document length in tokens; memories are one sentence.
    """

    def __init__(self, language: str = "english", avg_len: float = 16.0) -> None:
        from qdrant_edge import Bm25, Bm25Config

        self.language = language
        self.avg_len = avg_len
        self._model = Bm25(Bm25Config(language=language, avg_len=avg_len, ascii_folding=True))

    def embed_documents(self, texts: list[str]) -> list[SparseVector]:
        return [self._convert(self._model.embed_document(t)) for t in texts]

    def embed_query(self, text: str) -> SparseVector:
        return self._convert(self._model.embed_query(text))

    @staticmethod
    def _convert(vector) -> SparseVector:  # type: ignore[no-untyped-def]
        return SparseVector(indices=list(vector.indices), values=list(vector.values))


class CheckedSparseEmbeddings(SparseEmbeddings):
    """A custom encoder (``inner``) whose every vector is checked before the store writes or
    queries it (:mod:`langgraph_memory.store._sparse_checks` says what is valid): a bad one
    is an :class:`~langgraph_memory.errors.InvalidMemoryError` on ``sparse_embeddings``,
    raised before anything is written. The encoder's own exceptions pass through."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def embed_documents(self, texts: list[str]) -> list[SparseVector]:
        return self._all(self.inner.embed_documents(texts), len(texts))

    def embed_query(self, text: str) -> SparseVector:
        return _checked(self.inner.embed_query(text), "embed_query")

    async def aembed_documents(self, texts: list[str]) -> list[SparseVector]:
        if not hasattr(self.inner, "aembed_documents"):  # a duck-typed encoder: its sync method
            return await super().aembed_documents(texts)
        return self._all(await self.inner.aembed_documents(texts), len(texts))

    async def aembed_query(self, text: str) -> SparseVector:
        if not hasattr(self.inner, "aembed_query"):
            return await super().aembed_query(text)
        return _checked(await self.inner.aembed_query(text), "aembed_query")

    @staticmethod
    def _all(found: Any, wanted: int) -> list[SparseVector]:
        # A short list would silently leave memories without a BM25 vector (zip stops).
        if not isinstance(found, (list, tuple)) or len(found) != wanted:
            got = f"{len(found)} vectors" if isinstance(found, (list, tuple)) else f"a {type(found).__name__}"
            raise InvalidMemoryError(
                "sparse_embeddings", f"embed_documents must return a list of {wanted} vectors, one per text; got {got}")
        checked = [_checked(v, "embed_documents") for v in islice(found, wanted + 1)]
        if len(checked) != wanted:  # a list whose ``__len__`` is not what iterating it gives
            raise InvalidMemoryError(
                "sparse_embeddings", f"embed_documents must return {wanted} vectors, one per text; got {len(checked)}")
        return checked


def _checked(vector: Any, method: str) -> SparseVector:
    pair, problem = sparse_pair(getattr(vector, "indices", None), getattr(vector, "values", None))
    if pair is None:
        raise InvalidMemoryError("sparse_embeddings", f"{method} returned an invalid sparse vector: {problem}")
    return SparseVector.model_construct(indices=pair[0], values=pair[1])


def checked_encoder(encoder: Any) -> SparseEmbeddings:
    """``encoder`` as the store uses it: this package's own BM25 as is (its vectors are
    valid by construction, and a turn pays nothing), any other checked."""
    if type(encoder) in (Bm25SparseEmbeddings, CheckedSparseEmbeddings):
        return encoder
    if not callable(getattr(encoder, "embed_documents", None)) or not callable(getattr(encoder, "embed_query", None)):
        raise InvalidMemoryError(
            "sparse_embeddings", f"expected a langchain-qdrant SparseEmbeddings, got {type(encoder).__name__}")
    return CheckedSparseEmbeddings(encoder)
