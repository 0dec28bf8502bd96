"""Put and delete operations of a batch: checked and planned before anything is written.

A batch's puts are validated, looked up and turned into texts to embed first
(:func:`plan_puts`); once the vectors are there, :func:`write_puts` checks their size and
writes every point in one upsert and one delete. Any error before that leaves the store
as it was.
"""

from __future__ import annotations

import threading
import time
import uuid
import weakref
from datetime import datetime, timezone
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from langgraph.store.base import PutOp
from langgraph.store.base.embed import get_text_at_path

from langgraph_memory.base_store._items import (
    _POINT_IDS,
    ITEM,
    ITEM_VECTOR,
    MEMORY,
    InvalidEmbeddingError,
    as_uuid,
    check_key,
    check_namespace,
    check_written_namespace,
    is_memory,
    item_point_id,
    memory_value,
    owns,
)
from langgraph_memory.base_store._payloads import checked_value
from langgraph_memory.errors import InvalidMemoryError
from langgraph_memory.store._checks import check_minutes
from langgraph_memory.store._reads import history_chain
from langgraph_memory.store.backends import Backend, StoredPoint
from langgraph_memory.store.records import Memory, namespace_key, new_memory, prefix_keys

if TYPE_CHECKING:
    from langgraph_memory.base_store._cache import ReadCache

Key = tuple[tuple[str, ...], str]


@dataclass
class PlannedPut:
    namespace: tuple[str, ...]
    key: str
    value: dict[str, Any] | None
    """``None``: delete."""
    ttl: float | None
    existing: StoredPoint | None
    """The live item or memory this put replaces."""
    previous: StoredPoint | None = None
    """The item's own point, live or expired: its extra vectors go whatever happens."""
    texts: list[str] = field(default_factory=list)
    """Texts to embed, in order: the memory text first when the point is a memory."""
    memory: Memory | None = None
    """Set when the point is (also) a memory: a memory updated through this face, or an
    item the app opted in to the pre-hook."""
    point_id: str = ""
    """The item's own point id (:func:`item_point_id`), computed once per put."""
    written: StoredPoint | None = None
    """The item's point as written, once it is (a plain item only: not a memory)."""
    engine_value: dict[str, Any] | None = None
    """What the point's payload holds of ``value`` (:func:`~._payloads.checked_value`)."""
    value_json: str | None = None
    """``value`` as JSON text, when ``engine_value`` is not all of it exactly."""


def _check_ttl(ttl: Any) -> float | None:
    # Bounded like every TTL: ``1e300`` or ``inf`` minutes would store an expiry no date holds.
    return None if ttl is None else check_minutes("ttl", ttl)


def _check_index(index: Any) -> Any:
    if index is None or index is False:
        return index
    if isinstance(index, str) or not isinstance(index, Sequence) or not all(isinstance(p, str) and p for p in index):
        raise InvalidMemoryError("index", f"expected False, None or a list of field paths, got {index!r}")
    return list(index)


def candidate_ids(key: Key) -> tuple[str, str | None]:
    """The points a (namespace, key) may live at: its item point, then the memory whose id
    the key is (if a UUID)."""
    return item_point_id(*key), as_uuid(key[1])


def lookup(
    backend: Backend, keys: Sequence[Key], now: float, stored: dict[str, StoredPoint] | None = None,
    candidates: dict[Key, tuple[str, str | None]] | None = None,
) -> dict[Key, StoredPoint]:
    """The live point of each (namespace, key), in one engine call: an item's own point, or
    the memory whose id the key is. ``stored``, when given, receives every point read,
    expired ones included; ``candidates``: each key's :func:`candidate_ids`, if known."""
    candidates = candidates or {k: candidate_ids(k) for k in keys}
    ids = sorted({i for pair in candidates.values() for i in pair if i is not None})
    found = {p.id: p for p in backend.retrieve(ids)} if ids else {}
    if stored is not None:
        stored.update(found)
    out: dict[Key, StoredPoint] = {}
    for (namespace, key), (item_id, memory_id) in candidates.items():
        for i in (item_id, memory_id):
            point = found.get(i) if i is not None else None
            if point is not None and owns(point, namespace, memory_id if is_memory(point.payload) else key, now):
                out[(namespace, key)] = point
                break
    return out


