"""Storage engines behind :class:`~langgraph_memory.MemoryStore`. Private: free to change."""

from langgraph_memory.store.backends._base import (
    DENSE,
    SCHEMA_VERSION,
    SPARSE,
    Backend,
    DenseQuery,
    FetchQuery,
    Hit,
    Query,
    SparseQuery,
    StoredPoint,
    Where,
)

__all__ = [
    "DENSE",
    "SCHEMA_VERSION",
    "SPARSE",
    "Backend",
    "DenseQuery",
    "FetchQuery",
    "Hit",
    "Query",
    "SparseQuery",
    "StoredPoint",
    "Where",
]
