"""The storage layer: :class:`MemoryStore` and everything under it.

It owns the records (``records``), the embedders (``embeddings``), the write path with
dedup, reads and hybrid retrieval, export/import, and ``backends/`` (Qdrant Edge and
qdrant-client behind one small protocol). It may import ``langgraph_memory.errors`` and
third-party libraries, never LangGraph nor ``agent``, ``background`` or ``cli``.
"""

from langgraph_memory.store.memory_store import MemoryStore, RememberResult, SearchHit, SearchMode
from langgraph_memory.store._reads import QueryVectors

__all__ = ["MemoryStore", "QueryVectors", "RememberResult", "SearchHit", "SearchMode"]
