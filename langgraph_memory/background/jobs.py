"""Bookkeeping of background jobs, kept in the store itself: when each job last ran,
leases (one runner at a time, also across processes sharing a server store), and small
records such as a digest's journal.

They live in the store's ``jobs`` side collection, so they survive restarts and follow the
store (an embedded directory or a server collection), and memory reads never see them.
"""

from __future__ import annotations

import os
import socket
import uuid
from datetime import datetime, timezone
from typing import Any

from langgraph_memory.store.backends import Backend, StoredPoint, Where

__all__ = ["JobState", "new_owner"]

_NS = "__jobs__"
_ID_SPACE = uuid.UUID("6f1c1d1e-3b0a-4c7e-9a51-0d1b2c3e4f50")


def new_owner() -> str:
    """A lease owner id unique to this process and call site."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _id(record: str, key: str) -> str:
    return str(uuid.uuid5(_ID_SPACE, f"{record}:{key}"))


class JobState:
    """Job records of one store.

    Args:
        store: the :class:`~langgraph_memory.MemoryStore` (its ``jobs`` side collection).
    """

    def __init__(self, store: Any) -> None:
        self.backend: Backend = store.side_collection("jobs", keyword_fields=("job", "record", "owner"))

    # -- records ----------------------------------------------------------------------------

    def get(self, record: str, key: str) -> dict[str, Any] | None:
        """The data of record ``record`` for job ``key``, or ``None``."""
        found = self.backend.retrieve([_id(record, key)])
        return dict(found[0].payload.get("data") or {}) if found else None

    def put(self, record: str, key: str, data: dict[str, Any], **fields: Any) -> None:
        """Write (replace) record ``record`` of job ``key``."""
        payload = {"namespace": _NS, "status": "live", "record": record, "job": key, "data": data, **fields}
        self.backend.upsert([StoredPoint(_id(record, key), payload)])

    def delete(self, record: str, key: str) -> None:
        self.backend.delete([_id(record, key)])

    # -- last run ---------------------------------------------------------------------------

    def last_run(self, key: str) -> datetime | None:
        """When job ``key`` last completed, or ``None`` if never."""
        data = self.get("last_run", key)
        return None if not data else datetime.fromtimestamp(data["at"], tz=timezone.utc)

    def set_last_run(self, key: str, at: datetime) -> None:
        self.put("last_run", key, {"at": at.timestamp(), "iso": at.isoformat()})

    # -- leases -----------------------------------------------------------------------------

    def claim(self, key: str, owner: str, *, seconds: float, now: datetime) -> bool:
        """Take the lease of job ``key`` for ``seconds`` if it is free, expired or already
        ``owner``'s; returns whether ``owner`` holds it now.

        The write is conditional in the engine (a compare-and-set), so of two processes
        claiming at once exactly one wins.
        """
        lease_id = _id("lease", key)
        at = now.timestamp()
        payload = {
            "namespace": _NS, "status": "live", "record": "lease", "job": key, "owner": owner,
            "expires_at": at + seconds,
        }
        free = Where(
            status=None,
            any_of=(Where(status=None, expired_at=at), Where(status=None, fields=(("owner", (owner,)),))),
        )
        self.backend.upsert([StoredPoint(lease_id, payload)], only_if=free)
        held = self.backend.retrieve([lease_id])
        return bool(held) and held[0].payload.get("owner") == owner

    def release(self, key: str, owner: str) -> None:
        """Give the lease back, if ``owner`` still holds it."""
        self.backend.delete_where(Where(status=None, ids=(_id("lease", key),), fields=(("owner", (owner,)),)))
