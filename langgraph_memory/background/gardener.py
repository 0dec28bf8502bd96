"""Gardening off the hot path: a pass submitted to the store's background worker, and the
registration of periodic passes on an in-process scheduler.

The pass itself is :meth:`MemoryStore.garden` (:mod:`langgraph_memory.store._garden`): it
never waits for another pass (a busy namespace is skipped and reported) and turns never
wait for it (reads do not take its locks; it yields between batches).
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from langgraph_memory.background.worker import worker_for
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store.records import Namespace

__all__ = ["garden_in_background", "garden_job"]

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

