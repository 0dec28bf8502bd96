"""What a snapshot's answers hand out: its rows as memories, points and hits, each built
once per row and kept until a write changes that row.

A pre-hook turn on a 100-memory namespace takes ~190 hits from its snapshot: ~150 in
candidate lists (an id and a score) and ~40 whole memories (the metadata channels and
the winners' payloads). Built anew each turn, a whole point copies its payload and looks
its memory up (~1.5 µs with its hit), a bare one costs ~0.2 µs. So a row's bare point (its
id, no payload) and its whole hit (payload, memory, score 0: what a fetch query gets) are
built the first time a turn asks and then shared. A scored hit is still built by its
``__init__``: built by filling its attributes directly (when :class:`Hit` had no slots) it
was faster to build, but each later read of its fields was ~3x slower, and the turn lost
what the build saved (measured).

They are kept in :class:`RowObjects`, which belongs to one snapshot version: a write that
changes a row gives the namespace a new version whose :class:`RowObjects` no longer holds
that row's whole hit, nor its memory unless only access counts changed (then copied with
them, :meth:`RowObjects.rewritten`), and a version with rows added or removed starts
from the objects of the rows it keeps (:meth:`RowObjects.taken`). So nothing built from a
row outlives the row as read, and a snapshot holds only its own namespace's rows.

Shared objects are read, never written, by their readers (the read plans in
``store/_reads.py``, ``_hybrid.py``, ``_search.py``), and cannot be: a hit is frozen, and
a shared point's payload is a :class:`ReadOnlyPayload` (a ``dict`` that refuses writes),
so a reader that tried would fail at once rather than change what the next turn reads.
A point with its vector (the dedup keeps the array) is always built anew.
"""

from __future__ import annotations

import copy
from typing import Any

from langgraph_memory.store.backends._base import ExactHits, Hit, StoredPoint

_new = object.__new__


def _refused(self: Any, *args: Any, **kwargs: Any) -> None:
    raise TypeError("a snapshot's shared payload is read-only: copy it (dict(payload)) to change it")


class ReadOnlyPayload(dict):  # type: ignore[type-arg]
    """A shared point's payload: a ``dict`` (readers, ``json`` and ``dict()`` take it as
    one) that refuses every write; copied or pickled, a plain ``dict``."""

    __slots__ = ()
    __setitem__ = __delitem__ = __ior__ = _refused  # type: ignore[assignment]
    update = pop = popitem = setdefault = clear = _refused  # type: ignore[assignment]

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        return copy.deepcopy(dict(self), memo)

    def __reduce__(self) -> Any:
        return dict, (dict(self),)


_NO_PAYLOAD = ReadOnlyPayload()


class RowObjects:
    """Per row of one snapshot version: its memory, bare point and whole hit, ``None``
    until first asked (a memory that does not parse is kept as ``False``)."""

    __slots__ = ("memories", "bare", "whole")

    def __init__(self, rows: int) -> None:
        self.memories: list[Any] = [None] * rows
        self.bare: list[StoredPoint | None] = [None] * rows
        self.whole: list[Hit | None] = [None] * rows

    def rewritten(self, changed: dict[int, set[str]], payloads: dict[int, dict[str, Any]]) -> "RowObjects":
        """A copy for the next version of the same rows, some rewritten: ``changed``, each
        such row's fields whose value changed; ``payloads``, their new payloads. A row's
        bare point (its id) stays. A row where only access counts and vitality changed (the
        post-hook's write, each turn) keeps its memory with those read again (~1.5 µs,
        building it again ~8) and, if it had one, a whole hit of its new payload (built
        here: the writing thread brings snapshots up to date, the next turn reads them).
        Any other rewritten row's objects are built again when asked. A row with nothing
        changed keeps all."""
        from langgraph_memory.store.records import BOOKKEEPING_KEYS

        out = _new(RowObjects)
        out.memories, out.bare, out.whole = list(self.memories), self.bare, list(self.whole)
        for r, fields in changed.items():
            if not fields:
                continue
            found, whole = out.memories[r], out.whole[r]
            out.memories[r] = out.whole[r] = None
            if found and fields <= BOOKKEEPING_KEYS:
                try:
                    found = out.memories[r] = _with_bookkeeping(found, payloads[r])
                except Exception:  # built again when asked: it then fails as the plain path does
                    continue
                if whole is not None:
                    out.whole[r] = _whole_hit(whole.point.id, payloads[r], found)
        return out

    @staticmethod
    def taken(rows: list[tuple["RowObjects", int]]) -> "RowObjects":
        """The objects of ``(source, row)`` pairs, in order: a version with rows added or removed."""
        out = _new(RowObjects)
        out.memories = [src.memories[r] for src, r in rows]
        out.bare = [src.bare[r] for src, r in rows]
        out.whole = [src.whole[r] for src, r in rows]
        return out


