"""Who may see and post in a room: its member list, kept in the store.

A room without a member list is open (every run naming it sees its excerpts, as before
membership existed); a room with one is seen by its members' runs only, and on a server
only its members may post to it (:class:`~langgraph_memory.agent.observer.RoomObserver`).
One record per (namespace, room) in the store's ``room_members`` side collection, so the
list survives restarts and travels with exports.
"""

from __future__ import annotations

import uuid
from typing import Any, Iterable, Sequence

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._labels import identity_fault
from langgraph_memory.store._rooms import MAX_NAME_CHARS, _name, check_room_count, room_name
from langgraph_memory.store._twins import async_twin
from langgraph_memory.store.backends import Backend, StoredPoint, Where
from langgraph_memory.store.records import Namespace, namespace_key, prefix_keys, validate_namespace

__all__ = ["EXPORT_KEY", "MEMBERS_COLLECTION", "MAX_MEMBERS", "RoomMembers", "check_members", "parse_export_line"]

MEMBERS_COLLECTION = "room_members"
MAX_MEMBERS = 10_000
EXPORT_KEY = "room_members"
"""An export line ``{"room_members": {"namespace": [...], "room": ..., "members": [...]}}``."""
_ID_SPACE = uuid.UUID("6f0d3c1e-3a51-4f6e-9a43-2b0d3c7e8a11")


def _record_id(namespace: Namespace, room: str) -> str:
    # The namespace key escapes "/", so no (namespace, room) pair collides with another.
    return str(uuid.uuid5(_ID_SPACE, f"{namespace_key(namespace)}\x00{room}"))


def check_members(users: Any) -> frozenset[str]:
    """A member list: identities as the server authenticates them, compared exactly, so
    checked as identities are (:func:`~langgraph_memory.store._labels.identity_fault`): a
    member an admin could take for another (``alice`` + U+200B, a Hangul filler, ``é`` not
    in NFC, spaces around) is refused, never normalised into someone else."""
    if isinstance(users, (str, bytes)) or not isinstance(users, Iterable):
        raise InvalidMemoryError("users", "expected a list of user identities (or None for an open room)")
    members = []
    for user in users:
        if not isinstance(user, str) or not user.strip():
            raise InvalidMemoryError("users", f"every member must be a non-empty string, got {user!r}"[:200])
        if len(user) > MAX_NAME_CHARS or not user.isprintable():
            raise InvalidMemoryError("users", f"a member is at most {MAX_NAME_CHARS} printable characters")
        fault = identity_fault(user)
        if fault:
            raise InvalidMemoryError("users", f"member {ascii(user[:80])} {fault}")
        members.append(user)
        if len(members) > MAX_MEMBERS:
            raise InvalidMemoryError("users", f"at most {MAX_MEMBERS} members")
    return frozenset(members)


def parse_export_line(obj: Any) -> tuple[Namespace, str, frozenset[str]] | None:
    """A member list line of an export as ``(namespace, room, members)``; ``None`` when
    ``obj`` is another kind of line.

    Raises:
        InvalidMemoryError: a malformed member list line.
    """
    if not isinstance(obj, dict) or EXPORT_KEY not in obj:
        return None
    body = obj[EXPORT_KEY]
    if len(obj) != 1 or not isinstance(body, dict) or set(body) != {"namespace", "room", "members"}:
        raise InvalidMemoryError(EXPORT_KEY, 'expected {"room_members": {"namespace": [...], "room": ..., "members": [...]}}')
    namespace = body["namespace"]
    ns = validate_namespace(tuple(namespace) if isinstance(namespace, list) else namespace)
    return ns, _name("room", body["room"]), check_members(body["members"])  # restores a backup as it was


class RoomMembers:
    """Room membership, mixed into :class:`~langgraph_memory.MemoryStore`."""

    def _members_backend(self) -> Backend:
        return self.side_collection(MEMBERS_COLLECTION, keyword_fields=("room",))  # type: ignore[attr-defined]

    def set_room_members(self, room: str, users: Iterable[str] | None, *, namespace: Namespace) -> None:
        """Make ``users`` the members of ``room`` in ``namespace`` (replacing any list);
        ``None`` reopens the room to everyone. An empty list closes it to all but admins.

        Raises:
            InvalidMemoryError: bad room, namespace or member; nothing was changed.
        """
        ns = validate_namespace(namespace)
        name = room_name("room", room)
        record = _record_id(ns, name)
        if users is None:
            self._members_backend().delete([record])
            return
        members = check_members(users)
        key = namespace_key(ns)
        payload = {"namespace": key, "namespace_parts": list(ns), "status": "live", "ns_prefixes": prefix_keys(key),
                   "room": name, "members": sorted(members)}
        self._members_backend().upsert([StoredPoint(record, payload)])

    def room_members(self, room: str, *, namespace: Namespace) -> frozenset[str] | None:
        """The members of ``room`` in ``namespace``, or ``None`` when the room is open."""
        ns = validate_namespace(namespace)
        found = self._members_backend().retrieve([_record_id(ns, _name("room", room))])
        return frozenset(found[0].payload["members"]) if found else None

    def visible_rooms(self, rooms: Sequence[str], user: str | None, *, namespace: Namespace) -> tuple[str, ...]:
        """The rooms of ``rooms`` a run of ``user`` may see: open rooms, and rooms it is a
        member of (``user=None``, no known user: open rooms only)."""
        ns = validate_namespace(namespace)
        check_room_count(rooms)
        names = [_name("rooms", r) for r in rooms]
        if not names:
            return ()
        found = {p.id: p.payload["members"] for p in self._members_backend().retrieve(
            list(dict.fromkeys(_record_id(ns, n) for n in names)))}
        kept = []
        for name in names:
            members = found.get(_record_id(ns, name))
            if members is None or (user is not None and user in members):
                kept.append(name)
        return tuple(dict.fromkeys(kept))

    def rooms_closed_to(self, user: str | None, *, namespace: Namespace) -> tuple[str, ...]:
        """The rooms of ``namespace`` (exactly) with a member list ``user`` is not on."""
        ns = validate_namespace(namespace)
        if not self.has_closed_rooms(namespace=ns):
            return ()
        return tuple(r["room"] for r in self.member_records(namespace=ns)
                     if tuple(r["namespace"]) == ns and (user is None or user not in r["members"]))

    def has_closed_rooms(self, *, namespace: Namespace) -> bool:
        """Whether any room of ``namespace`` has a member list."""
        ns = validate_namespace(namespace)
        return self._members_backend().count(Where(namespace=namespace_key(ns))) > 0

    def member_records(self, *, namespace: Namespace | None = None) -> list[dict[str, Any]]:
        """Every member list (of ``namespace`` only, if given), for export:
        ``{"namespace": [...], "room": ..., "members": [...]}``."""
        where = Where(namespace_prefix=None if namespace is None else namespace_key(validate_namespace(namespace)))
        backend, records, offset = self._members_backend(), [], None
        while True:
            points, offset = backend.scroll(where, limit=256, offset=offset)
            records += [{"namespace": list(p.payload["namespace_parts"]), "room": p.payload["room"],
                         "members": list(p.payload["members"])} for p in points]
            if offset is None:
                return sorted(records, key=lambda r: (r["namespace"], r["room"]))

    aset_room_members = async_twin(set_room_members)
    aroom_members = async_twin(room_members)
    avisible_rooms = async_twin(visible_rooms)
