"""The gardening pass: fade unused memories, archive faded ones, purge old archives and
forgotten memories past their window, remove expired memories from storage, report.

:meth:`MemoryStore.garden` runs it; the math is in :mod:`langgraph_memory.store.vitality`.
A pass works one namespace at a time. Two passes never work on one namespace at once: an
in-process lock, and on a Qdrant server (shared by several processes) a lease record in
the ``gardener`` side collection, which also remembers each namespace's last pass (what
"boosted since the last pass" is measured from). A namespace another pass holds is
skipped and counted, never waited for.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
import uuid
from collections import Counter
from datetime import datetime
from typing import Any, Iterable

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import check_datetime
from langgraph_memory.store._links import unlink_removed
from langgraph_memory.store._reads import points_by_id
from langgraph_memory.store.backends import StoredPoint, Where
from langgraph_memory.store.records import (
    Namespace,
    namespace_from_key,
    namespace_key,
    utcnow,
    validate_namespace,
)
from langgraph_memory.store.vitality import DAY, DecaySettings, decayed_vitality, is_protected

logger = logging.getLogger("langgraph_memory")

WRITE_EPSILON = 1e-3
"""A vitality that moved less than this is not rewritten: the next pass decays from the
stored value's own time (``vitality_at``), so nothing is lost by skipping the write."""
LEASE_SECONDS = 600.0
"""A lease older than this is taken over: its holder died mid-pass."""
MAX_LISTED = 1000
"""At most this many archive / purge changes are listed in a report."""
SCROLL_BATCH = 64
MAX_YIELD = 0.5
"""The longest a pass waits for turns in flight before its next batch."""
PACE = 3.0
"""A pass rests this many times as long as each batch took (it runs at most a quarter of
the time): in-process passes compete with turns for the interpreter. ``benchmarks/garden_bench.py``
measures the pre-hook while a pass runs."""
_LEASE_NAMESPACE = uuid.UUID("5b1f0d52-3c4e-4a57-9a51-7c1f3e0f6a10")