def _with_bookkeeping(memory: Any, payload: dict[str, Any]) -> Any:
    """``memory`` with its access counts and vitality read again from ``payload`` as
    ``Memory.from_payload`` reads them, its other fields kept (they did not change).
    Copied without ``__init__`` (a frozen dataclass): ~1.5 µs, ``dataclasses.replace``
    ~7, ``from_payload`` ~8."""
    from langgraph_memory.store.records import bookkeeping_fields

    out = _new(type(memory))
    out.__dict__.update(memory.__dict__)
    out.__dict__.update(bookkeeping_fields(payload))
    out.__post_init__()  # a vitality of None reads as the importance
    return out


def memory(snapshot: Any, row: int) -> Any:
    """The row as a :class:`~langgraph_memory.store.records.Memory`, built once;
    ``None`` for a point that is not a memory (then readers build nothing from it)."""
    memories = snapshot.objects.memories
    found = memories[row]
    if found is None:
        from langgraph_memory.store.records import Memory

        try:
            found = Memory.from_payload(snapshot.ids[row], snapshot.payloads[row])
        except Exception:  # the plain path then raises the same, reading the copy
            found = False
        memories[row] = found
    return found or None


def point(snapshot: Any, row: int, payload: bool | tuple[str, ...], with_vectors: bool) -> StoredPoint:
    """A new point of ``row`` with ``payload`` (all of it, none, these fields) and its vector."""
    stored = snapshot.payloads[row]
    if payload is True:
        mine: dict[str, Any] = dict(stored)
    elif payload is False:
        mine = {}
    else:
        mine = {k: stored[k] for k in payload if k in stored}
    # The vector as a float32 array (a copy): the pre-hook's dedup keeps it as one.
    out = StoredPoint(snapshot.ids[row], mine, snapshot.vectors[row].copy() if with_vectors else None)  # type: ignore[arg-type]
    if payload is True:
        out.memory = memory(snapshot, row)
    return out


def _bare(snapshot: Any, row: int) -> StoredPoint:
    bare = snapshot.objects.bare
    found = bare[row]
    if found is None:
        found = bare[row] = StoredPoint(snapshot.ids[row], _NO_PAYLOAD)
    return found


def _whole_hit(point_id: str, payload: dict[str, Any], memory: Any) -> Hit:
    """A fetch's hit of a row (score 0), its payload read-only, with its memory."""
    shared = StoredPoint(point_id, ReadOnlyPayload(payload))
    shared.memory = memory
    return Hit(shared, 0.0)


def _whole(snapshot: Any, row: int) -> Hit:
    whole = snapshot.objects.whole
    found = whole[row]
    if found is None:
        found = whole[row] = _whole_hit(snapshot.ids[row], snapshot.payloads[row], memory(snapshot, row))
    return found


def scored_hits(snapshot: Any, payload: bool | tuple[str, ...], with_vectors: bool, rows: list[int],
                scores: list[float]) -> ExactHits:
    """The hits of ``rows`` with ``scores``, in that order (a nearest-neighbour list)."""
    if payload is False and not with_vectors:  # a candidate list: ids and scores
        bare = snapshot.objects.bare
        # ``map`` calls ``Hit`` from C: ~15% less than a comprehension's call a hit (~6 lists a turn).
        out = ExactHits(map(Hit, [bare[r] or _bare(snapshot, r) for r in rows], scores))
    elif payload is True and not with_vectors:
        out = ExactHits([Hit(_whole(snapshot, r).point, s) for r, s in zip(rows, scores)])
    else:
        out = ExactHits([Hit(point(snapshot, r, payload, with_vectors), s) for r, s in zip(rows, scores)])
    out.in_memory, out.snapshot = True, snapshot
    return out


def fetched_hits(snapshot: Any, payload: bool | tuple[str, ...], with_vectors: bool, rows: list[int]) -> list[Hit]:
    """The hits of ``rows`` for a fetch query (score 0), in that order."""
    if payload is True and not with_vectors:
        whole = snapshot.objects.whole
        return [whole[r] or _whole(snapshot, r) for r in rows]
    if payload is False and not with_vectors:
        bare = snapshot.objects.bare
        return [Hit(bare[r] or _bare(snapshot, r), 0.0) for r in rows]
    return [Hit(point(snapshot, r, payload, with_vectors), 0.0) for r in rows]
