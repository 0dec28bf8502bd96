"""Conversation indexing on the background worker: exchanges after each turn, summaries
when a thread is compacted. The caller validates the record first (a bad one raises
before anything is queued); embedding and writing happen on the store's worker, so a turn
never waits for them, and a failure is counted in the worker's stats, never raised."""

from __future__ import annotations

from typing import Any

from langgraph_memory.background.worker import worker_for
from langgraph_memory.store.conversations import (
    Exchange,
    Summary,
    first_exchange_time,
    known,
    write_records,
)

__all__ = ["submit_exchange", "submit_summary"]


def submit_exchange(store: Any, exchange: Exchange) -> bool:
    """Queue ``exchange`` for indexing; ``False`` if the worker refused it (closed, or its
    queue full of jobs that must run)."""
    if not isinstance(exchange, Exchange):
        raise TypeError("submit_exchange takes an Exchange from new_exchange(...)")
    return worker_for(store).submit(write_records, store, [exchange], label="exchange")


def _index_summary(store: Any, summary: Summary) -> None:
    if known(store, summary.id):
        return  # the summary message stays in the thread: index it once
    start = first_exchange_time(store, summary.namespace, summary.thread_id)
    if start is not None and start < summary.span_start:
        summary = Summary(summary.id, summary.namespace, summary.thread_id, summary.content,
                          start, summary.span_end, summary.channel)
    write_records(store, [summary])


def submit_summary(store: Any, summary: Summary) -> bool:
    """Queue ``summary`` for indexing, once per id. Its span starts at the thread's first
    indexed exchange when that is earlier than the span given."""
    if not isinstance(summary, Summary):
        raise TypeError("submit_summary takes a Summary from new_summary(...)")
    return worker_for(store).submit(_index_summary, store, summary, label="summary")
