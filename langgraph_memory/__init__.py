"""langgraph-memory: long-term memory for LangGraph agents, on Qdrant.

The public API is re-exported here; every module starting with ``_`` is private.
"""

from langgraph_memory._dedup import DedupPolicy, DedupVerdict, LLMDedupJudge
from langgraph_memory.embeddings import Bm25SparseEmbeddings, default_embeddings, offline_embeddings
from langgraph_memory.errors import (
    EmbeddingsUnavailableError,
    InvalidMemoryError,
    LangGraphMemoryError,
    SchemaMismatchError,
    StoreLockedError,
)
from langgraph_memory.records import DEFAULT_IMPORTANCE, KIND_CATEGORIES, Memory, parse_ttl
from langgraph_memory.store import MemoryStore, QueryVectors, RememberResult, SearchHit

__all__ = [
    "Bm25SparseEmbeddings",
    "DEFAULT_IMPORTANCE",
    "DedupPolicy",
    "DedupVerdict",
    "EmbeddingsUnavailableError",
    "InvalidMemoryError",
    "KIND_CATEGORIES",
    "LLMDedupJudge",
    "LangGraphMemoryError",
    "Memory",
    "MemoryStore",
    "QueryVectors",
    "RememberResult",
    "SchemaMismatchError",
    "SearchHit",
    "StoreLockedError",
    "default_embeddings",
    "offline_embeddings",
    "parse_ttl",
]
