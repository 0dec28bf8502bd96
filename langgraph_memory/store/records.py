"""Memory records: what a memory is, its vocabularies and the validation of its fields.

This module knows nothing about Qdrant or LangGraph. It turns user input into a validated
:class:`Memory` and back from the flat payload the backends store.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal, Mapping, Sequence, Union

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import (
    MAX_NAMESPACE_PART_CHARS,
    MAX_SOURCE_CHARS,
    check_datetime,
    check_metadata,
    check_number,
    check_text,
    engine_copy,
    engine_exact,
    stored_object,
    stored_time,
)
from langgraph_memory.store._durations import parse_since, parse_ttl, utcnow
from langgraph_memory.store._namespaces import (
    Namespace, namespace_from_key, namespace_key, prefix_keys, validate_namespace,
)
from langgraph_memory.store._lines import identifier_fault

__all__ = [
    "Memory",
    "MemoryKind",
    "MemoryType",
    "Namespace",
    "DEFAULT_IMPORTANCE",
    "KIND_CATEGORIES",
    "MAX_CONTENT_CHARS",
    "parse_ttl",
    "parse_since",
]

MemoryKind = Literal["fact", "self", "goal"]
"""``fact``: about the world and its people; ``self``: the agent about itself;
``goal``: what the agent wants."""

MemoryType = Literal[
    "identity", "goal", "decision", "todo", "preference", "fact", "event", "observation"
]

DEFAULT_IMPORTANCE: dict[str, float] = {
    "identity": 1.0,
    "goal": 0.9,
    "decision": 0.8,
    "todo": 0.8,
    "preference": 0.7,
    "fact": 0.6,
    "event": 0.4,
    "observation": 0.3,
}

KIND_CATEGORIES: dict[str, frozenset[str]] = {
    "fact": frozenset(),
    "self": frozenset({"context", "capability", "limitation", "preference", "relation"}),
    "goal": frozenset({"capability_request", "understanding", "connection"}),
}

KIND_DEFAULT_TYPE: dict[str, str] = {"fact": "fact", "self": "fact", "goal": "goal"}

MAX_CONTENT_CHARS = 4000
"""A memory is one fact, not a transcript: longer content is rejected."""

MAX_SUBJECTS = 20
MAX_SUBJECT_CHARS = 64



def validate_content(content: Any) -> str:
    # Surrounding whitespace does not count against the limit.
    text = content.strip() if isinstance(content, str) else content
    return check_text("content", text, MAX_CONTENT_CHARS)


def validate_kind(kind: Any) -> str:
    if not isinstance(kind, str) or kind not in KIND_CATEGORIES:
        raise InvalidMemoryError(
            "kind", f"unknown kind {kind!r}; expected one of {sorted(KIND_CATEGORIES)}"
        )
    return kind


def validate_memory_type(memory_type: Any) -> str:
    if not isinstance(memory_type, str) or memory_type not in DEFAULT_IMPORTANCE:
        raise InvalidMemoryError(
            "memory_type",
            f"unknown memory type {memory_type!r}; expected one of {list(DEFAULT_IMPORTANCE)}",
        )
    return memory_type


def validate_category(kind: str, category: Any) -> str | None:
    allowed = KIND_CATEGORIES[kind]
    if category is None:
        return None
    if not allowed:
        raise InvalidMemoryError("category", f"{kind} memories take no category")
    if not isinstance(category, str) or category not in allowed:
        raise InvalidMemoryError(
            "category", f"unknown {kind} category {category!r}; expected one of {sorted(allowed)}"
        )
    return category


def validate_subjects(subjects: Any) -> tuple[str, ...]:
    """Subjects are flat lowercase tags (``["mickael", "ski"]``), not a hierarchy."""
    if subjects is None:
        return ()
    if isinstance(subjects, str) or not isinstance(subjects, Sequence):
        raise InvalidMemoryError("subjects", "expected a list of strings")
    seen: dict[str, None] = {}
    for subject in subjects:
        if not isinstance(subject, str) or not subject.strip():
            raise InvalidMemoryError("subjects", f"every subject must be a non-empty string, got {subject!r}"[:200])
        tag = " ".join(check_text("subjects", subject, 4 * MAX_SUBJECT_CHARS).lower().split())
        if len(tag) > MAX_SUBJECT_CHARS:
            raise InvalidMemoryError("subjects", f"{tag!r} is longer than {MAX_SUBJECT_CHARS} characters")
        seen[tag] = None
        if len(seen) > MAX_SUBJECTS:
            break
    if len(seen) > MAX_SUBJECTS:
        raise InvalidMemoryError("subjects", f"at most {MAX_SUBJECTS} subjects")
    return tuple(seen)


IMPORTANCE_DECIMALS = 15
"""Importances are kept to this many decimals. Qdrant Edge reads a payload float back by
a JSON parse that is not correctly rounded for 16-17 significant digits (1 - 2**-53 comes
back as 1.0) while its float index keeps the value given, so the two disagreed on order
and on ``min_importance``. A number of at most 15 decimals has an integer significand
below 2**53 and a power of ten below 10**22: parsed exactly. Values of 15 decimals or
fewer (0.7, 0.125) are unchanged; others move by at most 5e-16."""


def validate_importance(importance: Any, memory_type: str) -> float:
    if importance is None:
        return DEFAULT_IMPORTANCE[memory_type]
    return round(check_number("importance", importance, low=0.0, high=1.0), IMPORTANCE_DECIMALS)


def _ts(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def _dt(value: float | None) -> datetime | None:
    return stored_time(value)


@dataclass(frozen=True)
class Memory:
    """One remembered fact, as stored and returned by :class:`~langgraph_memory.MemoryStore`."""

    id: str
    """UUID string; stable for the memory's life, shown to the model so it can delete."""
    content: str
    """The fact in plain text, one statement."""
    namespace: Namespace
    """Whose memory this is, e.g. ``("memories", "alice")``; comes from the runtime."""
    kind: str = "fact"
    """``fact`` (the world and its people), ``self`` (the agent) or ``goal``."""
    memory_type: str = "fact"
    """One of the 8 types; sets the default importance."""
    category: str | None = None
    """For ``self`` and ``goal`` memories: one of :data:`KIND_CATEGORIES`."""
    subjects: tuple[str, ...] = ()
    """Flat lowercase tags, e.g. ``("mickael", "ski")``."""
    importance: float = 0.6
    """0..1; identity 1.0 down to observation 0.3 unless given."""
    created_at: datetime = field(default_factory=utcnow)
    """When the fact was first learned; kept across refinements of the same fact."""
    updated_at: datetime = field(default_factory=utcnow)
    """Last time the fact changed (a refinement or correction sets it)."""
    last_accessed_at: datetime | None = None
    """Last time the memory was injected or returned by a tool."""
    access_count: int = 0
    """How many times it was returned by a search tool or injected."""
    injection_count: int = 0
    """How many turns it was injected into by the pre-hook."""
    expires_at: datetime | None = None
    """``None``: permanent. An expired memory is never returned."""
    source: str = "conversation"
    """Where it came from: conversation, chat, note, digest, import, ..."""
    status: Literal["live", "superseded", "archived", "forgotten"] = "live"
    """``superseded`` memories are only reachable through ``history``; ``archived`` ones
    (faded by the gardener) and ``forgotten`` ones (deleted, within the retention window)
    through ``history``, exports and ``restore``."""
    supersedes: tuple[str, ...] = ()
    """Ids of the memories this one replaced (refinement or correction)."""
    superseded_by: str | None = None
    """Id of the memory that replaced this one."""
    metadata: Mapping[str, Any] = field(default_factory=dict)
    """Free JSON-serialisable data from the app, e.g. provenance."""
    links: tuple[Mapping[str, Any], ...] = ()
    """Typed links to other memories of the namespace, as stored: ``{"relation", "target"}``
    (this memory links to another) or ``{"relation", "source"}`` (another links to it), with
    ``at`` (epoch seconds). Read them as :class:`~langgraph_memory.Link` with
    :meth:`MemoryStore.links <langgraph_memory.MemoryStore.links>`."""
    channel: str | None = None
    """The channel (conversation room, chat) the memory was learned in, from the runtime's
    ``channel_id``; ``None``: not tied to a channel."""
    forgotten_at: datetime | None = None
    """When it was deleted (soft); restorable until the retention window ends."""
    forgotten_reason: str | None = None
    """Why it was deleted, as given to ``delete``."""
    vitality: float | None = None
    """0..1, how alive the memory is: starts at its importance, fades while unused and is
    boosted when injected or returned by a tool (:mod:`langgraph_memory.store.vitality`).
    ``None`` when built means "its importance", so it is always a number once built."""

    def __post_init__(self) -> None:
        if self.vitality is None:
            object.__setattr__(self, "vitality", self.importance)

    def is_expired(self, now: datetime | None = None) -> bool:
        return self.expires_at is not None and self.expires_at <= (now or utcnow())

    def to_payload(self) -> dict[str, Any]:
        """The flat payload stored in Qdrant; times are epoch seconds for range filters."""
        key = namespace_key(self.namespace)
        payload = {
            "content": self.content,
            "namespace": key,
            # Every ancestor key, so erasing ("memories", "alice") also erases
            # ("memories", "alice", "agent-1").
            "ns_prefixes": prefix_keys(key),
            "kind": self.kind,
            "memory_type": self.memory_type,
            "category": self.category,
            "subjects": list(self.subjects),
            "importance": self.importance,
            "created_at": _ts(self.created_at),
            "updated_at": _ts(self.updated_at),
            "last_accessed_at": _ts(self.last_accessed_at),
            "access_count": self.access_count,
            "injection_count": self.injection_count,
            "expires_at": _ts(self.expires_at),
            "source": self.source,
            "status": self.status,
            "supersedes": list(self.supersedes),
            "superseded_by": self.superseded_by,
            "metadata": dict(self.metadata),
            "vitality": self.vitality,
        }
        # Written only when set: most memories have none, and payload size is read cost.
        optional = {
            "links": [dict(link) for link in self.links] or None,
            "channel": self.channel,
            "forgotten_at": _ts(self.forgotten_at),
            "forgotten_reason": self.forgotten_reason,
        }
        payload.update((k, v) for k, v in optional.items() if v is not None)
        # The exact copy only where the engine would not give the metadata back (one walk).
        payload.update((k, v) for k, v in metadata_fields(self.metadata).items() if v is not None)
        return payload

    @classmethod
    def from_payload(cls, id: Any, payload: Mapping[str, Any]) -> "Memory":
        return cls(
            id=str(id),
            content=payload["content"],
            namespace=namespace_from_key(payload["namespace"]),
            kind=payload.get("kind", "fact"),
            memory_type=payload.get("memory_type", "fact"),
            category=payload.get("category"),
            subjects=tuple(payload.get("subjects") or ()),
            importance=float(payload.get("importance", 0.6)),
            created_at=_dt(payload["created_at"]),  # type: ignore[arg-type]
            updated_at=_dt(payload["updated_at"]),  # type: ignore[arg-type]
            expires_at=stored_time(payload.get("expires_at"), expiry=True),
            source=payload.get("source", "conversation"),
            status=payload.get("status", "live"),
            supersedes=tuple(payload.get("supersedes") or ()),
            superseded_by=payload.get("superseded_by"),
            metadata=_metadata(payload),
            **bookkeeping_fields(payload),
            links=tuple(dict(link) for link in payload.get("links") or ()),
            channel=payload.get("channel"),
            forgotten_at=_dt(payload.get("forgotten_at")),
            forgotten_reason=payload.get("forgotten_reason"),
        )

    def evolve(self, **changes: Any) -> "Memory":
        return replace(self, **changes)


