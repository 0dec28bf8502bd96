"""The LangGraph ``BaseStore`` face: :class:`QdrantStore`, on the memories' own engine.

It owns how LangGraph's items (get/put/search/list_namespaces, index and TTL configs) are
stored beside the memories in one Qdrant collection and read back. It may import
``langgraph_memory.errors``, the storage layer (``langgraph_memory.store``) and LangGraph;
nothing imports it but the package's ``__init__`` and ``MemoryStore.as_base_store`` (lazily).
"""

from langgraph_memory.base_store._items import InvalidEmbeddingError, InvalidItemNamespaceError, InvalidItemValueError
from langgraph_memory.base_store.store import QdrantStore

__all__ = ["InvalidEmbeddingError", "InvalidItemNamespaceError", "InvalidItemValueError", "QdrantStore"]