_LOCKS: dict[tuple[int, str], threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()
_HOLDER = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"


class GardenReport(dict):
    """What a pass did, as a JSON-ready dict: ``seen``, ``decayed``, ``boosted``,
    ``archived``, ``purged`` (archives and forgotten memories past their retention),
    ``expired`` (expired memories removed from storage), ``protected``, ``vitality_before`` / ``vitality_after`` and
    ``age_days`` (``mean``, ``p10``, ``p50``, ``p90``), ``buckets`` (live memories per
    vitality bucket after the pass), ``namespaces``, ``skipped_busy``, ``duration_ms``,
    ``dry_run`` and ``changes`` (the archives, purges and expiries, at most 1000 listed)."""

    def to_json(self) -> str:
        return json.dumps(self, sort_keys=True)


def _summary(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"mean": None, "p10": None, "p50": None, "p90": None}
    import numpy as np  # on a pass only: the CLI's reads start without it

    arr = np.asarray(values, dtype=np.float64)
    p10, p50, p90 = np.percentile(arr, [10, 50, 90]).tolist()
    return {"mean": round(float(arr.mean()), 4), "p10": round(p10, 4), "p50": round(p50, 4), "p90": round(p90, 4)}


def check_now(now: Any) -> float:
    if now is None:
        return utcnow().timestamp()
    # Within the storable range: an access or a pass stores it (``vitality_at``), and a
    # time past TIME_MAX there would keep a memory from ever fading.
    return check_datetime("now", now).timestamp()


def _local_lock(store: Any, key: str) -> threading.Lock:
    with _LOCKS_GUARD:
        return _LOCKS.setdefault((id(store), key), threading.Lock())


class _LocalRecords:
    """Namespace records for an embedded store: its directory is locked to one process, so
    the in-process lock is the whole exclusion and records live in memory (the first pass
    after a restart counts no boosts)."""

    def __init__(self, store: Any) -> None:
        self.records: dict[str, dict[str, Any]] = store.__dict__.setdefault("_garden_records", {})

    def read(self, key: str) -> dict[str, Any]:
        return dict(self.records.get(key) or {"namespace": key})

    def acquire(self, key: str) -> dict[str, Any] | None:
        return self.read(key)

    def release(self, key: str, record: dict[str, Any], last_pass_at: float | None) -> None:
        self.records[key] = {**record, "last_pass_at": last_pass_at}


class _Lease:
    """The cross-process half of the per-namespace exclusion on a Qdrant server, kept in
    the ``gardener`` side collection; records there outlive the process."""

    def __init__(self, store: Any) -> None:
        self.side = store.side_collection("gardener", keyword_fields=("namespace",))

    @staticmethod
    def _id(key: str) -> str:
        return str(uuid.uuid5(_LEASE_NAMESPACE, key))

    def read(self, key: str) -> dict[str, Any]:
        found = self.side.retrieve([self._id(key)])
        return dict(found[0].payload) if found else {"namespace": key}

    def acquire(self, key: str) -> dict[str, Any] | None:
        """The namespace's record, now held by this process; ``None`` if another holds it."""
        record = self.read(key)
        wall = time.time()
        if record.get("holder") not in (None, _HOLDER) and (record.get("lease_until") or 0) > wall:
            return None
        record.update(holder=_HOLDER, lease_until=wall + LEASE_SECONDS)
        self.side.upsert([StoredPoint(self._id(key), record)])
        # Last writer wins on a server: read back, and back off if another process won.
        if self.read(key).get("holder") != _HOLDER:
            return None
        return record

    def release(self, key: str, record: dict[str, Any], last_pass_at: float | None) -> None:
        record = {**record, "holder": None, "lease_until": None}
        if last_pass_at is not None:
            record["last_pass_at"] = last_pass_at
        self.side.upsert([StoredPoint(self._id(key), record)])


class _Tally:
    def __init__(self, settings: DecaySettings, dry_run: bool) -> None:
        self.settings = settings
        self.counts: Counter[str] = Counter()
        self.before: list[float] = []
        self.after: list[float] = []
        self.ages: list[float] = []
        self.buckets: Counter[str] = Counter({b: 0 for b in settings.bucket_names()})
        self.changes: list[dict[str, Any]] = []
        self.namespaces = 0
        self.skipped: list[str] = []
        self.dry_run = dry_run

    def note(self, action: str, point_id: str, key: str, before: float, after: float | None) -> None:
        self.counts[action] += 1
        if len(self.changes) < MAX_LISTED:
            self.changes.append({"action": action, "id": point_id, "namespace": key,
                                 "vitality_before": round(before, 4),
                                 "vitality_after": None if after is None else round(after, 4)})

    def report(self, started: float) -> GardenReport:
        return GardenReport(
            seen=self.counts["seen"], decayed=self.counts["decayed"], boosted=self.counts["boosted"],
            archived=self.counts["archive"], purged=self.counts["purge"], protected=self.counts["protected"],
            expired=self.counts["expire"],
            vitality_before=_summary(self.before), vitality_after=_summary(self.after),
            age_days=_summary(self.ages), buckets=dict(self.buckets), namespaces=self.namespaces,
            skipped_busy=self.skipped, dry_run=self.dry_run, changes=self.changes,
            duration_ms=round(1000 * (time.perf_counter() - started), 1),
        )


def _namespaces(store: Any, prefix: str | None) -> list[str]:
    keys: set[str] = set()
    offset = None
    while True:
        started = time.perf_counter()
        points, offset = store._backend.scroll(
            Where(namespace_prefix=prefix, status=None), limit=4 * SCROLL_BATCH, offset=offset)
        keys.update(p.payload.get("namespace", "") for p in points)
        if offset is None:
            return sorted(k for k in keys if k)
        _pace(time.perf_counter() - started, store)


def garden(
    store: Any, namespace: Namespace | None, now: datetime | None, dry_run: bool, settings: DecaySettings,
) -> GardenReport:
    """One pass over ``namespace`` and the namespaces under it, or the whole store."""
    if not isinstance(dry_run, bool):
        raise InvalidMemoryError("dry_run", "must be a boolean")
    if not isinstance(settings, DecaySettings):
        raise InvalidMemoryError("settings", "expected DecaySettings")
    prefix = None if namespace is None else namespace_key(validate_namespace(namespace))
    at = check_now(now)
    started = time.perf_counter()
    tally = _Tally(settings, dry_run)
    lease: _Lease | _LocalRecords = _LocalRecords(store) if store.backend_name == "edge" else _Lease(store)
    for key in _namespaces(store, prefix):
        lock = _local_lock(store, key)
        if not lock.acquire(blocking=False):
            tally.skipped.append(key)
            continue
        try:
            record = lease.acquire(key) if not dry_run else lease.read(key)
            if record is None:
                tally.skipped.append(key)
                continue
            try:
                # record_access takes this lock too: a boost is never overwritten by a pass.
                with store._writer.lock(namespace_from_key(key), "__stats__"):
                    _tend(store, key, at, record.get("last_pass_at"), tally)
            finally:
                if not dry_run:
                    lease.release(key, record, at)
            tally.namespaces += 1
        finally:
            lock.release()
    report = tally.report(started)
    logger.info("garden pass %s", json.dumps({k: v for k, v in report.items() if k != "changes"}, sort_keys=True))
    return report


Plan = dict[tuple[tuple[str, Any], ...], list[StoredPoint]]
"""A batch's payload updates: points getting the same update are written together
(vitality is rounded to 1e-3, the write threshold, so a batch needs a few writes)."""


def _tend(store: Any, key: str, now: float, last_pass_at: float | None, tally: _Tally) -> None:
    backend = store._backend
    offset = None
    purge: list[str] = []
    expired: dict[str, Any] = {}
    while True:
        started = time.perf_counter()
        points, offset = backend.scroll(Where(namespace=key, status=None), limit=SCROLL_BATCH, offset=offset)
        plan, purged, gone = _plan(points, key, now, last_pass_at, tally)
        purge += purged
        expired.update(gone)
        _apply(store, key, plan)
        if offset is None:
            break
        _pace(time.perf_counter() - started, store)
    _purge(store, key, purge, expired)


def _plan(
    points: list[StoredPoint], key: str, now: float, last_pass_at: float | None, tally: _Tally
) -> tuple[Plan, list[str], dict[str, Any]]:
    """What to write on a scrolled batch (nothing on a dry run), which archives and
    forgotten memories to purge, and which expired memories to remove (with their links)."""
    plan: Plan = {}
    purge: list[str] = []
    expired: dict[str, Any] = {}
    for p in points:
        action = _tend_point(p, key, now, last_pass_at, tally)
        if action is None or tally.dry_run:
            continue
        if action == "purge":
            purge.append(p.id)
        elif action == "expire":
            expired[p.id] = p.payload.get("links") or ()
        else:
            plan.setdefault(tuple(sorted(action.items())), []).append(p)
    return plan, purge, expired


def _apply(store: Any, key: str, plan: Plan) -> None:
    """Write a batch's plan. Archiving is decided on what the scroll read, and a memory may
    have been superseded since (a refinement stored meanwhile): archiving it then would
    leave an archive pointing at its live successor. So, holding the namespace's write
    locks, the points to archive are read again and only those still live, unchanged, are
    archived. (Another process on a server can still interleave; :func:`_purge` and the
    repair in :func:`_tend_point` cover that.)"""
    backend = store._backend
    namespace = namespace_from_key(key)
    archiving = [p for payload, points in plan.items() if dict(payload).get("status") == "archived" for p in points]
    kinds = sorted({str(p.payload.get("kind", "fact")) for p in archiving})
    locks = [store._writer.lock(namespace, kind) for kind in kinds]
    for lock in locks:
        lock.acquire()
    try:
        current = {p.id: p.payload for p in backend.retrieve([p.id for p in archiving])} if archiving else {}
        for payload, points in plan.items():
            ids = [p.id for p in points if p.id not in current or _unchanged(p.payload, current[p.id])]
            if dict(payload).get("status") == "archived":
                ids = [i for i in ids if i in current]  # deleted meanwhile: nothing to archive
            if ids:
                backend.set_payload(ids, dict(payload))
    finally:
        for lock in reversed(locks):
            lock.release()


def _unchanged(read: dict[str, Any], now: dict[str, Any]) -> bool:
    return all(read.get(f) == now.get(f) for f in ("status", "superseded_by", "updated_at", "content"))


def _purge(store: Any, key: str, purge: list[str], expired: dict[str, Any]) -> None:
    """Delete archives and forgotten memories past retention with the older versions they
    superseded, and expired memories; then drop the links other memories held to them.
    Only what is behind an archive goes: a newer version (``superseded_by``) is another
    memory's business, and nothing live is ever purged."""
    backend = store._backend
    doomed: dict[str, Any] = dict(expired)  # id -> its links, to unlink the peers
    frontier = list(purge)
    while frontier:
        points = points_by_id(backend, [i for i in frontier if i not in doomed], namespace_from_key(key), live_only=False)
        frontier = []
        for p in points:
            status = p.payload.get("status")
            if status == "live" or (p.id in purge and status not in ("archived", "forgotten")):
                continue  # live, or restored / superseded since the scroll: not ours to purge
            doomed[p.id] = p.payload.get("links") or ()
            frontier.extend(i for i in p.payload.get("supersedes") or () if i not in doomed)
    if doomed:
        backend.delete(sorted(doomed))
        unlink_removed(backend, doomed)


def _pace(worked: float, store: Any = None) -> None:
    """Rest :data:`PACE` times as long as the last batch took, and while a turn's
    pre-hook is running (up to :data:`MAX_YIELD` at a time): a pass shares the
    interpreter with the turns of the process, and gives way to them."""
    time.sleep(worked * PACE)
    deadline = time.perf_counter() + MAX_YIELD
    while store is not None and store.__dict__.get("_turns_in_flight") and time.perf_counter() < deadline:
        time.sleep(0.001)


class turn_in_flight:
    """Marks a turn's reads on ``store`` (the pre-hook wraps its selection in it): a
    gardening pass waits between batches while one runs. Cheap: two integer updates."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def __enter__(self) -> None:
        with _LOCKS_GUARD:
            self.store.__dict__["_turns_in_flight"] = self.store.__dict__.get("_turns_in_flight", 0) + 1

    def __exit__(self, *exc: object) -> None:
        with _LOCKS_GUARD:
            self.store.__dict__["_turns_in_flight"] -= 1


def _tend_point(
    p: StoredPoint, key: str, now: float, last_pass_at: float | None, tally: _Tally
) -> dict[str, Any] | str | None:
    """What to write on one point: a payload update, ``"purge"``, or ``None``."""
    settings = tally.settings
    payload = p.payload
    status = payload.get("status", "live")
    importance = float(payload.get("importance", 0.6))
    stored = payload.get("vitality")
    vitality = importance if stored is None else float(stored)
    if status == "archived" and payload.get("superseded_by"):
        # Archived after a newer version superseded it (a pass that raced a write, before
        # passes re-checked): it is history of that version, not an archive of its own.
        tally.counts["repaired"] += 1
        return {"status": "superseded", "archived_at": None}
    if status == "archived":
        archived_at = payload.get("archived_at") or now
        if now - archived_at >= settings.retention_days * DAY:
            tally.note("purge", p.id, key, vitality, None)
            return "purge"
        return None
    if status == "forgotten":
        if now - (payload.get("forgotten_at") or now) >= settings.forgotten_days * DAY:
            tally.note("purge", p.id, key, vitality, None)
            return "purge"
        return None
    expires = payload.get("expires_at")
    if expires is not None and expires <= now and status in ("live", "superseded"):
        # Reads hide it already; the pass removes it from storage (seed 000's cron).
        tally.note("expire", p.id, key, vitality, None)
        return "expire"
    if status != "live":
        return None  # history
    tally.counts["seen"] += 1
    created = payload.get("created_at") or now
    after, last_used = _vitality_now(payload, vitality, now, settings)
    if last_pass_at is not None and (payload.get("last_accessed_at") or 0.0) > last_pass_at:
        tally.counts["boosted"] += 1
    idle_days = max(0.0, now - last_used) / DAY
    tally.ages.append(max(0.0, now - created) / DAY)
    tally.before.append(vitality)
    if is_protected(payload.get("memory_type", "fact"), importance, settings):
        if after < settings.min or idle_days >= settings.archive_days:
            tally.counts["protected"] += 1
        after = max(after, min(settings.min, vitality))
    elif after < settings.min or idle_days >= settings.archive_days:
        tally.after.append(after)
        tally.note("archive", p.id, key, vitality, after)
        return {"status": "archived", "archived_at": now, "vitality": round(after, 3), "vitality_at": now}
    tally.after.append(after)
    tally.buckets[settings.bucket_of(round(after, 3))] += 1  # the value a pass writes
    if vitality - after >= WRITE_EPSILON:
        tally.counts["decayed"] += 1
        return {"vitality": round(after, 3), "vitality_at": now}
    return None


def _vitality_now(payload: dict[str, Any], vitality: float, now: float, settings: DecaySettings) -> tuple[float, float]:
    """``(vitality decayed to now, when the memory was last used)``: what a pass would write."""
    created = payload.get("created_at") or now
    last_used = max(payload.get("last_accessed_at") or 0.0, payload.get("updated_at") or created)
    since = payload.get("vitality_at") or last_used
    return decayed_vitality(vitality, last_used=last_used, since=since, now=now, settings=settings), last_used


def vitality_buckets(payloads: Iterable[dict[str, Any]], settings: DecaySettings, now: float | None = None) -> dict[str, int]:
    """Live memories per vitality bucket as of ``now`` (default: now), for ``langgraph-memory
    stats``: decayed to now as a gardening pass (and ``garden --dry-run``) counts them, so the
    two commands agree."""
    at = time.time() if now is None else now
    counts: Counter[str] = Counter({b: 0 for b in settings.bucket_names()})
    for payload in payloads:
        stored = payload.get("vitality")
        vitality = float(payload.get("importance", 0.6)) if stored is None else float(stored)
        counts[settings.bucket_of(round(_vitality_now(payload, vitality, at, settings)[0], 3))] += 1
    return dict(counts)
