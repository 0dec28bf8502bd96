"""One small worker for memory work that must never run on a turn's path.

Exchange indexing, injection statistics, room observation, digests and gardening hand
their jobs to a :class:`BackgroundWorker`: a bounded queue served by a fixed number of
daemon threads. A full queue never blocks the caller: the oldest droppable job is dropped
and counted (one warning per burst), so a slow embedder costs recall, never latency.
:func:`worker_for` gives each :class:`~langgraph_memory.MemoryStore` one shared worker,
which ``store.flush()`` waits for and ``store.close()`` stops.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass
from typing import Any, Callable

from langgraph_memory.errors import LangGraphMemoryError

__all__ = ["BackgroundWorker", "WorkerStats", "worker_for"]

logger = logging.getLogger("langgraph_memory")


@dataclass(frozen=True)
class WorkerStats:
    """Counters of a :class:`BackgroundWorker` since it started."""

    queued: int
    """Jobs waiting now."""
    running: int
    """Jobs being run now."""
    accepted: int
    """Jobs ever accepted by :meth:`BackgroundWorker.submit`."""
    done: int
    """Jobs that finished without raising."""
    failed: int
    """Jobs that raised (logged, never re-raised into a turn)."""
    dropped: int
    """Jobs dropped because the queue was full."""
    mean_latency_ms: float
    """Mean time from submission to the end of a job, over finished jobs."""


@dataclass
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    label: str
    droppable: bool
    submitted: float


class BackgroundWorker:
    """A bounded queue of jobs run by ``threads`` daemon threads, started on first use.

    Args:
        max_queue: how many jobs may wait. When full, :meth:`submit` drops the oldest
            droppable job (or, if none is, the new one) and counts it; it never blocks.
        threads: how many jobs run at once.
        name: prefix of the threads' names (visible in profilers and thread dumps).
    """

    def __init__(self, *, max_queue: int = 1000, threads: int = 1, name: str = "langgraph-memory") -> None:
        if isinstance(max_queue, bool) or not isinstance(max_queue, int) or max_queue < 1:
            raise LangGraphMemoryError("max_queue must be a positive integer")
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= 64:
            raise LangGraphMemoryError("threads must be an integer from 1 to 64")
        self.max_queue = max_queue
        self.threads = threads
        self.name = name
        self._queue: deque[_Job] = deque()
        self._cond = threading.Condition()
        self._workers: list[threading.Thread] = []
        self._running = 0
        self._closed = False
        self._accepted = self._done = self._failed = self._dropped = 0
        self._latency_total = 0.0
        self._warned_full = False
        self._warned_failures: set[tuple[str, str]] = set()
        _LIVE_WORKERS.add(self)

    def submit(
        self, fn: Callable[..., Any], *args: Any, label: str = "job", droppable: bool = True, **kwargs: Any
    ) -> bool:
        """Queue ``fn(*args, **kwargs)``; returns whether it was accepted.

        ``droppable`` jobs (indexing, statistics) may be dropped when the queue is full;
        a job that must run (a digest) is dropped only when every waiting job must run too.
        """
        job = _Job(fn, args, kwargs, label, droppable, time.perf_counter())
        with self._cond:
            if self._closed:
                return False
            if len(self._queue) >= self.max_queue:
                victim = next((j for j in self._queue if j.droppable), None)
                if victim is None and job.droppable:
                    self._count_drop(job)
                    return False
                if victim is None:
                    victim = self._queue[0]
                self._queue.remove(victim)
                self._count_drop(victim)
            self._queue.append(job)
            self._accepted += 1
            self._start_threads()
            self._cond.notify()
        return True

    def _count_drop(self, job: _Job) -> None:
        self._dropped += 1
        if not self._warned_full:  # one warning per burst, not one per job
            self._warned_full = True
            logger.warning(
                "memory background queue is full (%d jobs): dropping the oldest %s jobs; "
                "worker stats count them", self.max_queue, job.label,
            )

    def _start_threads(self) -> None:
        while len(self._workers) < self.threads:
            thread = threading.Thread(
                target=self._serve, name=f"{self.name}-{len(self._workers)}", daemon=True
            )
            self._workers.append(thread)
            thread.start()

    def _serve(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if not self._queue:
                    return
                job = self._queue.popleft()
                self._running += 1
                if not self._queue:
                    self._warned_full = False
            ok = True
            try:
                job.fn(*job.args, **job.kwargs)
            except BaseException as exc:  # an engine panic must not kill the thread
                ok = False
                # A down embedder fails every job alike: warn once per kind of failure,
                # the stats count them all.
                cause = (job.label, type(exc).__name__)
                level = logging.DEBUG if cause in self._warned_failures else logging.WARNING
                self._warned_failures.add(cause)
                logger.log(level, "memory background job %s failed: %s", job.label, exc)
            with self._cond:
                self._running -= 1
                self._done += ok
                self._failed += not ok
                self._latency_total += time.perf_counter() - job.submitted
                self._cond.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every accepted job has finished; ``False`` if ``timeout`` ran out."""
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._cond:
            while self._queue or self._running:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._cond.wait(remaining)
        return True

    async def aflush(self, timeout: float | None = None) -> bool:
        """Async twin of :meth:`flush`: waits in a thread, never on the event loop."""
        return await asyncio.to_thread(self.flush, timeout)

    def stats(self) -> WorkerStats:
        """A snapshot of the counters."""
        with self._cond:
            finished = self._done + self._failed
            return WorkerStats(
                queued=len(self._queue),
                running=self._running,
                accepted=self._accepted,
                done=self._done,
                failed=self._failed,
                dropped=self._dropped,
                mean_latency_ms=1000 * self._latency_total / finished if finished else 0.0,
            )

    def close(self, timeout: float | None = 5.0) -> None:
        """Finish the queued jobs (up to ``timeout``), then stop the threads. Later
        submissions are refused."""
        self.flush(timeout)
        with self._cond:
            self._closed = True
            self._queue.clear()
            self._cond.notify_all()
        for thread in self._workers:
            if thread is not threading.current_thread():
                thread.join(timeout)
        _LIVE_WORKERS.discard(self)

    @property
    def closed(self) -> bool:
        return self._closed


_LIVE_WORKERS: "weakref.WeakSet[BackgroundWorker]" = weakref.WeakSet()


@atexit.register
def _close_all_at_exit() -> None:
    for worker in list(_LIVE_WORKERS):
        worker.close(timeout=2.0)


_ATTACH_GUARD = threading.Lock()


def worker_for(store: Any) -> BackgroundWorker:
    """The background worker shared by everything that works on ``store``, created on
    first use and attached to it, so ``store.flush()`` and ``store.close()`` reach it."""
    with _ATTACH_GUARD:
        worker = getattr(store, "_background", None)
        if worker is None or worker.closed:
            worker = BackgroundWorker()
            store._background = worker
        return worker
