"""The memory tools' side of links and forgetting: linking a stored fact to the memories the
model names, and telling the model what a delete did. The store does the work
(:mod:`langgraph_memory.store._links`, :meth:`MemoryStore.delete`); this only resolves
ids in the runtime's namespace and words the outcome."""

from __future__ import annotations

from typing import Any, Sequence

from langgraph_memory.agent._render import render_line
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store import MemoryStore
from langgraph_memory.store._reads import check_ids
from langgraph_memory.store.records import Memory, Namespace

__all__ = ["check_related", "describe_delete", "link_related"]


def check_related(store: MemoryStore, related_to: Any, namespace: Namespace) -> list[str]:
    """The ids of ``related_to``, each a live memory of ``namespace`` (the runtime's: an id
    of another namespace reads as unknown); raises before anything is stored."""
    if not related_to:
        return []
    try:
        ids = list(dict.fromkeys(check_ids(related_to)))
    except InvalidMemoryError as exc:
        raise InvalidMemoryError("related_to", str(exc).split(": ", 1)[-1]) from None
    known = {m.id for m, _ in store.get_many(ids, namespace=namespace)}
    missing = [i for i in ids if i not in known]
    if missing:
        raise InvalidMemoryError("related_to", f"no memory with id {missing[0]}; search first to get a valid id")
    return ids


def link_related(store: MemoryStore, memory_id: str, related: Sequence[str], namespace: Namespace) -> str:
    """Link ``memory_id`` ``related_to`` each of ``related``; a sentence for the tool's answer."""
    targets = [i for i in related if i != memory_id]  # a duplicate may be one of them
    for target in targets:
        store.link(memory_id, target, "related_to", namespace=namespace)
    return f" Linked to {', '.join(targets)}." if targets else ""


def describe_delete(store: MemoryStore, memory: Memory, reason: str) -> str:
    """What the delete tool did, for the model: the memory is forgotten (no longer read or
    injected, restorable by the app for the retention window), not erased."""
    days = store.decay_settings().forgotten_days
    return (f"Forgot {memory.id} ({render_line(memory.content)}): {render_line(reason)}. It is no longer "
            f"recalled; the app can restore it within {days:g} days.")
