"""Daily gardening by default: what ``MemoryMiddleware`` and ``build_memory_graph`` start
so that a long-running app fades, archives and purges (expired memories, forgotten ones
past their window) without a call (seed 000's "un cron fait le ménage").

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

__all__ = ["DAILY_GARDEN_HOURS", "start_daily_gardening"]

logger = logging.getLogger("langgraph_memory")

DAILY_GARDEN_HOURS: tuple[int, ...] = (3,)
"""Once a day at 03:00 (:data:`~langgraph_memory.background.scheduler.DEFAULT_TIMEZONE`)."""
GARDEN_KEY = "garden:*"  # schedule_gardening's key for the whole store
_GUARD = threading.Lock()


def start_daily_gardening(
    store: Any, *, hours: Sequence[int] = DAILY_GARDEN_HOURS, tz: str = DEFAULT_TIMEZONE,
) -> Scheduler | None:
    """Start the store's daily gardening unless it runs already; returns its scheduler
    (``None`` while a deferred store is not built: it starts once the store is). Never
    raises: memory keeps working without its gardener, and the failure is logged."""
    if isinstance(store, DeferredStore):
        if not store.built:
            store.when_built(lambda built: start_daily_gardening(built, hours=hours, tz=tz))
            return None
        store = store.get()
    try:
        with _GUARD:
            running = store.__dict__.get("_daily_gardening")
            if running is not None:
                return running
            state = JobState(store)
            if state.last_run(GARDEN_KEY) is None:
                # A store's first pass is at the next scheduled time, not now.
                state.set_last_run(GARDEN_KEY, datetime.now(timezone.utc))
            scheduler = schedule_gardening(store, hours=hours, tz=tz, scheduler=Scheduler(store), start=True)
            store.__dict__["_daily_gardening"] = scheduler
            return scheduler
    except Exception as exc:  # e.g. a server that is down: the turn path must not care
        logger.warning("daily gardening not started: %s", exc)
        return None
