"""langgraph-memory: long-term memory for LangGraph agents, on Qdrant.

The public API is re-exported here; every module starting with ``_`` is private.
"""

from langgraph_memory.background.worker import BackgroundWorker, WorkerStats, worker_for
from langgraph_memory.store._dedup import DedupPolicy, DedupVerdict, LLMDedupJudge
from langgraph_memory.store.embeddings import (
    Bm25SparseEmbeddings,
    LazyEmbeddings,
    default_embedder_name,
    default_embeddings,
    offline_embeddings,
)
from langgraph_memory.errors import (
    EmbeddingsUnavailableError,
    InvalidMemoryError,
    LangGraphMemoryError,
    SchemaMismatchError,
    StorageError,
    StoreLockedError,
)
from langgraph_memory.store.records import DEFAULT_IMPORTANCE, KIND_CATEGORIES, Memory, parse_ttl
from langgraph_memory.agent.injection import InjectionConfig
from langgraph_memory.store import MemoryStore, QueryVectors, RememberResult, SearchHit

# The LangGraph face (layer 5) loads on first use, so the store alone stays light to import.
_LAZY = {
    "MemoryPrehook": "langgraph_memory.agent.hooks",
    "MemoryPosthook": "langgraph_memory.agent.hooks",
    "MemoryState": "langgraph_memory.agent.hooks",
    "with_memories": "langgraph_memory.agent.hooks",
    "memory_tools": "langgraph_memory.agent.tools",
    "MemoryMiddleware": "langgraph_memory.agent.middleware",
    "build_memory_graph": "langgraph_memory.agent.graph",
    "react_agent_hooks": "langgraph_memory.agent.graph",
}


def __getattr__(name: str):  # noqa: ANN202
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'langgraph_memory' has no attribute {name!r}")


__all__ = [
    "BackgroundWorker",
    "WorkerStats",
    "worker_for",
    "InjectionConfig",
    "MemoryMiddleware",
    "MemoryPosthook",
    "MemoryPrehook",
    "MemoryState",
    "build_memory_graph",
    "memory_tools",
    "react_agent_hooks",
    "with_memories",
    "Bm25SparseEmbeddings",
    "DEFAULT_IMPORTANCE",
    "DedupPolicy",
    "DedupVerdict",
    "EmbeddingsUnavailableError",
    "InvalidMemoryError",
    "KIND_CATEGORIES",
    "LLMDedupJudge",
    "LazyEmbeddings",
    "LangGraphMemoryError",
    "Memory",
    "MemoryStore",
    "QueryVectors",
    "RememberResult",
    "SchemaMismatchError",
    "SearchHit",
    "StorageError",
    "StoreLockedError",
    "default_embedder_name",
    "default_embeddings",
    "offline_embeddings",
    "parse_ttl",
]
