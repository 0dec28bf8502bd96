"""An in-process scheduler for periodic memory work: room digests, the gardener.

A job runs at fixed times given as hours of the day in a time zone (default 02, 06, 10,
14, 18 and 22 h, Europe/Paris: seed 002's digest) or as a cron expression (``croniter``).
Each job's last completed run is kept in the store (:class:`JobState`), so a restart
neither skips nor repeats a run: at start, a job whose last run is older than its latest
scheduled time runs once to catch up, then follows its schedule. A lease in the store
makes sure one job runs in one place at a time, also across processes sharing a server
store. Jobs run on the store's background worker (:func:`worker_for`).

    scheduler = schedule_digests(store, model=model, namespace=("rooms", "agent"), rooms=["lobby"])
    ...
    scheduler.stop()
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croniter import croniter

from langgraph_memory.store._timezone import local_timezone
from langgraph_memory.background.digest import DigestBusyError, digest, digest_key
from langgraph_memory.background.jobs import JobState, new_owner
from langgraph_memory.background.worker import worker_for
from langgraph_memory.errors import InvalidMemoryError

__all__ = ["DEFAULT_HOURS", "DEFAULT_TIMEZONE", "Schedule", "Scheduler", "schedule_digests"]

logger = logging.getLogger("langgraph_memory")

DEFAULT_HOURS = (2, 6, 10, 14, 18, 22)
DEFAULT_TIMEZONE: str | None = None
"""``None``: the machine's local zone, or ``$LANGGRAPH_MEMORY_TIMEZONE`` (see :func:`local_timezone`)."""


@dataclass(frozen=True)
class Schedule:
    """When a job runs: a cron expression evaluated in time zone ``tz``.

    Build it with :meth:`hours` (fixed hours of the day) or :meth:`cron`.
    """

    expression: str
    tz: str = field(default_factory=local_timezone)

    def __post_init__(self) -> None:
        if not isinstance(self.expression, str) or not croniter.is_valid(self.expression):
            raise InvalidMemoryError("cron", f"not a valid cron expression: {self.expression!r}")
        try:
            ZoneInfo(self.tz)
        except (ZoneInfoNotFoundError, ValueError, TypeError) as exc:
            raise InvalidMemoryError("tz", f"unknown time zone {self.tz!r}") from exc

    @classmethod
    def hours(cls, hours: Sequence[int] = DEFAULT_HOURS, tz: str | None = DEFAULT_TIMEZONE, minute: int = 0) -> "Schedule":
        """Every day at these hours (0-23), at ``minute``, in ``tz``."""
        if isinstance(hours, (str, bytes)) or not hours or not all(
            isinstance(h, int) and not isinstance(h, bool) and 0 <= h <= 23 for h in hours
        ):
            raise InvalidMemoryError("hours", "expected hours of the day, integers from 0 to 23")
        if isinstance(minute, bool) or not isinstance(minute, int) or not 0 <= minute <= 59:
            raise InvalidMemoryError("minute", "expected an integer from 0 to 59")
        return cls(f"{minute} {','.join(str(h) for h in sorted(set(hours)))} * * *", tz or local_timezone())

    @classmethod
    def cron(cls, expression: str, tz: str | None = DEFAULT_TIMEZONE) -> "Schedule":
        """A five-field cron expression, e.g. ``"0 */4 * * *"``, in ``tz`` (default local)."""
        return cls(expression, tz or local_timezone())

    def _local(self, at: datetime) -> datetime:
        if at.tzinfo is None:
            at = at.replace(tzinfo=timezone.utc)
        return at.astimezone(ZoneInfo(self.tz))

    def previous(self, at: datetime) -> datetime:
        """The latest scheduled time at or before ``at``."""
        # croniter's get_prev is strictly before its start: start one second later.
        return croniter(self.expression, self._local(at) + timedelta(seconds=1)).get_prev(datetime)

    def next(self, at: datetime) -> datetime:
        """The first scheduled time after ``at``."""
        return croniter(self.expression, self._local(at)).get_next(datetime)


@dataclass
class _Job:
    key: str
    fn: Callable[[datetime], Any]
    schedule: Schedule
    retry_after: datetime | None = None


