"""A gardening pass racing a write, and restoring a fact that was said again while archived.

The pass's seam is used to force the interleaving: :func:`_garden._plan` decides on what a
scroll read, a write lands, then :func:`_garden._apply` writes the plan. Real engines, the
real offline embedder, a fake clock (``now=``)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from langgraph_memory.store import _garden
from langgraph_memory.store.backends import Where
from langgraph_memory.store.records import namespace_key, utcnow
from langgraph_memory.store.vitality import DecaySettings

pytestmark = pytest.mark.integration

NS = ("memories", "race")
KEY = namespace_key(NS)
DAY = timedelta(days=1)


def live(store) -> set[str]:
    return {p.payload["content"] for p in store.iter_points(namespace=NS, include_superseded=False)}


def planned_pass(store, at):
    """The first half of a pass over NS at ``at``: what it would write and which archives it
    would purge, decided now (nothing here expires)."""
    points, _ = store._backend.scroll(Where(namespace=KEY, status=None), limit=_garden.SCROLL_BATCH)
    tally = _garden._Tally(DecaySettings(), dry_run=False)
    plan, purge, expired = _garden._plan(points, KEY, at.timestamp(), None, tally)
    assert not expired
    return plan, purge


def test_a_memory_superseded_between_plan_and_apply_is_not_archived_and_its_successor_survives_purges(store):
    t0 = utcnow()
    old = store.remember("Mickael s'est cassé l'épaule", namespace=NS).memory
    plan, purge = planned_pass(store, t0 + 45 * DAY)
    assert [p.id for points in plan.values() for p in points] == [old.id] and not purge  # it is due for archive

    new = store.remember("Mickael s'est cassé l'épaule le 10 janvier 2026", namespace=NS)
    assert new.action == "updated" and new.replaced.id == old.id

    _garden._apply(store, KEY, plan)
    [retired, survivor] = store.history(new.memory.id, namespace=NS)
    assert (retired.id, retired.status, retired.superseded_by) == (old.id, "superseded", new.memory.id)
    assert survivor.status == "live"
    # Weeks later, passes archive what is idle and purge old archives: the successor,
    # archived and purged in its own time, never through its predecessor.
    store.garden(now=t0 + 2 * DAY)
    assert live(store) == {"Mickael s'est cassé l'épaule le 10 janvier 2026"}


def stale_archive(store, t0):
    """An archive that a live memory superseded, as a pass that raced a write wrote it before
    passes re-checked (or as another process on a server may still): the plan applied unchecked."""
    old = store.remember("Lucas joue au foot", namespace=NS).memory
    plan, _ = planned_pass(store, t0 + 45 * DAY)
    new = store.remember("Lucas joue au foot le samedi avec ses collègues", namespace=NS).memory
    for payload, points in plan.items():
        store._backend.set_payload([p.id for p in points], dict(payload))
    [stale] = store._backend.retrieve([old.id])
    assert (stale.payload["status"], stale.payload["superseded_by"]) == ("archived", new.id)
    return old, new


def test_a_pass_never_purges_a_live_successor_of_an_archive(store):
    old, new = stale_archive(store, utcnow())
    _garden._purge(store, KEY, [old.id], {})  # a purge of that archive stops at the live successor
    assert store.get(new.id, namespace=NS) is not None
    assert live(store) == {"Lucas joue au foot le samedi avec ses collègues"}


def test_a_pass_repairs_an_archive_that_a_live_memory_superseded(store):
    t0 = utcnow()
    old, new = stale_archive(store, t0)
    report = store.garden(now=t0 + 3 * DAY)
    assert report["archived"] == 0
    assert [(m.id, m.status) for m in store.history(new.id, namespace=NS)] == [(old.id, "superseded"), (new.id, "live")]
    store.garden(now=t0 + 200 * DAY)  # past the stale archive's retention: it is no archive any more
    assert store._backend.retrieve([new.id]) != []


def test_purging_an_archive_takes_its_older_versions_only(store):
    t0 = utcnow()
    v1 = store.remember("Inès habite à Nantes", namespace=NS).memory
    v2 = store.remember("Inès habite à Nantes, quartier Chantenay", namespace=NS).memory
    other = store.remember("Inès a un chat", namespace=NS, importance=0.95).memory  # protected from archiving
    store.garden(now=t0 + 50 * DAY)
    assert [m.status for m in store.history(v2.id, namespace=NS)] == ["superseded", "archived"]
    report = store.garden(now=t0 + 50 * DAY + 91 * DAY)
    assert report["purged"] == 1
    assert store._backend.retrieve([v1.id, v2.id]) == []  # the archive and what it superseded
    assert store.get(other.id, namespace=NS) is not None


def test_restoring_an_archive_said_again_meanwhile_leaves_one_live_version(store):
    t0 = utcnow()
    first = store.remember("Alice takes pottery classes on Tuesdays", namespace=NS).memory
    store.garden(now=t0 + 45 * DAY)
    assert store.get(first.id, namespace=NS) is None
    again = store.remember("Alice takes pottery classes on Tuesdays", namespace=NS)
    assert again.action == "inserted"  # nothing live held it

    held = store.restore(first.id, namespace=NS)
    assert held is not None and held.id == again.memory.id
    assert live(store) == {"Alice takes pottery classes on Tuesdays"}
    history = store.history(again.memory.id, namespace=NS)
    assert [(m.id, m.status) for m in history] == [(first.id, "superseded"), (again.memory.id, "live")]
    assert store.restore(first.id, namespace=NS) is None  # history now, not an archive


def test_restoring_an_archive_richer_than_its_live_version_brings_the_archive_back(store):
    t0 = utcnow()
    rich = store.remember("Alice takes pottery classes on Tuesdays at the community centre", namespace=NS).memory
    store.garden(now=t0 + 45 * DAY)
    short = store.remember("Alice takes pottery classes", namespace=NS)
    assert short.action == "inserted"

    back = store.restore(rich.id, namespace=NS)
    assert back is not None and back.id == rich.id and back.status == "live"
    assert live(store) == {rich.content}
    versions = {m.id: m for m in store.history(short.memory.id, namespace=NS)}
    assert (versions[short.memory.id].status, versions[short.memory.id].superseded_by) == ("superseded", rich.id)


def test_restoring_beside_a_different_fact_keeps_both(store):
    t0 = utcnow()
    pottery = store.remember("Alice takes pottery classes on Tuesdays", namespace=NS).memory
    store.garden(now=t0 + 45 * DAY)
    store.remember("Alice takes yoga classes on Tuesdays", namespace=NS)
    assert store.restore(pottery.id, namespace=NS).id == pottery.id
    assert live(store) == {"Alice takes pottery classes on Tuesdays", "Alice takes yoga classes on Tuesdays"}
