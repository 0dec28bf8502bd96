"""The gardener: vitality fades with disuse, use revives it, faded memories are archived
(hidden, restorable) and old archives purged; passes report, never overlap on a namespace.
A fake clock (``now=``) stands in for weeks passing."""

from __future__ import annotations

import io
import json
import logging
from datetime import timedelta

import pytest

from langgraph_memory import MemoryStore
from langgraph_memory.agent.garden_graph import build_garden_graph
from langgraph_memory.agent.injection import select_memories
from langgraph_memory.cli import main as cli
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store import _garden
from langgraph_memory.store.backends import StoredPoint
from langgraph_memory.store.records import Memory, utcnow
from langgraph_memory.store.vitality import DecaySettings, decayed_vitality

NS = ("memories", "alice")
DAY = timedelta(days=1)


def _ids(store, query):
    return {h.memory.id for h in store.search(query, namespace=NS)}


def test_unused_memory_is_archived_hidden_and_restorable(store) -> None:
    t0 = utcnow()
    pottery = store.remember("Alice takes pottery classes on Tuesdays", namespace=NS).memory
    assert pottery.vitality == pytest.approx(0.6)  # starts from its importance

    report = store.garden(now=t0 + 45 * DAY)

    assert report["archived"] == 1 and report["seen"] == 1
    assert report["changes"][0]["id"] == pottery.id
    assert pottery.id not in _ids(store, "pottery classes")
    injected = select_memories(store, namespace=NS, query="pottery classes on Tuesday")
    assert pottery.id not in {c.memory.id for c in injected.chosen}
    assert store.get(pottery.id, namespace=NS) is None
    [archived] = store.history(pottery.id, namespace=NS)
    assert archived.status == "archived" and archived.vitality < 0.12
    assert pottery.id in {p.id for p in store.iter_points(namespace=NS)}  # still exported

    restored = store.restore(pottery.id, namespace=NS)
    assert restored is not None and restored.status == "live" and restored.vitality >= 0.6
    assert pottery.id in _ids(store, "pottery classes")
    assert store.restore(pottery.id, namespace=NS) is None  # live now: nothing to restore


def test_used_memory_and_identity_stay_while_neglected_ones_go(store) -> None:
    t0 = utcnow()
    used = store.remember("Alice is training for the Lyon half marathon", namespace=NS).memory
    idle = store.remember("Alice once mentioned a blue umbrella", namespace=NS).memory
    name = store.remember("Alice's full name is Alice Martin", namespace=NS, memory_type="identity").memory
    vital = store.remember("Alice must take insulin every evening", namespace=NS, importance=0.95).memory
    for day in range(0, 91, 3):
        now = t0 + day * DAY
        store.record_access([used.id], namespace=NS, injected=True, now=now)
        report = store.garden(now=now + DAY)
    live = {m.id: m for m in store.recent(namespace=NS, since=None)}
    assert used.id in live and live[used.id].vitality > 0.6
    assert name.id in live and vital.id in live
    assert live[name.id].vitality >= 0.12 and live[vital.id].vitality >= 0.12
    assert idle.id not in live
    assert report["protected"] == 2 and report["boosted"] == 1


def test_dry_run_changes_nothing_and_prints_what_would_change(store) -> None:
    old = store.remember("Bob lent Alice a ladder", namespace=NS, created_at=utcnow() - 50 * DAY).memory
    fresh = store.remember("Alice adopted a kitten", namespace=NS).memory
    before = {p.id: p.payload for p in store.iter_points()}
    out, err = io.StringIO(), io.StringIO()

    assert cli(["garden", "--dry-run"], store=store, stdout=out, stderr=err) == 0

    text = out.getvalue()
    assert "dry run" in text and "would archive 1" in text and old.id in text and fresh.id not in text
    assert {p.id: p.payload for p in store.iter_points()} == before
    out = io.StringIO()
    assert cli(["garden", "memories/alice", "--json"], store=store, stdout=out, stderr=err) == 0
    assert json.loads(out.getvalue())["archived"] == 1
    out = io.StringIO()
    assert cli(["stats", "--json"], store=store, stdout=out, stderr=err) == 0
    buckets = json.loads(out.getvalue())["vitality"]
    assert sum(buckets.values()) == 1 and buckets["0.6-0.8"] == 1  # the kitten, at 0.6


def test_environment_sets_the_calibration(store, monkeypatch) -> None:
    t0 = utcnow()
    store.remember("Alice visited the Louvre", namespace=NS)
    assert store.garden(now=t0 + 12 * DAY, dry_run=True)["archived"] == 0
    monkeypatch.setenv("MEMORY_DECAY_ARCHIVE_DAYS", "10")
    monkeypatch.setenv("MEMORY_DECAY_STALE_DAYS", "5")
    assert store.garden(now=t0 + 12 * DAY, dry_run=True)["archived"] == 1
    monkeypatch.setenv("MEMORY_DECAY_BASE", "fast")
    with pytest.raises(InvalidMemoryError, match="MEMORY_DECAY_BASE"):
        store.garden(now=t0 + 12 * DAY)
    assert store.count(namespace=NS) == 1