def _memory_from(value: Mapping[str, Any], namespace: tuple[str, ...], base: Memory | None) -> Memory:
    """The memory a value describes (the fields of an item of a memory), validated; fields
    the value leaves out keep the memory's."""
    if base is not None:
        unknown = sorted(set(value) - set(memory_value(base)))
        if unknown:
            raise InvalidMemoryError(
                "value", f"a memory's item takes {sorted(memory_value(base))}; unknown field(s) {unknown}")
        value = {**memory_value(base), **value}
    args = {k: value[k] for k in ("kind", "memory_type", "category", "subjects", "importance", "source", "metadata")
            if value.get(k) is not None}
    memory = new_memory(value.get("content"), namespace=namespace, **args)
    if base is not None:
        # What an item's value does not hold stays the memory's: its history, use, links and channel.
        memory = _kept_use(memory.evolve(id=base.id, created_at=base.created_at, expires_at=base.expires_at,
                                         supersedes=base.supersedes), base)
    return memory


def _kept_use(memory: Memory, base: Memory) -> Memory:
    """``memory`` with ``base``'s use (access and injection counts, last access, vitality),
    links and channel: an overwrite changes what the memory says, not how used it was, or
    the gardener would take an often-used memory for a fresh one."""
    return memory.evolve(access_count=base.access_count, injection_count=base.injection_count,
                         last_accessed_at=base.last_accessed_at, vitality=base.vitality,
                         links=base.links, channel=base.channel)


def _kept_garden_time(payload: dict[str, Any], put: PlannedPut) -> dict[str, Any]:
    """``payload`` with the replaced memory's ``vitality_at`` (when its vitality was last
    decayed or boosted), the time the kept vitality is from."""
    old = put.existing
    if put.memory is not None and old is not None and old.payload.get("vitality_at") is not None:
        payload["vitality_at"] = old.payload["vitality_at"]
    return payload


MAX_ITEM_TEXTS = 256
"""At most this many distinct texts embedded for one item (its ``index`` paths may name
every element of a list): each is one embedding and one stored vector, and one request of
the server's store API could otherwise hold a million of them."""


def _add_texts(put: PlannedPut, value: dict[str, Any], paths: Sequence[str]) -> None:
    seen = set(put.texts)
    for path in paths:
        for text in get_text_at_path(value, path):
            if text and text not in seen:
                seen.add(text)
                put.texts.append(text)
                if len(put.texts) > MAX_ITEM_TEXTS:
                    raise InvalidMemoryError("index", f"an item's index paths name more than {MAX_ITEM_TEXTS} "
                                                      "texts to embed; index fewer fields, or split the item")


