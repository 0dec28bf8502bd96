"""Qdrant Edge's BM25 encoder as a langchain-qdrant ``SparseEmbeddings``.

Its own module because ``langchain_qdrant`` imports ``qdrant_client`` on import (seconds):
:class:`~langgraph_memory.store.MemoryStore` builds its default encoder on the first write or
search, so reading a store never loads either.
"""

from __future__ import annotations

from langchain_qdrant.sparse_embeddings import SparseEmbeddings, SparseVector

__all__ = ["Bm25SparseEmbeddings"]


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
