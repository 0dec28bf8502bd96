"""Memory is optional (seed 004): when the store or the embedder is unavailable, the turn
goes on without memory, and says so once.

A :class:`MemoryGate` sits in front of one store for the middleware and the reference
graph. At the start of a turn it decides whether memory is usable (building a
:class:`~langgraph_memory.store.deferred.DeferredStore` when an attempt is due); while it
is not, the memory tools are not offered, nothing is injected and nothing is indexed. An
outage met in the middle of a turn (a server that went down) switches memory off the same
way. One warning is logged per cause per process; memory comes back by itself.
"""

from __future__ import annotations

import errno
import logging
import socket
import ssl
import threading
import time
from typing import Any, Awaitable, Callable, Literal, TypeVar

from langgraph_memory.errors import (
    EmbeddingsUnavailableError,
    InvalidMemoryError,
    LangGraphMemoryError,
    SchemaMismatchError,
    StorageError,
    StoreLockedError,
    StoreUnavailableError,
)
from langgraph_memory.agent.hooks import MemoryScopeError
from langgraph_memory.store.deferred import DeferredStore

__all__ = ["MemoryGate", "OnUnavailable", "reset_unavailable_warnings", "unavailability_cause"]

logger = logging.getLogger("langgraph_memory")

OnUnavailable = Literal["skip", "raise"]
T = TypeVar("T")

_WARNED: set[str] = set()
_WARNED_GUARD = threading.Lock()


def reset_unavailable_warnings() -> None:
    """Forget which causes were already logged (tests)."""
    with _WARNED_GUARD:
        _WARNED.clear()


def _warn_once(cause: str, exc: BaseException, retry_interval: float) -> None:
    with _WARNED_GUARD:
        if cause in _WARNED:
            return
        _WARNED.add(cause)
    logger.warning(
        "memory unavailable (%s): %s. The agent goes on without memory (no memory tools, "
        "nothing injected or indexed) and retries every %gs; this is logged once per process.",
        cause, exc, retry_interval,
    )


# A plain OSError is also what a bad file path or a refused permission raises, which a
# client's input may cause: only the network's own errors count as "unreachable".
_NETWORK_ERRNOS = frozenset(getattr(errno, name) for name in ("ENETUNREACH", "EHOSTUNREACH", "ENETDOWN", "EHOSTDOWN",
                                                              "ENETRESET", "ECONNABORTED") if hasattr(errno, name))


def _is_connection_error(exc: BaseException) -> bool:
    # ConnectionError covers refused, reset and aborted connections and broken pipes;
    # socket.gaierror/herror an address that does not resolve; SSLError a failed handshake.
    if isinstance(exc, (ConnectionError, TimeoutError, socket.gaierror, socket.herror, ssl.SSLError)):
        return True
    if isinstance(exc, OSError) and exc.errno in _NETWORK_ERRNOS:
        return True
    # qdrant-client wraps transport errors; httpx and grpc name theirs this way too, and
    # OpenAI's client (a remote embedder) its unreachable, overloaded or failing service.
    return bool(_error_names(exc) & {"ResponseHandlingException", "TransportError", "RpcError", "ConnectError",
                                     "APIConnectionError", "InternalServerError", "RateLimitError"})


def _error_names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


def _is_server_failure(exc: BaseException) -> bool:
    # qdrant-client's answer to an HTTP error: a 5xx is the server failing; a 4xx is a
    # request it refused (the caller's), which must fail the run that sent it.
    if "UnexpectedResponse" not in _error_names(exc):
        return False
    status = getattr(exc, "status_code", None)
    return isinstance(status, int) and status >= 500


