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


@pytest.mark.parametrize("said", ["one one two", "four four", "two one", "seven seven", "nine one one", "un deux trois",
                                  "twenty twenty", "sixty sixty", "one hundred one hundred", "zero seven",
                                  "one thousand one thousand"])
def test_number_words_said_one_by_one_are_no_sum(said):
    """Digits said one by one ("one one two", a code, a room, a score) are no number the words add up to: they
    are left as words, never written as their sum ("4")."""
    from langgraph_memory.store._number_words import spell_numbers

    assert spell_numbers(f"the code is {said}") == f"the code is {said}"


@pytest.mark.parametrize("said, value", [
    ("thirty-six", "36"), ("twenty one", "21"), ("one hundred and five", "105"), ("twelve hundred", "1200"),
    ("two thousand and twenty", "2020"), ("quatre-vingt-dix-sept", "97"), ("soixante et onze", "71"),
    ("soixante-dix-sept", "77"), ("dix-sept", "17"), ("deux cent cinquante", "250"), ("quatre-vingts", "80"),
    ("mille deux cents", "1200"), ("vingt et un", "21"),
])
def test_well_formed_number_words_still_read_as_their_value(said, value):
    from langgraph_memory.store._number_words import spell_numbers

    assert spell_numbers(f"the count is {said}") == f"the count is {value}"


def test_a_code_said_digit_by_digit_is_not_its_sum():
    """"four four" is no 8: beside a code of 8 it is another value (a new code), never the same one."""
    for cosine in APART_COSINES:
        assert MINILM.decide("ravi's locker code is 8", "Ravi's locker code is four four", cosine).decision != "duplicate"
