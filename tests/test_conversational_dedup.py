"""Corrections said the way people say them, through the real store and the real offline MiniLM."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration

NS = ("memories", "u-conv")

# Facts closer to "Non en fait David a déménagé à Toulouse" than David's old address is (0.42):
# they fill the five nearest neighbours, so only the subject probe can reach the Ordizan fact.
TOULOUSE_NOISE = [
    "Alice a déménagé à Toulouse",
    "Bruno a déménagé à Toulouse en mars",
    "Claire a déménagé à Toulouse pour son travail",
    "Le frère d'Alice a déménagé à Toulouse",
    "Emma a déménagé à Toulouse l'an dernier",
    "Hugo habite à Toulouse",
]


def live(store) -> set[str]:
    return {p.payload["content"] for p in store.iter_points(namespace=NS, include_superseded=False)}


def test_seed_000_correction_leaves_one_live_memory(store):
    old = store.remember("David habite à Ordizan", namespace=NS)
    new = store.remember("Non en fait David a déménagé à Toulouse", namespace=NS)
    assert (new.action, new.verdict.decision) == ("updated", "correction")
    assert live(store) == {"Non en fait David a déménagé à Toulouse"}
    history = store.history(new.memory.id, namespace=NS)
    assert [m.content for m in history] == ["David habite à Ordizan", "Non en fait David a déménagé à Toulouse"]
    assert (history[0].id, history[0].status) == (old.memory.id, "superseded")


def test_two_true_facts_about_one_person_stay_two(store):
    store.remember("Mickael habite à Paris", namespace=NS)
    son = store.remember("Mickael a un fils", namespace=NS)
    assert son.action == "inserted"
    assert live(store) == {"Mickael habite à Paris", "Mickael a un fils"}


def test_the_probe_reaches_a_fact_outside_the_nearest_neighbours(store):
    old = store.remember("David habite à Ordizan", namespace=NS)
    for text in [*TOULOUSE_NOISE, "David a un chien", "David aime le jazz"]:
        assert store.remember(text, namespace=NS).action == "inserted"
    query = store.embed_query("Non en fait David a déménagé à Toulouse")
    nearest = store.search(query, namespace=NS, limit=5, mode="dense")
    assert old.memory.id not in {h.memory.id for h in nearest}  # the dense query alone would miss it
    new = store.remember("Non en fait David a déménagé à Toulouse", namespace=NS)
    assert new.action == "updated" and new.replaced.id == old.memory.id
    assert "David habite à Ordizan" not in live(store)
    # Nobody else's fact moved, nor David's other facts.
    assert set(TOULOUSE_NOISE) | {"David a un chien", "David aime le jazz"} <= live(store)


def test_a_pronoun_correction_reaches_its_subject_through_the_subjects_tag(store):
    store.remember("Alice lives in Paris", namespace=NS, subjects=["Alice"])
    store.remember("David lives in Ordizan", namespace=NS, subjects=["David"])
    new = store.remember("Actually he moved to Toulouse last month", namespace=NS, subjects=["David"])
    assert (new.action, new.replaced.content) == ("updated", "David lives in Ordizan")
    assert live(store) == {"Alice lives in Paris", "Actually he moved to Toulouse last month"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Karim travaille chez Renault", "Karim a déménagé à Versailles"),
        ("Grace lives in Boston", "Actually Grace has a twin sister"),
        ("Lily is a nurse", "Lily no longer smokes"),
    ],
)
def test_markers_on_another_fact_do_not_merge(store, old, new):
    store.remember(old, namespace=NS)
    assert store.remember(new, namespace=NS).action == "inserted"
    assert live(store) == {old, new}


@pytest.mark.parametrize(
    ("first", "then", "action"),
    [
        ("Lena plays tennis on weekends", "Lena stopped tennis and started padel", "updated"),
        ("Kai's dentist appointment is on Tuesday", "Kai's dentist appointment is on Friday", "updated"),
        ("Le cours de danse de Camille est le jeudi", "Le cours de danse de Camille a été déplacé au vendredi", "updated"),
        ("Ali lives on the third floor", "Ali lives on floor 3", "duplicate"),
        ("Le chat de Lucie s'appelle Minou", "Lucie a un chat nommé Minou", "duplicate"),
        ("Ben swims on Mondays", "Ben swims on Fridays", "inserted"),  # a habit may hold two days
    ],
)
def test_issue_25_kinds_through_the_store(store, first, then, action):
    store.remember(first, namespace=NS)
    result = store.remember(then, namespace=NS)
    assert result.action == action, result.verdict
    assert live(store) == ({first, then} if action == "inserted" else {first} if action == "duplicate" else {then})
