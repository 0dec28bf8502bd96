"""Hard negatives found by the review of the i25 forms and spoken-change rules (review9): a form that hides another
value must never merge, at any cosine. Each pair is in ``tests/dedup_pairs.py`` round 13 too (real cosines)."""

from __future__ import annotations

import pytest

from langgraph_memory.store._dedup import DedupPolicy

MINILM = DedupPolicy.for_embedder("all-MiniLM-L6-v2")
APART_COSINES = (0.5, 0.7, 0.85, 0.93, 0.99)


@pytest.mark.parametrize("old, new", [
    # The same number of another unit of time: abbreviated ("min" / "hrs", "yo") the units once read as a
    # paraphrase or as "adds months".
    ("Ottilie walks the dog for 20 min", "ottilie walks the dog for 20 hrs"),
    ("Ottilie walks the dog for 20 minutes", "ottilie walks the dog for 20 hours"),
    ("Ravi's son is 7 yo", "ravi's son is 7 months old"),
    ("Ravi's son is 7 years old", "ravi's son is 7 months old"),
    ("Le fils de Ravi a 7 ans", "le fils de ravi a 7 mois"),
    ("Ravi's holiday is 2 weeks", "ravi's holiday is 2 days"),
])
def test_the_same_number_of_another_unit_of_time_is_another_value(old, new):
    for cosine in APART_COSINES:
        assert MINILM.decide(new, old, cosine).decision == "different", (old, new, cosine)


@pytest.mark.parametrize("old, new", [
    ("Ravi is called Bubu", "ravi goes by Uber now"),
    ("Ravi is called Bubu", "ravi goes by Lyft to work"),
    ("Ravi is called Bubu", "ravi goes by Eurostar to Paris"),
])
def test_going_by_a_vehicle_is_no_name(old, new):
    for cosine in APART_COSINES:
        assert MINILM.decide(new, old, cosine).decision == "different", (old, new, cosine)


@pytest.mark.parametrize("old, new, expected", [
    ("Ottilie walks the dog for 20 min", "ottilie walks the dog for 20 minutes", "duplicate"),
    ("Ravi's son is 7 yo", "ravi's son is 7 years old", "duplicate"),
    ("Ravi goes by Bubu", "ravi is called Bubu", "duplicate"),
])
def test_the_same_value_in_another_form_still_merges(old, new, expected):
    assert MINILM.decide(new, old, 0.93).decision == expected
