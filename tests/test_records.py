"""Records: TTL parsing, defaults, validation and the payload round trip (no engine needed)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from langgraph_memory import DEFAULT_IMPORTANCE, InvalidMemoryError, Memory, parse_ttl
from langgraph_memory.store.records import (
    MAX_CONTENT_CHARS,
    namespace_from_key,
    namespace_key,
    new_memory,
    parse_since,
    validate_namespace,
    validate_subjects,
)

NS = ("memories", "alice")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("30m", timedelta(minutes=30)),
        ("1h", timedelta(hours=1)),
        ("7d", timedelta(days=7)),
        ("2w", timedelta(weeks=2)),
        ("45s", timedelta(seconds=45)),
        (" 12H ", timedelta(hours=12)),
        # As a person or a model writes it (the digest's reader, shared by every entry point).
        ("7 days", timedelta(days=7)),
        ("1 week", timedelta(weeks=1)),
        ("2 weeks", timedelta(weeks=2)),
        ("P7D", timedelta(days=7)),
        ("PT12H", timedelta(hours=12)),
        ("3 mois", timedelta(days=90)),
        ("une semaine", timedelta(weeks=1)),
        ("1.5h", timedelta(minutes=90)),
    ],
)
def test_parse_ttl_accepts_durations(text, expected):
    assert parse_ttl(text) == expected


@pytest.mark.parametrize("permanent", [None, "permanent", "PERMANENT", "none", "never", ""])
def test_parse_ttl_permanent_means_no_expiry(permanent):
    assert parse_ttl(permanent) is None


def test_parse_ttl_accepts_positive_timedelta():
    assert parse_ttl(timedelta(minutes=5)) == timedelta(minutes=5)


@pytest.mark.parametrize("bad", ["7x", "-1d", "0d", "0m", "d7", "soon", "-3 days", "500 years", "0.1s", "P", "7", 7, 7.0,
                                 "1" * 70 + "d", timedelta(0), timedelta(days=-1)])
def test_parse_ttl_rejects_malformed(bad):
    with pytest.raises(InvalidMemoryError) as info:
        parse_ttl(bad)
    assert info.value.field == "ttl"


@given(st.one_of(st.text(max_size=80), st.from_regex(r"\s*\d{1,6}([.,]\d{1,3})?\s*[a-zé]{0,8}\s*", fullmatch=True),
                 st.from_regex(r"P(\d{1,6}[YMWD]){0,3}(T(\d{1,6}[HMS]){0,3})?", fullmatch=True)))
@settings(max_examples=300, deadline=None)
def test_any_ttl_text_is_a_bounded_duration_permanent_or_our_error(text):
    try:
        ttl = parse_ttl(text)
    except InvalidMemoryError as exc:
        assert exc.field == "ttl"
        return
    assert ttl is None or timedelta(0) < ttl <= timedelta(days=36500)


def test_parse_since_is_a_point_in_the_past():
    now = datetime(2026, 1, 10, 12, tzinfo=timezone.utc)
    assert parse_since("6h", now=now) == datetime(2026, 1, 10, 6, tzinfo=timezone.utc)
    naive = datetime(2026, 1, 1, 8)
    assert parse_since(naive) == naive.replace(tzinfo=timezone.utc)
    with pytest.raises(InvalidMemoryError):
        parse_since("permanent")


@pytest.mark.parametrize(("memory_type", "importance"), sorted(DEFAULT_IMPORTANCE.items()))
def test_default_importance_per_type(memory_type, importance):
    assert new_memory("Alice owns a red bicycle", namespace=NS, memory_type=memory_type).importance == importance


def test_default_importance_table_matches_the_design():
    assert DEFAULT_IMPORTANCE == {
        "identity": 1.0, "goal": 0.9, "decision": 0.8, "todo": 0.8,
        "preference": 0.7, "fact": 0.6, "event": 0.4, "observation": 0.3,
    }


def test_goal_kind_defaults_to_goal_type_and_importance():
    memory = new_memory("Learn what Alice cooks", namespace=NS, kind="goal", category="understanding")
    assert (memory.memory_type, memory.importance) == ("goal", 0.9)


def test_explicit_importance_wins_over_the_default():
    assert new_memory("x is y", namespace=NS, memory_type="identity", importance=0.2).importance == 0.2


def test_subjects_are_flat_lowercase_and_deduplicated():
    assert validate_subjects(["Mickael", "  Ski   Alpin ", "mickael", "SKI alpin"]) == ("mickael", "ski alpin")
    assert validate_subjects(None) == ()
    memory = new_memory("Mickael skis", namespace=NS, subjects=("Mickael", "Ski"))
    assert memory.subjects == ("mickael", "ski")


@pytest.mark.parametrize("bad", ["mickael", ["ok", ""], ["ok", 3], [" "], ["x" * 65], [f"s{i}" for i in range(21)]])
def test_subjects_rejects_bad_tags(bad):
    with pytest.raises(InvalidMemoryError) as info:
        validate_subjects(bad)
    assert info.value.field == "subjects"


@pytest.mark.parametrize("good", [("memories",), ("memories", "alice"), ("memories", "alice", "agent-1")])
def test_namespace_accepts_tuples_of_strings(good):
    assert validate_namespace(good) == good


@pytest.mark.parametrize("bad", [["memories", "alice"], (), ("memories", ""), ("memories", " "), ("memories", 3), "memories", None])
def test_namespace_rejects_everything_else(bad):
    with pytest.raises(InvalidMemoryError) as info:
        validate_namespace(bad)
    assert info.value.field == "namespace"


@pytest.mark.parametrize("ns", [("memories", "a/b"), ("memories", "a%2Fb"), ("a", "b", "c%"), ("x",)])
def test_namespace_key_round_trips_and_does_not_collide(ns):
    assert namespace_from_key(namespace_key(ns)) == ns
    # "a/b" as one part must not look like the two parts ("a", "b").
    assert namespace_key(("memories", "a/b")) != namespace_key(("memories", "a", "b"))


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"content": ""}, "content"),
        ({"content": "  \n\t "}, "content"),
        ({"content": "x" * (MAX_CONTENT_CHARS + 1)}, "content"),
        ({"content": 42}, "content"),
        ({"memory_type": "memo"}, "memory_type"),
        ({"kind": "thought"}, "kind"),
        ({"kind": "self", "category": "mood"}, "category"),
        ({"kind": "fact", "category": "context"}, "category"),
        ({"ttl": "7x"}, "ttl"),
        ({"importance": 1.5}, "importance"),
        ({"importance": -0.1}, "importance"),
        ({"importance": True}, "importance"),
        ({"importance": "high"}, "importance"),
        ({"source": ""}, "source"),
        ({"metadata": ["not", "a", "mapping"]}, "metadata"),
        ({"created_at": "2026-01-10"}, "created_at"),
    ],
)
def test_new_memory_rejects_bad_fields(kwargs, field):
    args = {"content": "Alice likes tea", "namespace": NS, **kwargs}
    with pytest.raises(InvalidMemoryError) as info:
        new_memory(**args)
    assert info.value.field == field


def test_content_at_the_limit_is_accepted_and_stripped():
    assert new_memory(" " + "x" * MAX_CONTENT_CHARS + " ", namespace=NS).content == "x" * MAX_CONTENT_CHARS


def test_ttl_sets_expires_at_from_now_not_from_created_at():
    learned = datetime(2020, 1, 1, tzinfo=timezone.utc)
    before = datetime.now(timezone.utc)
    memory = new_memory("Alice is in Rome this week", namespace=NS, ttl="7d", created_at=learned)
    assert memory.created_at == learned
    assert before + timedelta(days=7) <= memory.expires_at <= datetime.now(timezone.utc) + timedelta(days=7)
    assert not memory.is_expired()
    assert memory.is_expired(now=memory.expires_at)
    assert new_memory("Alice is tall", namespace=NS).expires_at is None


def test_naive_created_at_is_taken_as_utc():
    memory = new_memory("Alice met Bob", namespace=NS, created_at=datetime(2025, 3, 1, 9, 30))
    assert memory.created_at == datetime(2025, 3, 1, 9, 30, tzinfo=timezone.utc)


def test_payload_round_trip_preserves_every_field():
    t0 = datetime(2025, 6, 1, 10, 0, 0, 123456, tzinfo=timezone.utc)
    memory = Memory(
        id="0b8e0d3c-9a57-4a53-8f5a-2d1c4e0f9a11",
        content="Alice prefers green tea",
        namespace=("memories", "ali/ce", "agent-1"),
        kind="self",
        memory_type="preference",
        category="relation",
        subjects=("alice", "tea"),
        importance=0.75,
        created_at=t0,
        updated_at=t0 + timedelta(days=1),
        last_accessed_at=t0 + timedelta(days=2),
        access_count=3,
        injection_count=2,
        expires_at=t0 + timedelta(weeks=2),
        source="digest",
        status="superseded",
        supersedes=("11111111-1111-4111-8111-111111111111",),
        superseded_by="22222222-2222-4222-8222-222222222222",
        metadata={"provenance": ["msg-1", "msg-2"], "score": 1.5},
    )
    payload = memory.to_payload()
    assert payload["ns_prefixes"] == ["memories", "memories/ali%2Fce", "memories/ali%2Fce/agent-1"]
    assert isinstance(payload["created_at"], float)
    back = Memory.from_payload(memory.id, payload)
    assert back == memory
    # Timestamps survive to the microsecond (epoch floats keep 6 decimals at this magnitude).
    assert back.updated_at == memory.updated_at


def test_evolve_returns_a_changed_copy():
    memory = new_memory("Alice likes tea", namespace=NS)
    changed = memory.evolve(status="superseded")
    assert (memory.status, changed.status, changed.id) == ("live", "superseded", memory.id)
