"""Export and import of a memory store as JSON Lines: an exact copy, history and vectors included.

Format (version 1), UTF-8, one JSON object per line:

* line 1, the header::

    {"langgraph_memory_export": 1, "embedder": "all-MiniLM-L6-v2", "dim": 384,
     "schema_version": 1, "count": 1234}

  ``count`` (how many records follow) is optional; when present, import checks it, so a
  truncated file is refused rather than half imported.

* then one line per stored record, live, superseded and expired alike::

    {"id": "<uuid>", "payload": {...}, "dense": [0.01, ...], "sparse": {"indices": [...],
     "values": [...]}}

  ``payload`` is the record exactly as stored (see :meth:`Memory.to_payload`): content,
  namespace key, status, the ``supersedes``/``superseded_by`` links of its history, times
  as epoch seconds. ``dense`` has ``dim`` floats; ``sparse`` is the BM25 vector, or
  ``null`` when the text had no indexable term; it must be valid as a custom encoder's
  (``store/_sparse_checks.py``: distinct indices below 2**32, finite weights in 0..1e9,
  so a store holding negative weights exports but does not import). Floats are written with Python's shortest
  exact repr: ids, payloads and sparse vectors come back bit for bit. Dense vectors come
  back equal to float32 precision (within 1e-6 per component): engines store them as
  float32 and a Qdrant server re-normalises cosine vectors on insert, which can move the
  last bit or two.

* then one line per room member list (see :meth:`MemoryStore.set_room_members`), not
  counted in ``count``::

    {"room_members": {"namespace": ["rooms", "agent"], "room": "team", "members": ["alice"]}}

Blank lines are ignored. Import validates every line before writing anything, by the
rules ``remember`` applies (:func:`validate_payload`), and checks that every superseded
record's successor is in the file, in the same namespace; the first problem is reported as
``line N: what is wrong``. Records are then upserted by id, so importing into a store that
already holds some of the ids replaces those records, in their own namespace only: a
record whose id the store holds in another namespace is refused
(:class:`ImportNamespaceError`, naming the id), so an edited file cannot move one user's
memory into another's.

Import is *resumable*, not all-or-nothing: Qdrant has no multi-batch transaction. It
writes live records first, then each older generation of history, so whenever it stops
(an error, kill -9) the store holds a consistent subset: every record has its vectors,
and every superseded record's successor is stored. Importing the same file again
completes it exactly (writes are upserts by id).
"""

from __future__ import annotations

import json
import math
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, TextIO

from langgraph_memory.store._checks import exact_object
from langgraph_memory.store._sparse_checks import sparse_pair
from langgraph_memory.store._writing import OPTIMIZE_AFTER
from langgraph_memory.store.backends import SCHEMA_VERSION, StoredPoint
from langgraph_memory.errors import InvalidMemoryError, LangGraphMemoryError
from langgraph_memory.store._payload import validate_payload
from langgraph_memory.store._room_members import EXPORT_KEY as MEMBERS_KEY, parse_export_line
from langgraph_memory.store.records import Namespace

__all__ = [
    "FORMAT_VERSION", "ImportFormatError", "ImportNamespaceError", "TransferSummary", "export_jsonl", "import_jsonl",
]

HEADER_KEY = "langgraph_memory_export"
FORMAT_VERSION = 1
RECORD_KEYS = frozenset({"id", "payload", "dense", "sparse"})
IMPORT_BATCH = 256

Progress = Callable[[str, int, int], None]
"""``progress(phase, done, total)``; phases: ``export``, ``validate`` (bytes), ``import``."""


class ImportFormatError(LangGraphMemoryError, ValueError):
    """A line of an export file is malformed; nothing was imported."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


class ImportNamespaceError(ImportFormatError):
    """A record's id belongs to another namespace (in the store, or for its successor in the
    file): a memory never moves between namespaces. Nothing was imported. The other
    namespace is not named: it may be another user's."""

    def __init__(self, line: int, memory_id: str, problem: str) -> None:
        super().__init__(line, problem)
        self.memory_id = memory_id


