"""Corrections and changed decisions said in conversation (i25-spoken): the closed lexicons of change verbs
(store/_change_verbs.py), the change structure they feed (store/_changes.py), and the hard negatives of each kind at
several cosines. Pairs here are written for the tests, apart from the tuning round and from leave-out set H."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.store._change_verbs import (BACK_EN, RETURN_FR, START_FR, STOP_EN, STOP_FR, SWITCH_EN, SWITCH_FR,
                                                  _en, _fr_er, spoken_cues)
from langgraph_memory.store._dedup import DedupPolicy
from langgraph_memory.store._statements import _parse

MINILM = DedupPolicy.for_embedder("all-MiniLM-L6-v2")
COSINES = (0.5, 0.7, 0.88)  # above the candidate floor, below the duplicate cosine


def merges(new: str, old: str, cosine: float) -> bool:
    return MINILM.decide(new, old, cosine).decision != "different"


# -- the lexicons: every inflection of a verb listed once --------------------------------------------------------------

def test_english_verbs_are_conjugated_whole():
    assert _en("drop") == {"drop", "drops", "dropped", "dropping"}
    assert _en("quit", "quit", double=True) == {"quit", "quits", "quitting"}
    assert _en("give", "gave", "given") == {"give", "gives", "giving", "gave", "given"}
    assert {"scrapped", "cancelled", "transferred", "rewrote", "rewritten"} <= STOP_EN | SWITCH_EN
    assert {"went", "gone", "goes", "switching"} <= BACK_EN


def test_french_verbs_are_conjugated_whole_and_accent_folded():
    assert {"arrete", "arretee", "arretons", "arretait", "arretera", "arreter"} <= _fr_er("arrêter")
    assert {"changeons", "changeait", "change", "changee"} <= _fr_er("changer")
    assert {"resilie", "lache", "troque", "demissionne", "revendu", "plaque"} <= STOP_FR
    assert {"bascule", "migrons", "converti", "reecrit"} <= SWITCH_FR
    assert {"revenu", "revenus", "retournee", "repasse"} <= RETURN_FR
    assert {"mise", "reprend", "commence"} <= START_FR


def test_several_word_time_cues_are_read_as_one_cue():
    assert spoken_cues("from now on the quiz is at 8") == "now the quiz is at 8"
    assert spoken_cues("le quiz est à 20h ces temps-ci") == "le quiz est à 20h maintenant"
    assert spoken_cues("Elle est en couple") == "Elle est attached"
    assert _parse("the quiz is at 8 going forward").update and _parse("le quiz est à 20h de nos jours").update


# -- the kinds, each with its hard negatives ---------------------------------------------------------------------------

KINDS = [
    # a stop verb inflected or with its particle: what it ends, and what came instead (after "for" / "contre")
    ("Ottavio plays badminton", "ottavio packed in badminton last spring",
     ["ottavio packed in his job last spring", "ottavio's wife packed in badminton"]),
    ("Ottavio's wiki is on Confluence", "ottavio swapped confluence out for notion",
     ["ottavio swapped his desk out for a standing one", "ottavio also swapped confluence out for notion at home"]),
    ("Perrine a un voilier", "perrine a troqué son voilier contre un paddle",
     ["perrine a troqué ses skis contre un paddle", "le frère de perrine a troqué son voilier contre un paddle"]),
    # a switch moving an object to its new value, written or said
    ("Decision: the billing service is written in Ruby", "we're porting the billing service to elixir",
     ["we're porting the search service to elixir", "we're porting the billing dashboard to elixir"]),
    ("Décision : l'annuaire est sur OpenLDAP", "on bascule l'annuaire sur keycloak",
     ["on bascule la messagerie sur keycloak", "on bascule aussi l'annuaire de test sur keycloak"]),
    ("The recycling pickup is on Monday", "they moved the recycling pickup to wednesday",
     ["they moved the garden waste pickup to wednesday", "they moved the recycling bins to the back yard"]),
    # going back to an earlier value; going back to a place is a trip
    ("Tamsin uses Vim", "tamsin switched back to emacs",
     ["tamsin went back to Leeds for the weekend", "tamsin's brother switched back to emacs"]),
    ("L'éditeur de Corentin c'est Vim", "corentin est revenu à emacs",
     ["corentin est revenu à Rennes pour Noël", "corentin est revenu à emacs pour le lisp aussi"]),
    # a provider changed by passing to another one ("passer chez")
    ("Notre fournisseur de gaz c'est Engie", "on est passés chez totalenergies pour le gaz",
     ["on est passés chez mamie pour le gaz", "on est passés chez Marc hier soir", "on est passés chez free pour internet"]),
    # a several-word time cue over a value swap
    ("The pub quiz is on Thursdays", "pub quiz is on tuesdays from now on",
     ["the pub lunch is on tuesdays from now on", "the pub quiz is also on tuesdays from now on"]),
    ("Le cours de yoga de Lou est à 18h", "le cours de yoga de lou est à 19h ces temps-ci",
     ["le cours de danse de lou est à 19h ces temps-ci", "le cours de yoga de la sœur de lou est à 19h ces temps-ci"]),
    # spoken French without "ne": "plus" after a verb says no longer; a comparative or another object does not
    ("Capucine bosse chez Fnac", "capucine travaille plus chez fnac, elle est chez darty",
     ["capucine travaille plus le samedi", "le frère de capucine bosse plus chez fnac",
      "capucine bosse plus chez boulanger"]),
    ("On utilise Asana", "on utilise plus asana",
     ["on utilise plus de post-it", "on n'utilise plus trello", "ma sœur utilise plus asana"]),
    # one way of travelling for another after a cue; a thing taken along, another place, a relative, "also" are not
    ("Ravi takes the train to work", "ravi cycles to work these days",
     ["ravi takes his lunch to work these days", "ravi also cycles to work these days", "ravi cycles to the gym these days",
      "ravi's wife cycles to work these days"]),
    ("Zoé va au collège en bus", "zoé va au collège à vélo dorénavant",
     ["zoé va à la piscine à vélo dorénavant", "zoé prend son goûter au collège dorénavant",
      "le frère de zoé va au collège à vélo dorénavant"]),
    # what was so before the statement's "now" has ended; without a "now", or with "also", it has not
    ("Zainab lives in Hull", "zainab used to live in hull, now she's in whitby",
     ["zainab used to live in hull", "zainab's mum used to live in hull, now she's in whitby",
      "zainab used to work in hull, now she works in whitby"]),
    ("Mathéo joue du violon", "avant mathéo jouait du violon, maintenant c'est la batterie",
     ["mathéo jouait du violon avant", "mathéo jouait du violon, maintenant il joue aussi de la batterie",
      "avant le frère de mathéo jouait du violon, maintenant c'est la batterie"]),
    # a couple parting ends the partner; a job lost ends the job
    ("Nadir's girlfriend is Eva", "nadir and eva broke up",
     ["nadir and eva broke up the fight", "nadir's sister and her boyfriend broke up", "nadir and eva split the bill"]),
    ("La copine de Nadir c'est Eva", "nadir a rompu avec eva",
     ["la sœur de nadir a rompu avec son copain", "nadir a rompu avec son club de foot"]),
    ("Nadir works at Tesco", "nadir got laid off from tesco",
     ["nadir's brother got laid off from tesco", "nadir lost his wallet at tesco", "nadir got laid off from asda"]),
    ("Nadir travaille chez Lidl", "nadir s'est fait virer de chez lidl",
     ["le frère de nadir s'est fait virer de chez lidl", "nadir s'est fait virer du club de foot"]),
    # a relationship said in several words
    ("Ysaline est célibataire", "ysaline est en couple depuis le printemps",
     ["la cousine d'ysaline est en couple depuis le printemps"]),
]


@pytest.mark.parametrize("old, new, negatives", KINDS, ids=[k[1][:40] for k in KINDS])
def test_each_spoken_change_replaces_old_and_its_hard_negatives_keep_both(old, new, negatives):
    verdict = MINILM.decide(new, old, 0.6)
    assert verdict.decision == "correction", verdict.reason
    for negative in negatives:
        for cosine in COSINES:
            assert not merges(negative, old, cosine), (negative, cosine, MINILM.decide(negative, old, cosine).reason)


@pytest.mark.parametrize("old, new", [
    ("On utilise Asana", "ma sœur utilise plus asana"), ("On utilise Asana", "ma sœur n'utilise plus Asana"),
    ("We use Asana", "my sister stopped using Asana"), ("I play the oboe", "my son gave up the oboe"),
    ("Je joue du hautbois", "notre fille a laissé tomber le hautbois"),
])
def test_a_relative_leading_the_statement_is_another_person(old, new):
    for cosine in COSINES:
        assert not merges(new, old, cosine), MINILM.decide(new, old, cosine).reason


@pytest.mark.parametrize("old, new", [("I play the oboe", "i gave up the oboe"),
                                      ("Je joue du hautbois", "j'ai laissé tomber le hautbois")])
def test_the_same_person_giving_something_up_still_corrects(old, new):
    assert MINILM.decide(new, old, 0.6).decision == "correction"


def test_a_moved_object_reaches_below_the_candidate_floor_only_when_old_names_it():
    old = "We keep our invoices on Dropbox"
    assert MINILM.decide("we moved the invoices over to backblaze", old, 0.40).decision == "correction"
    assert not merges("we moved the holiday photos over to backblaze", old, 0.40)


@pytest.mark.parametrize("old, new", [
    ("Anton shops at 6", "anton also shops at 6 on saturdays"),
    ("Anton fait ses courses à 18h", "anton fait aussi ses courses à 18h le samedi"),
])
def test_also_beside_old_is_no_refinement(old, new):
    for cosine in COSINES:
        assert not merges(new, old, cosine)


def test_a_switch_to_another_meeting_or_a_relative_change_is_never_a_correction_across_cosines():
    old = "Decision: the mobile app is built with Flutter"
    assert MINILM.decide("we ported the mobile app to swift", old, 0.51).decision == "correction"
    for negative in ("we ported the desktop app to swift", "our agency ported their mobile app to swift",
                     "we also ported the mobile app's widgets to swift"):
        for cosine in COSINES:
            assert not merges(negative, old, cosine), negative


# -- properties: any statement is read, and a change word never makes a fact its own correction ------------------------

WORDS = st.sampled_from("we i on je the la le les des de to over back out in for contre chez sur vers à au went "
                        "switched ported moved bascule passé passés revenu revenue packed swapped troqué dropped "
                        "gave up from now ces temps-ci en couple also aussi Emacs emacs Lyon billing app".split())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(WORDS, max_size=12), cosine=st.floats(0, 1))
def test_any_spoken_statement_is_read_and_is_its_own_duplicate(words, cosine):
    text = " ".join(words)
    parsed = _parse(text)
    assert isinstance(parsed.moved, set) and isinstance(parsed.target, set)
    verdict = MINILM.decide(text, text, cosine)
    assert verdict.decision in ("duplicate", "different")


def test_leave_out_set_h_is_labelled_and_kept_apart_from_tuning():
    try:
        from dedup_leaveout_h_pairs import PAIRS_H
        from dedup_pairs import PAIRS
    except ImportError:  # pragma: no cover
        from tests.dedup_leaveout_h_pairs import PAIRS_H
        from tests.dedup_pairs import PAIRS
    assert len(PAIRS_H) == 48 and len({(p.old, p.new) for p in PAIRS_H}) == 48
    assert sum(p.expected == "correction" for p in PAIRS_H) == 24 and sum(p.lang == "fr" for p in PAIRS_H) == 24
    assert sum(p.conversational for p in PAIRS_H) >= 36
    assert not {t for p in PAIRS for t in (p.old, p.new)} & {t for p in PAIRS_H for t in (p.old, p.new)}
