"""Duplicates that differ only in form (i25-forms): numbers in words and their compounds, ordinals, units and their
abbreviations, clock times and dates in every shape, naming verbs, name nouns, abbreviations and acronyms, the first
person against the stored third person of the user, familiar relatives, spellings, quantities said as idioms. Each
kind merges, at several cosines; its hard negatives, where the form hides another value, stay two memories at every
cosine. Sentences here are written for the tests, none from the leave-out or blind sets."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store._dedup import DedupPolicy
from langgraph_memory.store._forms import one_form, spell_forms
from langgraph_memory.store._number_words import spell_numbers
from langgraph_memory.store._quantities import spell_values

MINILM = DedupPolicy.for_embedder("all-MiniLM-L6-v2")
MERGE_COSINES = (0.75, 0.85, 0.93, 0.98)
APART_COSINES = (0.5, 0.7, 0.85, 0.93, 0.99)

# (old, new): the same fact in two forms.
SAME_FACT = [
    # numbers in words, compounds in English and French
    ("Ulla keeps forty-four sheep", "ulla keeps 44 sheep"),
    ("Ulla keeps forty four sheep", "ulla keeps 44 sheep"),
    ("The hall seats 1,500 people", "the hall seats fifteen hundred people"),
    ("Ulla possède quatre-vingt-treize brebis", "ulla possède 93 brebis"),
    ("Ulla possède soixante et une brebis", "ulla possède 61 brebis"),
    ("Le club compte trois cent douze membres", "le club compte 312 membres"),
    ("Ulla a six ânes", "ulla a 6 ânes"),
    # ordinals
    ("Ulla finished thirty-first in the fell race", "ulla finished 31st in the fell race"),
    ("Ulla est arrivée dix-septième au trail", "ulla est arrivée 17e au trail"),
    ("Ulla's desk is on the fifteenth floor", "ulla's desk is on the 15th floor"),
    # units and durations
    ("Ulla's ride is 30 miles", "ulla's ride is 30 mi"),
    ("Ulla's nap lasts 40 minutes", "ulla's nap lasts 40 mins"),
    ("La sieste d'Ulla dure trois heures", "la sieste d'ulla dure 3h"),
    ("Ulla meditates for half an hour", "ulla meditates for 30 min"),
    ("Ulla swims twice a week", "ulla swims 2 times a week"),
    ("Ulla nage trois fois par semaine", "ulla nage 3x par semaine"),
    # clock times
    ("Ulla's shift starts at noon", "ulla's shift starts at 12:00"),
    ("Ulla's shift ends at 11 at night", "ulla's shift ends at 23:00"),
    ("Ulla's bus leaves at quarter past seven in the morning", "ulla's bus leaves at 7:15"),
    ("La chorale d'Ulla commence à vingt heures", "la chorale d'ulla commence à 20h"),
    ("La chorale d'Ulla commence à huit heures du soir", "la chorale d'ulla commence à 20h"),
    ("Le repas d'Ulla est à midi et quart", "le repas d'ulla est à 12h15"),
    ("Le train d'Ulla part à seize heures quarante", "le train d'ulla part à 16h40"),
    # dates
    ("Ulla's lease ends on Oct 31", "ulla's lease ends on 31 October"),
    ("Le bail d'Ulla finit le 2 févr.", "le bail d'ulla finit le 2 février"),
    # naming
    ("Ulla goes by Lulu", "ulla is called Lulu"),
    ("Ulla se fait appeler Lulu", "ulla s'appelle Lulu"),
    ("Ulla's last name is Berg", "ulla's surname is Berg"),
    # abbreviations and acronyms
    ("Ulla lives on Heron Rd", "ulla lives on Heron Road"),
    ("Ulla has a vet appt on Friday", "ulla has a vet appointment on Friday"),
    # the first person against the stored user
    ("User plays the cello", "I play the cello"),
    ("The user's dog is called Brio", "my dog is called Brio"),
    ("L'utilisateur fait du kayak", "je fais du kayak"),
    ("Le chien de l'utilisateur s'appelle Brio", "mon chien s'appelle Brio"),
    # contractions, familiar relatives, spellings
    ("Ulla can't drive", "ulla cannot drive"),
    ("Ulla's mum is a pilot", "ulla's mother is a pilot"),
    ("Ulla's favourite colour is mauve", "ulla's favorite color is mauve"),
    # percentages, money, short weekdays, "born on", clipped words
    ("Ulla's loan is at 6%", "ulla's loan is at 6 per cent"),
    ("Ulla's sofa cost $1,400", "ulla's sofa cost 1400 dollars"),
    ("Le canapé d'Ulla a coûté 700€", "le canapé d'ulla a coûté 700 EUR"),
    ("Ulla rows on Tues", "ulla rows on Tuesday"),
    ("Ulla was born on 2 May", "ulla's birthday is on 2 May"),
    ("Ulla watches TV at night", "ulla watches television at night"),
    ("Ulla's exam is on Monday", "ulla's examination is on Monday"),
]

# (old, new): the form hides another value, or another owner.
ANOTHER_FACT = [
    ("Ulla keeps forty-four sheep", "ulla keeps 54 sheep"),
    ("Ulla keeps forty-four sheep", "ulla keeps 44 goats"),
    ("Ulla has run five marathons", "ulla ran her fifth marathon"),
    ("Ulla's house has three floors", "ulla lives on the third floor"),
    ("Ulla lives at number 8", "ulla lives on the eighth floor"),
    ("Ulla a cinq enfants", "ulla est le cinquième enfant de la famille"),
    ("Ulla's ride is 30 miles", "ulla's ride is 30 km"),
    ("Ulla's ride takes 30 min", "ulla's ride is 30 km"),
    ("La sieste d'Ulla dure 3h", "le train d'ulla part à 3h"),
    ("Ulla swims twice a week", "ulla swims twice a month"),
    ("Ulla's shift starts at noon", "ulla's shift ends at noon"),
    ("Ulla's recital is on the 4th", "it is ulla's 4th recital"),
    ("There's a tram to the harbour at 9", "there's a tram to the harbour at 9:30"),
    ("Ulla has a cat called Pippin", "ulla's goat is named Pippin"),
    ("Ulla goes by Lulu", "ulla's sister goes by Lulu"),
    ("Ulla's surname is Berg", "ulla's middle name is Berg"),
    ("Ulla sings for Rasmus", "ulla sings with Rasmus"),
    ("Ulla studied at the World Health Organization", "ulla works at WHO"),
    ("User plays the cello", "my son plays the cello"),
    ("L'utilisateur fait du kayak", "ma sœur fait du kayak"),
    ("User is a vegan", "I used to be vegan"),
    ("Ulla's mum is a pilot", "ulla's grandma is a pilot"),
    ("Ulla's mum is 61", "ulla's dad is sixty-one"),
    ("Ulla can't drive", "ulla can't ski"),
    ("Ulla's mum lives in Turku", "ulla's mother-in-law lives in Turku"),
    ("La mère d'Ulla vit à Turku", "la belle-mère d'ulla vit à Turku"),
    ("Ulla is called Lulu", "ulla's boat is called Lulu"),
    ("Ulla sleeps 8 hours", "ulla sleeps until 8"),
    ("User has two cats", "I have 2 dogs"),
    ("Ulla's loan is at 6%", "ulla's loan is at 6"),
    ("Ulla's sofa cost $1,400", "ulla's sofa cost £1,400"),
    ("Ulla rows on Tues", "ulla rows on Thursday"),
    ("Ulla was born on 2 May", "ulla's son was born on 2 May"),
    ("Ulla repairs bikes", "ulla repairs motorbikes"),
    ("Ulla teaches maths", "ulla's son teaches mathematics"),
]


@pytest.mark.parametrize("cosine", MERGE_COSINES)
@pytest.mark.parametrize(("old", "new"), SAME_FACT)
def test_the_same_fact_in_another_form_is_a_duplicate(old: str, new: str, cosine: float) -> None:
    verdict = MINILM.decide(new, old, cosine)
    assert verdict.decision == "duplicate", verdict.reason


@pytest.mark.parametrize("cosine", APART_COSINES)
@pytest.mark.parametrize(("old", "new"), ANOTHER_FACT)
def test_a_form_hiding_another_value_keeps_both(old: str, new: str, cosine: float) -> None:
    verdict = MINILM.decide(new, old, cosine)
    assert verdict.decision == "different", verdict.reason


@pytest.mark.parametrize(("text", "said"), [
    ("twenty-one", "21"), ("ninety nine", "99"), ("one hundred and five", "105"), ("twelve hundred", "1200"),
    ("two thousand and twenty", "2020"), ("vingt et un", "21"), ("vingt-et-une", "21"), ("soixante-dix", "70"),
    ("soixante et onze", "71"), ("quatre-vingts", "80"), ("quatre-vingt-dix-neuf", "99"), ("deux cent cinquante", "250"),
    ("mille deux cents", "1200"), ("twenty-third", "23th"), ("vingt et unième", "21th"), ("1,200", "1200"),
    ("1 200", "1200"), ("1.200 euros", "1200 euros"),
])
def test_numbers_of_several_words_are_digits(text: str, said: str) -> None:
    assert spell_numbers(text) == said


@pytest.mark.parametrize("text", ["one of them", "the second one", "un chat", "une voiture neuve", "three and a half",
                                  "07700 900123", "06 12 34 56 78", "2,5 km", "1.5 kg"])
def test_words_that_are_not_a_number_of_several_words_stay(text: str) -> None:
    assert spell_numbers(text) == text


@pytest.mark.parametrize(("a", "b"), [
    ("at noon", "at 12:00"), ("à midi et demi", "à 12h30"), ("at midnight", "at 00:00"),
    ("at seven in the evening", "at 7pm"), ("at 10 at night", "at 22:00"), ("à sept heures du soir", "à 19h"),
    ("quatorze heures trente", "14h30"), ("dure deux heures", "dure 2h"), ("for 20 minutes", "for 20 min"),
    ("8 miles", "8 mi"), ("half an hour", "30 minutes"), ("twice a week", "2x a week"), ("on Sept 14", "on September 14"),
])
def test_values_said_in_two_forms_are_spelled_alike(a: str, b: str) -> None:
    assert spell_values(a) == spell_values(b)


@pytest.mark.parametrize(("a", "b"), [
    ("dure 3h", "part à 3h"), ("at 7 in the morning", "at 7 in the evening"), ("at noon", "at midnight"),
    ("8 miles", "8 km"), ("habite dans le Midi", "habite à midi"),
])
def test_values_of_another_kind_stay_apart(a: str, b: str) -> None:
    assert spell_values(a) != spell_values(b)


def test_abbreviations_expand_but_titles_and_names_stay() -> None:
    assert spell_forms("lives on Heron Rd") == "lives on Heron Road"
    assert spell_forms("my GP Dr Patel") == "my GP Dr Patel"  # a title, not Drive
    assert spell_forms("moved to Tel Aviv") == "moved to Tel Aviv"
    assert spell_forms("Yo I moved") == "Yo I moved"  # a greeting; "7 yo" is an age
    assert spell_forms("her son is 7 yo") == "her son is 7 years old"
    assert spell_forms("lives in St Albans") == "lives in St Albans"  # Saint before a name


def test_the_first_person_is_the_user_only_as_the_subject() -> None:
    assert one_form("I play the cello", "User plays the cello") == ("I play the cello", "I plays the cello")
    assert one_form("oh my dog is called Brio", "The user's dog is called Brio")[1] == "my dog is called Brio"
    # Someone else's statement that mentions the speaker is no statement about the user.
    assert one_form("Tom told me he lives in Ghent", "User lives in Ghent")[1] == "User lives in Ghent"
    # Both sides about the user already: nothing to rewrite.
    assert one_form("User and I play chess", "User plays chess") == ("User and I play chess", "User plays chess")


@pytest.mark.parametrize("cosine", MERGE_COSINES)
def test_an_acronym_read_by_its_initials_never_drops_the_new_memory(cosine: float) -> None:
    # Initials alone do not tell University College London from University College Leeds: the words spelled out
    # supersede the acronym (the new text stays live), and an acronym after the words keeps both.
    spelled = MINILM.decide("ulla works for the World Health Organization", "Ulla works for the WHO", cosine)
    assert spelled.decision == "refinement", spelled.reason
    for old, new in (("Mia studies at University College London", "mia studies at UCL"),
                     ("Percy lives in the United Kingdom", "percy lives in the UK")):
        verdict = MINILM.decide(new, old, cosine)
        assert verdict.decision == "different", verdict.reason


def test_an_acronym_stands_for_its_capitalised_words() -> None:
    assert one_form("ulla works for the World Health Organization", "Ulla works for the WHO")[0] == \
        "ulla works for the WHO"
    assert one_form("ulla works for the Wide Hall Office", "Ulla works for WHO")[0] == "ulla works for the WHO"
    assert one_form("ulla works for the Health Office", "Ulla works for WHO")[0] == \
        "ulla works for the Health Office"  # initials that do not spell it


_EN_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen " \
            "seventeen eighteen nineteen".split()
_EN_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_FR_UNITS = "zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize".split()
_FR_TENS = "_ _ vingt trente quarante cinquante soixante".split()


def _english(n: int) -> str:
    """An independent English spelling of ``n`` (1-999), hyphenated as written."""
    hundreds, rest = divmod(n, 100)
    words = [f"{_EN_UNITS[hundreds]} hundred"] if hundreds else []
    if rest:
        tens, unit = divmod(rest, 10)
        words.append(_EN_UNITS[rest] if rest < 20 else _EN_TENS[tens] + (f"-{_EN_UNITS[unit]}" if unit else ""))
    return " and ".join(words)


def _french(n: int) -> str:
    """An independent French spelling of ``n`` (1-999), in the traditional hyphenation."""
    hundreds, rest = divmod(n, 100)
    words = [("cent" if hundreds == 1 else f"{_FR_UNITS[hundreds]} cent")] if hundreds else []
    if rest:
        if rest < 17:
            words.append(_FR_UNITS[rest])
        elif rest < 20:
            words.append(f"dix-{_FR_UNITS[rest - 10]}")
        else:
            tens, unit = divmod(rest, 10)
            if tens in (7, 9):  # soixante-dix, quatre-vingt-dix
                base, unit = ("soixante" if tens == 7 else "quatre-vingt"), rest - (60 if tens == 7 else 80)
            else:
                base = "quatre-vingt" if tens == 8 else _FR_TENS[tens]
            if unit == 0:
                words.append(base + ("s" if tens == 8 else ""))
            elif unit in (1, 11) and tens not in (8, 9):
                words.append(f"{base} et {_FR_UNITS[unit]}")
            else:
                words.append(f"{base}-{_FR_UNITS[unit] if unit < 17 else 'dix-' + _FR_UNITS[unit - 10]}")
    return " ".join(words)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=13, max_value=999))
def test_every_number_said_in_words_is_its_digits(n: int) -> None:
    """Numbers of two words or more (13-999, where a single word is not already a value), EN and FR."""
    for spelled in (_english(n), _french(n)):
        if " " in spelled or "-" in spelled:
            assert spell_numbers(f"she has {spelled} sheep") == f"she has {n} sheep", spelled


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80), st.text(max_size=80))
def test_form_readers_take_any_text(new: str, old: str) -> None:
    assert isinstance(spell_numbers(new), str)
    assert isinstance(spell_values(new), str)
    assert isinstance(spell_forms(new), str)
    one = one_form(new, old)
    assert isinstance(one, tuple) and len(one) == 2
    assert MINILM.decide(new, old, 0.9).decision in ("duplicate", "refinement", "correction", "different")