@dataclass
class TransferSummary:
    """What an export or import moved."""

    records: int = 0
    live: int = 0
    generations: list[int] = field(default_factory=list)
    """How many records each write pass holds: live records, then each older generation."""
    namespaces: set[str] = field(default_factory=set)
    header: dict[str, Any] = field(default_factory=dict)
    room_members: int = 0
    """Room member lists (one ``{"room_members": {...}}`` line each, after the records)."""


# -- export -------------------------------------------------------------------------------


def _dumps(obj: Any) -> str:
    # allow_nan=False: NaN is not JSON; a store never holds it, and if it did the export
    # must fail loudly rather than write a file its own import refuses.
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def export_jsonl(
    store: Any, out: TextIO, *, namespace: Namespace | None = None, progress: Progress | None = None
) -> TransferSummary:
    """Write every record of ``store`` (or of ``namespace`` and below) to ``out``."""
    total = store.count(namespace=namespace, include_superseded=True)
    header = {
        HEADER_KEY: FORMAT_VERSION,
        "embedder": store.embedder,
        "dim": store.dim,
        "schema_version": store.meta.get("schema_version", SCHEMA_VERSION),
        "count": total,
    }
    out.write(_dumps(header) + "\n")
    summary = TransferSummary(header=header)
    for point in store.iter_points(namespace=namespace, include_superseded=True, with_vectors=True):
        sparse = None
        if point.sparse is not None:
            sparse = {"indices": list(point.sparse[0]), "values": list(point.sparse[1])}
        payload = point.payload
        if payload.get("metadata_json") is not None and exact_object(payload["metadata_json"]) is None:
            # A damaged exact copy, which every read skips for the engine's: exported as none,
            # so the file imports (import refuses a copy it cannot read).
            payload = {**payload, "metadata_json": None}
        out.write(_dumps({"id": point.id, "payload": payload, "dense": point.dense, "sparse": sparse}) + "\n")
        summary.records += 1
        summary.live += point.payload.get("status") == "live"
        summary.namespaces.add(point.payload.get("namespace", ""))
        if progress is not None:
            progress("export", summary.records, max(total, summary.records))
    for members in store.member_records(namespace=namespace):
        out.write(_dumps({MEMBERS_KEY: members}) + "\n")
        summary.room_members += 1
    if summary.records != total:
        # Written while another process changed the store: the header's count is stale,
        # and import would refuse the file. Say so now rather than then.
        raise LangGraphMemoryError(
            f"the store changed during export ({total} records counted, {summary.records} written); "
            "export again while nothing writes to it"
        )
    return summary


# -- validation ---------------------------------------------------------------------------


def _is_number(value: Any) -> bool:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer written with hundreds of digits
        return False


def _check_header(obj: Any, dim: int) -> str | None:
    if not isinstance(obj, dict) or HEADER_KEY not in obj:
        return f"not a langgraph-memory export: the first line must be the header {{\"{HEADER_KEY}\": {FORMAT_VERSION}, ...}}"
    if obj[HEADER_KEY] != FORMAT_VERSION:
        return f"export format version {obj[HEADER_KEY]!r} is not supported (expected {FORMAT_VERSION})"
    if not isinstance(obj.get("dim"), int) or isinstance(obj.get("dim"), bool):
        return "header: 'dim' must be an integer"
    if obj["dim"] != dim:
        return (
            f"the export holds {obj['dim']}-dimensional vectors ({obj.get('embedder')!r}); "
            f"this store uses {dim}: open it with the embedder the export was made with"
        )
    count = obj.get("count")
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 0):
        return "header: 'count' must be a non-negative integer"
    return None


def _check_payload(payload: Any) -> str | None:
    try:
        validate_payload(payload)
    except InvalidMemoryError as exc:
        return str(exc)
    return None


