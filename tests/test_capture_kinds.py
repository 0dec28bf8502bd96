"""Issue 25, second round: capture generalises by kinds of phrasing (idioms of taste,
restrictions said as an identity, an availability, a limit or a polite directive, plans
without "I will"), keeps a plan's time relative to the message, and keys tastes and rules
per object. The sentences here are written for the kinds; none comes from an evaluation set."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from langgraph_memory.background._objects import same_thing
from langgraph_memory.background._when import resolve_timeframe, valid_timeframe
from langgraph_memory.background.preferences import PreferenceCapture, rule_classifier

NOW = datetime(2026, 11, 23, 15, tzinfo=timezone.utc)  # a Monday
NS = ("memories", "kinds")


def _type(text: str) -> str:
    return rule_classifier(text, NOW)["type"]


@pytest.mark.parametrize("text, kind", [
    ("I'm totally hooked on crossword puzzles.", "preference"),
    ("Slow waltzes get on my nerves.", "preference"),
    ("Podcasts about economics bore me.", "preference"),
    ("Honestly, nothing beats a hot bath in winter.", "preference"),
    ("Not a big fan of reality shows.", "preference"),
    ("Les embouteillages, ça me saoule.", "preference"),
    ("J'ai un petit faible pour les crêpes au sarrasin.", "preference"),
    ("Je suis fan de cyclisme sur piste.", "preference"),
    ("Rien de tel qu'un bon livre sous la couette.", "preference"),
    ("I'm pescatarian.", "constraint"),
    ("Onions make me sick.", "constraint"),
    ("I'm not available on Friday afternoons.", "constraint"),
    ("Please don't send me anything after 8pm.", "constraint"),
    ("Je suis diabétique.", "constraint"),
    ("Merci de ne jamais me tutoyer.", "constraint"),
    ("Hors de question de prendre l'avion pour moi.", "constraint"),
    ("Deux cafés par jour au maximum.", "constraint"),
    ("I ought to back up my laptop tonight.", "intent"),
    ("Planning to paint the fence next month.", "intent"),
    ("This Thursday I'm seeing the accountant.", "intent"),
    ("Faut que je rappelle le garage demain.", "intent"),
    ("La semaine prochaine, je passe chez le dentiste.", "intent"),
    ("Mon projet, c'est de courir un semi en mai.", "intent"),
])
def test_kinds_of_phrasing_are_captured_with_their_type(text, kind) -> None:
    assert _type(text) == kind


@pytest.mark.parametrize("text", [
    "My cousin is hooked on crossword puzzles.",   # someone else
    "Slow waltzes get on his nerves.",
    "Mon père est diabétique.",
    "Nothing beats her at tennis.",
    "If I had a garden I'd grow tomatoes.",       # a wish
    "Si j'étais riche, je voyagerais tout le temps.",
    "Last Thursday I was seeing the accountant.",  # the past
    "Hier soir on est allés au cinéma.",
    "Are you free on Friday?",                     # a question
    "You must try the new bakery.",
    "The library is off-limits to visitors after six.",
    "It must be nice to live by the sea.",
    "My physio says I should stretch every morning.",  # reported words
    "Il m'a dit qu'il détestait le karaoké.",
    "If it snows on Friday, we'll skip the hike.",     # a plan on a condition
    "Imagine que je parte vivre au Canada.",
    "I used to hate mushrooms.",                       # a taste that was
    "Quand j'étais ado, j'adorais le skate.",
    "Could you tell me what's on at the cinema?",      # a question that is no request
])
def test_other_people_wishes_past_and_questions_are_neutral(text) -> None:
    assert _type(text) == "neutral"


@pytest.mark.parametrize("text, kind", [
    ("Could you avoid scheduling me anything on Fridays?", "constraint"),
    ("Tu peux me rappeler de sortir les poubelles mardi ?", "intent"),
    ("If all goes well, I'm starting the new job in February.", "intent"),
    ("I used to hate mushrooms, now I love them.", "preference"),
])
def test_requests_and_kept_plans_are_captured(text, kind) -> None:
    assert _type(text) == kind


@pytest.mark.parametrize("text, expected", [
    ("Remind me in five days to water the plants", "2026-11-28"),
    ("Dans huit jours je récupère la voiture", "2026-12-01"),
    ("I'll sort the photos within a week", "2026-11-23/2026-11-30"),
    ("I'll pay the rent before the end of the month", "2026-11-23/2026-11-30"),
    ("Je finis le puzzle d'ici la fin de la semaine", "2026-11-23/2026-11-29"),
    ("I'm hosting a dinner on New Year's Eve", "2026-12-31"),
    ("I'll take a break after Christmas", "2026-12-26/.."),
    ("We fly out on the 5th of January", "2027-01-05"),
    ("Le 2 février je commence la formation", "2027-02-02"),
    ("Appointment on the 30th", "2026-11-30"),
    ("I'm off to Rome in early May", "2027-05-01/2027-05-10"),
    ("Je pars fin juillet", "2027-07-21/2027-07-31"),
    ("Once the winter is over I'll repaint the shed", "2027-03-01/.."),
    ("Une fois l'été passé, je reprends le vélo", "2027-09-01/.."),
    ("I'll finish the course before Friday", "2026-11-23/2026-11-26"),
    ("I swim on Mondays", "ongoing"),
    ("Je vais à la piscine le mardi", "ongoing"),
    ("Next week I'm in Brussels", "2026-11-30/2026-12-06"),
    ("Le mois prochain je change de banque", "2026-12-01/2026-12-31"),
    ("Starting March 2nd I'm working from home", "2027-03-02"),
])
def test_timeframes_relative_to_the_message(text, expected) -> None:
    assert resolve_timeframe(text, NOW) == expected


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200), days=st.integers(min_value=-4000, max_value=4000))
def test_any_text_at_any_time_is_a_valid_timeframe(text, days) -> None:
    now = NOW + timedelta(days=days)
    value = resolve_timeframe(text, now)
    assert valid_timeframe(value) == value


@settings(max_examples=200, deadline=None)
@given(a=st.lists(st.text(max_size=20), max_size=3), b=st.lists(st.text(max_size=20), max_size=3), choice=st.booleans())
def test_same_thing_is_symmetric_and_never_raises(a, b, choice) -> None:
    assert same_thing(a, b, choice=choice) == same_thing(b, a, choice=choice)


@pytest.mark.parametrize("first, second, same", [
    ("I like my tea strong", "I don't like strong tea anymore", True),              # word order
    ("Je préfère les trains de nuit", "Maintenant je préfère les trains rapides", True),  # one slot, a choice
    ("I love dark chocolate", "I love milk chocolate", False),                       # two tastes
    ("My favourite sport is rugby", "My favourite sport is now tennis", True),        # one slot
    ("Mon film préféré, c'est Amélie", "Mon livre préféré, c'est Candide", False),  # two slots
    ("Les huîtres, j'ai horreur de ça", "Finalement les huîtres, j'adore", True),     # pronoun object
    ("I avoid sugar", "Actually I love sugar now", True),                       # a rule, then a taste
    ("I'm allergic to shellfish", "I'm intolerant to lactose", False),
])
def test_a_capture_replaces_only_one_about_the_same_thing(store, first, second, same) -> None:
    capture = PreferenceCapture(store)
    a, b = capture.classify([first, second], NOW).captures
    stored = {"type": a.type, "objects": list(a.objects), "key": a.key, "action": a.action}
    assert b.replaces(stored) is same


def test_a_rule_replaces_a_taste_on_the_same_thing_and_distinct_rules_accumulate(store) -> None:
    capture = PreferenceCapture(store)
    for text in ("I love shrimp.", "I'm allergic to shrimp.", "I'm gluten intolerant.", "Pas de réunions le lundi."):
        capture.capture([text], namespace=NS, now=NOW)
    live = [m for m in store.recent(namespace=NS, since=None) if m.source == "preference-capture"]
    texts = sorted(m.metadata["capture"]["text"] for m in live)
    assert texts == ["I'm allergic to shrimp.", "I'm gluten intolerant.", "Pas de réunions le lundi."]
    history = store.history(next(m.id for m in live if "shrimp" in m.content), namespace=NS)
    assert any("I love shrimp." in h.content for h in history)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(st.text(max_size=120), min_size=1, max_size=3))
def test_any_turn_either_stores_captures_or_nothing(store, texts) -> None:
    namespace = ("memories", "prop")
    before = store.count(namespace=namespace)
    result = PreferenceCapture(store).capture(texts, namespace=namespace, now=NOW)
    assert len(result.stored) <= len(result.captures)
    assert store.count(namespace=namespace) <= before + len(result.stored)


@pytest.mark.parametrize("name", ["main", "kinds", "held_out", "probes", "round1", "fresh"])
def test_no_neutral_message_of_a_capture_set_is_captured(name) -> None:
    from benchmarks.preference_eval import classify, load_set

    captured = [row["text"] for row in load_set(name) if row["label"] == "neutral" and classify(row) is not None]
    assert captured == []


def test_the_second_round_data_shares_no_sentence_with_round_one() -> None:
    import json
    from pathlib import Path

    data = Path(__file__).parent / "data"

    def sentences(name: str) -> set[str]:
        rows = [json.loads(line) for line in (data / name).read_text(encoding="utf-8").splitlines() if line.strip()]
        return {row[key] for row in rows for key in ("text", "first", "second") if key in row}

    round_one = sentences("preference_messages_blind.jsonl") | sentences("capture_sequences_blind.jsonl")
    for name in ("preference_messages_probes.jsonl", "preference_messages_fresh.jsonl",
                 "capture_sequences_probes.jsonl", "capture_sequences_fresh.jsonl"):
        assert not sentences(name) & round_one, name