def unavailability_cause(exc: BaseException) -> str | None:
    """The cause an error stands for (``store-locked``, ``store-unreachable``,
    ``no-embedder``, ``storage-error``, ...), or ``None`` when it is not an outage.

    Only what comes from the store, its engine or its embedder is an outage: a store that
    cannot be opened, reached or locked, an engine failure (:class:`StorageError`, a Qdrant
    server's 5xx), no embedder. "Reached" means the network's errors (connection refused
    or reset, timeouts, unresolvable or unreachable hosts, TLS handshakes), not any
    ``OSError``: a missing file or a refused permission met during a run may come from
    what a client sent. Any other error (a typed input error, or an exception of a type
    we do not know, raised by whatever a client sent) fails the run that raised it: it
    never switches memory off for the other users of the process. A store that cannot be
    opened at all (a :class:`DeferredStore` whose factory fails, for whatever reason) is
    still an outage."""
    if isinstance(exc, StoreUnavailableError) and exc.__cause__ is not None:
        # The store could not be built (a DeferredStore's factory failed): an outage,
        # unless the factory itself is wrong.
        cause = exc.__cause__
        if isinstance(cause, (MemoryScopeError, InvalidMemoryError, SchemaMismatchError)):
            return None
        return unavailability_cause(cause) or f"error:{type(cause).__name__}"
    if isinstance(exc, StoreLockedError):
        return "store-locked"
    if isinstance(exc, EmbeddingsUnavailableError):
        return "no-embedder"
    if isinstance(exc, StorageError):
        return "storage-error"
    if isinstance(exc, StoreUnavailableError):
        return "store-closed"
    if isinstance(exc, LangGraphMemoryError):  # typed: the caller's (AccessDeniedError is an OSError too)
        return None
    if _is_connection_error(exc):
        return "store-unreachable"
    if _is_server_failure(exc):
        return "store-error"
    return None


class MemoryGate:
    """Whether memory is usable for this turn, and what an outage does.

    Args:
        store: a :class:`~langgraph_memory.MemoryStore`, a
            :class:`~langgraph_memory.store.deferred.DeferredStore`, or a function
            opening a store (wrapped in a ``DeferredStore``).
        on_unavailable: ``"skip"`` (default): go on without memory, one warning per cause
            per process; ``"raise"``: let the error fail the turn.
        retry_interval: seconds before memory is tried again after an outage (and between
            two attempts to build a deferred store).
    """

    def __init__(self, store: Any, *, on_unavailable: OnUnavailable = "skip", retry_interval: float = 5.0) -> None:
        if on_unavailable not in ("skip", "raise"):
            raise InvalidMemoryError("on_unavailable", f"expected 'skip' or 'raise', got {on_unavailable!r}")
        if isinstance(retry_interval, bool) or not isinstance(retry_interval, (int, float)) or retry_interval < 0:
            raise InvalidMemoryError("retry_interval", "must be a number of seconds >= 0")
        if not isinstance(store, DeferredStore):
            if callable(store) and not hasattr(store, "search"):
                store = DeferredStore(store, retry_interval=retry_interval)
            elif not hasattr(store, "search"):
                raise InvalidMemoryError(
                    "store", f"expected a MemoryStore, a DeferredStore or a function opening one, got {store!r}")
        self.store = store
        self.on_unavailable = on_unavailable
        self.retry_interval = float(retry_interval)
        deferred = isinstance(store, DeferredStore) and not store.built
        self._up = not deferred
        self._next_attempt = 0.0
        self.cause: str | None = None
        """Why memory is off now (``None`` while it is usable)."""

    @property
    def up(self) -> bool:
        """Whether memory is usable now, without attempting anything."""
        return self._up

    def usable(self, *, attempt: bool = False) -> bool:
        """Whether memory should be used now. With ``attempt`` (at a turn's start), an
        outage is retried when due: a deferred store is built, a built one is tried again
        by the turn's own calls."""
        if self._up:
            return True
        if not attempt or time.monotonic() < self._next_attempt:
            return False
        if isinstance(self.store, DeferredStore):
            try:
                self.store.get()
            except Exception as exc:
                if not self.failed(exc):
                    raise
                return False
        if self.cause is not None:
            logger.info("memory is available again (was: %s)", self.cause)
        self._up, self.cause = True, None
        return True

    def failed(self, exc: BaseException) -> bool:
        """Record an error met while using memory. ``True``: it is an outage and memory is
        now off (the caller goes on without it); ``False``: the caller must re-raise."""
        cause = unavailability_cause(exc)
        if cause is None or self.on_unavailable == "raise":
            return False
        self._up, self.cause = False, cause
        self._next_attempt = time.monotonic() + self.retry_interval
        _warn_once(cause, exc, self.retry_interval)
        return True

    def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T | None:
        """``fn(*args, **kwargs)``, or ``None`` when it meets an outage."""
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if self.failed(exc):
                return None
            raise

    async def arun(self, fn: Callable[..., Awaitable[T]], *args: Any, **kwargs: Any) -> T | None:
        """Async twin of :meth:`run`."""
        try:
            return await fn(*args, **kwargs)
        except Exception as exc:
            if self.failed(exc):
                return None
            raise