def _check_record(obj: Any, dim: int) -> tuple[StoredPoint | None, str | None]:
    """The record as a point ready to upsert, or the reason it is malformed."""
    if not isinstance(obj, dict):
        return None, "a record must be a JSON object"
    missing = RECORD_KEYS - obj.keys()
    if missing:
        return None, f"missing key(s) {', '.join(sorted(missing))}"
    extra = obj.keys() - RECORD_KEYS
    if extra:
        return None, f"unknown key(s) {', '.join(sorted(extra))}"
    try:
        point_id = str(uuid.UUID(obj["id"]))
    except (ValueError, TypeError, AttributeError):
        return None, f"id {obj['id']!r} is not a UUID"
    problem = _check_payload(obj["payload"])
    if problem:
        return None, problem
    dense = obj["dense"]
    if not isinstance(dense, list) or not all(_is_number(x) for x in dense):
        return None, "'dense' must be a list of finite numbers"
    if len(dense) != dim:
        return None, f"dense vector has {len(dense)} dimensions; this store uses {dim}"
    sparse = obj["sparse"]
    pair = None
    if sparse is not None:
        if not isinstance(sparse, dict) or set(sparse) != {"indices", "values"}:
            return None, "'sparse' must be null or {\"indices\": [...], \"values\": [...]}"
        if not isinstance(sparse["indices"], list) or not isinstance(sparse["values"], list):
            return None, "sparse.indices and sparse.values must be lists"
        pair, problem = sparse_pair(sparse["indices"], sparse["values"])
        if problem:
            return None, f"sparse vector: {problem}"
    # Hand-written files may omit ns_prefixes; erase and prefix filters need it.
    payload = validate_payload(obj["payload"])
    return StoredPoint(point_id, payload, [float(x) for x in dense], pair), None


def _records(path: Path) -> Iterator[tuple[int, int, Any]]:
    """``(line number, bytes read so far, parsed object)`` of each non-blank line."""
    done = 0
    with open(path, "rb") as fh:
        for number, raw in enumerate(fh, start=1):
            done += len(raw)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ImportFormatError(number, f"not UTF-8 ({exc.reason} at byte {exc.start})") from None
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise ImportFormatError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
            yield number, done, obj


def validate_jsonl(path: str | os.PathLike[str], *, dim: int, progress: Progress | None = None) -> TransferSummary:
    """Check every line of the export at ``path`` against a store of ``dim`` dimensions.

    Raises:
        ImportFormatError: the first malformed line, with its number.
    """
    path = Path(path)
    size = path.stat().st_size
    summary = TransferSummary()
    seen: dict[str, int] = {}
    successor: dict[str, str] = {}
    namespaces: dict[str, str] = {}
    last_line = 0
    for number, done, obj in _records(path):
        last_line = number
        if not summary.header:
            problem = _check_header(obj, dim)
            if problem:
                raise ImportFormatError(number, problem)
            summary.header = obj
            continue
        try:
            if parse_export_line(obj) is not None:
                summary.room_members += 1
                continue
        except InvalidMemoryError as exc:
            raise ImportFormatError(number, str(exc)) from None
        point, problem = _check_record(obj, dim)
        if problem:
            raise ImportFormatError(number, problem)
        assert point is not None
        if point.id in seen:
            raise ImportFormatError(number, f"id {point.id} already appears on line {seen[point.id]}")
        seen[point.id] = number
        namespaces[point.id] = point.payload["namespace"]
        if point.payload["superseded_by"] is not None:
            successor[point.id] = point.payload["superseded_by"]
        summary.records += 1
        summary.live += point.payload["status"] == "live"
        summary.namespaces.add(point.payload["namespace"])
        if progress is not None:
            progress("validate", done, size)
    if not summary.header:
        raise ImportFormatError(1, "the file is empty: expected the export header")
    announced = summary.header.get("count")
    if announced is not None and announced != summary.records:
        raise ImportFormatError(
            last_line, f"the header announces {announced} records but the file holds {summary.records} (truncated?)"
        )
    summary.generations = _generations(seen, successor)
    for record, newer in successor.items():
        if namespaces[newer] != namespaces[record]:
            raise ImportNamespaceError(
                seen[record], record, f"id {record} is superseded by {newer}, a record of another namespace")
    return summary