def plan_puts(
    backend: Backend, ops: Sequence[PutOp], *, fields: Sequence[str] | None, memory_field: str | None,
    cache: ReadCache | None = None,
) -> list[PlannedPut]:
    """Validate the batch's puts (the last one per item wins) and find what they replace:
    from ``cache`` when it holds the live item, else from the engine.

    ``fields`` are the index's default paths (``None``: no index)."""
    if not ops:  # a batch of reads: no clock, no lookup
        return []
    last: dict[Key, PutOp] = {}
    for op in ops:
        namespace = check_namespace(op.namespace) if op.value is None else check_written_namespace(op.namespace)
        check_key(op.key)
        last[(namespace, op.key)] = op
    now = time.time()
    stored: dict[str, StoredPoint] = {}
    candidates = {k: candidate_ids(k) for k in last}
    # An overwrite or a delete of an item just written or read: its point is in the cache.
    held = cache.live_points({k: c[0] for k, c in candidates.items()}, now) if cache is not None else {}
    missing = [k for k in last if k not in held]
    existing = lookup(backend, missing, now, stored, {k: candidates[k] for k in missing}) if missing else {}
    existing.update(held)
    stored.update({p.id: p for p in held.values()})
    planned = []
    for (namespace, key), op in last.items():
        value, engine_value, value_json = (None, None, None) if op.value is None else checked_value(op.value)
        index = _check_index(op.index)
        point_id = candidates[(namespace, key)][0]
        put = PlannedPut(namespace, key, value, _check_ttl(op.ttl), existing.get((namespace, key)),
                         stored.get(point_id), point_id=point_id, engine_value=engine_value, value_json=value_json)
        old = put.existing
        updating_memory = old is not None and is_memory(old.payload)
        if updating_memory and value is not None and fields is None:
            raise InvalidMemoryError("index", "updating a memory needs an index to embed its content with")
        if value is not None:
            if updating_memory:
                # A memory updated through this face: it stays a memory, checked as one.
                put.memory = _memory_from(value, namespace, Memory.from_payload(old.id, old.payload))
                put.texts.append(put.memory.content)
            elif memory_field is not None and isinstance(text := value.get(memory_field), str) and text.strip():
                put.memory = new_memory(text, namespace=namespace, source="base_store")
                if old is not None and old.payload.get("status") == MEMORY:  # it was an opted-in item already
                    put.memory = _kept_use(put.memory, Memory.from_payload(old.id, old.payload))
                put.texts.append(put.memory.content)
            if fields is not None and index is not False and not updating_memory:
                _add_texts(put, value, index or fields)
        planned.append(put)
    return planned


def _companion_id(point_id: str, i: int) -> str:
    return str(uuid.uuid5(_POINT_IDS, f"{point_id}\x00{i}"))


def _item_payload(put: PlannedPut, now: float, created: float, extra: int) -> dict[str, Any]:
    key = namespace_key(put.namespace)
    payload: dict[str, Any] = {}
    if put.memory is not None:
        payload = put.memory.to_payload()
    payload.update({
        "namespace": key,
        "ns_prefixes": prefix_keys(key),
        "status": MEMORY if put.memory is not None else ITEM,
        "item_key": put.key,
        "created_at": created,
        "updated_at": now,
        "expires_at": None if put.ttl is None else now + put.ttl * 60,
        "ttl_minutes": put.ttl,
    })
    # Each payload field costs its conversion into the engine: none is written for nothing
    # (an empty object alone costs ~4 µs; reads take a missing ``value`` for ``{}``).
    if put.engine_value:
        payload["value"] = put.engine_value
    if extra:
        payload["extra_vectors"] = extra
    if put.value_json is not None:
        # Filters read ``value`` (its top-level scalars); reads return this exact copy.
        payload["value_json"] = put.value_json
    return payload


