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
    StoreLockedError,
)
from langgraph_memory.store.records import DEFAULT_IMPORTANCE, KIND_CATEGORIES, Memory, parse_ttl
from langgraph_memory.agent.injection import InjectionConfig
from langgraph_memory.store import MemoryStore, QueryVectors, RememberResult, SearchHit
from langgraph_memory.store._rooms import RoomMessage

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
    "RoomObserver": "langgraph_memory.agent.observer",
    "LiveConfig": "langgraph_memory.agent.rooms",
    "build_digest_graph": "langgraph_memory.agent.digest_graph",
    # The digest and its scheduler load langchain-core's model layer: also on first use.
    "digest": "langgraph_memory.background.digest",
    "adigest": "langgraph_memory.background.digest",
    "DigestReport": "langgraph_memory.background.digest",
    "DigestError": "langgraph_memory.background.digest",
    "DigestBusyError": "langgraph_memory.background.digest",
    "Schedule": "langgraph_memory.background.scheduler",
    "Scheduler": "langgraph_memory.background.scheduler",
    "schedule_digests": "langgraph_memory.background.scheduler",
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
    "RoomObserver",
    "LiveConfig",
    "build_digest_graph",
    "digest",
    "adigest",
    "DigestReport",
    "DigestError",
    "DigestBusyError",
    "Schedule",
    "Scheduler",
    "schedule_digests",
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
    "RoomMessage",
    "SchemaMismatchError",
    "SearchHit",
    "StoreLockedError",
    "default_embedder_name",
    "default_embeddings",
    "offline_embeddings",
    "parse_ttl",
]