def test_decay_does_not_depend_on_how_often_passes_run() -> None:
    s = DecaySettings()
    day = 86400.0
    once = decayed_vitality(0.8, last_used=0.0, since=0.0, now=30 * day, settings=s)
    v, since = 0.8, 0.0
    for d in range(1, 31):
        v = decayed_vitality(v, last_used=0.0, since=since, now=d * day, settings=s)
        since = d * day
    assert v == pytest.approx(once)
    assert once == pytest.approx(0.8 * 0.97**14 * 0.94**16)


def test_archives_are_purged_after_retention_and_reports_are_logged(store, caplog) -> None:
    t0 = utcnow()
    m = store.remember("Alice's old phone was a Nokia", namespace=NS).memory
    store.garden(now=t0 + 50 * DAY)
    with caplog.at_level(logging.INFO, logger="langgraph_memory"):
        report = store.garden(now=t0 + 50 * DAY + 91 * DAY)
    assert report["purged"] == 1
    assert store.history(m.id, namespace=NS) == []
    logged = [r.getMessage() for r in caplog.records if r.getMessage().startswith("garden pass")]
    assert json.loads(logged[-1].removeprefix("garden pass "))["purged"] == 1


def test_report_has_the_metrics(store) -> None:
    t0 = utcnow()
    for i, text in enumerate(["Alice likes jazz", "Alice plays chess", "Alice speaks Italian"]):
        store.remember(text, namespace=NS, created_at=t0 - (10 * i) * DAY)
    report = store.garden(now=t0)
    assert report["seen"] == 3 and report["decayed"] == 2
    assert set(report["vitality_before"]) == {"mean", "p10", "p50", "p90"}
    assert report["vitality_after"]["mean"] < report["vitality_before"]["mean"]
    assert report["age_days"]["p90"] > 15
    assert sum(report["buckets"].values()) == 3 and report["duration_ms"] >= 0
    json.loads(report.to_json())


def test_passes_never_overlap_on_a_namespace(store) -> None:
    store.remember("Alice likes tea", namespace=NS)
    lock = _garden._local_lock(store, "memories/alice")
    with lock:
        report = store.garden()
    assert report["skipped_busy"] == ["memories/alice"] and report["seen"] == 0


def test_a_lease_held_by_another_process_is_respected(embeddings) -> None:
    # The lease is the server store's: an embedded store is locked to one process.
    from qdrant_client import QdrantClient

    store = MemoryStore(client=QdrantClient(":memory:"), embeddings=embeddings)
    store.remember("Alice likes tea", namespace=NS)
    lease = _garden._Lease(store)
    lease.side.upsert([StoredPoint(lease._id("memories/alice"), {
        "namespace": "memories/alice", "holder": "another-process",
        "lease_until": utcnow().timestamp() + 60})])
    assert store.garden()["skipped_busy"] == ["memories/alice"]
    lease.side.upsert([StoredPoint(lease._id("memories/alice"), {
        "namespace": "memories/alice", "holder": "another-process", "lease_until": 1.0})])
    report = store.garden()
    assert report["seen"] == 1 and lease.read("memories/alice")["holder"] is None
    store.close()


def test_old_records_without_vitality_read_and_garden(store) -> None:
    m = store.remember("Alice grew up in Nantes", namespace=NS, importance=0.7).memory
    payload = dict(store._backend.retrieve([m.id])[0].payload)
    payload.pop("vitality")
    store._backend.set_payload([m.id], {"vitality": None})
    assert Memory.from_payload(m.id, payload).vitality == pytest.approx(0.7)
    assert store.get(m.id, namespace=NS).vitality == pytest.approx(0.7)
    assert store.garden()["seen"] == 1


def test_use_boosts_vitality(store) -> None:
    m = store.remember("Alice drives a red car", namespace=NS).memory
    store.record_access([m.id], namespace=NS, injected=True)
    assert store.get(m.id, namespace=NS).vitality == pytest.approx(0.7)


BAD_CALLS = [
    lambda s: s.garden(now="yesterday"),
    lambda s: s.garden(namespace="alice"),
    lambda s: s.garden(dry_run="yes"),
    lambda s: s.garden(settings=DecaySettings(archive_days=-1)),
    lambda s: s.garden(settings=DecaySettings(buckets=(0.5, 0.2))),
    lambda s: DecaySettings.from_env(unknown=1),
    lambda s: s.restore("not-an-id", namespace=NS),
    lambda s: s.record_access([], namespace=NS, now=3),
]


def test_bad_input_is_a_typed_error_and_stores_nothing(store) -> None:
    store.remember("Alice likes tea", namespace=NS)
    before = {p.id: p.payload for p in store.iter_points()}
    for call in BAD_CALLS:
        with pytest.raises(InvalidMemoryError):
            call(store)
    assert {p.id: p.payload for p in store.iter_points()} == before


