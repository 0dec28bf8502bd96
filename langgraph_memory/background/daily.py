"""Daily gardening by default: what ``MemoryMiddleware``, ``build_memory_graph`` and
``react_agent_hooks`` start so that a long-running app fades, archives and purges (expired
memories, forgotten ones past their window) without a call (seed 000's "un cron fait le ménage").

One scheduler per store (a second graph over the same store shares it), stopped by
``store.close()``. Its first pass on a store that never had one is at the next scheduled
time, not at start: opening an app never costs a pass. Runs are kept in the store, so a
restart neither skips nor repeats a day, and a lease keeps processes sharing a server from
gardening twice. Opt out with ``garden_daily=False`` (e.g. when a LangGraph Platform cron
runs the ``garden`` graph, or under tests that time passes themselves).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timezone
from typing import Any, Sequence

from langgraph_memory.background.gardener import schedule_gardening
from langgraph_memory.background.jobs import JobState
from langgraph_memory.background.scheduler import DEFAULT_TIMEZONE, Scheduler
from langgraph_memory.store.deferred import DeferredStore

__all__ = ["DAILY_GARDEN_HOURS", "DailyGardening", "start_daily_gardening"]

logger = logging.getLogger("langgraph_memory")

DAILY_GARDEN_HOURS: tuple[int, ...] = (3,)
"""Once a day at 03:00 (:data:`~langgraph_memory.background.scheduler.DEFAULT_TIMEZONE`)."""
GARDEN_KEY = "garden:*"  # schedule_gardening's key for the whole store
_GUARD = threading.Lock()


class DailyGardening:
    """The store's daily gardening: a :class:`Scheduler` running in its own thread. The
    thread also sets the schedule up (the store's ``jobs`` side collection is opened
    there), so building a graph costs no store I/O. ``stop()`` ends it (``store.close()``
    calls it); :attr:`scheduler` is set once :attr:`ready` is."""

    def __init__(self, store: Any, hours: Sequence[int], tz: str) -> None:
        self.store = store
        self.hours, self.tz = tuple(hours), tz
        self.scheduler: Scheduler | None = None
        self.ready = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="langgraph-memory-scheduler", daemon=True)

    def start(self) -> "DailyGardening":
        self._thread.start()
        return self

    def _run(self) -> None:
        try:
            state = JobState(self.store)
            if state.last_run(GARDEN_KEY) is None:
                # A store's first pass is at the next scheduled time, not now.
                state.set_last_run(GARDEN_KEY, datetime.now(timezone.utc))
            scheduler = Scheduler(self.store)
            schedule_gardening(self.store, hours=self.hours, tz=self.tz, scheduler=scheduler, start=False)
            scheduler._stop = self._stop  # this thread is its thread: stop() ends both
            self.scheduler = scheduler
        except Exception as exc:  # e.g. a server that is down, or the store closed meanwhile
            logger.warning("daily gardening not started: %s", exc)
            return
        finally:
            self.ready.set()
        scheduler._loop()

    def stop(self, timeout: float | None = 30.0) -> None:
        """End the thread, after the pass it may be running (up to ``timeout`` seconds)."""
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    @property
    def running(self) -> bool:
        return self._thread.is_alive()


def start_daily_gardening(
    store: Any, *, hours: Sequence[int] = DAILY_GARDEN_HOURS, tz: str = DEFAULT_TIMEZONE,
) -> DailyGardening | None:
    """Start the store's daily gardening unless it runs already; returns it (``None``
    while a deferred store is not built: it starts once the store is). Never raises and
    never waits on the store: memory keeps working without its gardener."""
    if isinstance(store, DeferredStore):
        if not store.built:
            store.when_built(lambda built: start_daily_gardening(built, hours=hours, tz=tz))
            return None
        store = store.get()
    with _GUARD:
        running = store.__dict__.get("_daily_gardening")
        if running is None:
            running = store.__dict__["_daily_gardening"] = DailyGardening(store, hours, tz).start()
        return running