def _check_owners(store: Any, path: Path, batch: int) -> None:
    """Refuse the file when an id it holds belongs to another namespace of ``store``."""
    records = [(n, str(uuid.UUID(o["id"])), o["payload"]["namespace"])
               for n, _, o in _records(path) if HEADER_KEY not in o and MEMBERS_KEY not in o]
    for start in range(0, len(records), batch):
        chunk = records[start : start + batch]
        stored = {p.id: p.payload.get("namespace") for p in store._backend.retrieve([i for _, i, _ in chunk])}
        for number, point_id, namespace in chunk:
            if stored.get(point_id, namespace) != namespace:
                raise ImportNamespaceError(number, point_id, (
                    f"id {point_id} already belongs to another namespace of this store; a memory never moves "
                    "between namespaces (give the record a new id, or erase the other one first)"))


def _generations(lines: dict[str, int], successor: dict[str, str]) -> list[int]:
    """How many records stand at each distance from a live record (0: live), checking
    that every successor is in the file and that no chain loops."""
    counts: dict[int, int] = {}
    for start in lines:
        node, chain = start, {start}
        while node in successor:
            node = successor[node]
            if node not in lines:
                raise ImportFormatError(lines[start], f"superseded_by {node} is not in the file")
            if node in chain:
                raise ImportFormatError(lines[start], f"the history of {start} loops")
            chain.add(node)
        counts[len(chain) - 1] = counts.get(len(chain) - 1, 0) + 1
    return [counts.get(d, 0) for d in range(max(counts, default=-1) + 1)]


def _successors(path: Path | str | os.PathLike[str], dim: int) -> dict[str, str]:
    out: dict[str, str] = {}
    for _, _, obj in _records(Path(path)):
        if HEADER_KEY not in obj and isinstance(obj.get("payload"), dict) and obj["payload"].get("superseded_by"):
            out[str(uuid.UUID(obj["id"]))] = obj["payload"]["superseded_by"]
    return out


def _depth(point_id: str, successor: dict[str, str]) -> int:
    depth = 0
    while point_id in successor:
        point_id, depth = successor[point_id], depth + 1
    return depth


def import_jsonl(
    store: Any,
    path: str | os.PathLike[str],
    *,
    dry_run: bool = False,
    progress: Progress | None = None,
    batch: int = IMPORT_BATCH,
) -> TransferSummary:
    """Validate the whole export at ``path``, then upsert its records into ``store``,
    live records first and then each older generation of history (see the module's
    docstring: a stopped import leaves a consistent store, and importing again resumes).

    The file is read once to validate and once per generation to write, so memory holds
    only the history links, not the records.

    Raises:
        ImportFormatError: a malformed line; nothing was written.
        ImportNamespaceError: a record whose id the store holds in another namespace;
            nothing was written.
    """
    summary = validate_jsonl(path, dim=store.dim, progress=progress)
    _check_owners(store, Path(path), batch)
    if dry_run:
        return summary
    successor = _successors(path, store.dim)
    written = 0
    # Live records first, then each older generation: a record is written only after its
    # successor, so a stop at any point leaves a store whose history links all resolve.
    for generation in range(len(summary.generations)):
        pending: list[StoredPoint] = []
        for number, _, obj in _records(Path(path)):
            if HEADER_KEY in obj or MEMBERS_KEY in obj:
                continue
            point, problem = _check_record(obj, store.dim)
            if problem:  # the file changed between the passes
                raise ImportFormatError(number, problem)
            assert point is not None
            if _depth(point.id, successor) != generation:
                continue
            pending.append(point)
            if len(pending) >= batch:
                store._backend.upsert(pending)
                written += len(pending)
                pending = []
                if progress is not None:
                    progress("import", written, summary.records)
        store._backend.upsert(pending)
        written += len(pending)
    for _, _, obj in _records(Path(path)):
        if (members := parse_export_line(obj)) is not None:
            namespace, room, users = members
            store.set_room_members(room, users, namespace=namespace)
    if written >= OPTIMIZE_AFTER:
        store.optimize()
    if progress is not None:
        progress("import", written, summary.records)
    return summary
