"""Single-value slots (store/_slots.py): each kind of frame the rule reads, what stops it, and a property: no
accumulation marker ever lets it merge."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store._dedup import DedupPolicy
from langgraph_memory.store._slots import accumulates, held_apart, single_value_swap

MINILM = DedupPolicy.for_embedder("all-MiniLM-L6-v2")


# -- the kinds of frame that hold one value at a time ------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "swap"),
    [
        # a possessive head, a copula, a name (a title is no part of the name)
        ("Wren's accountant is Ms Delaney", "wren's accountant is ms okoye", "delaney -> okoy"),
        ("Our plumber is Gary Hobbs", "our plumber is Steve Marsh", "gary hobb -> stev marsh"),
        # a French definite head owned with "de", "c'est" said for "est"
        ("La voiture de Margaux est une Peugeot", "la voiture de margaux c'est une Dacia", "peugeot -> dacia"),
        # a number, a clock time ("at 10" is an hour), a date
        ("Magnus's rent is 900 euros", "magnus's rent is 950 euros", "900 -> 950"),
        ("The team's standup is at 9:30", "the team's standup is at 10", "t0930 -> 10"),
        ("Le mariage de Ninon est le 12 juillet", "le mariage de ninon c'est le 19 juillet", "12 -> 19"),
        # a naming relation, said with two verbs of naming
        ("Zofia's husband is called Piotr", "zofia's husband is named Tomek", "piotr -> tomek"),
        # a person in a functional relation: where one works, lives, whom one is married to
        ("Magnus works at Ericsson", "magnus is employed at Volvo", "ericsson -> volvo"),
        ("Yann vit à Lorient", "yann habite à Vannes", "lorient -> vann"),
        ("Lisette est mariée à Paul", "lisette est mariée avec Gérard", "paul -> gerard"),
        # an ordinary word only in a slot that is itself a choice
        ("La couleur préférée de Margaux est le bleu", "la couleur préférée de margaux c'est le vert",
         "bleu -> vert"),
        # after any verb, a number or a time given by a preposition
        ("Ottilie's phone number ends in 7731", "ottilie's phone number ends in 2208", "7731 -> 2208"),
        ("Le numéro de portable de Lisette finit par 42", "le numéro de portable de lisette finit par 57",
         "42 -> 57"),
        # a plural owner owns one slot
        ("The kids' swimming lesson is at 5pm", "the kids' swimming lesson is at 6pm", "t1700 -> t1800"),
        # the owner named on one side, said by a pronoun on the other
        ("Ruth's dentist is Dr Blanc", "her dentist is dr Petit", "blanc -> petit"),
        ("Le chien de Ninon s'appelle Filou", "son chien s'appelle Praline", "filou -> pralin"),
        # a recurring thing on a given day happens at one time, whoever does it
        ("Idris swims on Mondays at 7am", "idris swims on mondays at 8am", "time on monday: t0700 -> t0800"),
        ("Yann joue au foot le mardi à 18h", "yann joue au foot le mardi à 19h30", "time on mardi: t1800 -> t1930"),
    ],
)
def test_one_value_swapped_in_a_single_value_slot_is_a_correction(old, new, swap):
    why = single_value_swap(new, old)
    assert why is not None and why.endswith(swap)
    assert held_apart(new, old) is None
    assert MINILM.decide(new, old, 0.8).decision == "correction"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Dario's car is a Skoda", "dario's car is red"),  # another aspect of the same thing
        ("Magnus's car is a Volvo", "magnus's car is a rental"),  # a name for an ordinary word
        ("Our kitchen is blue", "our kitchen is small"),  # ordinary words outside a slot of choice
        ("Our flat is near the station", "our flat is near the park"),
        ("Zofia swims at 7am", "zofia swims at 6pm"),  # a person's habit holds two times
        ("Idris swims on Mondays at 7am", "idris swims on fridays at 7am"),  # and two days
        ("Idris swims on Mondays and Fridays at 7am", "idris swims on mondays at 8am"),
        ("Yann joue au foot le mardi", "yann joue au foot le jeudi"),
        ("Sakura likes autumn", "sakura likes spring"),  # likes and languages accumulate
        ("Lisette parle anglais", "lisette parle espagnol"),
        ("Ivo's shop opens at 8", "ivo's shop opens at 10 on Sundays"),  # two values swapped at once
        ("Her favourite film is Heat", "her favourite series is Ronin"),  # another head
        ("Ruth's dentist is Dr Blanc", "her brother's dentist is dr Petit"),  # another owner
        ("Le chien de Ninon s'appelle Filou", "le chien de sa voisine s'appelle Praline"),
        ("Dario isn't married to Ana", "dario is married to Eva"),  # a negation is no value
        ("Wren's accountant was Ms Delaney", "wren's accountant is ms okoye"),  # the past is another fact
    ],
)
def test_no_single_value_swap_where_the_slot_differs_or_holds_several(old, new):
    assert single_value_swap(new, old) is None


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        ("Wren's accountant is Ms Delaney", "wren's lawyer is ms okoye", "another slot"),
        ("The team's standup is at 9:30", "the team's retro is at 10", "another slot"),
        ("Ottilie's parents live in York", "ottilie's parents live in Hull", "plural"),
        ("Les enfants de Lisette sont à Nantes", "les enfants de lisette sont à Rennes", "plural"),
        ("My son's school is Oakfield Primary", "my son's school is Elm Park", "several"),
        ("Priya's daughter is called Lily", "priya's daughter is called Rose", "several"),
        ("Le frère de Malik s'appelle Karim", "le frère de malik s'appelle Nabil", "several"),
        # living or working with someone, working on something: several at a time
        ("Ana lives with Tom", "ana lives with Marc", "alongside"),
        ("Paul travaille avec Marc", "paul travaille avec Julien", "alongside"),
        ("Ana works on Project Atlas", "ana works on Project Beacon", "alongside"),
    ],
)
def test_held_apart_keeps_both_without_a_change_word(old, new, why):
    assert why in (held_apart(new, old) or "")
    assert single_value_swap(new, old) is None
    assert MINILM.decide(new, old, 0.8).decision == "different"


def test_a_unique_relative_owns_a_slot():
    # One mother, one boss: their slots hold one value; a sister is one of several.
    assert MINILM.decide("ben's mum lives in Galway", "Ben's mum lives in Cork", 0.8).decision == "correction"
    assert MINILM.decide("mon chef s'appelle Hervé", "Mon chef s'appelle Denis", 0.8).decision == "correction"
    assert MINILM.decide("ben's sister lives in Galway", "Ben's sister lives in Cork", 0.8).decision == "different"


def test_a_change_said_to_have_happened_is_left_to_the_other_rules():
    # "held apart" stops a value swap said plainly, not a move: a couple moves together.
    old, new = "Ottilie's parents live in York", "ottilie's parents moved to Hull"
    assert held_apart(new, old) is None and single_value_swap(new, old) is None
    assert MINILM.decide(new, old, 0.8).decision == "correction"


@pytest.mark.parametrize(
    "text",
    ["priscilla also has a clio", "kwame has a flat in Kumasi too", "jonas plays the cello as well",
     "ingrid's other son is called Nils", "gus opened a second bakery", "gaëlle a aussi une Clio",
     "maëlle a en plus une maison à Quimper", "l'autre chien de ninon s'appelle Praline"],
)
def test_accumulation_markers_are_read(text):
    assert accumulates(text)


@pytest.mark.parametrize("text", ["Dario's car is a Mazda", "la voiture de margaux c'est une Dacia", "",
                                  "Pierre habite au deuxième étage", "Omid's second job was at a bakery"])
def test_statements_without_a_marker_do_not_accumulate(text):
    assert not accumulates(text)


# -- property: an accumulation marker anywhere stops the rule ----------------------------------------------------

# Frames the rule merges (old, new with a "{}" where the new value goes), and values of one kind for each.
FRAMES = [
    ("{owner}'s dentist is Dr {a}", "{owner}'s dentist is dr {b}", "names"),
    ("{owner}'s car is a {a}", "{owner}'s car is a {b}", "names"),
    ("{owner}'s rent is {a} euros", "{owner}'s rent is {b} euros", "numbers"),
    ("{owner}'s train leaves at {a}:15", "{owner}'s train leaves at {b}:15", "hours"),
    ("{owner} works at {a}", "{owner} works at {b}", "names"),
    ("{owner} lives in {a}", "{owner} lives in {b}", "names"),
    ("La voiture de {owner} est une {a}", "la voiture de {owner} c'est une {b}", "names"),
    ("{owner} habite à {a}", "{owner} habite à {b}", "names"),
    ("Le chien de {owner} s'appelle {a}", "le chien de {owner} s'appelle {b}", "names"),
    ("Le loyer de {owner} est de {a} euros", "le loyer de {owner} est de {b} euros", "numbers"),
]
VALUES = {
    "names": st.sampled_from(["Volvo", "Lyon", "Siemens", "Okafor", "Perrin", "Mochi", "Brest", "Ikea", "Haddad"]),
    "numbers": st.integers(100, 5000).map(str),
    "hours": st.integers(1, 11).map(str),
}
MARKERS = ["also", "too", "as well", "another", "other", "a second", "aussi", "en plus", "de plus", "l'autre",
           "autre", "également", "in addition", "one more", "additional", "extra", "une deuxième", "un second"]


@st.composite
def marked_pairs(draw):
    old_t, new_t, kind = draw(st.sampled_from(FRAMES))
    owner = draw(st.sampled_from(["Wren", "Magnus", "Lisette", "Yann", "Noor"]))
    a = draw(VALUES[kind])
    b = draw(VALUES[kind].filter(lambda v: v != a))
    old, new = old_t.format(owner=owner, a=a), new_t.format(owner=owner, b=b)
    words = draw(st.sampled_from(["new", "old"]))
    marker = draw(st.sampled_from(MARKERS))
    target = (new if words == "new" else old).split()
    at = draw(st.integers(0, len(target)))
    marked = " ".join([*target[:at], marker, *target[at:]])
    return (old, new), ((old, marked) if words == "new" else (marked, new))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pairs=marked_pairs())
def test_the_rule_never_merges_when_an_accumulation_marker_is_present(pairs):
    (old, new), (marked_old, marked_new) = pairs
    # The unmarked pair is one the rule reads as a swap: the marker alone is what stops it.
    assert single_value_swap(new, old) is not None
    assert accumulates(marked_new) or accumulates(marked_old)
    assert single_value_swap(marked_new, marked_old) is None
    # Nor does the policy merge it by another rule: a value said beside the others replaces none.
    assert held_apart(marked_new, marked_old) is not None
    assert MINILM.decide(marked_new, marked_old, 0.8).decision == "different"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(new=st.text(max_size=60), old=st.text(max_size=60))
def test_the_rule_reads_any_text_and_never_merges_with_a_marker(new, old):
    why = single_value_swap(new, old)
    assert why is None or isinstance(why, str)
    assert held_apart(new, old) is None or isinstance(held_apart(new, old), str)
    if accumulates(new) or accumulates(old):
        assert why is None
