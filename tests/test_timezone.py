"""Room excerpts, digests and schedules default to the machine's time zone, not Paris;
``LANGGRAPH_MEMORY_TIMEZONE`` sets another."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from tzlocal import get_localzone_name

from langgraph_memory import InvalidMemoryError
from langgraph_memory.store._timezone import local_timezone
from langgraph_memory.agent.rooms import LiveConfig, render_live
from langgraph_memory.background.scheduler import Schedule
from langgraph_memory.store._rooms import RoomMessage


def message(at: datetime) -> RoomMessage:
    return RoomMessage(id="m1", content="leaving tomorrow", author="david", room="lobby", timestamp=at,
                       namespace=("rooms", "agent"))


def test_the_default_zone_is_the_machines(monkeypatch):
    monkeypatch.delenv("LANGGRAPH_MEMORY_TIMEZONE", raising=False)
    assert local_timezone() == get_localzone_name()
    assert LiveConfig().timezone == get_localzone_name()
    assert Schedule.hours().tz == get_localzone_name() and Schedule.cron("0 3 * * *").tz == get_localzone_name()


def test_the_setting_moves_every_default(monkeypatch):
    monkeypatch.setenv("LANGGRAPH_MEMORY_TIMEZONE", "America/New_York")
    assert LiveConfig().timezone == "America/New_York"
    assert Schedule.hours().tz == "America/New_York"
    noon_utc = datetime(2026, 1, 17, 12, 0, tzinfo=timezone.utc)
    assert "(17/01 07:00)" in render_live([message(noon_utc)])  # New York is UTC-5 in January
    assert "(17/01 13:00)" in render_live([message(noon_utc)], "Europe/Paris")  # an explicit zone wins


def test_an_unknown_zone_in_the_setting_is_a_typed_error(monkeypatch):
    monkeypatch.setenv("LANGGRAPH_MEMORY_TIMEZONE", "Mars/Olympus")
    with pytest.raises(InvalidMemoryError, match="tz"):
        Schedule.hours()
