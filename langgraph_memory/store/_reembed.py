"""Re-embedding a store with another embedder: every record copied with new dense vectors.

A store's vectors are only comparable with its own embedder's, and its vector size is fixed
when it is created, so changing the embedder means writing a new store: :func:`copy_reembedded`
copies one store into another (a new collection on a server), :func:`reembed` does it for
an embedded directory and swaps the result in place, keeping the old directory beside it.

What is copied: every memory in every state (ids, payloads, history links and BM25 vectors
unchanged, dense vectors new), the indexed exchanges and summaries, and the room messages.
LangGraph ``BaseStore`` items that share the collection are refused: which of their fields
were embedded is not recorded, so put them again through the ``BaseStore`` instead.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._rooms import ROOM_COLLECTION
from langgraph_memory.store._writing import normalise
from langgraph_memory.store.backends import StoredPoint, Where
from langgraph_memory.store.conversations import COLLECTION as CONVERSATIONS
from langgraph_memory.store.conversations import KEYWORD_FIELDS as CONVERSATION_FIELDS

if TYPE_CHECKING:
    from langchain_core.embeddings import Embeddings

    from langgraph_memory.store.backends import Backend
    from langgraph_memory.store.memory_store import MemoryStore

__all__ = ["ReembedReport", "copy_reembedded", "reembed"]

Progress = Callable[[str, int, int], None]
"""``progress(part, done, total)``; parts: ``memories``, ``conversations``, ``rooms``."""

MEMORY_STATUSES = ("live", "superseded", "archived", "forgotten")
BATCH = 64


@dataclass
class ReembedReport:
    """What :func:`reembed` / :func:`copy_reembedded` rewrote."""

    source_embedder: str
    target_embedder: str
    counts: dict[str, int] = field(default_factory=dict)
    """Records re-embedded per part: ``memories``, ``conversations``, ``rooms``."""
    previous_path: Path | None = None
    """Where :func:`reembed` moved the old directory (delete it once the new one serves)."""


def _side(store: MemoryStore, name: str, fields: tuple[str, ...]) -> Backend | None:
    """The store's side collection ``name`` if it was ever created (never creates one)."""
    if store._backend.sibling(name, keyword_fields=fields).stored_meta() is None:
        return None
    return store.side_collection(name, keyword_fields=fields)


def _copy(source: Backend, embed: Callable[[list[StoredPoint]], None], target: Backend,
          part: str, report: ReembedReport, progress: Progress | None) -> None:
    """Stream ``source`` into ``target`` a batch at a time (a large store never sits in memory)."""
    total = source.count(Where(status=None))
    report.counts[part] = 0
    offset = None
    while True:
        chunk, offset = source.scroll(Where(status=None), limit=BATCH, with_vectors=True, offset=offset)
        if chunk:
            embed(chunk)
            target.upsert(chunk)
            report.counts[part] += len(chunk)
            if progress is not None:
                progress(part, report.counts[part], max(total, report.counts[part]))
        if offset is None:
            return


def copy_reembedded(source: MemoryStore, target: MemoryStore, *, progress: Progress | None = None) -> ReembedReport:
    """Copy every record of ``source`` into the empty store ``target``, embedding their text
    with ``target``'s embedder (``source``'s model is never loaded). Returns counts.

    Raises:
        InvalidMemoryError: ``target`` is not empty, is ``source``, or ``source`` holds
            LangGraph ``BaseStore`` items; nothing was written.
    """
    if target is source or target._backend.count(Where(status=None)):
        raise InvalidMemoryError("target", "re-embedding writes into a new, empty store")
    items = source._backend.count(Where(status=None)) - source._backend.count(Where(status=MEMORY_STATUSES))
    if items:
        raise InvalidMemoryError("source", f"holds {items} LangGraph BaseStore record(s) whose embedded "
                                 "fields are not recorded; re-embedding would lose them: put them again "
                                 "through a BaseStore opened on the new store")
    report = ReembedReport(source.embedder, target.embedder)

    def embed_content(chunk: list[StoredPoint]) -> None:
        vectors = target.embeddings.embed_documents([p.payload["content"] for p in chunk])
        for point, vector in zip(chunk, vectors):
            if len(vector) != target.dim:
                raise InvalidMemoryError("embeddings", f"expected {target.dim} dimensions, got {len(vector)}")
            point.dense = normalise(vector)

    _copy(source._backend, embed_content, target._backend, "memories", report, progress)
    exchanges = _side(source, CONVERSATIONS, CONVERSATION_FIELDS)
    if exchanges is not None:
        _copy(exchanges, embed_content,
              target.side_collection(CONVERSATIONS, keyword_fields=CONVERSATION_FIELDS),
              "conversations", report, progress)
    rooms = _side(source, ROOM_COLLECTION, ("room", "author"))
    if rooms is not None:
        # Room messages embed as "author: text" with a substance score: the room code's own.
        _copy(rooms, target._embed_messages, target._rooms_backend(), "rooms", report, progress)
    target.optimize()
    return report


def reembed(
    path: str | os.PathLike[str], embeddings: Embeddings | str, *, progress: Progress | None = None
) -> ReembedReport:
    """Rebuild the embedded store in ``path`` with ``embeddings`` (an ``Embeddings`` or a
    name such as ``"e5"``): written beside it, then swapped in; the old directory stays at
    ``<path>.before-reembed`` (its path is in the report) until you delete it. The store must
    not be open elsewhere. A stop midway leaves ``path`` as it was.

    Raises:
        StoreLockedError: the store is open (a running server holds it, say).
        InvalidMemoryError: ``path`` holds no store, ``<path>.before-reembed`` exists, or the
            store holds LangGraph ``BaseStore`` items.
    """
    from langgraph_memory.store.backends.edge import META_FILE
    from langgraph_memory.store.memory_store import MemoryStore

    path = Path(path)
    if not (path / META_FILE).is_file():
        raise InvalidMemoryError("path", f"no memory store at {path}")
    previous = path.with_name(path.name + ".before-reembed")
    building = path.with_name(path.name + ".reembedding")
    if previous.exists():
        raise InvalidMemoryError("path", f"{previous} exists (a previous re-embedding): delete it first")
    shutil.rmtree(building, ignore_errors=True)  # what a stopped run left: ours, never served
    with MemoryStore.open(path) as source:
        try:
            with MemoryStore.open(building, embeddings=embeddings) as target:
                report = copy_reembedded(source, target, progress=progress)
        except BaseException:
            shutil.rmtree(building, ignore_errors=True)
            raise
    path.rename(previous)
    building.rename(path)
    report.previous_path = previous
    return report
