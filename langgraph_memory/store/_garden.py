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
from datetime import datetime, timezone
from typing import Any, Iterable

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._links import unlink_removed
from langgraph_memory.store._reads import history_chain, points_by_id
from langgraph_memory.store.backends import StoredPoint, Where
from langgraph_memory.store.records import (
    Memory,
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
    if not isinstance(now, datetime):
        raise InvalidMemoryError("now", f"expected a datetime, got {type(now).__name__}")
    return (now if now.tzinfo else now.replace(tzinfo=timezone.utc)).timestamp()


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


def _tend(store: Any, key: str, now: float, last_pass_at: float | None, tally: _Tally) -> None:
    backend = store._backend
    offset = None
    purge: list[str] = []
    expired: dict[str, Any] = {}
    while True:
        started = time.perf_counter()
        points, offset = backend.scroll(Where(namespace=key, status=None), limit=SCROLL_BATCH, offset=offset)
        # Points getting the same update are written together: vitality is rounded to
        # 1e-3 (the write threshold), so a batch needs a few writes, not one per point.
        updates: dict[tuple[tuple[str, Any], ...], list[str]] = {}
        for p in points:
            action = _tend_point(p, key, now, last_pass_at, tally)
            if action is None or tally.dry_run:
                continue
            if action == "purge":
                purge.append(p.id)
            elif action == "expire":
                expired[p.id] = p.payload.get("links") or ()
            else:
                updates.setdefault(tuple(sorted(action.items())), []).append(p.id)
        for payload, ids in updates.items():
            backend.set_payload(ids, dict(payload))
        if offset is None:
            break
        _pace(time.perf_counter() - started, store)
    removed: dict[str, Any] = dict(expired)
    if purge:
        removed.update({m.id: m.links for i in purge for m in history_chain(backend, i, namespace_from_key(key))})
    if removed:
        backend.delete(sorted(removed))
        unlink_removed(backend, removed)


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
    last_used = max(payload.get("last_accessed_at") or 0.0, payload.get("updated_at") or created)
    if last_pass_at is not None and (payload.get("last_accessed_at") or 0.0) > last_pass_at:
        tally.counts["boosted"] += 1
    since = payload.get("vitality_at") or last_used
    after = decayed_vitality(vitality, last_used=last_used, since=since, now=now, settings=settings)
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
    tally.buckets[settings.bucket_of(after)] += 1
    if vitality - after >= WRITE_EPSILON:
        tally.counts["decayed"] += 1
        return {"vitality": round(after, 3), "vitality_at": now}
    return None


def restore(store: Any, memory_id: str, namespace: Namespace, now: datetime | None, settings: DecaySettings) -> Memory | None:
    """Bring an archived or forgotten memory back: live again, as alive as when it was
    first stored (at least the minimum plus one boost), counted as used now. ``None`` when
    ``namespace`` has no such memory, or a forgotten one past ``forgotten_days``."""
    at = check_now(now)
    found = [p for p in points_by_id(store._backend, [memory_id], namespace, live_only=False)
             if p.payload.get("status") in ("archived", "forgotten")]
    if not found:
        return None
    point = found[0]
    was = point.payload["status"]
    if was == "forgotten" and at - (point.payload.get("forgotten_at") or at) >= settings.forgotten_days * DAY:
        return None  # past the window: the next pass purges it
    importance = float(point.payload.get("importance", 0.6))
    vitality = max(importance, min(1.0, settings.min + settings.boost))
    update = {"status": "live", "archived_at": None, "vitality": vitality, "vitality_at": at, "last_accessed_at": at}
    if was == "forgotten":
        update.update(forgotten_at=None, forgotten_reason=None)
    with store._writer.lock(validate_namespace(namespace), "__stats__"):
        store._backend.set_payload([point.id], update)
    logger.info("restored %s memory %s", was, point.id)
    return Memory.from_payload(point.id, {**point.payload, **update})


def vitality_buckets(payloads: Iterable[dict[str, Any]], settings: DecaySettings) -> dict[str, int]:
    """Live memories per vitality bucket, for ``langgraph-memory stats``."""
    counts: Counter[str] = Counter({b: 0 for b in settings.bucket_names()})
    for payload in payloads:
        stored = payload.get("vitality")
        counts[settings.bucket_of(float(payload.get("importance", 0.6)) if stored is None else float(stored))] += 1
    return dict(counts)
