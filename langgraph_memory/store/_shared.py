"""One embedded store per directory per process.

Qdrant Edge opens a directory once per process (its WAL is locked). ``langgraph dev`` loads
the graph file and the store file of ``langgraph.json`` as separate modules, so both ask
for the store: :func:`shared_store` hands them the same one.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from langgraph_memory.store.memory_store import MemoryStore

_OPEN: dict[str, MemoryStore] = {}
_LOCK = threading.Lock()


def shared_store(path: str | os.PathLike[str], **options: Any) -> MemoryStore:
    """The store of this process at ``path``: opened with ``options`` (those of
    :meth:`MemoryStore.open`) on the first call, the same object afterwards until it is
    closed."""
    key = os.path.realpath(os.fspath(path))
    with _LOCK:
        store = _OPEN.get(key)
        if store is None or getattr(store._backend, "_shard", None) is None:  # closed since
            store = _OPEN[key] = MemoryStore.open(path, **options)
        return store
