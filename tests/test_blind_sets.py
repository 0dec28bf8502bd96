"""The issue-25 held-out sets load, are well formed, and rounds 2 and 3 stay out of every other set.

Round 1 (``tests/dedup_blind_pairs.py``, ``*_blind.jsonl``) is declassified: the policy helpers tune
on it from round 2 on, so only its shape is checked here. Round 2 (``tests/dedup_blind2_pairs.py``,
``*_blind2.jsonl``) and round 3 (``tests/dedup_blind3_pairs.py``, dedup pairs only) are blind: no
sentence of them may appear, after normalisation, in the tuning sets, in an earlier round, or as a
string anywhere else in ``tests/`` and ``benchmarks/``.

No figure of the policies is asserted here: the sets only measure (``benchmarks/blind_eval.py``).
"""

from __future__ import annotations

import ast
import json
import re
import unicodedata
from collections import Counter
from datetime import date
from pathlib import Path

import pytest

from benchmarks.blind_eval import ROUNDS, date_right, parse_span
from tests.dedup_blind_pairs import LABELS
from tests.dedup_pairs import PAIRS as TUNING_PAIRS

TESTS = Path(__file__).parent
DATA = TESTS / "data"
ROUND_2_FILES = {"dedup_blind2_pairs.py", "preference_messages_blind2.jsonl", "capture_sequences_blind2.jsonl",
                 Path(__file__).name}