def test_garden_graph_runs_a_pass(store) -> None:
    store.remember("Carol met Alice in Lisbon", namespace=NS, created_at=utcnow() - 60 * DAY)
    graph = build_garden_graph(store)
    out = graph.invoke({"namespace": "memories/alice", "dry_run": True})
    assert out["report"]["archived"] == 1 and out["report"]["dry_run"] is True
    with pytest.raises(InvalidMemoryError):
        graph.invoke({"namespace": 42})


def _as_user(identity: str) -> dict:
    # What a LangGraph server with auth puts in every run's configurable (clients cannot).
    return {"configurable": {"langgraph_auth_user_id": identity}}


def test_on_a_server_with_auth_a_user_gardens_only_their_own_memories(store) -> None:
    from langgraph_memory.errors import AccessDeniedError

    store.remember("Carol met Alice in Lisbon", namespace=NS, created_at=utcnow() - 60 * DAY)
    before = {p.id: p.payload for p in store.iter_points()}
    graph = build_garden_graph(store)
    for namespace in ("memories/alice", ["memories", "alice"], None, "agent/agent", "memories"):
        with pytest.raises(AccessDeniedError):
            graph.invoke({"namespace": namespace}, _as_user("bob"))
    assert {p.id: p.payload for p in store.iter_points()} == before
    out = graph.invoke({"namespace": "memories/alice", "dry_run": True}, _as_user("alice"))
    assert out["report"]["archived"] == 1


async def test_the_garden_rule_decides_for_admins_too(store) -> None:
    from langgraph_memory.errors import AccessDeniedError

    store.remember("Alice likes tea", namespace=NS)
    graph = build_garden_graph(store, may_garden=lambda who, ns: who == "ops")
    report = (await graph.ainvoke({"dry_run": True}, _as_user("ops")))["report"]
    assert report["seen"] == 1
    with pytest.raises(AccessDeniedError):
        await graph.ainvoke({"namespace": "memories/alice"}, _as_user("alice"))


async def test_agarden_is_the_async_twin(store) -> None:
    store.remember("Alice likes tea", namespace=NS)
    report = await store.agarden(NS, dry_run=True)
    assert report["seen"] == 1


def test_garden_in_background_runs_on_the_worker(store) -> None:
    from langgraph_memory import garden_in_background

    store.remember("Alice likes tea", namespace=NS)
    reports = []
    assert garden_in_background(store, NS, on_report=reports.append)
    assert store.flush(timeout=60)
    assert reports[0]["seen"] == 1


def test_a_faded_memory_ranks_below_an_equally_relevant_fresh_one(store) -> None:
    t0 = utcnow()
    old = store.remember("Alice's neighbour has a grey cat", namespace=NS, created_at=t0 - 20 * DAY).memory
    new = store.remember("Alice's colleague has a grey cat", namespace=NS).memory
    before = store.search("grey cat", namespace=NS, limit=2)
    store.garden()  # the older one fades: 20 days unused
    after = {h.memory.id: h.score for h in store.search("grey cat", namespace=NS, limit=2)}
    score_before = {h.memory.id: h.score for h in before}
    assert after[new.id] == pytest.approx(score_before[new.id])
    assert score_before[old.id] * 0.9 <= after[old.id] < score_before[old.id]


def test_archived_memories_are_history_in_counts_and_exports_not_base_store_items(make_store, tmp_path) -> None:
    from langgraph_memory.store._transfer import export_jsonl, import_jsonl

    store = make_store()
    pottery = store.remember("Alice takes pottery classes on Tuesdays", namespace=NS).memory
    store.remember("Alice is a nurse", namespace=NS, memory_type="identity")
    store.as_base_store().put(NS, "note", {"text": "an item, not a memory"})
    store.garden(now=utcnow() + 45 * DAY)

    assert store.count(namespace=NS) == 1
    assert store.count(namespace=NS, include_superseded=True) == 2  # the archive, not the item
    path = tmp_path / "export.jsonl"
    with path.open("w", encoding="utf-8") as out:
        summary = export_jsonl(store, out, namespace=NS)
    assert summary.records == 2 and summary.live == 1

    copy = make_store(tmp_path / "copy")
    import_jsonl(copy, path)
    [archived] = copy.history(pottery.id, namespace=NS)
    assert archived.status == "archived" and copy.get(pottery.id, namespace=NS) is None
    assert copy.restore(pottery.id, namespace=NS).status == "live"


def test_stats_and_a_dry_run_put_memories_in_the_same_vitality_buckets(store) -> None:
    store.remember("Bob lent Alice a ladder", namespace=NS, created_at=utcnow() - 20 * DAY)
    store.remember("Alice adopted a kitten", namespace=NS)
    store.remember("Alice's name is Alice Martin", namespace=NS, memory_type="identity")
    outs = []
    for argv in (["stats", "--json"], ["garden", "--dry-run", "--json"]):
        out = io.StringIO()
        assert cli(argv, store=store, stdout=out, stderr=io.StringIO()) == 0
        outs.append(json.loads(out.getvalue()))
    stats, dry_run = outs
    assert stats["vitality"] == dry_run["buckets"]
    assert stats["vitality"]["0.6-0.8"] == 1  # the kitten, stored now at 0.6, in 0.6-0.8 in both