class Scheduler:
    """Runs registered jobs on their schedules, in one background thread.

    ``start()`` runs whatever is due at once (the catch-up), then wakes at each job's next
    time (or every ``poll_seconds``, to notice runs done elsewhere and clock changes).
    ``stop()`` ends the thread and waits for a running job.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore`; its worker runs the jobs and it
            keeps their last runs and leases.
        clock: returns the current time (an aware datetime); tests pass a fake clock.
        poll_seconds: the longest the thread sleeps between checks.
        lease_seconds: how long a job's lease lasts if its process dies mid-run.
        retry_seconds: after a failed run, wait this long before trying again.
    """

    def __init__(
        self,
        store: Any,
        *,
        clock: Callable[[], datetime] | None = None,
        poll_seconds: float = 60.0,
        lease_seconds: float = 900.0,
        retry_seconds: float = 300.0,
    ) -> None:
        self.store = store
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self.poll_seconds = poll_seconds
        self.lease_seconds = lease_seconds
        self.retry_seconds = retry_seconds
        self.jobs: dict[str, _Job] = {}
        self.runs: list[tuple[str, datetime]] = []
        """Every run this scheduler completed: (job key, time), oldest first."""
        self._state = JobState(store)
        self._owner = new_owner()
        self._guard = threading.Lock()
        self._inflight: set[str] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, key: str, fn: Callable[[datetime], Any], schedule: Schedule) -> "Scheduler":
        """Register ``fn(now)`` to run on ``schedule`` under the name ``key`` (which keys its
        last run and lease in the store: keep it stable across restarts)."""
        if not isinstance(key, str) or not key.strip():
            raise InvalidMemoryError("key", "expected a non-empty job name")
        if not isinstance(schedule, Schedule):
            raise InvalidMemoryError("schedule", "expected a Schedule")
        self.jobs[key] = _Job(key, fn, schedule)
        return self

    def last_run(self, key: str) -> datetime | None:
        """When job ``key`` last completed (here or in any process sharing the store)."""
        return self._state.last_run(key)

    def is_due(self, key: str, now: datetime | None = None) -> bool:
        """Whether job ``key`` missed a scheduled time since its last run."""
        job = self.jobs[key]
        now = now or self.clock()
        if job.retry_after is not None and now < job.retry_after:
            return False
        last = self._state.last_run(key)
        return last is None or job.schedule.previous(now) > last

    def next_run(self, key: str | None = None, now: datetime | None = None) -> datetime | None:
        """The next scheduled time of job ``key`` (or of any job)."""
        now = now or self.clock()
        keys = [key] if key is not None else list(self.jobs)
        times = [self.jobs[k].schedule.next(now) for k in keys]
        return min(times) if times else None

    def run_pending(self, now: datetime | None = None, *, wait: bool = True) -> list[str]:
        """Hand every due job to the store's worker; returns their keys. ``wait``: until
        they finished."""
        now = now or self.clock()
        worker = worker_for(self.store)
        started = []
        for key in list(self.jobs):
            with self._guard:
                if key in self._inflight or not self.is_due(key, now):
                    continue
                self._inflight.add(key)
            if worker.submit(self._run, key, now, droppable=False, label=f"scheduled {key}"):
                started.append(key)
            else:
                self._inflight.discard(key)
        if wait and started:
            self.store.flush()
        return started

    def _run(self, key: str, now: datetime) -> None:
        job = self.jobs[key]
        try:
            if not self._state.claim(key, self._owner, seconds=self.lease_seconds, now=now):
                return  # another scheduler runs it
            try:
                if not self.is_due(key, now):
                    return  # it ran elsewhere while we waited for the lease
                job.fn(now)
                self._state.set_last_run(key, now)
                job.retry_after = None
                self.runs.append((key, now))
            except Exception as exc:
                job.retry_after = now + timedelta(seconds=self.retry_seconds)
                logger.warning("scheduled job %s failed (retry after %s): %s", key, job.retry_after, exc)
            finally:
                self._state.release(key, self._owner)
        finally:
            with self._guard:
                self._inflight.discard(key)

    # -- the thread -------------------------------------------------------------------------

    def start(self) -> "Scheduler":
        """Start the background thread (runs due jobs at once). Returns the scheduler."""
        if self._thread is not None and self._thread.is_alive():
            return self
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, name="langgraph-memory-scheduler", daemon=True)
        self._thread.start()
        return self

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                self.run_pending(wait=True)
            except Exception as exc:  # a store error must not end the schedule
                logger.warning("memory scheduler: %s", exc)
            next_time = self.next_run()
            pause = self.poll_seconds
            if next_time is not None:
                pause = max(0.05, min(pause, (next_time - self.clock()).total_seconds()))
            self._stop.wait(pause)

    def stop(self, timeout: float | None = 30.0) -> None:
        """Stop the thread, after the job it is running (up to ``timeout`` seconds)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def __enter__(self) -> "Scheduler":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def schedule_digests(
    store: Any,
    *,
    model: Any,
    namespace: Sequence[str],
    rooms: Sequence[str] = ("lobby",),
    hours: Sequence[int] = DEFAULT_HOURS,
    tz: str | None = DEFAULT_TIMEZONE,
    cron: str | None = None,
    scheduler: Scheduler | None = None,
    start: bool = True,
    **digest_options: Any,
) -> Scheduler:
    """Digest ``rooms`` of ``namespace`` on a schedule, in one call; returns the scheduler
    (started unless ``start=False``; ``stop()`` it on shutdown).

    ``hours``/``tz`` give fixed hours (default 02, 06, 10, 14, 18, 22 h in the machine's
    local zone); ``cron`` replaces them with a cron expression. ``digest_options`` go to
    :func:`~langgraph_memory.background.digest.digest`. Pass ``scheduler`` to add the digests
    to one already running other jobs (the gardener).
    """
    namespace = tuple(namespace)
    if isinstance(rooms, str):
        rooms = (rooms,)
    schedule = Schedule.cron(cron, tz) if cron is not None else Schedule.hours(hours, tz)
    scheduler = scheduler or Scheduler(store)
    for room in rooms:
        def run(now: datetime, room: str = room) -> None:
            try:
                digest(store, namespace=namespace, room=room, model=model, **digest_options)
            except DigestBusyError:
                logger.info("digest of #%s already running elsewhere", room)
        scheduler.add(digest_key(namespace, room), run, schedule)
    if start:
        scheduler.start()
    return scheduler

