"""Validation of a stored record's payload, for imports: the rules :func:`new_memory`
applies to a new memory, plus the links and counters a stored record carries."""

from __future__ import annotations

import uuid
from typing import Any, Mapping

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import (
    MAX_NAMESPACE_PART_CHARS, MAX_SOURCE_CHARS, check_epoch, check_metadata, check_number, check_text, exact_object,
)
from langgraph_memory.store._links import HISTORY, check_link_entries
from langgraph_memory.store.records import (
    KIND_DEFAULT_TYPE,
    MAX_CONTENT_CHARS,
    Memory,
    metadata_fields,
    namespace_from_key,
    namespace_key,
    prefix_keys,
    validate_category,
    validate_content,
    validate_importance,
    validate_kind,
    validate_memory_type,
    validate_namespace,
    validate_subjects,
)

__all__ = ["validate_payload"]

# Plus the gardener's bookkeeping, written beside the memory's fields (store/_garden.py).
_PAYLOAD_KEYS = frozenset(Memory(id="", content="", namespace=("x",)).to_payload()) | {
    "vitality_at", "archived_at",
    # Written only when set (records.Memory.to_payload).
    "links", "channel", "forgotten_at", "forgotten_reason", "metadata_json",
}


def validate_payload(payload: Any) -> dict[str, Any]:
    """Check a stored payload (an import's record) by the rules :func:`new_memory` applies
    to a new memory, plus the links and counters a stored record has. Returns the payload,
    with ``ns_prefixes`` filled in when it was left out and its importance kept as
    :func:`new_memory` keeps one (to 15 decimals; the type's default when left out).

    Raises:
        InvalidMemoryError: the first field that is wrong, named ``payload.<field>``.
    """
    try:
        return _validate_payload(payload)
    except InvalidMemoryError as exc:
        raise InvalidMemoryError(f"payload.{exc.field}", str(exc).split(": ", 1)[-1]) from None


def _validate_payload(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, Mapping):
        raise InvalidMemoryError("payload", "must be an object")
    unknown = set(payload) - _PAYLOAD_KEYS
    if unknown:
        raise InvalidMemoryError(sorted(unknown)[0], "is not a field of a memory")
    validate_content(payload.get("content"))
    key = payload.get("namespace")
    if not isinstance(key, str) or not key:
        raise InvalidMemoryError("namespace", "must be a namespace key such as 'memories/alice'")
    parts = validate_namespace(namespace_from_key(key))
    if namespace_key(parts) != key:
        raise InvalidMemoryError("namespace", f"{key!r} is not a well-formed namespace key")
    expected = prefix_keys(key)
    if payload.get("ns_prefixes", expected) != expected:
        raise InvalidMemoryError("ns_prefixes", f"does not match namespace {key!r} (expected {expected!r})")
    kind = validate_kind(payload.get("kind", "fact"))
    memory_type = validate_memory_type(payload.get("memory_type", KIND_DEFAULT_TYPE[kind]))
    validate_category(kind, payload.get("category"))
    subjects = payload.get("subjects", [])
    if not isinstance(subjects, list) or list(validate_subjects(subjects)) != subjects:
        raise InvalidMemoryError("subjects", "must be a list of distinct lowercase tags")
    importance = validate_importance(payload.get("importance"), memory_type)
    for name in ("created_at", "updated_at"):
        check_epoch(name, payload.get(name))
    for name in ("expires_at", "last_accessed_at", "archived_at", "vitality_at", "forgotten_at"):
        if payload.get(name) is not None:
            check_epoch(name, payload[name])
    for name in ("access_count", "injection_count"):
        count = payload.get(name, 0)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count < 2**53:
            raise InvalidMemoryError(name, "must be a non-negative integer")
    check_text("source", payload.get("source", "conversation"), MAX_SOURCE_CHARS)
    status = payload.get("status")
    if status not in HISTORY:  # archived: the gardener's; forgotten: deleted; both restorable
        raise InvalidMemoryError("status", f"must be one of {list(HISTORY)}, got {status!r}"[:200])
    if (status == "forgotten") != (payload.get("forgotten_at") is not None):
        raise InvalidMemoryError("forgotten_at", "must be the time of a forgotten memory's deletion, else null")
    if payload.get("forgotten_reason") is not None:
        check_text("forgotten_reason", payload["forgotten_reason"], MAX_CONTENT_CHARS)
    if payload.get("channel") is not None:
        check_text("channel", payload["channel"], MAX_NAMESPACE_PART_CHARS)
    check_link_entries(payload.get("links"))
    if payload.get("vitality") is not None:
        check_number("vitality", payload["vitality"], low=0.0, high=1.0)
    supersedes = payload.get("supersedes", [])
    if not isinstance(supersedes, list) or not all(_is_uuid(i) for i in supersedes):
        raise InvalidMemoryError("supersedes", "must be a list of memory ids")
    successor = payload.get("superseded_by")
    if (status == "superseded") != (successor is not None) or not (successor is None or _is_uuid(successor)):
        raise InvalidMemoryError("superseded_by", "must be the id of the successor of a superseded memory, else null")
    if check_metadata(payload.get("metadata")) != payload.get("metadata", {}):
        raise InvalidMemoryError("metadata", "must be plain JSON data")
    # An imported importance is kept as remember keeps one (records.IMPORTANCE_DECIMALS), and
    # a field left out is stored with its default: the engines filter and order on stored
    # fields, which reads would otherwise fill in (importance 0.6, kind "fact") where filters
    # and the identity channel see nothing.
    return {**payload, **_exact_metadata(payload), "importance": importance, "kind": kind,
            "memory_type": memory_type, "ns_prefixes": expected}


def _exact_metadata(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The metadata fields rebuilt from the exact copy when the record has one, so a filter
    (on ``metadata``) and a read (of ``metadata_json``) cannot be told two different things."""
    exact = payload.get("metadata_json")
    if exact is None:
        return {}
    metadata = exact_object(exact)  # the reading every reader does: a copy it would skip is refused here
    if metadata is None:
        raise InvalidMemoryError("metadata_json", "must be the metadata as a JSON object in text")
    return metadata_fields(check_metadata(metadata, "metadata_json"))


def _is_uuid(value: Any) -> bool:
    try:
        return isinstance(value, str) and str(uuid.UUID(value)) == value
    except ValueError:
        return False
