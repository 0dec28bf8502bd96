"""A store built when first needed, and built again after a failed attempt.

``MemoryStore.open(path)`` fails at once when another process holds the directory, and
``MemoryStore.connect(url)`` when the server is down: an app that treats memory as
optional (seed 004) cannot even start its agent. :class:`DeferredStore` takes the
function that opens the store instead, and opens it when memory is first used.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, Callable

from langgraph_memory.errors import InvalidMemoryError, StoreUnavailableError

logger = logging.getLogger("langgraph_memory")

__all__ = ["DeferredStore"]

_OWN = frozenset({"factory", "retry_interval", "_store", "_error", "_next_attempt", "_lock", "_closed", "_on_built"})


class DeferredStore:
    """Stands in for a :class:`~langgraph_memory.MemoryStore` that may not be reachable yet.

    Every attribute of the store is reached through it (``search``, ``remember``, ...), so
    the hooks, tools, middleware and graph take it wherever they take a store. Until the
    store can be built, using it raises :class:`StoreUnavailableError` (its ``__cause__``
    is the factory's error); a new attempt is made at most every ``retry_interval``
    seconds, and the calls in between fail at once with the last error, so a down server
    costs at most one connection attempt per interval. Once built, the store is kept.

    Args:
        factory: opens the store, e.g. ``lambda: MemoryStore.open("./memory")``.
        retry_interval: seconds between two attempts to build the store.
    """

    def __init__(self, factory: Callable[[], Any], *, retry_interval: float = 5.0) -> None:
        if not callable(factory):
            raise InvalidMemoryError("factory", "expected a callable returning a MemoryStore")
        if isinstance(retry_interval, bool) or not isinstance(retry_interval, (int, float)) or retry_interval < 0:
            raise InvalidMemoryError("retry_interval", "must be a number of seconds >= 0")
        self.factory = factory
        self.retry_interval = float(retry_interval)
        self._store: Any = None
        self._error: BaseException | None = None
        self._next_attempt = 0.0
        self._lock = threading.Lock()
        self._closed = False
        self._on_built: list[Callable[[Any], Any]] = []

    @property
    def built(self) -> bool:
        """Whether the store was built (it is then kept for the life of this object)."""
        return self._store is not None

    def get(self) -> Any:
        """The store, built now if it was not and an attempt is due.

        Raises:
            StoreUnavailableError: it cannot be built (yet); ``__cause__`` says why.
        """
        store = self._store
        if store is not None:
            return store
        with self._lock:
            if self._store is not None:
                return self._store
            if self._closed:
                raise StoreUnavailableError("the deferred store was closed")
            if self._error is None or time.monotonic() >= self._next_attempt:
                try:
                    self._store = self.factory()
                    self._error = None
                except Exception as exc:  # any failure to open means "not now"
                    self._error = exc
                    self._next_attempt = time.monotonic() + self.retry_interval
                else:
                    for callback in self._on_built:
                        try:
                            callback(self._store)
                        except Exception as exc:  # a callback never fails the open
                            logger.warning("after opening the memory store: %s", exc)
                    return self._store
            raise StoreUnavailableError(f"the memory store is unavailable: {self._error}") from self._error

    def when_built(self, callback: Callable[[Any], Any]) -> None:
        """Call ``callback(store)`` once the store is built (at once if it is)."""
        if self._store is not None:
            callback(self._store)
        else:
            self._on_built.append(callback)

    def __getattr__(self, name: str) -> Any:
        if name in _OWN or (name.startswith("__") and name.endswith("__")):
            raise AttributeError(name)
        return getattr(self.get(), name)

    # The background worker attaches itself to the store through ``_background``
    # (``worker_for``): it must land on the real store, which ``flush`` and ``close`` reach.
    @property
    def _background(self) -> Any:
        return self.get()._background

    @_background.setter
    def _background(self, worker: Any) -> None:
        self.get()._background = worker

    def flush(self, timeout: float | None = None) -> bool:
        """The built store's :meth:`~langgraph_memory.MemoryStore.flush`; ``True`` if none."""
        return True if self._store is None else self._store.flush(timeout)

    async def aflush(self, timeout: float | None = None) -> bool:
        return True if self._store is None else await self._store.aflush(timeout)

    def close(self) -> None:
        """Close the built store, if any; no later attempt is made."""
        with self._lock:
            self._closed = True
            store, self._store = self._store, None
        if store is not None:
            store.close()

    async def aclose(self) -> None:
        import asyncio

        await asyncio.to_thread(self.close)

    def __repr__(self) -> str:
        state = "built" if self.built else f"unavailable: {self._error}" if self._error else "not built yet"
        return f"DeferredStore({state})"
