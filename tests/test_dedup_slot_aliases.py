"""One single-value slot said through another verb or noun (store/_slot_aliases.py): each kind the rule reads, what
stops it, and properties: an accumulation marker or another owner never lets it merge, and any text is read."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store._dedup import DedupPolicy
from langgraph_memory.store._slot_aliases import another_item, one_more, same_slot, says_another
from langgraph_memory.store._slots import accumulates

MINILM = DedupPolicy.for_embedder("all-MiniLM-L6-v2")

# -- the kinds: a slot said through a verb on one side and a possessed noun on the other ---------------------------

ALIASED = [
    # vehicle
    ("Hartmut drives a Volkswagen Passat", "hartmut's car is a Toyota Corolla now", "vehicle"),
    ("Solveig's car is a Saab", "solveig drives a Lexus these days", "vehicle"),
    ("Gaspard conduit une Peugeot 3008", "la voiture de gaspard c'est une Renault Clio", "vehicle"),
    ("La bagnole de Maud est une Fiat", "maud roule en Toyota maintenant", "vehicle"),
    # home
    ("Ysolde lives in Exeter", "ysolde's flat is in Plymouth now", "home"),
    ("My home is in Cork", "I live in Galway now", "home"),
    ("Ambroise habite à Rouen", "l'appart d'ambroise est au Havre", "home"),
    ("Le domicile de Clotilde est à Dijon", "clotilde vit à Beaune désormais", "home"),
    # employer
    ("Thaddeus works at Unilever", "thaddeus's employer is Nestle", "employer"),
    ("Her job is at Lidl", "she works for Aldi now", "employer"),
    ("Bérénice travaille chez Carrefour", "l'employeur de bérénice c'est Auchan", "employer"),
    ("Le boulot d'Anatole, c'est chez Safran", "anatole bosse chez Dassault maintenant", "employer"),
    # subject taught
    ("Leopold teaches Latin", "leopold's subject is Greek this year", "subject"),
    ("Ondine enseigne la musique", "la matière d'ondine c'est les arts plastiques", "subject"),
    # partner, spouse
    ("Perpetua's girlfriend is Imogen", "perpetua is dating Rosalind", "partner"),
    ("Le copain de Manon s'appelle Enzo", "manon sort avec Théo maintenant", "partner"),
    ("Casimir's wife is Hedda", "casimir is married to Ingrid", "spouse"),
]

NOUNS = [
    # two nouns of one slot
    ("Barnaby's GP is Dr Okonkwo", "barnaby's doctor is dr fischer", "doctor"),
    ("Le médecin traitant de Firmin est le Dr Caron", "le médecin de firmin c'est le docteur Brun", "doctor"),
    ("Wilhelmina's mobile is 07700 900111", "wilhelmina's phone number is 07700 900222", "phone"),
    ("Le portable d'Eudes est le 06 01 02 03 04", "le numéro d'eudes c'est le 06 05 06 07 08", "phone"),
]

FORMS = [
    # a date without its introducer, a weekday before a date, "the 4th of May"
    ("The book fair is on June 9", "the book fair is June 19th", "month6 9 -> month6 19"),
    ("La fête du village est le dimanche 7 juillet", "la fête du village c'est le 17 juillet",
     "month7 7 -> month7 17"),
    ("Ottoline's recital is on the 2nd of April", "ottoline's recital is April 12", "month4 2 -> month4 12"),
    # a time said as "at 6", "7 o'clock", "à 20h", "21 heures"
    ("Florian's rehearsal is at 4", "florian's rehearsal is 5 o'clock", "t0400 t1600 -> t0500"),
    ("Le goûter chez les Lenoir est à 16h", "le goûter chez les lenoir c'est 17 heures", "t1600 -> t1700"),
    # a street name in capitals on one side, lower case on the other
    ("Araminta's shop is on Station Road", "araminta's shop is on church lane now", "station road -> church lane"),
    ("La boutique de Gisèle est rue Lepic", "la boutique de gisèle est boulevard de clichy",
     "rue lepic -> boulevard"),
]


@pytest.mark.parametrize(("old", "new", "slot"), ALIASED + NOUNS)
def test_one_slot_said_through_another_verb_or_noun_is_a_correction(old, new, slot):
    said = same_slot(new, old)
    assert said is not None and said.decision == "correction" and f"({slot})" in said.reason
    assert MINILM.decide(new, old, 0.6).decision == "correction"


@pytest.mark.parametrize(("old", "new", "swap"), FORMS)
def test_dates_times_and_streets_are_one_kind_of_value_however_said(old, new, swap):
    said = same_slot(new, old)
    assert said is not None and said.decision == "correction" and swap in said.reason
    assert MINILM.decide(new, old, 0.8).decision == "correction"


@pytest.mark.parametrize(
    ("old", "new", "decision"),
    [
        ("Hartmut drives a Volkswagen Passat", "hartmut's car is a Volkswagen Passat", "duplicate"),
        ("Gaspard conduit une Peugeot", "la voiture de gaspard, c'est une Peugeot 3008", "refinement"),
        ("Florian's rehearsal is at 4", "florian's rehearsal is at 4pm", "refinement"),
        ("The book fair is on June 9", "the book fair is June 9th", "duplicate"),
        ("Le goûter chez les Lenoir est à 16h", "le goûter chez les lenoir c'est 16 heures", "duplicate"),
    ],
)
def test_the_same_value_said_another_way_is_no_new_fact(old, new, decision):
    said = same_slot(new, old)
    assert said is not None and said.decision == decision
    assert MINILM.decide(new, old, 0.8).decision == decision


# -- what keeps both: another owner, a modifier, a marker, a context, another tense ------------------------------

KEPT = [
    # another owner: a relative, another name, a plural owner, another pronoun
    ("Hartmut drives a Passat", "hartmut's wife's car is a Corolla"),
    ("Gaspard conduit une Peugeot", "la voiture de la femme de gaspard est une Clio"),
    ("Ysolde lives in Exeter", "ysolde's parents' flat is in Plymouth"),
    ("Hartmut drives a Passat", "Greta's car is a Corolla"),
    ("Il conduit une Peugeot", "elle conduit une Clio"),
    ("He drives a Passat", "her car is a Corolla"),
    ("Thaddeus works at Unilever", "thaddeus's sons work at Nestle"),
    ("Maud roule en Fiat", "les enfants de maud roulent en Toyota"),
    # another one of the slot
    ("Thaddeus works at Unilever", "thaddeus's second job is at Nestle"),
    ("Ysolde lives in Exeter", "ysolde's holiday flat is in Plymouth"),
    ("Bérénice travaille chez Carrefour", "le deuxième boulot de bérénice c'est chez Auchan"),
    ("Ambroise habite à Rouen", "la maison de vacances d'ambroise est au Havre"),
    ("Wilhelmina's mobile is 07700 900111", "wilhelmina's work phone is 020 7946 0111"),
    ("Barnaby's GP is Dr Okonkwo", "barnaby's dentist is dr fischer"),
    # a value bound to some days, or with its context
    ("Thaddeus works at Unilever", "thaddeus's job is at Nestle on Saturdays"),
    ("Solveig drives a Saab", "solveig drives a delivery van for work"),
    ("Leopold teaches Latin", "leopold's subject is Greek at the evening school"),
    # accumulation markers
    ("Leopold teaches Latin", "leopold teaches Greek too"),
    ("Ondine enseigne la musique", "ondine enseigne aussi le dessin"),
    ("Solveig's car is a Saab", "solveig also drives a Lexus"),
    # past, negated, future
    ("Ysolde lives in Exeter", "ysolde's flat was in Plymouth"),
    ("Solveig drives a Saab", "solveig's car isn't a Lexus"),
    ("Solveig drives a Saab", "solveig will drive a Lexus"),
    # whom one teaches is no subject; "drives Uber" says for whom
    ("Leopold teaches kids", "leopold's subject is Greek"),
    ("He drives Uber", "his car is a Prius"),
    # another event, another head
    ("The book fair is on June 9", "the book launch is June 19th"),
    ("Florian's rehearsal is at 4", "florian's concert is 5 o'clock"),
    ("Araminta's shop is on Station Road", "araminta's favourite cafe is on church lane"),
    # a nationality is no name: who she is, and where she is from (review8)
    ("Wiktor's wife is Anna", "Wiktor's wife is French"),
    ("Wiktor drives a Skoda", "Wiktor's car is German"),
    # nor is an age: another slot said on one side only (review8)
    ("Wiktor's wife is Anna", "Wiktor's wife is 40"),
    # a former spouse beside the present one (review8)
    ("Wiktor is married to Anna", "Wiktor was married to Claire"),
]


@pytest.mark.parametrize(("old", "new"), KEPT)
def test_values_legitimately_held_together_stay_two_memories(old, new):
    assert same_slot(new, old) is None
    assert MINILM.decide(new, old, 0.7).decision == "different"


def test_another_item_names_which_one_or_some_days():
    assert another_item("thaddeus's second job is at Nestle", "Thaddeus works at Unilever") == "another one: second"
    assert another_item("rosalie travaille chez Bouygues le week-end", "Rosalie travaille chez Orange")
    assert another_item("la kermesse c'est le samedi 21 juin", "La kermesse est le 14 juin") is None  # a date
    assert another_item("Ryan turned 46 last week", "Ryan is 45") is None


def test_below_the_candidate_floor_only_a_named_owner_stands():
    # The same owner by name: a correction even where the embedder sees little in common.
    assert MINILM.decide("hartmut's car is a Toyota Corolla", "Hartmut drives a Volkswagen Passat", 0.40).decision \
        == "correction"
    # Pronouns on both sides: another person may be meant.
    assert MINILM.decide("his car is a Toyota Corolla", "He drives a Volkswagen Passat", 0.40).decision == "different"


# -- properties ---------------------------------------------------------------------------------------------------

MARKERS_EN = ["also", "too", "as well", "another", "other", "a second", "in addition", "one more"]
MARKERS_FR = ["aussi", "en plus", "de plus", "autre", "une deuxième", "également"]
MARKERS = MARKERS_EN + MARKERS_FR


def _french(text: str) -> bool:
    return any(w in f" {text.lower()} " for w in (" est ", "c'est", " à ", " chez ", " une ", " le ", " la ", " l'"))
OWNERS = st.sampled_from(["Hartmut", "Solveig", "Gaspard", "Maud", "Ysolde", "Thaddeus", "Leopold", "Ondine"])
OTHER_OWNERS = ["hartmut's wife's car is a {}", "hartmut's brother's car is a {}", "hartmut's kids' car is a {}",
                "his wife's car is a {}", "my car is a {}", "Greta's car is a {}", "la voiture de la femme de hartmut "
                "est une {}", "la voiture du frère de hartmut est une {}",
                "les voitures des enfants de hartmut sont des {}",
                "sa fille conduit une {}", "their car is a {}", "she drives a {}"]


@st.composite
def marked(draw):
    old, new, _ = draw(st.sampled_from(ALIASED + NOUNS + FORMS))
    marker = draw(st.sampled_from(MARKERS))
    side = draw(st.sampled_from(["old", "new"]))
    words = (old if side == "old" else new).split()
    at = draw(st.integers(0, len(words)))
    text = " ".join([*words[:at], marker, *words[at:]])
    return (text, new, side) if side == "old" else (old, text, side)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(pair=marked())
def test_an_accumulation_marker_never_lets_the_alias_rule_merge(pair):
    old, new, side = pair
    assert same_slot(new, old) is None
    # The whole policy too, when new says the value is held beside the others. (A marker in old with a change word
    # in new is the older rules' call: "also at Safran" / "bosse chez Dassault maintenant" says a change.)
    # Said in the statement's own language: a French marker in English is no statement anyone makes.
    if side == "new" and any(m in new.split(" ") or f" {m} " in f" {new} " for m in (
            MARKERS_FR if _french(old) else MARKERS_EN)):
        assert MINILM.decide(new, old, 0.8).decision == "different"


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(owner=OWNERS, other=OWNERS, make=st.sampled_from(["Volvo", "Kia", "Fiat", "Skoda"]),
       place=st.sampled_from(["Leeds", "York", "Lyon", "Brest"]))
def test_another_owner_never_lets_the_alias_rule_merge(owner, other, make, place):
    if owner == other:
        other = "Greta"
    assert same_slot(f"{other.lower()}'s car is a {make}", f"{owner} drives a Saab") is None
    assert same_slot(f"{other} lives in {place}", f"{owner}'s flat is in Bath") is None
    assert same_slot(f"la voiture de {other.lower()} est une {make}", f"{owner} conduit une Clio") is None
    assert MINILM.decide(f"{other.lower()}'s car is a {make}", f"{owner} drives a Saab", 0.7).decision == "different"


@settings(max_examples=100)
@given(other=st.sampled_from(OTHER_OWNERS), make=st.sampled_from(["Volvo", "Kia", "Fiat", "Skoda"]))
def test_a_relative_or_another_person_owning_the_thing_never_merges(other, make):
    assert same_slot(other.format(make), "Hartmut drives a Saab") is None
    # Against a pronoun, a name may be the same person ("Greta's car" / "she drives"); a relative never is.
    if not other.startswith("Greta"):
        assert same_slot(other.format(make), "He drives a Saab") is None


@given(new=st.text(max_size=60), old=st.text(max_size=60))
def test_any_text_is_read_without_error(new, old):
    said = same_slot(new, old)
    assert said is None or said.decision in ("correction", "duplicate", "refinement") and said.reason
    assert another_item(new, old) is None or isinstance(another_item(new, old), str)


def test_one_more_thing_is_no_refinement_of_the_first():
    # "a second" read as the ordinal of a date would make old's words all part of new's.
    old = "Ottoline's recital is on the 2nd of April"
    assert one_more("a second recital of ottoline's is April 12", old)
    assert MINILM.decide("a second recital of ottoline's is April 12", old, 0.8).decision == "different"
    assert MINILM.decide("Il y a une deuxième kermesse le 21 juin", "La kermesse est le 21 juin", 0.8).decision \
        == "different"
    # Nor is a second-hand thing one more.
    assert not one_more("Gus drives a second-hand Saab", "Gus drives a used Saab")
    assert not accumulates("Gus drives a second-hand Saab")


def test_a_change_word_does_not_undo_one_more():
    new, old = "Anatole a maintenant un deuxième boulot chez Dassault", "Le boulot d'Anatole, c'est chez Safran"
    assert says_another(new, old)
    assert MINILM.decide(new, old, 0.7).decision == "different"
    assert MINILM.decide("tom now has a second job at Globex", "Tom works at Acme", 0.7).decision == "different"
