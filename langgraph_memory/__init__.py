"""langgraph-memory: long-term memory for LangGraph agents, on Qdrant.

The public API is re-exported here; every module starting with ``_`` is private.
"""

import importlib
from typing import TYPE_CHECKING, Any

# Every name loads on first use: importing the package (e.g. for the ``langgraph-memory``
# command's --help) costs nothing, and the store never pulls in LangGraph.
_LAZY = {
    "DedupPolicy": "langgraph_memory.store._dedup",
    "DedupVerdict": "langgraph_memory.store._dedup",
    "LLMDedupJudge": "langgraph_memory.store._dedup",
    "Bm25SparseEmbeddings": "langgraph_memory.store.embeddings",
    "LazyEmbeddings": "langgraph_memory.store.embeddings",
    "default_embedder_name": "langgraph_memory.store.embeddings",
    "default_embeddings": "langgraph_memory.store.embeddings",
    "offline_embeddings": "langgraph_memory.store.embeddings",
    "lazy_default_embeddings": "langgraph_memory.store.embeddings",
    "EmbeddingsUnavailableError": "langgraph_memory.errors",
    "InvalidMemoryError": "langgraph_memory.errors",
    "LangGraphMemoryError": "langgraph_memory.errors",
    "SchemaMismatchError": "langgraph_memory.errors",
    "EmbedderMismatchError": "langgraph_memory.errors",
    "named_embeddings": "langgraph_memory.store.embeddings",
    "reembed": "langgraph_memory.store._reembed",
    "copy_reembedded": "langgraph_memory.store._reembed",
    "ReembedReport": "langgraph_memory.store._reembed",
    "StoreLockedError": "langgraph_memory.errors",
    "DEFAULT_IMPORTANCE": "langgraph_memory.store.records",
    "KIND_CATEGORIES": "langgraph_memory.store.records",
    "Memory": "langgraph_memory.store.records",
    "parse_ttl": "langgraph_memory.store.records",
    "MemoryStore": "langgraph_memory.store",
    "QueryVectors": "langgraph_memory.store",
    "RememberResult": "langgraph_memory.store",
    "SearchHit": "langgraph_memory.store",
    "Link": "langgraph_memory.store._links",
    "BackgroundWorker": "langgraph_memory.background.worker",
    "WorkerStats": "langgraph_memory.background.worker",
    "worker_for": "langgraph_memory.background.worker",
    "InjectionConfig": "langgraph_memory.agent.injection",
    "MemoryPrehook": "langgraph_memory.agent.hooks",
    "MemoryPosthook": "langgraph_memory.agent.hooks",
    "MemoryState": "langgraph_memory.agent.hooks",
    "with_memories": "langgraph_memory.agent.hooks",
    "memory_tools": "langgraph_memory.agent.tools",
    "MemoryMiddleware": "langgraph_memory.agent.middleware",
    "build_memory_graph": "langgraph_memory.agent.graph",
    "react_agent_hooks": "langgraph_memory.agent.graph",
    "shared_store": "langgraph_memory.store._shared",
    "QdrantStore": "langgraph_memory.base_store",
    "MemoryGate": "langgraph_memory.agent.availability",
    "StoreUnavailableError": "langgraph_memory.errors",
    "StorageError": "langgraph_memory.errors",
    "AccessDeniedError": "langgraph_memory.errors",
    "AccessPolicy": "langgraph_memory.auth",
    "InvalidIdentityError": "langgraph_memory.agent.scope",
    "AgentScopeError": "langgraph_memory.agent.identity",
    "MemoryScopeError": "langgraph_memory.errors",
    "namespace_label": "langgraph_memory.agent.scope",
    "protect_store": "langgraph_memory.auth",
    "DeferredStore": "langgraph_memory.store.deferred",
    "RecallHit": "langgraph_memory.store.conversations",
    "search_conversations": "langgraph_memory.store.conversations",
    "asearch_conversations": "langgraph_memory.store.conversations",
    "index_exchange": "langgraph_memory.store.conversations",
    "aindex_exchange": "langgraph_memory.store.conversations",
    "index_summary": "langgraph_memory.store.conversations",
    "aindex_summary": "langgraph_memory.store.conversations",
    "RoomMessage": "langgraph_memory.store._rooms",
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
    "MemoryEvents": "langgraph_memory.agent.events",
    "CaptureConfig": "langgraph_memory.agent.capture",
    "build_garden_graph": "langgraph_memory.agent.garden_graph",
    "garden_in_background": "langgraph_memory.background.gardener",
    "schedule_gardening": "langgraph_memory.background.gardener",
    "PreferenceCapture": "langgraph_memory.background.preferences",
    "GardenReport": "langgraph_memory.store._garden",
    "DecaySettings": "langgraph_memory.store.vitality",
}

