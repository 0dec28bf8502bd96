"""Gardening off the hot path: a pass submitted to the store's background worker, and the
registration of periodic passes on an in-process scheduler.

The pass itself is :meth:`MemoryStore.garden` (:mod:`langgraph_memory.store._garden`): it
never waits for another pass (a busy namespace is skipped and reported) and turns never
wait for it (reads do not take its locks; it yields between batches).
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any, Callable, Sequence

from langgraph_memory.background.scheduler import DEFAULT_TIMEZONE, Schedule, Scheduler
from langgraph_memory.background.worker import worker_for
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.records import Namespace, namespace_key, validate_namespace

__all__ = ["garden_in_background", "garden_job", "schedule_gardening"]

logger = logging.getLogger("langgraph_memory")


def garden_job(store: Any, namespace: Namespace | None = None,
               on_report: Callable[[dict[str, Any]], None] | None = None) -> Callable[[], None]:
    """A callable running one pass, for a scheduler; ``on_report`` receives each report."""
    if on_report is not None and not callable(on_report):
        raise InvalidMemoryError("on_report", "must be callable")

    def run() -> None:
        report = store.garden(namespace)
        if on_report is not None:
            on_report(report)

    return run


def garden_in_background(store: Any, namespace: Namespace | None = None,
                         on_report: Callable[[dict[str, Any]], None] | None = None) -> bool:
    """Queue one pass on the store's worker (:func:`worker_for`); returns whether it was
    accepted. The pass is not droppable: a full queue drops statistics first."""
    return worker_for(store).submit(garden_job(store, namespace, on_report), label="garden", droppable=False)



def schedule_gardening(
    store: Any,
    *,
    namespace: Namespace | None = None,
    hours: Sequence[int] = (3,),
    tz: str | None = DEFAULT_TIMEZONE,
    cron: str | None = None,
    scheduler: Scheduler | None = None,
    start: bool = True,
    on_report: Callable[[dict[str, Any]], None] | None = None,
) -> Scheduler:
    """Garden ``namespace`` (default: the whole store) on a schedule, by default once a day
    at 03:00 in the machine's local zone (``hours``/``tz``, or a ``cron`` expression); returns the
    scheduler (started unless ``start=False``; ``stop()`` it on shutdown).

    Pass the ``scheduler`` of :func:`~langgraph_memory.background.scheduler.schedule_digests`
    to share its thread: its store-kept last runs and leases give gardening the same
    catch-up at start and the same one-run-at-a-time across processes.
    """
    if on_report is not None and not callable(on_report):
        raise InvalidMemoryError("on_report", "must be callable")
    schedule = Schedule.cron(cron, tz) if cron is not None else Schedule.hours(hours, tz)
    scheduler = scheduler or Scheduler(store)
    key = "garden:" + ("*" if namespace is None else namespace_key(validate_namespace(namespace)))

    def run(now: datetime) -> None:
        report = store.garden(namespace, now=now)
        if on_report is not None:
            on_report(report)

    scheduler.add(key, run, schedule)
    if start:
        scheduler.start()
    return scheduler