class GatedMemory:
    """The pre-hook, the post-hook and the conversation recorder of one agent, behind a
    :class:`MemoryGate`: what the middleware's hooks and the reference graph's nodes call.

    Args:
        gate: decides whether memory is used this turn.
        prehook, posthook: the nodes (built on ``gate.store``).
        recorder: indexes thread summaries (and, with ``end_turn``, exchanges); ``None``
            when conversation indexing is off.
        inject_exchanges: how many past exchanges and summaries of other threads the
            pre-hook adds to the model's input; 0 (default): none, the model searches them
            with ``search_conversations`` when the user refers to the past.
    """

    def __init__(self, gate: MemoryGate, prehook: Any, posthook: Any, recorder: Any | None,
                 *, inject_exchanges: int = 0) -> None:
        if isinstance(inject_exchanges, bool) or not isinstance(inject_exchanges, int) or not 0 <= inject_exchanges <= 20:
            raise InvalidMemoryError("inject_exchanges", "must be an integer from 0 to 20")
        self.gate = gate
        self.prehook = prehook
        self.posthook = posthook
        self.recorder = recorder
        self.inject_exchanges = inject_exchanges

    def _scope(self, config: Any, runtime: Any) -> tuple[Any, Any]:
        from langgraph_memory.agent.hooks import resolve_namespace

        context = getattr(runtime, "context", None)
        return resolve_namespace(self.prehook.namespace, config=config, context=context), context

    def _summaries(self, state: Any, config: Any, runtime: Any) -> None:
        if self.recorder is not None:
            namespace, context = self._scope(config, runtime)
            self.recorder.record_summaries(state, namespace, config, context)

    def _recall(self, update: dict[str, Any] | None, config: Any, runtime: Any) -> dict[str, Any] | None:
        if not self.inject_exchanges or not update or "memory" not in update:
            return update
        from langgraph_memory.agent.recall import RECALLED_KEY, recall_ids

        namespace, _ = self._scope(config, runtime)
        thread = ((config or {}).get("configurable") or {}).get("thread_id")
        ledger = update["memory"]
        ids = recall_ids(self.gate.store, namespace, ledger.get("query"), self.inject_exchanges, thread)
        return {**update, "memory": {**ledger, RECALLED_KEY: ids}}

    def _before(self, state: Any, config: Any, runtime: Any) -> dict[str, Any] | None:
        update = self._recall(self.prehook(state, config, runtime), config, runtime)
        self._summaries(state, config, runtime)
        return update

    async def _abefore(self, state: Any, config: Any, runtime: Any) -> dict[str, Any] | None:
        import asyncio

        update = await self.prehook.acall(state, config, runtime)
        update = await asyncio.to_thread(self._recall, update, config, runtime)
        self._summaries(state, config, runtime)
        return update

    def recalled(self, state: Any, config: Any, runtime: Any) -> str:
        """The ``<past_conversations>`` block for this model call ("" when off or empty)."""
        from langgraph_memory.agent.recall import RECALLED_KEY, recalled_block

        ids = ((state or {}).get("memory") or {}).get(RECALLED_KEY) or []
        if not self.inject_exchanges or not ids or not self.gate.up:
            return ""
        namespace, _ = self._scope(config, runtime)
        return self.gate.run(recalled_block, self.gate.store, namespace, ids) or ""

    def before(self, state: Any, config: Any, runtime: Any) -> dict[str, Any] | None:
        """The pre-hook when memory is usable (retrying an outage when due), else nothing."""
        if not self.gate.usable(attempt=True):
            return None
        return self.gate.run(self._before, state, config, runtime)

    async def abefore(self, state: Any, config: Any, runtime: Any) -> dict[str, Any] | None:
        """Async twin of :meth:`before`; an attempt to reconnect runs off the event loop."""
        import asyncio

        if not self.gate.up and not await asyncio.to_thread(self.gate.usable, attempt=True):
            return None
        return await self.gate.arun(self._abefore, state, config, runtime)

    def after(self, state: Any, config: Any, runtime: Any) -> dict[str, Any] | None:
        """The post-hook while memory is usable."""
        return self.gate.run(self.posthook, state, config, runtime) if self.gate.up else None

    async def aafter(self, state: Any, config: Any, runtime: Any) -> dict[str, Any] | None:
        return await self.gate.arun(self.posthook.acall, state, config, runtime) if self.gate.up else None

    def end_turn(self, state: Any, config: Any, runtime: Any) -> None:
        """Hand the finished exchange to the worker (the middleware's after-agent hook)."""
        if self.recorder is None or not self.gate.up:
            return
        namespace, context = self._scope(config, runtime)
        self.gate.run(self.recorder.record_turn, state, namespace, config, context)