def write_puts(
    backend: Backend, planned: Sequence[PlannedPut], vectors: Sequence[list[float]], *, dims: int | None,
    sparse: Any,
) -> int:
    """Write the planned puts; ``vectors`` are the embeddings of every put's texts, in order.
    Returns how many engine writes it made (each is logged by an Edge backend)."""
    if dims is not None:
        for vector in vectors:
            if len(vector) != dims:
                raise InvalidEmbeddingError(
                    "embed", f"the index's embedder returned {len(vector)} dimensions, the index has {dims}")
    # Whole microseconds: Qdrant Edge may read a float back one unit in the last place off,
    # which must not move a date across a microsecond (an overwrite keeps ``created_at``).
    now = round(time.time() * 1e6) / 1e6  # as round(time.time(), 6), without its decimal rounding
    upserts: list[StoredPoint] = []
    deletes: list[str] = []
    at = 0
    for put in planned:
        mine, at = list(vectors[at : at + len(put.texts)]), at + len(put.texts)
        old = put.existing
        # The replaced point's extra vectors this write does not overwrite: deleted by id once
        # the upserts landed, so a write the engine fails leaves the item as it was.
        kept = len(mine) - 1 if put.value is not None and not (old is not None and is_memory(old.payload)) else 0
        deletes += _stale_companions(put.previous, kept)
        if put.value is None:
            if old is not None and is_memory(old.payload):
                deletes += [m.id for m in history_chain(backend, old.id, put.namespace)]
            elif put.previous is not None:
                deletes.append(put.previous.id)
            continue
        memory_sparse = None
        if put.memory is not None:
            sv = sparse.embed_documents([put.memory.content])[0]
            memory_sparse = (list(sv.indices), list(sv.values))
        if old is not None and is_memory(old.payload):
            memory = put.memory
            assert memory is not None
            if put.ttl is not None:
                memory = memory.evolve(expires_at=datetime.fromtimestamp(now + put.ttl * 60, tz=timezone.utc))
            upserts.append(StoredPoint(old.id, _kept_garden_time(memory.to_payload(), put), mine[0] if mine else None,
                                       memory_sparse))
            continue
        point_id = put.point_id
        created = old.payload["created_at"] if old is not None else now
        payload = _kept_garden_time(_item_payload(put, now, created, max(0, len(mine) - 1)), put)
        upserts.append(StoredPoint(point_id, payload, mine[0] if mine else None, memory_sparse))
        if put.memory is None:
            put.written = StoredPoint(point_id, payload)
        for i, vector in enumerate(mine[1:], start=1):
            upserts.append(StoredPoint(_companion_id(point_id, i), {
                "namespace": payload["namespace"], "ns_prefixes": payload["ns_prefixes"],
                "status": ITEM_VECTOR, "item_of": point_id, "expires_at": None,  # the item's own expiry rules
            }, vector))
    # Upserts first: one engine write, the whole of what the batch adds or rewrites. Should
    # the deletes fail after it, what is left is an item's stale extra vectors, never an item
    # counting extra vectors it lost.
    backend.upsert(upserts)
    backend.delete(deletes)
    return bool(deletes) + bool(upserts)


def _stale_companions(previous: StoredPoint | None, kept: int) -> list[str]:
    """The ids of the extra vectors of ``previous`` (the point a write replaces) past the
    first ``kept``, which the write overwrites (their ids are the same)."""
    if previous is None:
        return []
    count = previous.payload.get("extra_vectors")
    if isinstance(count, bool) or not isinstance(count, (int, float)) or not count > kept:
        return []  # none, or a count no write of ours stores (a point written by hand)
    return [_companion_id(previous.id, i) for i in range(max(kept, 0) + 1, int(min(count, MAX_ITEM_TEXTS)) + 1)]


class WriteGate:
    """The face's writes over one backend, one at a time, counted: a write planned before
    another landed reads again the points it replaces (:func:`reread_previous`). The plan
    reads them before the embedding is awaited (``abatch``): two overwrites of one key
    planned together each dropped only the extra vectors their plan saw, and the last one
    left the other's pointing at its item."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.count = 0


_GATES: weakref.WeakKeyDictionary[Any, WriteGate] = weakref.WeakKeyDictionary()
_GATES_LOCK = threading.Lock()


def write_gate(backend: Backend) -> WriteGate:
    """The :class:`WriteGate` of ``backend``, shared by every face over it in this process."""
    with _GATES_LOCK:
        gate = _GATES.get(backend)
        if gate is None:
            gate = _GATES[backend] = WriteGate()
        return gate


def reread_previous(backend: Backend, planned: Sequence[PlannedPut]) -> None:
    """Each put's :attr:`PlannedPut.previous` read again from the engine (another write
    landed since the plan read it)."""
    found = {p.id: p for p in backend.retrieve([put.point_id for put in planned])}
    for put in planned:
        put.previous = found.get(put.point_id)


def written_items(planned: Sequence[PlannedPut]) -> dict[Key, tuple[StoredPoint | None, tuple[str, ...]]]:
    """What the written puts of plain items left at their keys (``None``: deleted), with the
    points each key is read from; memories are left out (a delete takes their history)."""
    out: dict[Key, tuple[StoredPoint | None, tuple[str, ...]]] = {}
    for put in planned:
        if put.value is None and (put.existing is None or not is_memory(put.existing.payload)):
            point = None
        elif put.written is not None:
            point = put.written
        else:
            continue
        memory_id = as_uuid(put.key)
        out[(put.namespace, put.key)] = (point, (put.point_id, memory_id) if memory_id else (put.point_id,))
    return out
