"""``record_access(now=...)`` bounds its time as every other stored time is (DESIGN: every
number and time a client sends is bounded before it is stored): a ``now`` outside
[``TIME_MIN``, ``TIME_MAX``] raises :class:`InvalidMemoryError` and counts nothing.
Unbounded, a year-9999 access stored an epoch past ``TIME_MAX`` as ``vitality_at``, which
kept the memory from ever fading, and a year-1 access one that reads back as 1970."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import EPOCH_MAX, EPOCH_MIN

_users = itertools.count()
offsets = st.integers(-23 * 60, 23 * 60).map(lambda m: timezone(timedelta(minutes=m)))


@pytest.mark.parametrize("backend_name", ["edge", "qdrant"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(now=st.one_of(
    st.datetimes(timezones=offsets),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(1970, 1, 1), timezones=offsets),
    st.datetimes(min_value=datetime(2199, 12, 31), max_value=datetime(9999, 12, 30), timezones=offsets),
    st.datetimes(),  # naive: taken as UTC
))
def test_an_access_time_is_stored_within_bounds_or_refused(fake_stores, backend_name: str, now: datetime) -> None:
    store = fake_stores[backend_name]
    namespace = ("memories", f"access-time-{next(_users)}")
    memory = store.remember("Alice drinks green tea", namespace=namespace).memory
    try:
        store.record_access([memory.id], namespace=namespace, injected=True, now=now)
    except InvalidMemoryError:
        after = store.get(memory.id, namespace=namespace)
        assert (after.access_count, after.injection_count, after.last_accessed_at) == (0, 0, None)
        return
    payload = store._backend.retrieve([memory.id])[0].payload
    for field in ("last_accessed_at", "vitality_at"):
        assert EPOCH_MIN <= payload[field] <= EPOCH_MAX, (field, payload[field])
    assert store.get(memory.id, namespace=namespace).access_count == 1


@pytest.mark.parametrize("backend_name", ["edge", "qdrant"])
@pytest.mark.parametrize("now", [datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=1))), datetime(9999, 12, 31),
                                 datetime(2200, 1, 2, tzinfo=timezone.utc)])
def test_a_garden_pass_or_restore_at_an_unstorable_time_is_refused_and_writes_nothing(
    fake_stores, backend_name: str, now: datetime,
) -> None:
    store = fake_stores[backend_name]
    namespace = ("memories", f"access-time-{next(_users)}")
    memory = store.remember("Alice drinks green tea", namespace=namespace).memory
    before = store._backend.retrieve([memory.id])[0].payload
    with pytest.raises(InvalidMemoryError):
        store.garden(namespace, now=now)
    with pytest.raises(InvalidMemoryError):
        store.restore(memory.id, namespace=namespace, now=now)
    assert store._backend.retrieve([memory.id])[0].payload == before
