"""The issue-25 held-out sets load, are well formed and stay out of the tuning sets.

No figure of the policies is asserted here: the sets only measure (``benchmarks/blind_eval.py``).
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from benchmarks.blind_eval import date_right, parse_span
from tests.dedup_blind_pairs import LABELS, PAIRS
from tests.dedup_pairs import PAIRS as TUNING_PAIRS

DATA = Path(__file__).parent / "data"


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]


def test_dedup_blind_pairs_are_labelled_and_balanced():
    assert len(PAIRS) >= 70
    assert all(p.expected in LABELS and p.lang in ("en", "fr") and p.kind for p in PAIRS)
    assert all(p.old.strip() and p.new.strip() and p.old != p.new for p in PAIRS)
    assert len({(p.old, p.new) for p in PAIRS}) == len(PAIRS)
    assert sum(p.conversational for p in PAIRS) * 2 >= len(PAIRS)
    langs = Counter(p.lang for p in PAIRS)
    assert min(langs.values()) * 5 >= len(PAIRS) * 2  # each language at least 40%
    merges = sum(p.expected != "different" for p in PAIRS)
    assert 0.4 <= merges / len(PAIRS) <= 0.6


def test_preference_blind_messages_are_labelled():
    messages = rows("preference_messages_blind.jsonl")
    assert len(messages) >= 80
    assert {m["label"] for m in messages} == {"preference", "intent", "constraint", "neutral"}
    assert {m["lang"] for m in messages} == {"en", "fr"}
    assert all(set(m) <= {"text", "lang", "label", "when"} and m["text"].strip() for m in messages)
    assert len({m["text"] for m in messages}) == len(messages)
    dated = [m for m in messages if "when" in m]
    assert dated and all(m["label"] == "intent" for m in dated)
    assert all(parse_span(m["when"]) is not None for m in dated)


def test_capture_sequences_are_labelled():
    sequences = rows("capture_sequences_blind.jsonl")
    assert len(sequences) >= 30
    assert all(set(s) == {"first", "second", "label", "lang"} for s in sequences)
    assert Counter(s["label"] for s in sequences).keys() == {"both", "replace"}
    assert {s["lang"] for s in sequences} == {"en", "fr"}
    assert all(s["first"].strip() and s["second"].strip() and s["first"] != s["second"] for s in sequences)


def test_no_blind_sentence_is_in_a_tuning_set():
    tuning = {t for p in TUNING_PAIRS for t in (p.old, p.new)}
    for name in ("preference_messages.jsonl", "preference_messages_holdout.jsonl"):
        tuning |= {m["text"] for m in rows(name)}
    blind = {t for p in PAIRS for t in (p.old, p.new)}
    blind |= {m["text"] for m in rows("preference_messages_blind.jsonl")}
    blind |= {t for s in rows("capture_sequences_blind.jsonl") for t in (s["first"], s["second"])}
    assert not blind & tuning


@pytest.mark.parametrize(("captured", "expected", "right"), [
    ("2026-12-25", "2026-12-25", True),
    ("2026-12-24", "2026-12-25", False),
    ("2027-06-01", "2027-06-01/2027-06-30", True),
    ("2027-06-01/2027-06-30", "2027-06-01/2027-06-30", True),
    ("2027-05-20/2027-06-30", "2027-06-01/2027-06-30", False),
    ("2027-10-02", "2027-09-01/..", True),
    ("ongoing", "2027-09-01/..", False),
    ("soon", "2026-12-25", False),
])
def test_date_scoring_is_containment(captured, expected, right):
    assert date_right(captured, expected) is right


def test_parse_span_reads_open_ends_and_rejects_reversed():
    assert parse_span("../2027-03-01") == (date.min, date(2027, 3, 1))
    assert parse_span("2027-03-01/2026-01-01") is None
