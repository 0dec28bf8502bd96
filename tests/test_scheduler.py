"""The scheduler with a fake clock: catch-up at start, fixed hours in a time zone, last run
kept in the store across restarts, one run per job across schedulers."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from langgraph_memory import InvalidMemoryError, Schedule, Scheduler, schedule_digests
from langgraph_memory.background.digest import digest_key
from langgraph_memory.testing import ScriptedChatModel, digest_reply

PARIS = ZoneInfo("Europe/Paris")


@pytest.fixture(autouse=True)
def paris_time(monkeypatch):
    """These stories happen in Paris; the default zone is the machine's (test_timezone.py)."""
    monkeypatch.setenv("LANGGRAPH_MEMORY_TIMEZONE", "Europe/Paris")


class FakeClock:
    def __init__(self, at: datetime) -> None:
        self.now = at

    def __call__(self) -> datetime:
        return self.now


def paris(hour: int, minute: int = 0, day: int = 17) -> datetime:
    return datetime(2026, 1, day, hour, minute, tzinfo=PARIS)


def counting_scheduler(store, clock, runs, key="job"):
    scheduler = Scheduler(store, clock=clock)
    scheduler.add(key, lambda now: runs.append(now), Schedule.hours())
    return scheduler


@pytest.mark.parametrize("backend", ["edge"])
def test_started_at_1310_after_a_0600_run_catches_up_once_then_runs_at_1400(store):
    clock = FakeClock(paris(13, 10))
    runs: list[datetime] = []
    scheduler = counting_scheduler(store, clock, runs)
    scheduler._state.set_last_run("job", paris(6))
    assert scheduler.run_pending() == ["job"]
    assert scheduler.run_pending() == []  # the catch-up happened once
    assert scheduler.next_run("job") == paris(14)
    clock.now = paris(13, 59)
    assert scheduler.run_pending() == []
    clock.now = paris(14, 0)
    assert scheduler.run_pending() == ["job"]
    assert runs == [paris(13, 10), paris(14)]
    assert scheduler.last_run("job") == paris(14)


@pytest.mark.parametrize("backend", ["edge"])
def test_started_at_0900_after_a_0600_run_runs_nothing_at_start(store):
    clock = FakeClock(paris(9))
    runs: list[datetime] = []
    scheduler = counting_scheduler(store, clock, runs)
    scheduler._state.set_last_run("job", paris(6))
    assert scheduler.run_pending() == []
    assert scheduler.next_run("job") == paris(10)
    assert runs == []


@pytest.mark.parametrize("backend", ["edge"])  # a restart reopens the store's directory
def test_a_restart_neither_skips_nor_repeats(make_store, tmp_path):
    store = make_store(tmp_path / "s")
    runs: list[datetime] = []
    counting_scheduler(store, FakeClock(paris(14, 5)), runs).run_pending()
    store.close()
    reopened = make_store(tmp_path / "s")
    again = counting_scheduler(reopened, FakeClock(paris(17, 0)), runs)
    assert again.run_pending() == []  # 14:00 was done before the restart
    assert again.run_pending(paris(22, 30)) == ["job"]  # 18:00 was missed: one catch-up
    assert runs == [paris(14, 5), paris(22, 30)]


@pytest.mark.parametrize("backend", ["qdrant"])
def test_two_schedulers_on_one_store_never_run_a_job_twice(store):
    """Two schedulers at each fire time, as two processes sharing a server store: each
    runs the job on its own thread (a process has its own worker), racing for the lease."""
    runs: list[datetime] = []
    entered = threading.Event()

    def slow(now):
        runs.append(now)
        entered.wait(0.2)

    schedulers = []
    for _ in range(2):
        s = Scheduler(store, clock=FakeClock(paris(10)))
        s.add("digest:lobby", slow, Schedule.hours())
        schedulers.append(s)
    for at in (paris(10), paris(14), paris(18), paris(22)):
        threads = [threading.Thread(target=s._run, args=("digest:lobby", at)) for s in schedulers]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    assert runs == [paris(10), paris(14), paris(18), paris(22)]


@pytest.mark.parametrize("backend", ["edge"])
def test_schedule_digests_starts_with_one_call_and_stops_cleanly(store):
    ns = ("rooms", "agent")
    store.observe("je pars en Grèce demain", namespace=ns, room="lobby", author="david")
    clock = FakeClock(paris(13, 10))
    scheduler = Scheduler(store, clock=clock, poll_seconds=0.05)
    model = ScriptedChatModel(responses=[digest_reply("David part en Grèce le 18/01/2026")])
    schedule_digests(store, model=model, namespace=ns, rooms=["lobby"], scheduler=scheduler)
    try:
        deadline = datetime.now() + timedelta(seconds=30)
        while scheduler.last_run(digest_key(ns, "lobby")) is None and datetime.now() < deadline:
            threading.Event().wait(0.05)
        assert scheduler.running
    finally:
        scheduler.stop()
    assert not scheduler.running
    assert store.count_live(namespace=ns, room="lobby") == 0
    assert store.count(namespace=ns) == 1
    assert [key for key, _ in scheduler.runs] == [digest_key(ns, "lobby")]


def test_schedule_validation():
    assert Schedule.hours().expression == "0 2,6,10,14,18,22 * * *"
    assert Schedule.cron("30 */4 * * *", "UTC").next(paris(9)) == datetime(2026, 1, 17, 8, 30, tzinfo=ZoneInfo("UTC"))
    for bad in (lambda: Schedule.hours([25]), lambda: Schedule.hours([]), lambda: Schedule.cron("every day"),
                lambda: Schedule.hours(tz="Mars/Olympus")):
        with pytest.raises(InvalidMemoryError):
            bad()


@pytest.mark.parametrize("backend", ["edge"])
def test_gardening_shares_the_digests_scheduler_with_its_catch_up(store):
    from langgraph_memory import schedule_gardening

    ns = ("memories", "alice")
    store.remember("Alice likes tea", namespace=ns)
    clock = FakeClock(paris(9))
    scheduler = schedule_digests(store, model=ScriptedChatModel(responses=[]), namespace=("rooms", "agent"),
                                 scheduler=Scheduler(store, clock=clock), start=False)
    reports: list[dict] = []
    schedule_gardening(store, scheduler=scheduler, start=False, on_report=reports.append)
    key = "garden:*"
    scheduler._state.set_last_run(key, paris(3))  # today's 03:00 pass already ran
    assert key not in scheduler.run_pending()
    clock.now = paris(3, day=18)
    assert key in scheduler.run_pending()
    assert len(reports) == 1 and reports[0]["seen"] >= 1
    assert scheduler.last_run(key) == paris(3, day=18)
    with pytest.raises(InvalidMemoryError):
        schedule_gardening(store, scheduler=scheduler, start=False, on_report="not callable")