BOOKKEEPING_KEYS = frozenset(("last_accessed_at", "access_count", "injection_count", "vitality", "vitality_at"))
"""The payload keys ``MemoryStore.record_access`` writes: a memory's use, not its fact."""


def bookkeeping_fields(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The :class:`Memory` fields :meth:`Memory.from_payload` reads from
    :data:`BOOKKEEPING_KEYS` (``vitality_at`` is the payload's alone)."""
    vitality = payload.get("vitality")
    return {
        "last_accessed_at": _dt(payload.get("last_accessed_at")),
        "access_count": int(payload.get("access_count") or 0),
        "injection_count": int(payload.get("injection_count") or 0),
        # Stores written before vitality existed read as "as alive as it is important".
        "vitality": None if vitality is None else float(vitality),
    }


def metadata_fields(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The payload fields that hold ``metadata`` (checked JSON): filters read ``metadata``;
    reads return ``metadata_json``, an exact copy written when the engine would not give the
    metadata back as it is (Qdrant Edge: floats, integers past 64 bits), else ``None``.
    Every write of a memory's metadata writes both."""
    exact = None if engine_exact(metadata) else json.dumps(metadata, ensure_ascii=False)
    return {"metadata": dict(metadata) if exact is None else engine_copy(dict(metadata)), "metadata_json": exact}


def _metadata(payload: Mapping[str, Any]) -> dict[str, Any]:
    return stored_object(payload.get("metadata_json"), payload.get("metadata"))


def new_memory(
    content: Any,
    *,
    namespace: Any,
    kind: Any = "fact",
    memory_type: Any = None,
    category: Any = None,
    subjects: Any = None,
    importance: Any = None,
    ttl: str | timedelta | None = None,
    source: Any = "conversation",
    metadata: Mapping[str, Any] | None = None,
    created_at: datetime | None = None,
    channel: Any = None,
) -> Memory:
    """Validate every field and build a new live :class:`Memory`; raises before any write."""
    text = validate_content(content)
    ns = validate_namespace(namespace)
    kind = validate_kind(kind)
    mtype = validate_memory_type(memory_type or KIND_DEFAULT_TYPE[kind])
    cat = validate_category(kind, category)
    tags = validate_subjects(subjects)
    weight = validate_importance(importance, mtype)
    life = parse_ttl(ttl)
    source = check_text("source", source, MAX_SOURCE_CHARS)
    data = check_metadata(metadata)
    room = None if channel is None else check_text("channel", channel, MAX_NAMESPACE_PART_CHARS)
    if room is not None and (fault := identifier_fault(room)):  # shown beside the memory: not a look-alike
        raise InvalidMemoryError("channel", fault)
    now = utcnow()
    born = now if created_at is None else check_datetime("created_at", created_at)
    return Memory(
        id=str(uuid.uuid4()),
        content=text,
        namespace=ns,
        kind=kind,
        memory_type=mtype,
        category=cat,
        subjects=tags,
        importance=weight,
        created_at=born,
        updated_at=born,
        expires_at=None if life is None else now + life,
        source=source,
        metadata=data,
        channel=room,
    )


MemoryInput = Union[str, Mapping[str, Any]]
"""What :meth:`MemoryStore.remember_many` takes: a text, or a dict of ``remember`` arguments."""