ROUND_3_FILES = {"dedup_blind3_pairs.py", Path(__file__).name}
# Minimum sizes (pairs, messages, sequences) each round was written with; round 3 has pairs only.
MIN_SIZES = {1: (70, 80, 30), 2: (100, 90, 30), 3: (96, 0, 0)}
CAPTURE_ROUNDS = sorted(n for n, blind in ROUNDS.items() if blind.messages and blind.sequences)


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def normalised(text: str) -> str:
    """Case, accents, punctuation and spacing folded away: "Ça va, Noël !" ~ "ca va noel"."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    return " ".join(re.findall(r"[a-z0-9]+", "".join(c for c in folded if not unicodedata.combining(c))))


def round_2_sentences() -> set[str]:
    blind = ROUNDS[2]
    texts = {t for p in blind.pairs for t in (p.old, p.new)}
    texts |= {m["text"] for m in rows(blind.messages)}
    texts |= {t for s in rows(blind.sequences) for t in (s["first"], s["second"])}
    return texts


def strings_elsewhere(own_files: set[str]) -> set[str]:
    """Every sentence-like string outside one round's ``own_files``: the tuning pairs, every other data
    set (tuning sets and the other rounds), and every string literal in the other modules of tests/
    and benchmarks/."""
    found = {t for p in TUNING_PAIRS for t in (p.old, p.new)}
    for path in DATA.glob("*.jsonl"):
        if path.name not in own_files:
            found |= {v for row in rows(path) for v in row.values() if isinstance(v, str)}
    for folder in (TESTS, TESTS.parent / "benchmarks"):
        for path in folder.rglob("*.py"):
            if path.name not in own_files:
                tree = ast.parse(path.read_text(encoding="utf-8"))
                found |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return found


@pytest.mark.parametrize("number", sorted(ROUNDS))
def test_dedup_blind_pairs_are_labelled_and_balanced(number):
    pairs = ROUNDS[number].pairs
    assert len(pairs) >= MIN_SIZES[number][0]
    assert all(p.expected in LABELS and p.lang in ("en", "fr") and p.kind for p in pairs)
    assert all(p.old.strip() and p.new.strip() and p.old != p.new for p in pairs)
    assert len({(p.old, p.new) for p in pairs}) == len(pairs)
    assert sum(p.conversational for p in pairs) * 2 >= len(pairs)
    langs = Counter(p.lang for p in pairs)
    assert min(langs.values()) * 5 >= len(pairs) * 2  # each language at least 40%
    merges = sum(p.expected != "different" for p in pairs)
    assert 0.4 <= merges / len(pairs) <= 0.6


def test_round_2_pairs_are_balanced_within_each_language():
    pairs = ROUNDS[2].pairs
    for lang in ("en", "fr"):
        mine = [p for p in pairs if p.lang == lang]
        merges = sum(p.expected != "different" for p in mine)
        assert 0.4 <= merges / len(mine) <= 0.6
        assert {p.expected for p in mine} == set(LABELS)


def test_round_3_pairs_have_the_written_composition():
    pairs = ROUNDS[3].pairs
    assert len(pairs) == 96
    assert sum(p.conversational for p in pairs) >= 70
    for lang in ("en", "fr"):
        labels = Counter(p.expected for p in pairs if p.lang == lang)
        assert sum(labels.values()) == 48
        assert labels["different"] == 24  # half merges, half hard negatives, in each language
        assert labels["correction"] >= 12 and labels["duplicate"] >= 8 and labels["refinement"] >= 1
        assert sum(p.conversational for p in pairs if p.lang == lang) >= 35
        # written pairs in both halves, for merges and for negatives
        assert {(p.expected == "different") for p in pairs if p.lang == lang and not p.conversational} == {True, False}


def test_round_3_sentences_are_unique_within_the_round():
    news = [normalised(p.new) for p in ROUNDS[3].pairs]
    assert len(set(news)) == len(news)
    olds = {normalised(p.old) for p in ROUNDS[3].pairs}
    assert not olds & set(news)


@pytest.mark.parametrize("number", CAPTURE_ROUNDS)
def test_preference_blind_messages_are_labelled(number):
    messages = rows(ROUNDS[number].messages)
    assert len(messages) >= MIN_SIZES[number][1]
    assert {m["label"] for m in messages} == {"preference", "intent", "constraint", "neutral"}
    assert {m["lang"] for m in messages} == {"en", "fr"}
    assert all(set(m) <= {"text", "lang", "label", "when"} and m["text"].strip() for m in messages)
    assert len({m["text"] for m in messages}) == len(messages)
    dated = [m for m in messages if "when" in m]
    assert dated and all(m["label"] == "intent" for m in dated)
    assert all(parse_span(m["when"]) is not None for m in dated)
    # every type, neutral included, in both languages
    assert len(Counter((m["lang"], m["label"]) for m in messages)) == 8


@pytest.mark.parametrize("number", CAPTURE_ROUNDS)
def test_capture_sequences_are_labelled(number):
    sequences = rows(ROUNDS[number].sequences)
    assert len(sequences) >= MIN_SIZES[number][2]
    assert all(set(s) == {"first", "second", "label", "lang"} for s in sequences)
    assert Counter(s["label"] for s in sequences).keys() == {"both", "replace"}
    assert len(Counter((s["lang"], s["label"]) for s in sequences)) == 4
    assert all(s["first"].strip() and s["second"].strip() and s["first"] != s["second"] for s in sequences)


def test_round_2_sentences_are_unique_within_the_round():
    blind = ROUNDS[2]
    messages = [normalised(m["text"]) for m in rows(blind.messages)]
    assert len(set(messages)) == len(messages)
    turns = [normalised(t) for s in rows(blind.sequences) for t in (s["first"], s["second"])]
    assert len(set(turns)) == len(turns)
    assert not set(messages) & set(turns)


def test_no_round_2_sentence_is_anywhere_else():
    blind = {normalised(t) for t in round_2_sentences()}
    elsewhere = {normalised(t) for t in strings_elsewhere(ROUND_2_FILES)}
    assert len(blind) > 300  # the sets were read, and the comparison is not vacuous
    assert not blind & elsewhere


def test_no_round_3_sentence_is_anywhere_else():
    blind = {normalised(t) for p in ROUNDS[3].pairs for t in (p.old, p.new)}
    elsewhere = {normalised(t) for t in strings_elsewhere(ROUND_3_FILES)}
    # rounds 1 and 2 are in the comparison: their pair modules are string literals of tests/
    assert {normalised(p.new) for p in ROUNDS[2].pairs} <= elsewhere
    assert {normalised(p.old) for p in ROUNDS[1].pairs} <= elsewhere
    assert len(blind) > 180  # the set was read, and the comparison is not vacuous
    assert not blind & elsewhere


def test_normalised_folds_form_only():
    assert normalised("Ça va, Noël !") == normalised("ca  va NOEL") == "ca va noel"
    assert normalised("I'm allergic to kiwi") != normalised("I'm allergic to mango")


def test_rounds_are_distinct_files():
    assert ROUNDS[1].messages != ROUNDS[2].messages and ROUNDS[1].sequences != ROUNDS[2].sequences
    assert not {(p.old, p.new) for p in ROUNDS[1].pairs} & {(p.old, p.new) for p in ROUNDS[2].pairs}
    assert ROUNDS[3].messages is None and ROUNDS[3].sequences is None  # round 3 is dedup pairs only


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
