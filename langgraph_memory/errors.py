"""Typed errors raised by langgraph-memory.

Every public entry point validates its input before touching storage, so any of these
errors means nothing was written.
"""

from __future__ import annotations

__all__ = [
    "LangGraphMemoryError",
    "InvalidMemoryError",
    "StoreLockedError",
    "SchemaMismatchError",
    "EmbedderMismatchError",
    "EmbeddingsUnavailableError",
    "StoreUnavailableError",
    "StorageError",
    "AccessDeniedError",
    "MemoryScopeError",
]


class LangGraphMemoryError(Exception):
    """Base class of every error raised by langgraph-memory."""


class InvalidMemoryError(LangGraphMemoryError, ValueError):
    """An argument is malformed: empty content, unknown type, bad TTL, bad namespace, ...

    ``field`` names the offending argument so tools can tell the model what to fix.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class StoreLockedError(LangGraphMemoryError):
    """The embedded store's directory is already open, in this process or another."""


class SchemaMismatchError(LangGraphMemoryError):
    """The store was created with another embedder size or schema version."""


class EmbedderMismatchError(SchemaMismatchError):
    """The embedder given is not the one the store was built with (``stored`` and ``given``
    name them): vectors of two models are not comparable. Open the store without
    ``embeddings=`` to use its own, or re-embed it (``langgraph-memory reembed``)."""

    def __init__(self, message: str, *, stored: str, given: str) -> None:
        super().__init__(message)
        self.stored = stored
        self.given = given


class EmbeddingsUnavailableError(LangGraphMemoryError):
    """No embedding model was given and none can be chosen automatically."""


class StoreUnavailableError(LangGraphMemoryError):
    """The store cannot be used now: its server is unreachable, its directory is locked by
    another process, or there is no embedder. ``__cause__`` holds the original error."""


class StorageError(LangGraphMemoryError):
    """The storage engine failed an operation it was given (a Qdrant Edge panic, an
    unreadable store file). Inputs are validated first, so this signals a bug or damage,
    never bad user input; the operation may or may not have been applied."""


class AccessDeniedError(LangGraphMemoryError, PermissionError):
    """The run's user may not do this: post to a room it is not a member of, or reach a
    namespace :class:`~langgraph_memory.auth.AccessPolicy` does not grant it. Nothing was
    written."""


class MemoryScopeError(LangGraphMemoryError, ValueError):
    """The runtime does not say whose memories these are (no ``user_id``), or names a
    scope the run may not have (subclasses say which).

    A ``ValueError`` too, because the caller left out a value: servers that hide unexpected
    exceptions from clients (the LangGraph API server answers "An internal error occurred")
    pass a ``ValueError``'s message on, so a client reads what to pass."""