if TYPE_CHECKING:  # what type checkers and IDEs see
    from langgraph_memory.agent.availability import MemoryGate
    from langgraph_memory.agent.capture import CaptureConfig
    from langgraph_memory.agent.events import MemoryEvents
    from langgraph_memory.agent.garden_graph import build_garden_graph
    from langgraph_memory.agent.graph import build_memory_graph, react_agent_hooks
    from langgraph_memory.background.gardener import garden_in_background, schedule_gardening
    from langgraph_memory.background.preferences import PreferenceCapture
    from langgraph_memory.store._garden import GardenReport
    from langgraph_memory.store.vitality import DecaySettings
    from langgraph_memory.agent.hooks import MemoryPosthook, MemoryPrehook, MemoryState, with_memories
    from langgraph_memory.agent.injection import InjectionConfig
    from langgraph_memory.agent.middleware import MemoryMiddleware
    from langgraph_memory.agent.tools import memory_tools
    from langgraph_memory.background.worker import BackgroundWorker, WorkerStats, worker_for
    from langgraph_memory.base_store import QdrantStore
    from langgraph_memory.auth import AccessPolicy, protect_store
    from langgraph_memory.agent.identity import AgentScopeError
    from langgraph_memory.agent.scope import InvalidIdentityError, namespace_label
    from langgraph_memory.errors import MemoryScopeError
    from langgraph_memory.errors import (
        AccessDeniedError,
        EmbeddingsUnavailableError,
        InvalidMemoryError,
        LangGraphMemoryError,
        SchemaMismatchError,
        EmbedderMismatchError,
        StoreLockedError,
        StorageError,
        StoreUnavailableError,
    )
    from langgraph_memory.store import MemoryStore, QueryVectors, RememberResult, SearchHit
    from langgraph_memory.store._links import Link
    from langgraph_memory.store._dedup import DedupPolicy, DedupVerdict, LLMDedupJudge
    from langgraph_memory.store._reembed import ReembedReport, copy_reembedded, reembed
    from langgraph_memory.store._shared import shared_store
    from langgraph_memory.store.embeddings import (
        Bm25SparseEmbeddings,
        LazyEmbeddings,
        default_embedder_name,
        default_embeddings,
        lazy_default_embeddings,
        named_embeddings,
        offline_embeddings,
    )
    from langgraph_memory.store.conversations import (
        RecallHit,
        aindex_exchange,
        aindex_summary,
        asearch_conversations,
        index_exchange,
        index_summary,
        search_conversations,
    )
    from langgraph_memory.store.deferred import DeferredStore
    from langgraph_memory.store.records import DEFAULT_IMPORTANCE, KIND_CATEGORIES, Memory, parse_ttl


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # later lookups skip this hook
        return value
    raise AttributeError(f"module 'langgraph_memory' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "AccessDeniedError",
    "AccessPolicy",
    "InvalidIdentityError",
    "AgentScopeError",
    "MemoryScopeError",
    "namespace_label",
    "protect_store",
    "Link",
    "schedule_gardening",
    "DeferredStore",
    "MemoryGate",
    "RecallHit",
    "StoreUnavailableError",
    "aindex_exchange",
    "aindex_summary",
    "asearch_conversations",
    "index_exchange",
    "index_summary",
    "search_conversations",
    "BackgroundWorker",
    "WorkerStats",
    "worker_for",
    "DecaySettings",
    "GardenReport",
    "MemoryEvents",
    "CaptureConfig",
    "PreferenceCapture",
    "build_garden_graph",
    "garden_in_background",
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
    "QdrantStore",
    "QueryVectors",
    "RememberResult",
    "RoomMessage",
    "SchemaMismatchError",
    "EmbedderMismatchError",
    "named_embeddings",
    "reembed",
    "copy_reembedded",
    "ReembedReport",
    "SearchHit",
    "StorageError",
    "StoreLockedError",
    "default_embedder_name",
    "default_embeddings",
    "lazy_default_embeddings",
    "offline_embeddings",
    "shared_store",
    "parse_ttl",
]
